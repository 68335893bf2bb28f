import {
  capitalised,
  isPossessive,
  knownName,
  LABELS,
  lexCode,
  type Lexicon,
  oftenLower,
  TokenWordSet,
  usuallyLower,
  wordCode,
  writesCapitals,
  isLowerAscii,
} from "./features";
import { GIVEN_NAME_WORDS, WORDLIKE_NAME_WORDS } from "./given-names";
import { TITLES } from "./titles";
import { Gap, spanEnd, type Tokens } from "./tokens";

/**
 * Person spans that name a thing: a product, a brand, a model, an event or a holiday, read from the
 * words around the span (issue 30, seventh round). On an outside writer's development set of tickets,
 * reviews, invites and logs (bench/data/pii-outside-dev.txt) 44 of the tagger's finds were no one, most
 * of them such things: "the Ranger wins", "my Fender Telecaster", "the Destiny 2 raid" (a number after a name alone tells nothing: "Call Tamsin 2 times"), "Summer Gala",
 * "Jasper AI", "Martin Luther King Jr. Day", "Frank discussion", "Hunter green", "Dawn patrol". Each
 * rule reads the context, not the word: "Frank" in "Frank discussion" is a word, in "Frank called" a
 * name.
 */

const PERSON = LABELS.indexOf("PERSON");
const O = 0;

/**
 * Articles, demonstratives and possessive determiners: a person's name does not follow one ("the
 * Ranger wins", "my Fender Telecaster", "a Ford Ranger"); a thing's name does. A title between keeps
 * the name ("the Rev. Okafor": the title is no person word, so the span does not follow "the"). Not
 * "that", a conjunction as often ("said that Grace will"), nor "its", chat's "it's" ("hi its rose from
 * the vet": the sixth new-style development set's name).
 */
const DETERMINERS = new TokenWordSet("the a an this these those my your our their every each".split(" "));

/**
 * Determiners a person's name follows as often as a thing's: "My Sarah is sick", "Ask our Maria",
 * "This Kevin guy" (the eighth review's leaks). After one, a name the lists know stays a person unless
 * a product word or another capitalised word follows it ("my Fender Telecaster", "our Kestrel Voyager").
 */
const PERSONAL_DETERMINERS = new TokenWordSet("my our your this".split(" "));

/**
 * Capitalised words that make the name before them, or the span they end, a product line, an event, an institution or a
 * season's offer ("Summer Gala", "Ivy League", "Jasper AI", "Nova Pro", "Willow Collection"): no
 * surnames among them (Day, Gold, Max and Park are, and are left out), nor the words that make a
 * person's name an institution's ("Grace Okafor Foundation", "... Memorial Award"), as the name in one
 * is still someone's.
 */
const THING_WORDS = new TokenWordSet(
  (
    "ai app apps os pro plus lite mini ultra premium platinum edition collection series suite studio cloud " +
    "sale sales gala league festival fest expo olympics cup tournament championship conference summit week"
  ).split(" "),
);

/** A colour after one word: a shade's name ("Hunter green", "Dawn grey", "Rose gold"), not a person's. */
const COLOURS = new TokenWordSet(
  "red orange yellow green blue purple violet pink brown black white grey gray gold silver beige navy teal ivory cream".split(" "),
);

/** "Day" after a "Jr."/"Sr." or a possessive: a holiday named after someone ("Martin Luther King Jr. Day", "St. Patrick's Day"). */
const DAY = new TokenWordSet(["day"]);
const SUFFIXES = new TokenWordSet(["jr", "sr"]);

/**
 * Assistants and bots no one is named (Siri, Cortana, ChatGPT): a span of one such word is the program.
 * Claude, Gemini and Alexa are also given names and stay.
 */
const PROGRAMS = new TokenWordSet("siri cortana chatgpt gpt copilot bard bixby".split(" "));

/**
 * Words after a one-word name that keep it a person: function words (a preposition, a conjunction, an
 * auxiliary, a pronoun), the verbs a person does in the past without "-ed" and the chat shorthands. A
 * lower-case word other than these, and with no verb's "-s", "-ed" or "-ing", is a noun or an adjective
 * the word names ("Frank discussion", "Hunter green", "Dawn patrol", "Broadway medley"). Pasts such
 * as "fell" and "ate" keep the eighth review's "Jack fell", "Daisy ate"; not "broke" ("Dawn broke over
 * the harbour").
 */
export const PERSON_NEXT = new TokenWordSet(
  (
    "and or but nor of in on at to for from with by as about than via per into onto over under after before since until " +
    "is was are were be been am has had have will would can could shall should may might must do did does don't didn't doesn't won't can't " +
    "couldn't wouldn't isn't wasn't hasn't haven't hadn't shouldn't cant wont dont didnt isnt wasnt " +
    "who whose whom which that if when while where because so then too also just still already never always often not here there again " +
    "he she they we i you him her them us me his hers their our my your it its " +
    "said told got went left sent made took came gave brought bought thought knew saw found met paid ran wrote spoke rang kept put let " +
    "set read won lost held felt began drove flew forgot heard hit hung led meant quit rode sang sat slept stood swam taught threw understood woke wore " +
    "fell ate built spent sold chose drank lent shot swore bit blew caught drew fed fought fled froze grew hid shook stole struck stuck tore wept " +
    "r u n w ur pls plz thx today tomorrow yesterday tonight now later " +
    // "Ms. Okafor whether", "Mr. Haddad re: overdue balance": the thirteenth round's dev set (bench/data/pii-dev13.txt).
    "whether re"
  ).split(" "),
);

