import {
  capitalised,
  commonWord,
  flagsOf,
  LABELS,
  lexCode,
  type Lexicon,
  oftenLower,
  TokenWordSet,
  usuallySentenceStart,
  writesCapitals,
  isLowerAscii,
} from "./features";
import { ASSISTANTS } from "./frames";
import { foldedGivenName, LISTED_GIVEN_NAME_WORDS, WORDLIKE_NAME_WORDS } from "./given-names";
import { PLACE_WORDS } from "./places";
import { Gap, type Tokens } from "./tokens";

/**
 * A capitalised given name of the list (given-names.ts) that general English does not write as a word
 * ("Tobias", "Kwame", "Rukhsana", not "Will" or "Grace": word-names.ts reads those), before a
 * capitalised surname the case profile saw seldom if at all: "Tobias Reinhardt", "Kofi Boateng",
 * "Rustam Saidov". Issue 30, eighth round: on the eighth round's own development set
 * (bench/data/pii-own8-dev.txt) the tagger left such names out whole in a sentence ("I've looped in
 * Tobias Reinhardt from procurement"), in a table row and in a numbered list. The surname test is
 * word-names.ts's: not a place's, country's or company's word, nor a word English writes ("Victoria
 * Station", "Georgia Tech" stay words).
 */

const PERSON = LABELS.indexOf("PERSON");
const ADDRESS = LABELS.indexOf("ADDRESS");
const O = LABELS.indexOf("O");
const isAsciiLetter = (c: number) => (c | 0x20) >= 97 && (c | 0x20) <= 122;
// A hyphen joins two capitalised parts ("Ofori-Atta"), not a word ("Python-scripts": one token, tokens.ts).
const NAME_SHAPE = /^(?:\p{Lu}['’])?\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?$/u;

/** Whether token i is a capitalised word the case profile saw seldom if at all, no place and no company: a surname's shape. */
export function rareCapital(tokens: Tokens, i: number, lex: Lexicon): boolean {
  const code = lexCode(tokens, i, lex);
  if (flagsOf(code) !== 0 || oftenLower(code) || usuallySentenceStart(code) || commonWord(code)) return false;
  return !PLACE_WORDS.has(tokens, i) && NAME_SHAPE.test(tokens.text(i));
}

/** Whether token i is a given name of the list that is no English word, place or assistant ("Kwame", not "Will", "Sofia" or "Claude"). */
export function plainGiven(tokens: Tokens, i: number, lex: Lexicon): boolean {
  const listed = LISTED_GIVEN_NAME_WORDS.has(tokens, i) || (!tokens.isAscii(i) && foldedGivenName(tokens.text(i)));
  if (!listed || WORDLIKE_NAME_WORDS.has(tokens, i) || PLACE_WORDS.has(tokens, i) || ASSISTANTS.has(tokens, i)) return false;
  const code = lexCode(tokens, i, lex);
  return !oftenLower(code) && flagsOf(code) === 0;
}

/**
 * Words naming someone by their tie, before the name itself: "my grandmother Lakshmi", "caller
 * (Bernadette)", "under the name Okafor", "my son kaito". They name people only.
 */
const KIN =
  "son daughter wife husband mother father mum mom dad brother sister grandmother grandfather grandson granddaughter aunt uncle cousin niece nephew fiance fiancé fiancee fiancée girlfriend boyfriend friend bestie flatmate roommate housemate neighbour neighbor landlord landlady caller nanny carer caregiver name";
/**
 * Words naming a role, before the name itself ("Agent (Carmen)", "my manager, Winifred"), which name a
 * program's or a product's kind as often: "Agent (Orchestrator)", "Tutor (Khanmigo)", "Manager (Pandas)".
 */
const ROLES = "colleague coworker boss manager patient tutor teacher student mentor buddy intern";
/**
 * Roles a company or a product fills too, also after an owner: "our client, Globex", "Driver (Lyft)", "Client (Postman)".
 * A tenant is a cloud's customer organisation as often ("In Azure, the tenant Contoso has two subscriptions",
 * "Configure tenant Fabrikam": 2 of 2 such prompts written for review8p found as people while kin).
 */
const TRADE = "agent client customer driver courier partner tenant";
const KIN_WORDS = new TokenWordSet(KIN.split(" "));
const TRADE_WORDS = new TokenWordSet(TRADE.split(" "));
const TIES = new TokenWordSet(`${KIN} ${ROLES} ${TRADE}`.split(" "));

/** A possessive determiner before a tie: "my son kaito", "our neighbour tomasz". */
const OWNERS = new TokenWordSet(["my", "our", "his", "her", "their", "your"]);

/**
 * A lower-case word after a tie (in a text without capitals) that is a given name of the list and no
 * English word ("my son kaito is sick"). Not any word the case profile never saw: after "my son" such
 * words were chat's own in 11 of 11 prompts written for pii8fix ("my son yeets his toys", "my boss
 * micromanages everything", "my daughter roblox account"), and no development set's name needed it.
 */
function lowerName(tokens: Tokens, i: number, lex: Lexicon): boolean {
  return LISTED_GIVEN_NAME_WORDS.has(tokens, i) && !WORDLIKE_NAME_WORDS.has(tokens, i) && !oftenLower(lexCode(tokens, i, lex));
}

/**
 * A given name of the list after a word naming the person's tie or role, alone or in brackets: "my
 * grandmother Lakshmi used to", "Agent (Carmen): Hi!", "caller (Bernadette) rang", "my son kaito is"
 * (in lower case too, unless the name is an English word). Issue 30, eighth round: the eighth round's
 * own development set's lone names (bench/data/pii-own8-dev.txt). Any such name inside a sentence
 * instead found 20 more names in the development prompts (ordinary-prompt finds 115 -> 135 of 2153,
 * "Chelsea", "Victoria", "DAN") and cost the presidio hold-out's PERSON precision (0.904 -> 0.899).
 */

/**
 * Both rules above for token i, a capitalised word no rule has labelled: called from completeNames'
 * own pass over such words (a pass of their own cost 3-5% of bench/pii-speed.ts's prompts). Whether it
 * labelled it.
 */
export function listedName(tokens: Tokens, labels: Uint8Array, i: number, lex: Lexicon): boolean {
  // The pair: two capitalised words after a space.
  if (i + 1 < tokens.length && capitalised(tokens, i + 1) && tokens.gap(i + 1) === Gap.Space) {
    if (labels[i + 1] === ADDRESS || !plainGiven(tokens, i, lex) || !rareCapital(tokens, i + 1, lex)) return false;
    labels[i] = PERSON;
    labels[i + 1] = PERSON;
    return true;
  }
  // A rare capitalised word that is no listed name only after a kin word or an owner and a role ("my manager,
  // Winifred"): after a role alone or a trade's it was a company's or a product's in 14 of 14 such prompts written
  // for pii8fix ("Driver (Lyft)", "Agent (Mistral)", "our client, Globex").
  // The ties' lookups after tied's shape tests: done first for every capitalised word, they took bench/pii-speed.ts's
  // prompts from 1.03 to 1.09 of lead (--runs 5).
  if (!tied(tokens, i)) return false;
  if (!plainGiven(tokens, i, lex)) {
    const tie = i - 1;
    const kinOrOwned = KIN_WORDS.has(tokens, tie) || (owned(tokens, tie) && !TRADE_WORDS.has(tokens, tie));
    if (!kinOrOwned || !rareCapital(tokens, i, lex) || thingNext(tokens, i)) return false;
  }
  labels[i] = PERSON;
  return true;
}

/** Small words that follow a name as well as a thing ("under the name Okafor at 7:30", "my nephew Oyelaran and I"). */
const AFTER_NAME = new TokenWordSet("at in on for from and or is was has had who will would said says to with of but".split(" "));
/**
 * Whether a lower-case word other than those follows token i after a space: the noun or verb after a product's or a
 * company's name where the possessive was left out ("my friend Duolingo streak", "my roommate Peloton bike", "my
 * landlord Foxtons keeps the deposit": 5 of 10 tie prompts written for review8p found such words as people).
 */
function thingNext(tokens: Tokens, i: number): boolean {
  const n = i + 1;
  return n < tokens.length && tokens.gap(n) === Gap.Space && isLowerAscii(tokens.first(n)) && !AFTER_NAME.has(tokens, n);
}

/** Whether an owner comes before the tie at token t, after a space: "my manager", "our landlord". */
const owned = (tokens: Tokens, t: number) => t >= 1 && tokens.gap(t) === Gap.Space && OWNERS.has(tokens, t - 1);

/** Whether a tie comes before token i, after a space or in brackets ("grandmother Lakshmi", "Agent (Carmen)"). */
function tied(tokens: Tokens, i: number): boolean {
  if (i === 0) return false;
  const g = tokens.gap(i);
  const bracketed = g === Gap.Other && tokens.source.slice(tokens.end(i - 1), tokens.start(i)) === " (";
  // After a comma only where an owner comes before the tie: "my manager, Winifred", not "the customer, Acme".
  const afterOwner = g === Gap.Comma && owned(tokens, i - 1);
  // A tie is a word of three to thirteen ASCII letters: tested before its lookup.
  const tieLength = tokens.end(i - 1) - tokens.start(i - 1);
  if (!(g === Gap.Space || bracketed || afterOwner) || tieLength < 3 || tieLength > 13 || !isAsciiLetter(tokens.first(i - 1))) return false;
  return TIES.has(tokens, i - 1);
}

/** The tie's rule for the lower-case words of a text without capitals ("my son kaito is starting year 3"). */
export function lowerTiedNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  if (writesCapitals(tokens)) return;
  for (let i = 1; i < tokens.length; i++) if (labels[i] === O && tied(tokens, i) && lowerName(tokens, i, lex)) labels[i] = PERSON;
}
