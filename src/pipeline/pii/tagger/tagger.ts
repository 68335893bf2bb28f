import {
  capitalised,
  features,
  firstLetters,
  flagsOf,
  hashSpan,
  hasLetter,
  isCandidate,
  isPossessive,
  knownName,
  type Label,
  LABELS,
  lexCode,
  type Lexicon,
  MAX_FEATURES,
  nameCased,
  oftenLower,
  ordinaryCapital,
  TokenWordSet,
  usuallyLower,
  usuallySentenceStart,
  wordOf,
  writesCapitals,
} from "./features";
import { frameNames } from "./frames";
import { PLACE_WORDS } from "./places";
import { LISTED_GIVEN_NAME_WORDS } from "./given-names";
import { introducedNames, lowerTitleNames } from "./introductions";
import { addressLabels, recordNames } from "./records";
import { ENGLISH_TITLES, FOREIGN_TITLES, NAME_PARTICLE_WORDS, NAME_PARTICLES, TITLES } from "./titles";
import { dropThings } from "./things";
import { AND, greetedNames, pairedNames } from "./greeted-names";
import { chatNames } from "./chat-names";
import { speakerNames, threadSpeakers } from "./speakers";
import { OPENER_WORDS } from "./greetings";
import { STREET_WORDS as STREET_NAME_ENDINGS } from "../detectors/street-words";
import { wordNames } from "./word-names";
import { addressParts, BUILDING_WORDS } from "./address-parts";
import { listedName, lowerTiedNames } from "./plain-names";
import { cuedNames } from "./cued-names";
import { listMates } from "./list-mates";
import { dashBefore, Gap, isInitial, spanEnd, STRIDE, tokenize, type Tokens } from "./tokens";

const FOREIGN_TITLE_WORDS = new TokenWordSet(FOREIGN_TITLES);

/**
 * Offices and ranks written before a surname ("Detective Okafor", "Senator Whitcombe's office", "Rabbi
 * Feldman"): no part of the name, and the name-like capitalised word after one is a name. Issue 30, fifth
 * round: the tagger left out "Okafor" and took "Senator" and "Rabbi" into the names on the fifth new-style
 * development set (bench/data/pii-newstyle-dev5.txt). Words that are also given names or surnames
 * (Dean, Major, Marshal, Bishop, Justice, General) are left out.
 */
const OFFICES = (
  "detective officer constable sergeant lieutenant inspector sheriff deputy commissioner superintendent judge senator congressman " +
  "congresswoman governor mayor councillor councilor president ambassador minister rabbi pastor imam reverend archbishop father sister " +
  "coach nurse professor captain colonel corporal admiral commander"
).split(" ");

const OFFICE_WORDS = new TokenWordSet(OFFICES);
/**
 * Whether the word after a written-out office is no name: after a colon or stop ("JUDGE: Overruled."),
 * a word general English writes at all unless a known name ("Coach Mode", "Drill Sergeant Mode": the
 * development prompts' finds; "Captain Marvel", "Father Christmas"), or one with an English word's
 * ending. The surnames such a title comes before are mostly unseen words ("Okafor", "Whitcombe").
 */
function officeWordNot(tokens: Tokens, i: number, lex: Lexicon): boolean {
  const code = lexCode(tokens, i, lex);
  return tokens.gap(i) !== Gap.Space || (!knownName(code) && code >> 1 !== 0) || ENGLISH_ENDING.test(tokens.lower(i));
}

const GREETING_AND_ROLE_WORDS = [
  "dear",
  "hi",
  "hello",
  "hey",
  "thanks",
  "cheers",
  "i",
  "i'm",
  "i’m",
  "i've",
  "i’ve",
  "i'd",
  "i’d",
  "i'll",
  "i’ll",
  "ceo",
  "cfo",
  "cto",
  "coo",
  "vp",
  "hon",
  "rev",
  "sgt",
  "capt",
  "chief",
  "grandma",
  "grandpa",
  "granny",
  "mum",
  "mom",
  "dad",
  "aunt",
  "auntie",
  "uncle",
  // Relatives of other languages and church ranks ("Tío Ernesto", "Nonna Rosa", "Deacon Paul Nguyen"):
  // taken into the names after them on the eighth round's own development set (bench/data/pii-own8-dev.txt).
  "aunty",
  "abuela",
  "abuelo",
  "tío",
  "tía",
  "tio",
  "tia",
  "nonna",
  "nonno",
  "oma",
  "opa",
  "tante",
  "onkel",
  "deacon",
  "dame",
  // Parties of a case or a consignment ("Defendant Lorraine P. Whitacre", "Consignee: Fr. Ursula Brenner"):
  // the tagger took them into the names after them on the sixth new-style development set (issue 30, sixth round).
  "defendant",
  "plaintiff",
  "claimant",
  "petitioner",
  "respondent",
  "appellant",
  "witness",
  "consignee",
  "fr",
  // Parties of a policy, a lease or a meeting ("Policyholder Mr Wendell Ashby", "Adjuster Hunter
  // Breckinridge", "Attendee list") and chat's interjections ("Meh.", "Thx, Devon"): taken for names or
  // into them on the outside development set (bench/data/pii-outside-dev.txt, issue 30, seventh round).
  // Greetings and sign-offs of other languages ("Hola Camila", "Hallo Herr Becker", "Bonjour Mme Lefèvre",
  // "Lieber Jürgen", "Saludos, Joaquín"): taken for names or into them on the outside-written development
  // set bench/data/pii-dev13.txt (issue 30, thirteenth round: 5 of its 41 false person words; "Hola"
  // and "Saludos" on bench/data/pii-dev12.txt's dev half too). "Cara" and "Caro" are given names and stay out.
  "hola",
  "hallo",
  "bonjour",
  "bonsoir",
  "salut",
  "ciao",
  "oi",
  "olá",
  "hej",
  "hei",
  "lieber",
  "liebe",
  "cher",
  "chère",
  "saludos",
  "querido",
  "querida",
  "estimado",
  "estimada",
  "policyholder",
  "insured",
  "applicant",
  "tenant",
  "landlord",
  "attendee",
  "adjuster",
  "beneficiary",
  "guarantor",
  "thx",
  // Chat's abbreviations before a name ("lmk bogdan if ...": taken into the name on pii-dev10.txt, issue 30's tenth round).
  "lmk",
  "np",
  "ty",
  "yo",
  "sure",
  "congrats",
  "congratulations",
  "meh",
  "ugh",
  "lol",
  "omg",
  "btw",
  "fyi",
  ...OFFICES,
];

/**
 * Words that are never part of a person's name though they sit next to one: titles (presidio labels
 * them PREFIX, not PERSON; they identify nobody) and days of the week.
 */
