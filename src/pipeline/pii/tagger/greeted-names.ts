import { capitalised, firstLetters, hasLetter, isPossessive, LABELS, type Lexicon, lexCode, oftenLower, TokenWordSet } from "./features";
import { GIVEN_NAME_WORDS, WORDLIKE_NAME_WORDS } from "./given-names";
import { PERSON_NEXT } from "./things";
import { Gap, type Tokens } from "./tokens";
import { GREETING_WORDS, SIGN_OFF_WORDS } from "./greetings";

/**
 * Given names that are English words, addressed or signed ("Thanks, Hope.", "Love, Summer and Hunter",
 * "Dear Aunt Rose,", "Dear Bill and Summer,") or paired after "with" or "for" ("Dinner with Grace &
 * Mark", "Ask for Will or Rose at"): the tagger reads "Hope", "Summer", "Grace" as the words, and the
 * greeting rule (tagger.ts: greeted) takes one word right after the greeting only. On the outside
 * development set (bench/data/pii-outside-dev.txt, issue 30, seventh round) the rule found 8 of the 46
 * missed person words, and no false person on any set. A name here must be
 * a given name (given-names.ts) and no month ("with May or June"); after "with" or "for" only a pair
 * ("with Grace" alone is as often the word).
 */

const PERSON = LABELS.indexOf("PERSON");
const O = LABELS.indexOf("O");

/** Greetings and sign-offs that open a line or a sentence, a comma after them or not. */
const GREETINGS_AND_SIGN_OFFS = [...GREETING_WORDS, ...SIGN_OFF_WORDS];
const GREETING = new TokenWordSet(GREETINGS_AND_SIGN_OFFS);
/** Words before a pair of names: "with Grace & Mark", "for Will or Rose". */
const PAIRED_WORDS = ["with", "for"];
const PAIRED = new TokenWordSet(PAIRED_WORDS);
/** Relatives written before a given name: "Dear Aunt Rose", "Love, Grandpa Joe". */
const RELATIVES = new TokenWordSet("aunt auntie uncle grandma grandpa granny nana mum mom dad cousin".split(" "));
const JOINS = new TokenWordSet(["and", "or"]);
/** The first letters of GREETING's and PAIRED's words. */
const GREETING_FIRST = firstLetters([...GREETINGS_AND_SIGN_OFFS, ...PAIRED_WORDS]);
/** Whether a word starting with unit c may be one of GREETING's or PAIRED's: a letter of GREETING_FIRST, in either case. */
const greetingLetter = (c: number) => hasLetter(GREETING_FIRST, c | 0x20);
const MONTHS = new TokenWordSet("april may june august".split(" "));

const givenWord = (tokens: Tokens, i: number) => i < tokens.length && capitalised(tokens, i) && GIVEN_NAME_WORDS.has(tokens, i) && !MONTHS.has(tokens, i);

export function greetedNames(tokens: Tokens, labels: Uint8Array): void {
  for (let i = 0; i + 1 < tokens.length; i++) {
    // The cheap tests first: a capital after the word (a lookup of every word cost the prompts' time),
    // then the word's first letter, before any set lookup: every greeting and "with"/"for" starts with
    // one of GREETING_FIRST. A word after that starts with neither is stepped over too, as it opens no
    // greeting (the loop, reading each word twice, was 1.7% of detectPii on bench/pii-speed.ts's
    // prompts, CPU profile of a loop over its texts).
    const c = tokens.first(i + 1);
    if (c < 65 || c > 90) {
      if (!greetingLetter(c)) i++;
      continue;
    }
    if (!greetingLetter(tokens.first(i))) continue;
    const g = tokens.gap(i);
    const greeting = (g === Gap.Start || g === Gap.Newline || g === Gap.Stop) && GREETING.has(tokens, i);
    const length = tokens.end(i) - tokens.start(i);
    if (!greeting && !((length === 3 || length === 4) && PAIRED.has(tokens, i))) continue;
    let k = i + 1;
    const gk = tokens.gap(k);
    if (!(gk === Gap.Space || (greeting && gk === Gap.Comma))) continue;
    if (greeting && RELATIVES.has(tokens, k) && k + 1 < tokens.length && tokens.gap(k + 1) === Gap.Space) k++;
    if (!givenWord(tokens, k)) continue;
    // A second name joined by "and", "or" or "&".
    let last = k;
    const source = tokens.source;
    if (k + 1 < tokens.length && tokens.gap(k + 1) === Gap.Space && JOINS.has(tokens, k + 1) && tokens.gap(k + 2) === Gap.Space && givenWord(tokens, k + 2))
      last = k + 2;
    else if (k + 1 < tokens.length && source.slice(tokens.end(k), tokens.start(k + 1)) === " & " && givenWord(tokens, k + 1)) last = k + 1;
    if (!greeting && last === k) continue;
    // What follows the names ends them: the text's or line's end, a comma, a stop, or (after "with"/"for") a
    // function word ("for Will or Rose at the gate"), not a noun they qualify ("for Amber or Ruby fans").
    const n = last + 1;
    const gn = n < tokens.length ? tokens.gap(n) : Gap.Newline;
    const lowerNext = gn === Gap.Space && !greeting && PERSON_NEXT.has(tokens, n);
    if (!(gn === Gap.Newline || gn === Gap.Comma || gn === Gap.Stop || lowerNext)) continue;
    labels[k] = PERSON;
    labels[last] = PERSON;
  }
}

