import { flagsOf, knownName, LABELS, lexCode, type Lexicon, nameCased, oftenLower, TokenWordSet, usuallySentenceStart, wordOf } from "./features";
import { foldedGivenName, GIVEN_NAME_WORDS, WORDLIKE_NAME_WORDS } from "./given-names";
import { Gap, type Tokens } from "./tokens";

/**
 * A chat thread's speakers: a given name opening two or more lines of a text before ": " ("Ivy: running
 * late\nMe: np\nIvy: ok 10 min", "joy: did u see\nsam: ya\njoy: same"). frames.ts takes one speaker line
 * only after a timestamp or when the name is no English word, as ordinary prompts' scripts open lines
 * with characters ("Mario: Let's see"); a name that speaks twice is a thread's person. On the outside
 * development set (bench/data/pii-outside-dev.txt, issue 30, seventh round) 4 of the missed person words;
 * the ordinary prompts' finds unchanged.
 */

const PERSON = LABELS.indexOf("PERSON");
const O = LABELS.indexOf("O");

/** Whether token i opens a line and ": " follows it. */
function speaks(tokens: Tokens, i: number): boolean {
  const g = tokens.gap(i);
  if (g !== Gap.Start && g !== Gap.Newline) return false;
  const end = tokens.end(i);
  return tokens.source.charCodeAt(end) === 58 && tokens.source.charCodeAt(end + 1) === 32;
}

/** Speakers of a chat that are no given name: "Me: np". */
const SELF = new TokenWordSet(["me"]);

/**
 * Whether a name that is an English word ("Summer", "Mark", "Hope") speaks in a chat: another line's
 * speaker is "Me" or a given name that is no English word. Lists of seasons, marks and pros and cons
 * ("Summer: hot\nWinter: cold\nSummer: long days", "Mark: 85\nGrade: B\nMark: 90") have none (the
 * eighth review's over-masking).
 */
function chat(tokens: Tokens, lex: Lexicon): boolean {
  for (let i = 0; i < tokens.length; i++)
    if (speaks(tokens, i) && (SELF.has(tokens, i) || (GIVEN_NAME_WORDS.has(tokens, i) && !wordLike(tokens, i, lex)))) return true;
  return false;
}

const wordLike = (tokens: Tokens, i: number, lex: Lexicon) => WORDLIKE_NAME_WORDS.has(tokens, i) || oftenLower(lexCode(tokens, i, lex));

export function speakerNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  // Two lines at the least (one native scan: most prompts are one line).
  if (tokens.source.indexOf("\n") < 0) return;
  let seen: Map<number, number> | undefined;
  let chatting: boolean | undefined;
  for (let i = 0; i < tokens.length; i++) {
    if (!speaks(tokens, i) || !GIVEN_NAME_WORDS.has(tokens, i)) continue;
    if (wordLike(tokens, i, lex) && !(chatting ??= chat(tokens, lex))) continue;
    seen ??= new Map();
    const hash = wordOf(tokens, i);
    const first = seen.get(hash);
    if (first === undefined) {
      seen.set(hash, i);
      continue;
    }
    labels[first] = PERSON;
    labels[i] = PERSON;
  }
}

/**
 * The other speakers of a chat thread whose speakers are people: once a speaker line is a person's (above,
 * the tagger's or repeatNames': tagger.ts runs this after it), a capitalised word opening another line
 * before ": " is one too, if English writes it neither in lower case nor to open a sentence, it is no
 * country's or company's word, and it is a given name (also with accents) or a known name ("Raúl: did
 * Ximena push the fix?\nXimena: yes\nRaúl: nice"; "Sam: who took it\nPriya: not me\nSam: Ethan??", a
 * speaker of one line). A mail header's labels are English words ("From:", "Sent:", "Subject:"), a bot's
 * name no given name ("Jenkins:"). Issue 30, twelfth round: 3 missed person words of the dev half of
 * bench/data/pii-dev12.txt. Only in a text where a person was found already: no ordinary prompt gains a find.
 */
export function threadSpeakers(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  // Two lines at the least (one native scan: most prompts are one line).
  if (tokens.source.indexOf("\n") < 0) return;
  let person = false;
  for (let i = 0; i < tokens.length && !person; i++) person = labels[i] === PERSON && speaks(tokens, i);
  if (!person) return;
  for (let i = 0; i < tokens.length; i++) {
    if (labels[i] !== O || !speaks(tokens, i) || !nameCased(tokens, i) || SELF.has(tokens, i)) continue;
    const code = lexCode(tokens, i, lex);
    if (oftenLower(code) || usuallySentenceStart(code) || flagsOf(code) !== 0) continue;
    // A given name of the list (also spelled with accents) or a known name: not a bot's or a tool's ("Jenkins:", "Dependabot:").
    if (GIVEN_NAME_WORDS.has(tokens, i) || knownName(code) || (!tokens.isAscii(i) && foldedGivenName(tokens.text(i)))) labels[i] = PERSON;
  }
}
