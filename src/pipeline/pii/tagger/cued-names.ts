import { capitalised, flagsOf, LABELS, lexCode, type Lexicon, TokenWordSet, isLowerAscii } from "./features";
import { NOT_A_PERSON } from "./frames";
import { LISTED_GIVEN_NAME_WORDS } from "./given-names";
import { plainGiven, rareCapital } from "./plain-names";
import { Gap, LOWER_FIRST, META, STRIDE, type Tokens, UPPER_FIRST } from "./tokens";

const PERSON = LABELS.indexOf("PERSON");
const O = LABELS.indexOf("O");
/** What a person from a team does next: "Joy from billing says", "Devorah from HR will confirm". */
const REPORTS = new TokenWordSet("said says asked told wants called emailed mentioned confirmed will would can thinks replied".split(" "));
const FROM = new TokenWordSet(["from"]);

/**
 * Capitalised names the tagger left out that a cue around them marks as a person's, each cue read with
 * the word, never the word alone (a listed given name alone raised the ordinary prompts with a find from
 * 126 to 148 of 2,153). Issue 30, thirteenth round: each class below was missed on the outside-written
 * development set bench/data/pii-dev13.txt.
 *  - A name opening a clause before "from" and a team, then what a person says or does: "Joy from billing
 *    says", "Devorah from HR will confirm" (also a given name English writes as a word: the frame is a person's).
 *  - A given name of the lists (no English word) addressed at a line's start, before a comma and a
 *    lower-case word: "Ernesto, send a tech", "Sophie, je vous transmets" (with any capital the case
 *    profile saw seldom, 4 more of the 2,153 ordinary prompts had a find: "Dentistry, also known as").
 * Tried and not taken: a given name of the lists as a possessive before a lower-case noun ("Kwabena's
 * request"): 2 more person words found on the development sets and 1 on the check sets, against 4 and 2
 * false ones ("Wendy's support"), and one more ordinary prompt with a find.
 */
export function cuedNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  const data = tokens.data;
  for (let i = 0; i + 1 < tokens.length; i++) {
    // The cheap tests first, no lookup: a capitalised word no rule labelled (the tokenizer's bit for a lower-case
    // ASCII first letter read first: with capitalised() first, the loop was 6% of completeNames' time on the
    // prompts workload), before " f..." or opening a line before ", ".
    const meta = data[i * STRIDE + META]!;
    if ((meta & LOWER_FIRST) !== 0 || labels[i] !== O || ((meta & UPPER_FIRST) === 0 && !capitalised(tokens, i))) continue;
    const g = tokens.gap(i + 1);
    const opens = tokens.gap(i);
    const lineStart = opens === Gap.Start || opens === Gap.Newline;
    const team = g === Gap.Space && tokens.first(i + 1) === 102 && (lineStart || opens === Gap.Stop || opens === Gap.Comma);
    const addressed = g === Gap.Comma && lineStart;
    if (!(team || addressed) || NOT_A_PERSON.has(tokens, i)) continue;
    if (team ? teamName(tokens, i, lex) : addressedName(tokens, i, lex)) labels[i] = PERSON;
  }
}

/** Token i, opening a clause before " f...", before "from", a team of one or two words and what a person does. */
function teamName(tokens: Tokens, i: number, lex: Lexicon): boolean {
  if (i + 3 >= tokens.length || !FROM.has(tokens, i + 1)) return false;
  // The team: one or two words ("billing", "IT", "the front desk" is three and not read).
  const k = REPORTS.has(tokens, i + 3) ? i + 3 : i + 4 < tokens.length && REPORTS.has(tokens, i + 4) ? i + 4 : -1;
  if (k < 0) return false;
  for (let t = i + 2; t <= k; t++) if (tokens.gap(t) !== Gap.Space) return false;
  const code = lexCode(tokens, i, lex);
  return flagsOf(code) === 0 && (LISTED_GIVEN_NAME_WORDS.has(tokens, i) || rareCapital(tokens, i, lex));
}

/** Token i, opening a line before a comma, before ", " and a lower-case word. */
function addressedName(tokens: Tokens, i: number, lex: Lexicon): boolean {
  if (!isLowerAscii(tokens.first(i + 1))) return false;
  // Only ", " between: not a list's "Name,Name" nor a clause's other punctuation.
  if (tokens.start(i + 1) - tokens.end(i) !== 2) return false;
  return plainGiven(tokens, i, lex);
}