export const NEVER_PERSON: ReadonlySet<string> = new Set([
  ...ENGLISH_TITLES,
  "miss",
  "sir",
  "madam",
  ...FOREIGN_TITLES,
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
]);
const NEVER_PERSON_WORDS = new TokenWordSet(NEVER_PERSON);
/**
 * Issue 30, third round: words the tagger took into the name beside them on the third new-style
 * development set (bench/data/pii-newstyle-dev3.txt) and the development prompts: a greeting ("Dear
 * Siosaia Fifita"), the speaker ("I'm Marguerite", "I'm Lyra"), a role ("CEO Amy Williams"), an
 * honorific ("Hon. Kahurangi Parata") or a relative ("Grandma Ioana") identifies nobody. Taken out after
 * tagging (completeNames), not in tagTokens as NEVER_PERSON is: there they also stopped the training's
 * corrections on "I" and "Hi", and the retrained tagger's hold-out PERSON precision fell 0.904 -> 0.835
 * with nothing else changed.
 */
const NOT_NAME_WORDS = new TokenWordSet(GREETING_AND_ROLE_WORDS);
const noName = (tokens: Tokens, i: number) => NEVER_PERSON_WORDS.has(tokens, i) || NOT_NAME_WORDS.has(tokens, i);
const PERSON = LABELS.indexOf("PERSON");

/** Adds the weights of `count` feature slots into `scores` (one per label, LABELS order). */
export interface Scorer {
  score(slots: Int32Array, count: number, scores: Float64Array): void;
}

/** A trained tagger and the word lists its features read. */
export interface TaggerModel {
  scorer: Scorer;
  lex: Lexicon;
}

/** A scorer over a dense table: slot s's weight for label k at s * LABELS.length + k. */
export function tableScorer(table: Float32Array): Scorer {
  // Three labels, summed in locals: a loop over the labels, fill() and the typed arrays' length reads cost more than the sums.
  return {
    score(slots, count, scores) {
      let o = 0;
      let person = 0;
      let address = 0;
      for (let f = 0; f < count; f++) {
        const at = slots[f]! * 3;
        o += table[at]!;
        person += table[at + 1]!;
        address += table[at + 2]!;
      }
      scores[0] = o;
      scores[1] = person;
      scores[2] = address;
    },
  };
}

const O = 0;
const ADDRESS = LABELS.indexOf("ADDRESS");

/**
 * One label index per token (LABELS order), chosen left to right (the two labels before are features of
 * the next). Training runs the same loop, with `visit` told each scored token's feature slots and label
 * index; it also scores the ordinary capitalised words that tagging skips (ordinaryCapital).
 */
export function tagTokens(
  scorer: Scorer,
  lex: Lexicon,
  tokens: Tokens,
  visit?: (slots: Int32Array, count: number, index: number, label: number) => void,
): Uint8Array {
  const skipOrdinary = visit === undefined;
  const labels = new Uint8Array(tokens.length);
  const scores = new Float64Array(LABELS.length);
  const slots = new Int32Array(MAX_FEATURES);
  const cased = writesCapitals(tokens);
  for (let i = 0; i < tokens.length; i++) {
    const prev = i > 0 ? labels[i - 1]! : 0;
    const prev2 = i > 1 ? labels[i - 2]! : 0;
    // A token next to a labelled one is scored even if common, so "Rua das Flores" and "van der Berg"
    // keep their small words.
    if (prev === 0) {
      // A lower-case ASCII word of a cased text is no candidate (isCandidate), told without reading more of it.
      const c = tokens.first(i);
      if (cased && c >= 97 && c <= 122) continue;
      if (!isCandidate(tokens, i, lex, cased)) continue;
      // One before a number is scored: it may start an address line ("Unit 1783 Box 3210").
      if (skipOrdinary && cased && ordinaryCapital(tokens, i, lex) && !(i + 1 < tokens.length && isDigit(tokens.first(i + 1)))) continue;
    }
    const count = features(tokens, i, prev, prev2, lex, slots);
    scorer.score(slots, count, scores);
    let best = argmax(scores);
    // Looked up only when it would matter (lower-casing every scored word was 5% of the tagger's time).
    if (best === PERSON && NEVER_PERSON_WORDS.has(tokens, i)) {
      scores[PERSON] = -Infinity;
      best = argmax(scores);
    }
    if (best !== O && FOREIGN_TITLE_WORDS.has(tokens, i)) best = O;
    labels[i] = best;
    visit?.(slots, count, i, best);
  }
  return labels;
}

