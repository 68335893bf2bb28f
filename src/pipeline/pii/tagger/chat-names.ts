import {
  capitalised,
  firstLetters,
  hasLetter,
  knownName,
  LABELS,
  lexCode,
  type Lexicon,
  oftenLower,
  TokenWordSet,
  writesCapitals,
  isLowerAscii,
} from "./features";
import { LISTED_GIVEN_NAME_WORDS } from "./given-names";
import { Gap, type Tokens } from "./tokens";
import { OPENER_WORDS } from "./greetings";

/**
 * Names chat writes in lower case after its openers, and names signed after a dash: "yo dario u coming",
 * "sure aisha, i'll push it", "congrats sipho on the promotion", "thanks all\n-- kemi". The tagger scores
 * such words (isCandidate: general English never writes them) but leaves them out, and the greeting rule
 * (tagger.ts: greeted) reads capitalised words only. Issue 30, tenth round: on this round's development
 * set (bench/data/pii-dev10.txt) PERSON R 0.900 -> 0.919, P 0.895 -> 0.901; newstyle-dev5 R 0.927 -> 0.933.
 * A name here is a word the case profile never saw, a known name or a given name of the lists, and none
 * the profile saw in lower case; a word English writes ("all", "team", "everyone", "can") is none.
 */

const PERSON = LABELS.indexOf("PERSON");
/**
 * Chat's openers before the one addressed (greetings.ts). Its own list before had "morning" but
 * hand-written first letters without its "m", so "morning dario" was never read; the shared list's
 * letters take it, and "morning", "dear", "welcome" ... changed no span of the benches (greetings.ts).
 */
const OPENERS = new TokenWordSet(OPENER_WORDS);
/** Chat's abbreviations and groups, which the case profile never saw ("ok omw": newstyle-dev6; "hey yall": frames.test.ts). */
const CHAT_WORDS = new TokenWordSet(
  "yall peeps fam bruh bby omw brb idk imo imho tbh ngl btw fyi lmk tmrw tmr pls plz thx np lol lmao rofl asap wfh eod afaik iirc ofc smh nvm ikr hbu wyd wbu gtg".split(
    " ",
  ),
);

/** Whether token i, in lower case, may be a name: letters only, three or more, and no word general English writes. */
function lowerName(tokens: Tokens, i: number, lex: Lexicon): boolean {
  const length = tokens.end(i) - tokens.start(i);
  if (length < 3 || !isLowerAscii(tokens.first(i))) return false;
  const code = lexCode(tokens, i, lex);
  // A word the case profile saw must be a name and no word it saw written in lower case ("can", "ping", "will" are given names too).
  if (code >> 4 !== 0 && (oftenLower(code) || (!knownName(code) && !LISTED_GIVEN_NAME_WORDS.has(tokens, i)))) return false;
  if (CHAT_WORDS.has(tokens, i)) return false;
  for (let k = tokens.start(i); k < tokens.end(i); k++) if (!isLowerAscii(tokens.source.charCodeAt(k))) return false;
  return true;
}

/**
 * The text's last line when it is a signature after a dash: "--", "—" or "–" and one or two words ("-- kemi",
 * "— Rafaela Souza"), or "-" and one or two words after a sign-off's line ("cheers\n- olu"). Its words' start and end.
 */
const SIGNED = /\n(?:(?:--|—|–)|(?:cheers|thanks|thx|ty|best|regards|love|later|bye|ttyl)[,.!]?[ \t]*\n[ \t]*-)[ \t]*([\p{L}'’]+(?:[ \t][\p{L}'’]+)?)[ \t]*$/iu;

/** The first letters of OPENERS' words: most words are passed over on it. */
const OPENER_FIRST = firstLetters(OPENER_WORDS);

export function chatNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  const n = tokens.length;
  // The openers' rule only in a text that writes no capitals (chat; writesCapitals stops at the first capital): a loop
  // over every word of every text was about 1.5% of detectPii on bench/pii-speed.ts's prompts.
  for (let i = writesCapitals(tokens) ? n : 0; i + 1 < n; i++) {
    // The cheap tests first: a word opening a line or sentence, in lower case, with an opener's first letter.
    const g = tokens.gap(i);
    if (!(g === Gap.Start || g === Gap.Newline || g === Gap.Stop)) continue;
    const c = tokens.first(i);
    if (!hasLetter(OPENER_FIRST, c) || !isLowerAscii(tokens.first(i + 1)) || tokens.gap(i + 1) !== Gap.Space) continue;
    if (labels[i + 1] === 0 && OPENERS.has(tokens, i) && lowerName(tokens, i + 1, lex)) labels[i + 1] = PERSON;
  }
  // The last line's one or two words after a dash: only when one of the last 60 characters is a dash.
  const source = tokens.source;
  let end = source.length;
  while (end > 0 && source.charCodeAt(end - 1) <= 32) end--;
  const at = Math.max(0, end - 60);
  let dash = false;
  for (let k = end - 1; k >= at && !dash; k--) {
    const d = source.charCodeAt(k);
    dash = d === 45 || d === 0x2014 || d === 0x2013;
  }
  if (!dash) return;
  // A line break before the text's start, so a signature that is the whole text counts; none before a cut.
  const m = SIGNED.exec((at === 0 ? "\n" : "") + source.slice(at, end));
  if (!m) return;
  const from = end - m[1]!.length;
  let first = n;
  while (first > 0 && tokens.start(first - 1) >= from) first--;
  for (let k = first; k < n; k++) {
    const code = lexCode(tokens, k, lex);
    // A capitalised word the case profile never saw or a known name ("-- Rafaela"), or a lower-case name ("-- kemi").
    if (labels[k] !== 0 || !(capitalised(tokens, k) ? code >> 4 === 0 || knownName(code) : lowerName(tokens, k, lex))) return;
  }
  for (let k = first; k < n; k++) labels[k] = PERSON;
}
