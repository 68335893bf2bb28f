import { eachLine } from "../../../text/each-line";
import { knownName, LABELS, lexCode, type Lexicon, TokenWordSet, writesCapitals } from "./features";
import { GIVEN_NAME_WORDS } from "./given-names";
import { Gap, tokenFrom, type Tokens } from "./tokens";

/**
 * A caller naming themselves at a message's start, as voicemail and speech-to-text write it, often
 * without capitals: "hi this is dawn calling from the dentist", "hey it's will again", "hi mom its hope
 * i'll be late". Issue 30, sixth round: the tagger found none of the sixth new-style development set's
 * (bench/data/pii-newstyle-dev6.txt), most of them given names that are English words. The name is
 * taken only after greetings and the line's first words, and before what such a message goes on with.
 */

const PERSON = LABELS.indexOf("PERSON");
/** What may come before "this is" / "it's" on the line: greetings, fillers and whom the caller addresses. */
const GREETING_WORDS = "hi hey hello hiya yeah yes yep oh um uh morning afternoon evening good".split(" ");
const OPENERS = new TokenWordSet([...GREETING_WORDS, ..."ok okay so mom mum dad".split(" ")]);
/** The openers that greet, one of which the line must hold: "ok" or "mom" alone opens no introduction. */
const GREETINGS = new TokenWordSet(GREETING_WORDS);
const THIS = new TokenWordSet(["this"]);
const IS = new TokenWordSet(["is"]);
const ITS = new TokenWordSet(["it's", "it’s", "its"]);
/** What follows the caller's name: "calling", "from the vet", "again", "here", "returning your call". */
const AFTER = new TokenWordSet("calling from again here returning with at um uh just i i'll i’ll im i'm i’m".split(" "));

/** Labels the caller's name of "hi this is NAME calling ..." (see above). */
export function introducedNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  const source = tokens.source;
  // Speech-to-text writes no capitals; a text that does is not scanned (eight scans for "this is" and
  // "it's" cost 5% of bench/pii-speed.ts's prompts time).
  if (writesCapitals(tokens)) return;
  // Line by line (indexOf), not token by token.
  eachLine(source, (line) => {
    // The first word of a line: up to three openers, one a greeting, then "this is" or "it's".
    const i = tokenFrom(tokens, line);
    if (i >= tokens.length) return false;
    const g = tokens.gap(i);
    if (!(g === Gap.Start || g === Gap.Newline) || !OPENERS.has(tokens, i)) return;
    let k = i;
    let greeted = false;
    while (k < tokens.length && k - i < 3 && OPENERS.has(tokens, k) && (k === i || tokens.gap(k) === Gap.Space || tokens.gap(k) === Gap.Comma)) {
      greeted ||= GREETINGS.has(tokens, k);
      k++;
    }
    if (!greeted || k >= tokens.length) return;
    let name = -1;
    if (THIS.has(tokens, k) && k + 2 < tokens.length && IS.has(tokens, k + 1)) name = k + 2;
    else if (ITS.has(tokens, k)) name = k + 1;
    if (name < 0 || name >= tokens.length || tokens.gap(name) !== Gap.Space) return;
    // A given name, or a word no list holds ("hi its adaeze here"); not a word like "me", "just", "raining".
    const code = lexCode(tokens, name, lex);
    if (!(GIVEN_NAME_WORDS.has(tokens, name) || knownName(code) || code === 0) || !/^\p{L}{2,}$/u.test(source.slice(tokens.start(name), tokens.end(name))))
      return;
    const next = name + 1;
    const ends = next >= tokens.length || tokens.gap(next) !== Gap.Space || AFTER.has(tokens, next);
    if (ends) labels[name] = PERSON;
  });
}

const LOWER_TITLE = /(?<![\p{L}\d])(?:mr|mrs|ms|dr)\.? [a-z]/gu;

/**
 * A title written in lower case before a surname in lower case, as speech-to-text writes it: "good
 * morning mrs lindqvist your car is ready", "hello mr okafor this is the bank" (the sixth new-style
 * development set's miss; the title rule of completeNames reads capitals only). The surname must be a
 * word the case profile never saw or a known name: "ms word", "mr clean" stay words.
 */
export function lowerTitleNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  // Only in a text without capitals: the pattern tried at every position of every text cost 5% of
  // bench/pii-speed.ts's prompts time, and a text that writes capitals capitalises the title too.
  if (writesCapitals(tokens)) return;
  const source = tokens.source;
  LOWER_TITLE.lastIndex = 0;
  for (let m = LOWER_TITLE.exec(source); m !== null; m = LOWER_TITLE.exec(source)) {
    const name = tokenFrom(tokens, m.index + m[0].length - 1);
    if (name >= tokens.length || labels[name] !== 0) continue;
    const code = lexCode(tokens, name, lex);
    if ((code === 0 || knownName(code)) && /^\p{Ll}{2,}$/u.test(source.slice(tokens.start(name), tokens.end(name)))) labels[name] = PERSON;
  }
}