function argmax(scores: Float64Array): number {
  let best = 0;
  for (let k = 1; k < LABELS.length; k++) if (scores[k]! > scores[best]!) best = k;
  return best;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Abbreviated ranks and honorifics before a name ("Rev. Nkemelu", "Sgt Okafor", "Dame Ngaio"): ROLE_TITLES' and SPAN_TITLES' shared words. */
const RANKS = ["hon", "rev", "sgt", "capt", "fr", "lt", "col", "insp", "det", "dame"];
/** Titles that are also words of a role ("Chief Executive", "Rev. Counter"): the word after one is a name only if it is name-like ("Chief Adekunle"). */
const ROLE_TITLES = new TokenWordSet(["chief", "cllr", "deacon", ...RANKS, ...OFFICES]);
/** Words a line may open with before the name of the one addressed ("Hey Summer,", "Thanks Hope, that fixed it!"). */
const GREETINGS = new TokenWordSet(OPENER_WORDS);
/** What follows a greeting that is nobody's name ("Hi all,", "Hello World!", "Thanks again,"), a pet name ("Hey Sugar,") or an assistant ("Thanks ChatGPT!": prompts address one; the development prompts' finds). */
const ADDRESSED_GROUPS = new TokenWordSet(
  "all team everyone everybody there again guys folks world sir madam customer customers friends friend both so much a lot you yall colleagues members mate buddy man dude bro love hun babe honey sweetie ladies gentlemen gang crew people class committee board sirs partner neighbour neighbor doctor doc boss chief captain coach sugar darling sweetheart star baby sunshine kiddo champ pal chatgpt gpt ai bot assistant claude gemini siri alexa copilot bard llama grok".split(
    " ",
  ),
);

/**
 * Completes names the left-to-right pass left half done: a capitalised word right next to a person
 * word on the same line ("Tom" in "Tom Bradley", which the tagger scores before it sees "Bradley") and
 * the capitalised word after a title ("Mr. Okonkwo") become person words too, unless general English
 * writes them in lower case or mostly at a sentence's start ("Yesterday Margarethe"). On the
 * development split (bun models/pii-ner/train.ts): PERSON recall 0.857 -> 0.882, precision 0.918 -> 0.910.
 */
export function completeNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  for (let i = 0; i < tokens.length; i++) if (labels[i] === PERSON && NOT_NAME_WORDS.has(tokens, i)) labels[i] = O;
  // One native scan: most texts have no address word.
  if (labels.indexOf(ADDRESS) >= 0) titledAddresses(tokens, labels);
  lowerTiedNames(tokens, labels, lex);
  const nameLike = (i: number) => {
    if (!capitalised(tokens, i) || noName(tokens, i)) return false;
    const code = lexCode(tokens, i, lex);
    return !usuallyLower(code) && !usuallySentenceStart(code);
  };
  // The words the tagger ran on past a possessive are the thing owned, not more of the name ("Kevin
  // Lamovec's Cautionary Tales": 15 of the 128 false person words of the template cross-validation).
  for (let i = 1; i < tokens.length; i++) {
    if (labels[i] !== PERSON || labels[i - 1] !== PERSON || tokens.gap(i) !== Gap.Space || !isPossessive(tokens, i - 1)) continue;
    for (let j = i; j < tokens.length && labels[j] === PERSON && (j === i || tokens.gap(j) === Gap.Space); j++) labels[j] = O;
  }
  // The cheap neighbour tests first: nameLike's lookups for every capitalised word were 3% of the tagger's time.
  for (let i = 0; i < tokens.length; i++) {
    // Initials before a surname the tagger found are part of the name ("signed for by J. Oduya": the fifth new-style set's miss).
    if (labels[i] === PERSON && tokens.gap(i) === Gap.Stop && labels[i - 1] === O) initialled(tokens, labels, i, lex);
    // Only a capitalised word can join (nameLike): tested first, as most words of prose are not.
    if (labels[i] !== O || !capitalised(tokens, i)) continue;
    const afterTitle =
      i > 0 &&
      (tokens.gap(i) === Gap.Space || tokens.gap(i) === Gap.Stop) &&
      tokens.end(i - 1) - tokens.start(i - 1) <= 8 &&
      TITLES.has(tokens, i - 1) &&
      !shoutedTitle(tokens, i - 1);
    // After a title (eight letters at most: "monsieur") any capitalised word is a name, also one English writes in lower case ("Mr. Young", "Dr. Fields").
    if (afterTitle && !noName(tokens, i) && !titledProduct(tokens, i, lex)) {
      labels[i] = PERSON;
      continue;
    }
    const roleTitled =
      i > 0 &&
      (tokens.gap(i) === Gap.Space || tokens.gap(i) === Gap.Stop) &&
      tokens.end(i) - tokens.start(i) > 2 &&
      capitalised(tokens, i - 1) &&
      ROLE_TITLES.has(tokens, i - 1);
    if (roleTitled && nameLike(i) && flagsOf(lexCode(tokens, i, lex)) === 0 && !(OFFICE_WORDS.has(tokens, i - 1) && officeWordNot(tokens, i, lex))) {
      labels[i] = PERSON;
      continue;
    }
    if (initialled(tokens, labels, i, lex)) continue;
    if (greeted(tokens, i, lex) || actionOwner(tokens, i, lex)) {
      labels[i] = PERSON;
      continue;
    }
    // In this pass, so a third word after such a pair joins it ("Diego Alejandro Ruiz").
    if (listedName(tokens, labels, i, lex)) continue;
    // A name does not run on past a possessive ("Kevin Lamovec's Cautionary Tales").
    const beforeName = i + 1 < tokens.length && labels[i + 1] === PERSON && tokens.gap(i + 1) === Gap.Space && !isPossessive(tokens, i);
    const afterName = i > 0 && labels[i - 1] === PERSON && tokens.gap(i) === Gap.Space && !isPossessive(tokens, i - 1);
    if ((beforeName || afterName) && nameLike(i)) labels[i] = PERSON;
  }
  eponyms(tokens, labels);
  // A second pass right to left reaches a first name two words before a labelled surname.
  for (let i = tokens.length - 2; i >= 0; i--) {
    if (labels[i] === O && labels[i + 1] === PERSON && tokens.gap(i + 1) === Gap.Space && !isPossessive(tokens, i) && nameLike(i)) labels[i] = PERSON;
  }
  irishParticleNames(tokens, labels, nameLike);
  particleNames(tokens, labels, lex, nameLike);
  frameNames(tokens, labels, lex);
  recordNames(tokens, labels, lex);
  introducedNames(tokens, labels, lex);
  lowerTitleNames(tokens, labels, lex);
  wordNames(tokens, labels, lex);
  greetedNames(tokens, labels);
  pairedNames(tokens, labels, lex);
  chatNames(tokens, labels, lex);
  speakerNames(tokens, labels, lex);
  repeatNames(tokens, labels, lex);
  threadSpeakers(tokens, labels, lex);
  cuedNames(tokens, labels, lex);
  listMates(tokens, labels, lex);
  dropThings(tokens, labels, lex);
  dropPlaces(tokens, labels);
}

/**
 * A title the tagger took for an address's first word, or the name after a title taken for one, with no
 * number and no street word in the run ("sent to Mrs. Gwen Pritchard-Jones re ...": "Mrs" an address;
 * "Spoke with Herr Dietrich Vogel": "Dietrich" an address, "Vogel" a person): the title is none and the
 * capitalised words after it are the name. Issue 30, twelfth round: 3 missed person words of the dev half of
 * bench/data/pii-dev12.txt. A street's "Dr" comes after its name and before no capitalised word of a name
 * ("12 Bay Dr, Perth").
 */
function titledAddresses(tokens: Tokens, labels: Uint8Array): void {
  for (let i = 1; i < tokens.length; i++) {
    if (labels[i] !== ADDRESS && labels[i - 1] !== ADDRESS) continue;
    const gap = tokens.gap(i);
    if ((gap !== Gap.Space && gap !== Gap.Stop) || !capitalised(tokens, i) || !TITLES.has(tokens, i - 1) || shoutedTitle(tokens, i - 1)) continue;
    const from = labels[i - 1] === ADDRESS ? i - 1 : i;
    // The address word before the title, if any, makes it an address's part ("Bay Dr Medical Centre").
    if (from > 0 && labels[from - 1] === ADDRESS && tokens.gap(from) !== Gap.Newline) continue;
    let to = i;
    while (to + 1 < tokens.length && labels[to + 1] === ADDRESS && tokens.gap(to + 1) === Gap.Space && capitalised(tokens, to + 1)) to++;
    if (to + 1 < tokens.length && labels[to + 1] === ADDRESS) continue;
    let street = false;
    for (let k = from; k <= to && !street; k++) street = isDigit(tokens.first(k)) || (k >= i && STREET_WORDS.has(tokens, k));
    if (street) continue;
    labels[i - 1] = O;
    for (let k = i; k <= to; k++) labels[k] = PERSON;
    i = to;
  }
}

/**
 * Whether token i, after a title, opens a product's name: a word general English writes in lower case,
 * then another capitalised one ("Mr. Clean Magic Eraser", "Mr. Potato Head", "Ms. Excel Wizard": false
 * persons of issue 30's tenth-round probes, bench/data/pii-probe10.txt). A surname that is an English
 * word stands alone after its title ("Mr. Brown said", "Dr. Young, ...") or is a known name.
 */
function titledProduct(tokens: Tokens, i: number, lex: Lexicon): boolean {
  if (i + 1 >= tokens.length || tokens.gap(i + 1) !== Gap.Space || !capitalised(tokens, i + 1)) return false;
  const code = lexCode(tokens, i, lex);
  if (knownName(code) || !oftenLower(code)) return false;
  const next = lexCode(tokens, i + 1, lex);
  return !knownName(next) && usuallyLower(next);
}