/** What a pair of people does: "Willow and Cash are starting", "Hope and Grace were". */
const PAIR_DOING = new TokenWordSet("are were have had both will".split(" "));
export const AND = new TokenWordSet(["and"]);
/** Whether token i is a given name English also writes as a word ("Hope", "Grace", "Will"). */
const wordlike = (tokens: Tokens, i: number, lex: Lexicon) => WORDLIKE_NAME_WORDS.has(tokens, i) || oftenLower(lexCode(tokens, i, lex));

/**
 * Two capitalised given names joined by "&" or "and", with no capital beside the pair: "Bilal & Zara —
 * congrats on the launch", "ask Tobias and Anjali"; when either is an English word, only before what a
 * pair of people does ("Willow and Cash are starting Monday", "Hope and Grace were"). Not a brand's
 * possessive ("Ben & Jerry's") nor a pair before a noun ("Tom and Jerry cartoon"). Issue 30, twelfth round: of the development sets' lone capitalised names
 * missed, 9 of 63 stood in such a pair.
 */
export function pairedNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  const source = tokens.source;
  for (let i = 0; i + 1 < tokens.length; i++) {
    // The cheap tests first: an ASCII capital, then the joint, before any lookup.
    const c = tokens.first(i);
    if (c < 65 || c > 90) continue;
    let j: number;
    if (tokens.gap(i + 1) === Gap.Other && source.slice(tokens.end(i), tokens.start(i + 1)) === " & ") j = i + 1;
    else if (
      i + 2 < tokens.length &&
      tokens.first(i + 1) === 97 &&
      tokens.gap(i + 1) === Gap.Space &&
      tokens.gap(i + 2) === Gap.Space &&
      AND.has(tokens, i + 1)
    )
      j = i + 2;
    else continue;
    if (!capitalised(tokens, j) || (labels[i] !== O && labels[j] !== O)) continue;
    // No capital beside the pair: a title's or a firm's words ("Marks & Spencer Food", "The Tom and Jerry Show").
    if (i > 0 && tokens.gap(i) === Gap.Space && capitalised(tokens, i - 1)) continue;
    const n = j + 1;
    if (n < tokens.length && tokens.gap(n) === Gap.Space && capitalised(tokens, n)) continue;
    if (isPossessive(tokens, j) || !GIVEN_NAME_WORDS.has(tokens, i) || !GIVEN_NAME_WORDS.has(tokens, j)) continue;
    const spaced = n < tokens.length && tokens.gap(n) === Gap.Space;
    const doing = spaced && PAIR_DOING.has(tokens, n);
    if (!doing && (wordlike(tokens, i, lex) || wordlike(tokens, j, lex))) continue;
    // A lower-case word after the pair that is no function word nor a past is what they name ("Tom and Jerry cartoon").
    if (spaced && !doing && !PERSON_NEXT.has(tokens, n) && !tokens.lower(n).endsWith("ed")) continue;
    labels[i] = PERSON;
    labels[j] = PERSON;
  }
}