export function dropThings(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  let cased: boolean | undefined;
  for (let i = 0; i < tokens.length; i++) {
    if (labels[i] !== PERSON) continue;
    // The span: person words on one line joined by spaces.
    let j = spanEnd(tokens, labels, i);
    // In a text that writes capitals, a lower-case common word ending the span is the tagger's run-on
    // past the name, not part of it ("Broadway medley", "Dawn broke"): it leaves the span, and the
    // rules below read it as the word after.
    // A particle before a surname the tagger left out stays ("Charles van Beers": presidio's hold-out).
    const particle = j + 1 < tokens.length && tokens.gap(j + 1) === Gap.Space && capitalised(tokens, j + 1);
    while (!particle && j > i && isLowerAscii(tokens.first(j)) && usuallyLower(lexCode(tokens, j, lex)) && (cased ??= writesCapitals(tokens))) labels[j--] = O;
    if (thing(tokens, labels, i, j, lex)) for (let k = i; k <= j; k++) labels[k] = O;
    i = j;
  }
}

function thing(tokens: Tokens, labels: Uint8Array, i: number, j: number, lex: Lexicon): boolean {
  if (i > 0 && tokens.gap(i) === Gap.Space && DETERMINERS.has(tokens, i - 1) && !personAfterDeterminer(tokens, labels, i, j, lex)) return true;
  if (i === j ? PROGRAMS.has(tokens, i) : THING_WORDS.has(tokens, j)) {
    // A full name before a product word stays ("Upgrade John Smith Pro account", "Grace Okafor Cloud login"): the word leaves the span.
    if (j - i < 2 || !holdsKnownName(tokens, i, j - 1, lex)) return true;
    labels[j] = O;
    return false;
  }
  const n = j + 1;
  if (n >= tokens.length || labels[n] !== O) return false;
  const gap = tokens.gap(n);
  if (gap === Gap.Stop && SUFFIXES.has(tokens, j)) return DAY.has(tokens, n) && capitalised(tokens, n);
  if (gap !== Gap.Space) return false;
  if (isPossessive(tokens, j)) return DAY.has(tokens, n) && capitalised(tokens, n);
  if (capitalised(tokens, n)) return THING_WORDS.has(tokens, n) && !(i < j && holdsKnownName(tokens, i, j, lex));
  if (i === j && COLOURS.has(tokens, n)) return true;
  return i === j && wordBeforeNoun(tokens, i, lex);
}

/** Whether a word of i..j is a given name or a name of the training spans (a surname: "Smith", "Patel"). */
function holdsKnownName(tokens: Tokens, i: number, j: number, lex: Lexicon): boolean {
  for (let k = i; k <= j; k++) if (GIVEN_NAME_WORDS.has(tokens, k) || knownName(lexCode(tokens, k, lex))) return true;
  return false;
}

/**
 * Whether the span i..j after a determiner is still a person: a family's plural after "the" ("the
 * Garcias"), or one given name after "my", "our", "your", "this" with no product word or capitalised
 * word after it ("My Sarah is sick", "This Kevin guy"; not "my Fender Telecaster"). Not a surname: "We
 * bought our Ford" (the fourth new-style development set's false find).
 */
function personAfterDeterminer(tokens: Tokens, labels: Uint8Array, i: number, j: number, lex: Lexicon): boolean {
  const word = tokens.lower(j);
  // A known name of the lexicon (names.json's training names) before the plural's "s".
  if (i === j && word.length > 3 && word.endsWith("s") && knownName(wordCode(word.slice(0, -1), lex))) return true;
  // One word only: two after "your" are a make and a model as often ("your Ford Ranger": the outside set's false find).
  if (i !== j || !PERSONAL_DETERMINERS.has(tokens, i - 1) || THING_WORDS.has(tokens, j) || !GIVEN_NAME_WORDS.has(tokens, i)) return false;
  const n = j + 1;
  return !(n < tokens.length && labels[n] === O && tokens.gap(n) === Gap.Space && capitalised(tokens, n));
}

/** Words after which a word-like name may still qualify a noun: "Available in Dawn grey and Rose pink". */
const JOINING = new TokenWordSet("in of and or".split(" "));

/**
 * Whether the one capitalised word at i, a given name that is an English word ("Frank", "Hunter",
 * "Dawn") or a word that is no given name at all ("Broadway"), qualifies the lower-case noun or
 * adjective after it, where nothing before it takes a person.
 */
function wordBeforeNoun(tokens: Tokens, i: number, lex: Lexicon): boolean {
  if (!capitalised(tokens, i)) return false;
  const code = lexCode(tokens, i, lex);
  if (!(WORDLIKE_NAME_WORDS.has(tokens, i) || oftenLower(code) || !GIVEN_NAME_WORDS.has(tokens, i))) return false;
  // Opening a line, a sentence, a clause or a label's value ("Meeting notes: Frank discussion"), or after
  // "in", "of", "and", "or" ("Available in Dawn grey and Rose pink"): after any other word ("ask Frank
  // today", "with Hunter first") the name keeps its person.
  if (tokens.gap(i) === Gap.Space && !JOINING.has(tokens, i - 1)) return false;
  const n = i + 1;
  if (!isLowerAscii(tokens.first(n)) || PERSON_NEXT.has(tokens, n)) return false;
  const next = tokens.lower(n);
  // A verb's "-s", "-ed", "-ing", or after a given name or a titled surname an adverb's "-ly" ("Frank
  // finally called", "Ruby quickly fixed it", "Hand over to Mr. Shah only.", dropped on issue 30's
  // twelfth-round development set, bench/data/pii-dev12.txt; not "We use Python, and Pyspark extensively").
  return !(/(?:s|ed|ing)$/.test(next) || (next.endsWith("ly") && (GIVEN_NAME_WORDS.has(tokens, i) || TITLES.has(tokens, i - 1))));
}