/**
 * Whether token t, a title's spelling, is written in capitals before a word that is not: "MS Teams", "MX
 * Records", "MR Review", "DR Plan" are a product, a protocol, a merge request and disaster recovery (issue
 * 30's tenth round, bench/data/pii-probe10.txt: seven such lines, every one a false person). A text in
 * capitals writes the name in capitals too ("MR. OKAFOR"), and "MR Okafor" is rare.
 */
function shoutedTitle(tokens: Tokens, t: number): boolean {
  const second = tokens.source.charCodeAt(tokens.start(t) + 1);
  if (!(second >= 65 && second <= 90)) return false;
  // The word after has a lower-case letter ("O'BRIEN" has none).
  for (let k = tokens.start(t + 1) + 1; k < tokens.end(t + 1); k++) if (tokens.source[k] !== tokens.source[k]!.toUpperCase()) return true;
  return false;
}

/** The particles of Irish family names ("Ó Faoláin", "Ní Dhuibhir", "Nic Giolla"); "Mac" left out, as it names a computer far more often. */
const IRISH_PARTICLES = new TokenWordSet(["ó", "ní", "nic", "uí", "ua", "mhic"]);

/** The first letters of NAME_PARTICLES' words. */
const PARTICLE_FIRST = firstLetters(NAME_PARTICLE_WORDS);

/**
 * Up to three lower-case particles between a person's word and a capitalised one make one name: "José
 * Luis de la Fuente", "Carmen de los Ríos", "Pieter van der Walt", "Ahmad bin Yusof". The tagger never
 * scores a lower-case word of a cased text (isCandidate), so the particles, and often the surname after,
 * were left out: 12 of the 36 missed person words the tagger never scored on this round's development set
 * and the seven before it (bench/data/pii-dev10.txt, pii-outside-dev.txt, pii-own8-dev.txt,
 * pii-newstyle-dev2..6.txt). Before the particles a person's word, a given name of the lists or a known
 * name; after them a person's word or a name-like one that is no country's, company's or city's word
 * (unless a known name) and that no house number follows. With commaNames' particles (records.ts):
 * pii-dev10 PERSON R 0.824 -> 0.900, newstyle-dev2 0.760 -> 0.907; ordinary prompts with a find 57 -> 57.
 */
function particleNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon, nameLike: (i: number) => boolean): void {
  for (let i = 0; i + 2 < tokens.length; i++) {
    // The cheap tests first: a particle's first letter (d, l, v, b) and length after a space, then a capitalised word before it.
    const c = tokens.first(i + 1);
    if (!hasLetter(PARTICLE_FIRST, c)) {
      // A lower-case word after that is no particle opens no name either: stepped over on the same test.
      if (c >= 97 && c <= 122) i++;
      continue;
    }
    if (tokens.end(i + 1) - tokens.start(i + 1) > 5) continue;
    const gap = tokens.gap(i + 1);
    if (!(gap === Gap.Space || gap === Gap.Stop) || !capitalised(tokens, i)) continue;
    // A title before the particles ("Mevrouw de Jong will hand over the keys", "Dr. da Silva"): the particles and the surname
    // are the name (titledStart takes the title in). Issue 30, twelfth round: a miss of bench/data/pii-dev12.txt's dev half.
    const titled = TITLES.has(tokens, i) && !shoutedTitle(tokens, i);
    if (gap === Gap.Stop && !titled) continue;
    // Then, without a lookup, a capitalised word after one to three short lower-case words ("I don't know" has none: the
    // particle lookups for every such pair were 3% of detectPii on bench/pii-speed.ts's prompts).
    let j = i + 2;
    while (j < tokens.length && j - i <= 3 && tokens.gap(j) === Gap.Space && !capitalised(tokens, j) && tokens.end(j) - tokens.start(j) <= 5) j++;
    if (j - i > 3 || j >= tokens.length || tokens.gap(j) !== Gap.Space || !capitalised(tokens, j) || isPossessive(tokens, i)) continue;
    let p = i + 1;
    while (p < j && NAME_PARTICLES.has(tokens, p)) p++;
    // The tagger may have taken the first particle after a person's word ("Luis de"), never an address's.
    if (p < j || labels[i + 1] === ADDRESS || labels[j] === ADDRESS) continue;
    // Before the particles a person's word, a given name of the lists or a known name ("Anouk de Graaf", "Ahmad
    // bin Yusof"); after them a person's word or a name-like one, no country's, company's or city's word.
    const code = lexCode(tokens, j, lex);
    const surname = labels[j] === PERSON || (nameLike(j) && flagsOf(code) === 0 && !(PLACE_WORDS.has(tokens, j) && !knownName(code)));
    // A number after makes it a street ("Dirk de Derdelaan 149": presidio's hold-out).
    if (!surname || (j + 1 < tokens.length && isDigit(tokens.first(j + 1)))) continue;
    const first = lexCode(tokens, i, lex);
    const given = labels[i] === PERSON || (!noName(tokens, i) && (LISTED_GIVEN_NAME_WORDS.has(tokens, i) || (knownName(first) && flagsOf(first) === 0)));
    if (!given && !titled) continue;
    for (let k = given ? i : i + 1; k <= j; k++) labels[k] = PERSON;
    i = j;
  }
}

/**
 * What an Irish family name after its particle is spelled with: a long vowel, a lenited consonant or one
 * of the vowel pairs Irish spelling's broad-and-slender rule makes ("Faoláin", "Bhriain", "Aodha",
 * "Giolla", "Néill"). The Portuguese vocative "Ó Lisboa", "Ó Senhor" and Hawaiian "Ua Mau" have none: all
 * three were false persons of issue 30's tenth-round probes (bench/data/pii-probe10.txt).
 */
const IRISH_SPELLING = /[áéíóúÁÉÍÓÚ]|[bcdfgmpst]h|ao|ai|ea|ei|ia|io|oi|ua|ui|iu/i;

/**
 * A capitalised Irish particle before a capitalised word is a family name, with the capitalised word
 * before it its given name unless English writes it in lower case or to open a sentence (nameLike): the tagger had found nothing in "a letter from Dermot Ó
 * Faoláin" and an address in "sent it to Aoibheann Ní Dhuibhir" (issue 30's ninth round, probes
 * written for it; the brief names Irish names among the blind sets' misses).
 */
function irishParticleNames(tokens: Tokens, labels: Uint8Array, nameLike: (i: number) => boolean): void {
  for (let i = 0; i + 1 < tokens.length; i++) {
    // Every word is passed over on its first letter (Ó, N, U, M: each particle's capital) and length, without a lookup.
    const c = tokens.first(i);
    if ((c !== 0xd3 && c !== 78 && c !== 85 && c !== 77) || tokens.end(i) - tokens.start(i) > 4) continue;
    if (!IRISH_PARTICLES.has(tokens, i) || tokens.gap(i + 1) !== Gap.Space || !capitalised(tokens, i + 1)) continue;
    if (!IRISH_SPELLING.test(tokens.source.slice(tokens.start(i + 1), tokens.end(i + 1)))) continue;
    labels[i] = PERSON;
    labels[i + 1] = PERSON;
    if (i > 0 && tokens.gap(i) === Gap.Space && (labels[i - 1] !== O || nameLike(i - 1))) labels[i - 1] = PERSON;
  }
}

