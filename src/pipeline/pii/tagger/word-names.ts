import { capitalised, commonWord, flagsOf, LABELS, lexCode, type Lexicon, oftenLower, usuallySentenceStart } from "./features";
import { WORDLIKE_NAME_WORDS } from "./given-names";
import { PLACE_WORDS } from "./places";
import { Gap, type Tokens } from "./tokens";

/**
 * A given name that is an English word before a surname: "Rose Navarro", "Joy Whitaker", "Will
 * Ashcombe", "Autumn Reyes". The tagger, reading "Rose" as a word, left out the given name or the
 * whole name on the sixth new-style development set (bench/data/pii-newstyle-dev6.txt, issue 30, sixth
 * round). The surname must be a capitalised word general English does not write in lower case, often or mostly, nor at a
 * sentence's start, nor a place's or country's or company's word, so "Rose Garden", "Chase Bank",
 * "Victoria Park" and "Summer Sale" stay words. A line or sentence opening with "Will" or "May" is a
 * question or a wish ("Will Microsoft ship it?"), unless a label's colon comes before.
 */

const PERSON = LABELS.indexOf("PERSON");
const ADDRESS = LABELS.indexOf("ADDRESS");
// "Chase" opens a card's or bank's name as often as a request ("Chase Sapphire vs Amex Gold": review7 of the sixth round).
const MODAL = /^(?:will|may|can|mark|bill|pat|sue|frank|chase)$/i;
// A capitalised word, double-barrelled or not, also after an Irish or Scottish O', Mc or Mac ("Hope O'Keeffe",
// "Grace McAllister": issue 30's ninth round, probes written for it; "Grace O'Donnell-Hale" of pii-outside-dev.txt).
const SURNAME_SHAPE = /^(?:O['\u2019]|Mc|Mac)?\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?$/u;

export function wordNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  const source = tokens.source;
  for (let i = 0; i + 1 < tokens.length; i++) {
    // A word after that is not capitalised opens no pair, nor does that word itself: both are stepped over
    // on one test (most words of prose; read twice, once as the second word and once as the first, the
    // loop was 2.1% of detectPii on bench/pii-speed.ts's prompts, CPU profile of a loop over its texts).
    if (!capitalised(tokens, i + 1)) {
      i++;
      continue;
    }
    // The cheap tests first (the word lookup for every capitalised word cost 2% of bench/pii-speed.ts's prompts
    // time): two capitalised words, the first of three to seven letters, as the given names of the list are.
    const length = tokens.end(i) - tokens.start(i);
    if (length < 3 || length > 7 || !capitalised(tokens, i) || tokens.gap(i + 1) !== Gap.Space) continue;
    if (!WORDLIKE_NAME_WORDS.has(tokens, i)) continue;
    const s = i + 1;
    // Words the tagger gave an address keep it: "rue Victor Hugo" is a street.
    if ((labels[i] === PERSON && labels[s] === PERSON) || labels[i] === ADDRESS || labels[s] === ADDRESS) continue;
    if (!SURNAME_SHAPE.test(source.slice(tokens.start(s), tokens.end(s))) || PLACE_WORDS.has(tokens, s)) continue;
    const code = lexCode(tokens, s, lex);
    // And rare: a known name, or a word the case profile saw seldom if at all ("Whitaker", not "Olympics" of
    // "Summer Olympics" nor "Juan" of "Don Juan": the development prompts' finds).
    if (flagsOf(code) !== 0 || oftenLower(code) || usuallySentenceStart(code) || commonWord(code)) continue;
    const g = tokens.gap(i);
    if (
      (g === Gap.Start || g === Gap.Newline || g === Gap.Stop) &&
      MODAL.test(tokens.lower(i)) &&
      tokens.before(i) !== 58 &&
      source[tokens.start(i) - 2] !== ":"
    )
      continue;
    labels[i] = PERSON;
    labels[s] = PERSON;
  }
}