/**
 * A person span made only of the words of a city, state or region (places.ts) is the place ("visit
 * Lisbon, Porto", "through Nebraska", "Liverpool": the third new-style development set's false persons).
 * After tagging, not as a feature: as the tagger's country flag the same list cost the retrained
 * tagger's hold-out PERSON precision (0.904 -> 0.846).
 */
function dropPlaces(tokens: Tokens, labels: Uint8Array): void {
  for (let i = 0; i < tokens.length; i++) {
    if (labels[i] !== PERSON) continue;
    const j = spanEnd(tokens, labels, i);
    let all = true;
    for (let k = i; k <= j && all; k++) all = PLACE_WORDS.has(tokens, k);
    if (all) for (let k = i; k <= j; k++) labels[k] = O;
    i = j;
  }
}

/**
 * Whether token i is the one word a greeting or thanks addresses at a line's or sentence's start and
 * that a comma, stop, line break or the end follows ("Hey Summer, quick question", "Thanks Hope, that
 * fixed it!", "Hi Magdalena,\n"): a name, also one English writes in lower case, unless it is a group
 * or a word of thanks ("Hi all,", "Thanks again!"). The tagger missed such given names that are words
 * on all three new-style development sets ("Thanks for waiting, Summer" and "Hey Summer,").
 */
function greeted(tokens: Tokens, i: number, lex: Lexicon): boolean {
  // The gaps first: the word lookups for every capitalised word cost the pii-dense workload time.
  if (i === 0 || tokens.gap(i) !== Gap.Space) return false;
  const g = tokens.gap(i - 1);
  if (!(g === Gap.Start || g === Gap.Newline || g === Gap.Stop)) return false;
  const next = i + 1 < tokens.length ? tokens.gap(i + 1) : Gap.Stop;
  if (!(next === Gap.Comma || next === Gap.Stop || next === Gap.Newline)) return false;
  if (!GREETINGS.has(tokens, i - 1) || ADDRESSED_GROUPS.has(tokens, i) || noName(tokens, i) || isPossessive(tokens, i)) return false;
  const code = lexCode(tokens, i, lex);
  return flagsOf(code) === 0;
}

const TO = new TokenWordSet(["to"]);

/**
 * Whether token i opens a sentence, a line or what follows a label's colon as the owner of an action:
 * "Felix to check with finance.", "AP: Mateus to circulate the draft": one capitalised word, then "to"
 * and a lower-case verb, as minutes and CRM notes write their action items. The tagger missed most such
 * first names on the new-style development sets (its frames with "{F} to send ..." notwithstanding). Not a
 * word general English writes in lower case or mostly at a sentence's start ("Click to open", "Welcome
 * to the"), nor a country's, place's or company's ("Paris to Lyon").
 */
function actionOwner(tokens: Tokens, i: number, lex: Lexicon): boolean {
  const g = tokens.gap(i);
  if (!(g === Gap.Start || g === Gap.Newline || g === Gap.Stop) || i + 2 >= tokens.length) return false;
  if (tokens.gap(i + 1) !== Gap.Space || !TO.has(tokens, i + 1) || tokens.gap(i + 2) !== Gap.Space) return false;
  const c = tokens.first(i + 2);
  if (!(c >= 97 && c <= 122)) return false;
  const code = lexCode(tokens, i, lex);
  if (usuallyLower(code) || usuallySentenceStart(code) || flagsOf(code) !== 0 || noName(tokens, i)) return false;
  // A known given name, or a plain capitalised word no English word's ending ("Conforming to", "Resistant
  // to", "Over-committing to", "RSVP to": the development prompts' finds with any capitalised word).
  if (knownName(code)) return true;
  const word = tokens.source.slice(tokens.start(i), tokens.end(i));
  return /^\p{Lu}\p{Ll}{2,}$/u.test(word) && !ENGLISH_ENDING.test(word);
}

/** Endings of English adjectives, participles and nouns of ideas. */
const ENGLISH_ENDING = /(?:ing|ed|ive|ate|ant|ent|ous|ful|ble|ial|ary|ory|ism|ist|ity|ness|less|ment|tion|sion|ize|ise|ship|ward|ly)$/;

/**
 * A capitalised word after initials is a surname, and the initials are part of the name ("witnessed by
 * J. R. Mwansa", "prepared by A. K. Ramasubramanian": the tagger left both whole names out on the second
 * and third new-style development sets), unless general English writes the word in lower case or at a
 * sentence's start ("U.S. Army", "P.S. Thanks") or it is a country's, place's or company's word; a
 * single letter opening a line or sentence is a list's label.
 */
function initialled(tokens: Tokens, labels: Uint8Array, i: number, lex: Lexicon): boolean {
  if (i === 0 || tokens.gap(i) !== Gap.Stop || !isInitial(tokens, i - 1) || tokens.end(i) - tokens.start(i) < 2) return false;
  const code = lexCode(tokens, i, lex);
  if (usuallyLower(code) || usuallySentenceStart(code) || flagsOf(code) !== 0 || noName(tokens, i)) return false;
  let j = i - 1;
  while (j > 0 && tokens.gap(j) === Gap.Stop && isInitial(tokens, j - 1)) j--;
  // One letter opening a line or sentence is a list's label ("A. Situational", "D. Glassmorphic": the
  // development prompts' outlines), not an initial.
  const opens = tokens.gap(j) === Gap.Start || tokens.gap(j) === Gap.Newline || tokens.gap(j) === Gap.Stop;
  if (j === i - 1 && opens) return false;
  for (let k = j; k <= i; k++) labels[k] = PERSON;
  return true;
}

/** Nouns that a person's possessive names a law, a disease or an idea by ("Newton's second law", "Parkinson's disease"). */
const EPONYM_NOUNS = new TokenWordSet(
  "law laws disease syndrome theorem principle constant razor paradox equation equations rule effect lemma conjecture number triangle palsy lymphoma method algorithm formula".split(
    " ",
  ),
);

/**
 * A lone name in the possessive before such a noun (a word between allowed: "Newton's second law") is
 * no one the text is about: the second new-style development set's "Parkinson's disease", "Murphy's
 * law", "Newton's second law" were masked, and the model then reads "[PERSON_1]'s disease".
 */
function eponyms(tokens: Tokens, labels: Uint8Array): void {
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (labels[i] !== PERSON || !isPossessive(tokens, i) || (i > 0 && labels[i - 1] === PERSON && tokens.gap(i) === Gap.Space)) continue;
    const noun = (k: number) => k < tokens.length && tokens.gap(k) === Gap.Space && labels[k] === O && EPONYM_NOUNS.has(tokens, k);
    if (noun(i + 1) || (tokens.gap(i + 1) === Gap.Space && labels[i + 1] === O && noun(i + 2))) labels[i] = O;
  }
}

/**
 * A name found once is a name wherever the text writes it again the same way: "Margarethe Vandersloot
 * called; Vandersloot said ..." masked only at the first mention would hand the surname to the
 * provider at the second. A capitalised word spelled exactly as a person word of the same text (its
 * possessive too: "Vandersloot's") becomes one, unless it opens a sentence and general English writes
 * it in lower case ("Will Smith ... Will you"). A prompt only gains such a word where it already had
 * a person, so no prompt without a find gets one.
 */
function repeatNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  let named: Map<number, number> | undefined;
  for (let i = 0; i < tokens.length; i++) {
    if (labels[i] !== PERSON || !capitalised(tokens, i) || isPossessive(tokens, i)) continue;
    named ??= new Map();
    const hash = wordOf(tokens, i);
    if (!named.has(hash)) named.set(hash, i);
  }
  if (named === undefined) return;
  const source = tokens.source;
  for (let i = 0; i < tokens.length; i++) {
    if (labels[i] !== O || !capitalised(tokens, i)) continue;
    const possessive = isPossessive(tokens, i);
    const start = tokens.start(i);
    const end = tokens.end(i) - (possessive ? 2 : 0);
    const hash = possessive ? hashSpan(source, start, end) : wordOf(tokens, i);
    const j = named.get(hash);
    if (j === undefined || tokens.end(j) - tokens.start(j) !== end - start || !source.startsWith(source.slice(tokens.start(j), tokens.end(j)), start)) continue;
    const g = tokens.gap(i);
    if ((g === Gap.Start || g === Gap.Stop || g === Gap.Newline) && usuallyLower(lexCode(tokens, i, lex))) continue;
    labels[i] = PERSON;
  }
}

/** Words that join the address before them: a street's (street-words.ts), a compass quarter's or a unit's ("14 Elm St NW", "5 Main Street Suite 200"). */
const STREET_WORDS = new TokenWordSet([...STREET_NAME_ENDINGS, ..."nw ne sw se apt suite unit floor".split(" ")]);

/**
 * Words before a number that opens an address ("Flat 3", "PO Box 77", "No. 8, Jalan Ampang", "Block
 * C-14", "Villa 23", "Lot 14"): the last seven were added in issue 30's fifth round, when the fifth
 * new-style development set's PO boxes, Malaysian, Pakistani, Emirati and Australian addresses lost them.
 */
const UNIT_WORDS = new TokenWordSet([
  "flat",
  "house",
  "unit",
  "apartment",
  "apt",
  "suite",
  "shop",
  "plot",
  "door",
  "po",
  "box",
  "no",
  "block",
  "blk",
  "villa",
  "lot",
]);

/** Whether token i is a house number: one to five digits and at most one ASCII letter after them (/^\d{1,5}[A-Za-z]?$/). */
function houseNumber(tokens: Tokens, i: number): boolean {
  const source = tokens.source;
  const start = tokens.start(i);
  let end = tokens.end(i);
  const last = source.charCodeAt(end - 1) | 0x20;
  if (last >= 97 && last <= 122) end--;
  if (end - start < 1 || end - start > 5) return false;
  for (let k = start; k < end; k++) if (!isDigit(source.charCodeAt(k))) return false;
  return true;
}

/** Words that open a street's name written before its number: "Calle de Alcalá 120", "Av. Insurgentes Sur 1602", "ul. Marszałkowska 87", "Am Markt 3". */
const STREET_PREFIXES = new TokenWordSet(
  "calle carrer carrera avenida avda av rua via viale corso piazza strada rue ul ulica aleja al am an jalan jl paseo plaza largo travessa calea".split(" "),
);
/** The small words inside such a name ("Calle de Alcalá", "Rua dos Andradas"). */
const STREET_PARTICLES = new TokenWordSet("de la del das dos da do di der den van von le les des".split(" "));
/** Endings of a one-word street name written before its number: "Keizersgracht 455", "Storgatan 14B", "Strandvejen 100", "Hauptstraße 41". */
const STREET_SUFFIX =
  /(?:straße|strasse|str|gracht|straat|weg|laan|plein|kade|dijk|singel|gatan|gata|gate|gade|vej|vejen|veien|vegen|allee|platz|damm|ufer|gasse|katu|tie|utca|vägen|väg)$/;

/**
 * A street's name written before its number, as most of continental Europe and Latin America write
 * it: the tagger labels the number and what follows ("455, 1017 DK Amsterdam") but leaves out, or takes
 * for a person, the name before it ("Keizersgracht", "Calle de Alcalá", "Av" of "Av. Insurgentes Sur",
 * "Marszałkowska" of "ul. Marszałkowska 87/12": the new-style development sets' address misses). Up to
 * four capitalised words or particles on the same line before an address that opens with a house
 * number join it when the word next to the number has a street's ending or the first is a street's
 * opening word.
 */
function streetBeforeNumber(tokens: Tokens, labels: Uint8Array): void {
  for (let s = 1; s < tokens.length; s++) {
    if (labels[s] !== ADDRESS || labels[s - 1] === ADDRESS) continue;
    // The first word of the address and the word before it that may end a street's name: the number
    // itself; one word the tagger took before the number ("Almada 210" of "Rua do Almada 210", "Straße
    // 88" of "Mariahilfer Straße 88"); or "No." before it ("Jl. Sudirman No. 45"). The last two were the
    // fifth new-style development set's misses (issue 30, fifth round).
    let first = -1;
    let named = -1;
    if (houseNumber(tokens, s)) {
      if (tokens.gap(s) === Gap.Space) [first, named] = [s, s - 1];
      else if (tokens.gap(s) === Gap.Stop && s > 1 && NUMBER_WORDS.has(tokens, s - 1) && tokens.gap(s - 1) === Gap.Space) [first, named] = [s - 1, s - 2];
    } else if (capitalised(tokens, s) && s + 1 < tokens.length && labels[s + 1] === ADDRESS && tokens.gap(s + 1) === Gap.Space && houseNumber(tokens, s + 1))
      [first, named] = [s, s];
    if (first < 0) continue;
    let from = -1;
    if (capitalised(tokens, named) && STREET_SUFFIX.test(tokens.lower(named))) {
      from = named;
      // A street word written apart ("Mariahilfer Straße", "Lange Gasse") takes the capitalised word before it.
      if (STREET_SUFFIX_WORDS.has(tokens, named) && named > 0 && tokens.gap(named) === Gap.Space && capitalised(tokens, named - 1)) from = named - 1;
    }
    // Such a name is whole: no opening word is looked for before it ("Lieferung an Lange Gasse 14": "an" is no part).
    if (from >= 0 && from < named) first = -1;
    for (let k = first - 1; first > 0 && k >= 0 && k >= first - 4; k--) {
      if (STREET_PREFIXES.has(tokens, k)) {
        from = k;
        break;
      }
      const g = tokens.gap(k);
      if (!(capitalised(tokens, k) || STREET_PARTICLES.has(tokens, k)) || !(g === Gap.Space || g === Gap.Stop)) break;
      // A full stop ends a sentence unless it follows a street's abbreviation ("Av.", "ul.").
      if (g === Gap.Stop && !(k > 0 && STREET_PREFIXES.has(tokens, k - 1))) break;
    }
    if (from >= 0 && from < s) for (let k = from; k < s; k++) labels[k] = ADDRESS;
  }
}

/** "No." before a house number after the street's name ("Jl. Sudirman No. 45", "Bağdat Cad. No: 214"). */
const NUMBER_WORDS = new TokenWordSet(["no", "nr", "nro", "num"]);
/** Street words written as a word of their own after the street's name ("Mariahilfer Straße 88", "Lange Gasse 4"). */
const STREET_SUFFIX_WORDS = new TokenWordSet(["straße", "strasse", "str", "gasse", "allee", "platz", "weg", "damm", "ufer", "ring"]);

/**
 * Completes addresses the same way: a house number right before an address word, a street word right
 * after one ("221B Baker Street")
 * and up to two words on one line between two address words ("Washington, DC 20500") join the address.
 * On the development split: ADDRESS recall 0.807 -> 0.830, precision 0.873 -> 0.874.
 */
export function completeAddresses(tokens: Tokens, labels: Uint8Array): void {
  // Every rule below extends an address word the tagger gave: most texts have none (one native scan).
  if (labels.indexOf(ADDRESS) < 0) return;
  streetBeforeNumber(tokens, labels);
  // A house number right before a street ("742" in "742 Evergreen Terrace"), and a unit word right
  // before an address ("Flat" in "Flat No. 401, 5th Main ...": tagging skips it as an ordinary
  // capital opening a line, as no number follows it).
  for (let i = tokens.length - 2; i >= 0; i--) {
    if (labels[i] !== O || labels[i + 1] !== ADDRESS) continue;
    const gap = tokens.gap(i + 1);
    if ((gap === Gap.Space && houseNumber(tokens, i)) || ((gap === Gap.Space || gap === Gap.Stop) && UNIT_WORDS.has(tokens, i))) labels[i] = ADDRESS;
  }
  for (let i = 1; i < tokens.length; i++) {
    if (labels[i] === O && labels[i - 1] === ADDRESS && tokens.gap(i) !== Gap.Newline && STREET_WORDS.has(tokens, i)) labels[i] = ADDRESS;
  }
  for (let i = 1; i < tokens.length; i++) {
    if (labels[i] !== O || labels[i - 1] !== ADDRESS) continue;
    let j = i;
    while (j < tokens.length && j - i < 2 && labels[j] === O && tokens.gap(j) !== Gap.Newline) j++;
    if (j < tokens.length && j > i && labels[j] === ADDRESS && tokens.gap(j) !== Gap.Newline) for (let k = i; k < j; k++) labels[k] = ADDRESS;
  }
  addressTails(tokens, labels);
}

/**
 * Whether tokens i-1 and i are joined by one "/" and nothing else ("88/3/12", "99/12", "1234/56"), in
 * no date ("DOB 02/11/1961": the tagger's "DOB 02" had become "DOB 02/11/1961" on the third new-style set).
 */
function slashJoined(tokens: Tokens, i: number): boolean {
  const source = tokens.source;
  if (tokens.start(i) !== tokens.end(i - 1) + 1 || source.charCodeAt(tokens.end(i - 1)) !== 47) return false;
  let from = tokens.start(i - 1);
  let to = tokens.end(i);
  while (from > 0 && /[\d/]/.test(source[from - 1]!)) from--;
  while (to < source.length && /[\d/]/.test(source[to]!)) to++;
  const date = /^(\d{1,2})\/(\d{1,2})\/(?:\d{2}|\d{4})$/.exec(source.slice(from, to));
  return !(date && Number(date[1]) <= 31 && Number(date[2]) <= 31);
}

/** Whether token i is a postcode's part: one to eight ASCII digits and capitals with a digit ("6433222", "T2P4", "2"). */
function postcodePart(tokens: Tokens, i: number): boolean {
  const source = tokens.source;
  const start = tokens.start(i);
  const end = tokens.end(i);
  if (end - start > 8) return false;
  let digit = false;
  for (let k = start; k < end; k++) {
    const c = source.charCodeAt(k);
    if (isDigit(c)) digit = true;
    else if (!(c >= 65 && c <= 90)) return false;
  }
  return digit;
}

/** Whether token i is only ASCII digits. */
function allDigits(tokens: Tokens, i: number): boolean {
  for (let k = tokens.start(i); k < tokens.end(i); k++) if (!isDigit(tokens.source.charCodeAt(k))) return false;
  return true;
}

/**
 * The ends of an address the tagger leaves off (issue 30, fifth round; the fifth new-style development
 * set's misses): the numbers a "/" joins to a house number ("99/12 Moo 4", "Mariahilfer Straße 88/3/12"),
 * a postcode after its city on the same line ("Tel Aviv 6433222", "Praha 2", "Galway H91 T2P4"; after a
 * word or a postcode part with a letter, so a run of digit groups, a phone number, is not taken), and a
 * postcode and its city after a comma ("88/3/12, 1070 Wien").
 */
function addressTails(tokens: Tokens, labels: Uint8Array): void {
  for (let i = tokens.length - 2; i >= 0; i--) {
    if (labels[i] === O && labels[i + 1] === ADDRESS && slashJoined(tokens, i + 1) && houseNumber(tokens, i)) labels[i] = ADDRESS;
  }
  for (let i = 1; i < tokens.length; i++) {
    if (labels[i] !== O || labels[i - 1] !== ADDRESS) continue;
    const gap = tokens.gap(i);
    if (slashJoined(tokens, i) && houseNumber(tokens, i) && allDigits(tokens, i - 1)) labels[i] = ADDRESS;
    else if (gap === Gap.Space && postcodePart(tokens, i) && !allDigits(tokens, i - 1)) labels[i] = ADDRESS;
    else if (gap === Gap.Comma && allDigits(tokens, i) && tokens.end(i) - tokens.start(i) >= 4 && tokens.end(i) - tokens.start(i) <= 6) {
      // A postcode and the capitalised words of its city, on the same line.
      let j = i + 1;
      while (j < tokens.length && j - i <= 3 && tokens.gap(j) === Gap.Space && capitalised(tokens, j)) j++;
      if (j > i + 1) for (let k = i; k < j; k++) labels[k] = ADDRESS;
    }
  }
}

/**
 * Whether token k may be a word of a person's name in an address's place: capitalised with a lower-case letter
 * after ("Cartwright", "Asante-Boateng"; not "TAS"), no word English writes in lower case, no country's,
 * company's, city's, street's, unit's or building's word ("Lakeview Lodge").
 */
function nameWord(tokens: Tokens, k: number, lex: Lexicon): boolean {
  if (!nameCased(tokens, k)) return false;
  const code = lexCode(tokens, k, lex);
  if (usuallyLower(code) || flagsOf(code) !== 0 || PLACE_WORDS.has(tokens, k)) return false;
  return !STREET_WORDS.has(tokens, k) && !UNIT_WORDS.has(tokens, k) && !BUILDING_WORDS.has(tokens, k);
}

/**
 * Names the tagger ran an address on into, or took for one (issue 30, twelfth round; of the development sets'
 * missed full names, 6 of 26 were inside an ADDRESS span): the one to three name words after a dash that
 * ends an address ("PO Box 17, Hobart TAS 7001. — Eliza Cartwright", "BD14 6RT. - Clive Ambrose"), and an
 * "address" with no number that is two or more name words, maybe joined by "and" ("forward the minutes to
 * Bolat Serikbayev and Aigerim Nurlanovna"). An address without a number keeps a street's, unit's or
 * place's word ("Rosebank Farm, Llanfair Road"), and its parts are apart by commas or lines.
 */
function addressNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  for (let i = 0; i < tokens.length; i++) {
    if (labels[i] !== ADDRESS) continue;
    let j = i;
    while (j + 1 < tokens.length && labels[j + 1] === ADDRESS) j++;
    // The run's tail after a dash: one to three name words on one line, after a number.
    for (let k = j; k > i && j - k < 3 && nameWord(tokens, k, lex); k--) {
      if (tokens.gap(k) === Gap.Space) continue;
      if (tokens.gap(k) !== Gap.Newline && dashBefore(tokens, k) && isDigit(tokens.first(k - 1))) for (let m = k; m <= j; m++) labels[m] = PERSON;
      break;
    }
    // A run with no number: name words and "and" after spaces only.
    let names = 0;
    let people = true;
    for (let k = i; k <= j && people; k++) {
      if (k > i && tokens.gap(k) !== Gap.Space) people = false;
      else if (nameWord(tokens, k, lex)) names++;
      else people = k > i && k < j && AND.has(tokens, k);
    }
    if (people && names >= 2) for (let k = i; k <= j; k++) labels[k] = AND.has(tokens, k) ? O : PERSON;
    i = j;
  }
}

/**
 * Titles a person's span takes in ("Dr. Okafor", "Rev. Dr. Nkemelu", "Herr Baumgartner"). The tagger
 * never labels one (NEVER_PERSON: a title alone is no name), but presidio counts them as the person's:
 * of the 109 titles right before a PERSON span of generated_large.json, 96 are PERSON and 13 PREFIX;
 * issue 30's ninth round takes titles as part of the name for text written by others too (the
 * development and check sets were re-marked so). Hold-out PERSON P/R 0.904 / 0.891 -> 0.871 / 0.899
 * (all 13 PREFIX titles happen to lie in the hold-out templates); pii-outside-dev.txt 0.931 / 0.811 ->
 * 0.935 / 0.862, pii-own8-dev.txt 0.971 / 0.815 -> 0.972 / 0.858; ordinary prompts with a find 57 -> 57.
 * Those of LOWER_TITLES count in lower case too ("mrs adeleke"); the rest only capitalised ("Miss
 * Hale", not "i miss sarah"; "Sir Alan", not "yes sir Alan").
 */
// "Eng." and "Ing." (an engineer's title in Arabic- and Spanish-speaking countries and Central Europe: "Eng. Mohammed Al-Rashid",
// issue 30's twelfth-round development set) only before a name the tagger found: nothing after one is made a name.
const SPAN_TITLES = new TokenWordSet(["miss", "sir", "eng", "ing", ...RANKS, ...FOREIGN_TITLES]);
const LOWER_TITLES = new TokenWordSet(ENGLISH_TITLES);

/** Where the person span opening at token i starts: before the titles right before it (two at most). */
function titledStart(tokens: Tokens, labels: Uint8Array, i: number): number {
  let first = i;
  for (let k = 0; k < 2 && first > 0 && labels[first - 1] === O; k++) {
    const gap = tokens.gap(first);
    if (gap !== Gap.Space && gap !== Gap.Stop) break;
    const t = first - 1;
    if (!(LOWER_TITLES.has(tokens, t) || (capitalised(tokens, t) && SPAN_TITLES.has(tokens, t))) || shoutedTitle(tokens, t)) break;
    first = t;
  }
  return tokens.start(first);
}

/** Whether token i follows the one before after a single "." and nothing else: a username's halves ("anna.kowalski", frames.ts) are one name. */
const dotJoined = (tokens: Tokens, i: number) => tokens.start(i) === tokens.end(i - 1) + 1 && tokens.source.charCodeAt(tokens.end(i - 1)) === 46;

export interface TaggedSpan {
  label: Exclude<Label, "O">;
  start: number;
  end: number;
}

/**
 * The token array tagSpans tokenizes into, kept from call to call (tokenize: `reuse`): tagSpans is done
 * with a text's tokens before it returns. One grown past MAX_KEPT_BUFFER ints (a 1 MB text) is not kept.
 */
let buffer: Int32Array = new Int32Array(1024 * STRIDE);
const MAX_KEPT_BUFFER = (1 << 18) * STRIDE;

/**
 * Runs of tokens with the same label become one span. A person's name does not run across a line
 * break or a full stop ("... John. Mary ..."); an address does (its lines are one address).
 */
export function tagSpans(model: TaggerModel, text: string): TaggedSpan[] {
  const tokens = tokenize(text, buffer);
  if (tokens.data.length <= MAX_KEPT_BUFFER) buffer = tokens.data;
  const labels = tagTokens(model.scorer, model.lex, tokens);
  completeNames(tokens, labels, model.lex);
  completeAddresses(tokens, labels);
  addressParts(tokens, labels, model.lex);
  addressLabels(tokens, labels);
  // One native scan: most texts have no address word.
  if (labels.indexOf(ADDRESS) >= 0) addressNames(tokens, labels, model.lex);
  const spans: TaggedSpan[] = [];
  let open: TaggedSpan | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const label = labels[i]!;
    if (label === O) {
      open = undefined;
      continue;
    }
    const gap = tokens.gap(i);
    const name = label === PERSON ? "PERSON" : "ADDRESS";
    // A name runs on past an initial's full stop ("J. R. Mwansa") and a username's dot ("anna.kowalski"), not into the next "@" mention ("@diego @hamid": two people).
    const joins =
      open !== undefined &&
      open.label === name &&
      (label === ADDRESS ||
        gap === Gap.Space ||
        (gap === Gap.Other && tokens.before(i) !== 64) ||
        (gap === Gap.Stop && (isInitial(tokens, i - 1) || dotJoined(tokens, i))));
    // A person's possessive "'s" is no part of the name ("Kalani's wedding" masks to "[PERSON_1]'s
    // wedding"): presidio's spans and ours end before it, and the "s" had counted as a false person word.
    const end = label === PERSON && isPossessive(tokens, i) ? tokens.end(i) - 2 : tokens.end(i);
    if (joins) open!.end = end;
    else {
      open = { label: name, start: label === PERSON ? titledStart(tokens, labels, i) : tokens.start(i), end };
      spans.push(open);
    }
  }
  return spans;
}
