import {
  capitalised,
  flagsOf,
  isPossessive,
  knownName,
  LABELS,
  lexCode,
  type Lexicon,
  nameCased,
  oftenLower,
  TokenWordSet,
  usuallyLower,
  wordCode,
  isLowerAscii,
} from "./features";
import { GIVEN_NAME_WORDS, givenNameSpelled, LISTED_GIVEN_NAME_WORDS, WORDLIKE_NAME_WORDS } from "./given-names";
import { PLACE_WORDS } from "./places";
import { NAME_PARTICLES } from "./titles";
import {
  AT_BEFORE,
  dashBefore,
  FOLLOWED,
  FOLLOWED_SHAPE,
  FRAME_SHAPES,
  frameShapeIndex,
  Gap,
  LOWER_FIRST,
  META,
  POSSESSIVE,
  SPECIAL,
  STRIDE,
  type Tokens,
  UPPER_FIRST,
  VERB,
  VERB_SHAPE,
} from "./tokens";

/** The gap bits of a token's META word (tokens.ts). */
const GAP_MASK = 7;

/**
 * Context rules for names the tagger leaves out (issue 30, fourth round): a lower-case given name in
 * chat ("ask dave if", "tell priya", "@noor"), a first.last or first_last username ("password reset
 * for anna.kowalski", "user=arjun_mehta"), a given name that is an English word in a name's place ("I
 * asked Will to send", "whether Hope signed") and the value of a name field ("first_name": "Alejandro").
 * The tagger scores no lower-case word of a text that writes capitals (features.ts: isCandidate) and
 * reads "Will" mid-sentence as the word; retrains that taught it these frames cost the presidio
 * hold-out's PERSON precision (0.83-0.85), so they are rules after tagging, each on a known given name
 * (given-names.ts) or a labelled field. They add person words, and take out only an assistant the
 * tagger took for one ("Ask Siri to set a timer").
 *
 * Measured with bun bench/pii-eval.ts (presidio hold-out, ordinary prompts) and --data on the new-style
 * sets: see the commit that added this file and bench/results/pii-latest.md.
 */

const PERSON = LABELS.indexOf("PERSON");
const ADDRESS = LABELS.indexOf("ADDRESS");
const O = 0;

const ADDRESSING_WORDS =
  "ask asked asking tell told telling ping pinged cc bcc remind reminded dm text texted message messaged msg thank thanks thx ty call called email emailed tag tagged hey hi yo hiya".split(
    " ",
  );
/** Words before a person being addressed or spoken of: "ask dave if", "cc tariq", "thx lucia", "told Sky". */
const ADDRESSING = new TokenWordSet(ADDRESSING_WORDS);
const BESIDE_WORDS = "with from by via and or whether if when for to".split(" ");
/** Weaker words before a person: enough for a given name that is no English word ("with rahel", "from brenda", "if lorenzo"). */
const BESIDE = new TokenWordSet(BESIDE_WORDS);
/** The joining words before a capitalised word-name: "whether Hope signed", "waiting on Bill to approve" (not "for", "to": "in May", "to Mark the day"; not "and": "Science, and Art."). */
const BESIDE_CAPITAL = new TokenWordSet("with from by via whether if when on".split(" "));
/** Given names that are also places, taken only after an addressing word ("fly to austin", "ask austin"). */
const PLACE_NAMES = new TokenWordSet(
  "austin charlotte georgia jordan madison sydney victoria florence eugene santiago dallas phoenix orlando kingston adelaide paris chelsea devon".split(" "),
);
const DOING_WORDS =
  "said says say asked asks told tells wants wanted needs needed knows thinks thought is was will would has had just already still finished sent called texted replied left can can't cant could won't didn't doesn't isn't wasn't got went signed booked emailed approved confirmed mentioned agreed".split(
    " ",
  );
/** What follows a person who does or says something at a clause's start: "zainab says", ", kasia is covering". */
const DOING = new TokenWordSet(DOING_WORDS);
const SPEECH_WORDS = "said says asked told thinks wants replied texted emailed called signed".split(" ");
/** Speech verbs after a given name that is a word, opening a sentence: "Will said the meeting is off." */
const SPEECH = new TokenWordSet(SPEECH_WORDS);
/** What follows a name after an addressing word: "ask will if", "tell grace to", "ask june about". */
const AFTER_ADDRESSED = new TokenWordSet("if to about whether that for".split(" "));
const AUXILIARY_WORDS = "did does has is was can could would will".split(" ");
/** Auxiliaries before a name and its verb: "did will say", "has mark sent". */
const AUXILIARY = new TokenWordSet(AUXILIARY_WORDS);

/**
 * Words before a person and no thing, for a lower-case word general English never writes (issue 30,
 * fifth round: "hey kealoha", "sorry ruairi,", "gonna meet saoirse at", "who invited kristof"). Not
 * "call", "email", "text", "ping", "tag" (one calls a function, pings a host) nor BESIDE's "to", "for",
 * "with" ("switched to vscode"): program and tool names are the unseen words of ordinary prompts; nor
 * "yo", Spanish for "I" ("que yo vea dónde": a development prompt's find).
 */
const ADDRESSING_ONLY_WORDS =
  "ask asked asking tell told telling remind reminded cc bcc dm thank thanks thx ty hey hi hiya sorry meet met meeting invite invited".split(" ");
const ADDRESSING_ONLY = new TokenWordSet(ADDRESSING_ONLY_WORDS);
/**
 * What a person opening a clause does, for such an unseen word: not "is", "was", "will", "has" ("kubectl
 * is broken", "pytest was slow"), which a program's name takes too. "pls" for an addressee ("sachini pls
 * send the deck").
 */
const HUMAN_DOING_WORDS =
  "said says asked told thinks thought wants wanted replied texted emailed called signed can't cant won't didn't doesn't isn't wasn't just already still got went left finished sent booked approved pls plz please".split(
    " ",
  );
const HUMAN_DOING = new TokenWordSet(HUMAN_DOING_WORDS);
/** Joining two people opening a clause ("batbayar n temuulen are both out"), and the verbs after the pair. */
const PAIR_JOIN = new TokenWordSet(["and", "n"]);
const PAIR_DOING = new TokenWordSet("are were have had both will can can't cant won't".split(" "));

// The shapes (length, first letter, last letter) of the words a name inside a clause may follow
// (ADDRESSING, ADDRESSING_ONLY, BESIDE, AUXILIARY, "on", "n") and of the verbs a person opening a clause
// comes before (DOING, SPEECH, HUMAN_DOING, and the pair's "and", "n"): tokenize marks each word with
// their bits (tokens.ts: FOLLOWED, VERB), so frameNames lets a word of prose past without reading it or
// the word after it. With every lower-case word looked up among the given names, masking took 1.43x the
// start tree's time on the prompts workload (bun bench/pii-speed.ts --tree start=DIR --tree now=.).
for (const w of [...ADDRESSING_WORDS, ...ADDRESSING_ONLY_WORDS, ...BESIDE_WORDS, ...AUXILIARY_WORDS, "on", "n"])
  FRAME_SHAPES[frameShapeIndex(w.length, w.charCodeAt(0), w.charCodeAt(w.length - 1))]! |= FOLLOWED_SHAPE;
for (const w of [...DOING_WORDS, ...SPEECH_WORDS, ...HUMAN_DOING_WORDS, "n", "and"])
  FRAME_SHAPES[frameShapeIndex(w.length, w.charCodeAt(0), w.charCodeAt(w.length - 1))]! |= VERB_SHAPE;

/** Whether token i is a possessive or the word after it, after a space, has the shape of a person's verb (tokens.ts: POSSESSIVE, VERB): lowerFramed's test at a clause's start, told from the tokens' bits. */
function beforeVerb(tokens: Tokens, i: number): boolean {
  const d = tokens.data;
  if ((d[i * STRIDE + META]! & POSSESSIVE) !== 0) return true;
  return i + 1 < tokens.length && (d[(i + 1) * STRIDE + META]! & (GAP_MASK | VERB)) === (Gap.Space | VERB);
}

/** Verbs in their plain form after "did X": "did will say anything". */
const PLAIN_VERB = new TokenWordSet("say send call text reply sign book bring email come go ask tell know".split(" "));
/** Months and days: "in May", "ask june" is a name only after an addressing word. */
const CALENDAR = new TokenWordSet("january february march april may june july august".split(" "));
export const ASSISTANT_NAMES = "siri alexa cortana chatgpt gpt claude gemini copilot bard bixby".split(" ");
/** Assistants one asks or tells to do something ("Ask Siri to set a timer"): no one to mask, also when the tagger took one. */
export const ASSISTANTS = new TokenWordSet(ASSISTANT_NAMES);
/** Assistants and mention groups: "ask siri to", "@here", "@channel". */
export const NOT_A_PERSON = new TokenWordSet([...ASSISTANT_NAMES, ..."here channel everyone all team".split(" ")]);
/** Words before a username: "for user keisha_brown", "Author: mthembu.sipho", "user=arjun_mehta" (not "from", "of": "from autogluon.tabular import"). */
const USER_CONTEXT = new TokenWordSet("user username login account author reviewer assignee owner reporter member follower requester approver uid".split(" "));

/**
 * Keys whose value is a person's name: "first_name", "assignee", "reporter" (the word before "_name" too). "given"
 * (FHIR's and vCard-like records' given name: '{"given":"Moana"}', missed on bench/data/pii-dev12.txt's dev half)
 * added in issue 30's twelfth round; not "family", a font's as often ('"family": "Roboto"'), nor "speaker", a
 * product's ('"speaker": "Bose QuietComfort"').
 */
const NAME_KEYS = new TokenWordSet(
  "firstname lastname fullname surname givenname familyname given author assignee reporter owner reviewer requester manager approver recipient patient driver beneficiary passenger attendee tenant guest sender signatory witness".split(
    " ",
  ),
);
const NAME_KEY_PART_WORDS = "first last full given family sur customer contact employee patient user display recipient owner sender".split(" ");
const NAME_KEY_PARTS = new TokenWordSet(NAME_KEY_PART_WORDS);
/** The same parts before "Name" in a camelCase key ("displayName", "contactName": the fifth new-style set's miss). */
const CAMEL_NAME_PARTS = new Set(NAME_KEY_PART_WORDS);
const NAME = new TokenWordSet(["name", "person"]);
const NAME_WORD = /^\p{Lu}\p{Ll}/u;

const isUpperAscii = (c: number) => c >= 65 && c <= 90;
const isWordChar = (c: number) => (c >= 48 && c <= 57) || isUpperAscii(c) || isLowerAscii(c) || c === 95;

/** Whether token i is a given name that is also an English word ("will", "grace", "bill", "dawn"). */
const wordName = (tokens: Tokens, i: number, lex: Lexicon) => WORDLIKE_NAME_WORDS.has(tokens, i) || oftenLower(lexCode(tokens, i, lex));

/** Whether token i is a given name general English does not write as a word ("priya", not "will"). */
function plainName(tokens: Tokens, i: number, lex: Lexicon): boolean {
  return GIVEN_NAME_WORDS.has(tokens, i) && !wordName(tokens, i, lex);
}

/** Whether token j exists, follows j-1 after a space and is in `set`. */
const spacedIn = (tokens: Tokens, j: number, set: TokenWordSet) => j >= 0 && j < tokens.length && tokens.gap(j) === Gap.Space && set.has(tokens, j);

/** Whether code goes on right after token i: a call, a member or an assignment ("call alice.send(x)", "bob_key ="). */
function codeAfter(tokens: Tokens, i: number): boolean {
  const source = tokens.source;
  const end = tokens.end(i);
  const c = source.charCodeAt(end);
  if (c === 40 || c === 95 || c === 61 || c === 91) return true;
  return c === 46 && end + 1 < source.length && isWordChar(source.charCodeAt(end + 1));
}

/** What ends the addressed name: a comma, stop, line break or the end ("thx lucia!", "ask dave, he knows"). */
function endsAfter(tokens: Tokens, i: number): boolean {
  if (i + 1 >= tokens.length) return true;
  const g = tokens.gap(i + 1);
  return g === Gap.Comma || g === Gap.Stop || g === Gap.Newline;
}

/**
 * A lower-case possessive whose name is a given name of the lists that is no English word, in the frames
 * frameNames lets through (a clause's start, after a word a name follows): "brb, lena's calling", "coming
 * to noura's farewell" (issue 30, twelfth round: missed on bench/data/pii-dev12.txt's dev half; lowerFramed
 * looked the possessive up with its "'s", which kept the name from the lists).
 */
function possessiveName(tokens: Tokens, i: number, lex: Lexicon): boolean {
  if (!tokens.isAscii(i)) return false;
  const name = tokens.lower(i).slice(0, -2);
  return givenNameSpelled(name) && !oftenLower(wordCode(name, lex));
}

/**
 * A lower-case given name in a frame: after an addressing word ("ask dave if", "remind yusuf to") or
 * before a verb ("zainab says hi", "kasia is covering"); one that is an English word ("will", "mark",
 * "hope") only between an addressing word and "if"/"to"/the end ("ask hope if", "tell grace to"), or
 * after an auxiliary with a plain verb after it ("did will say"), or opening a clause before a speech
 * verb ("grace said she'd bring the snacks").
 */
function lowerFramed(tokens: Tokens, i: number, lex: Lexicon): boolean {
  const g = tokens.gap(i);
  if (g === Gap.Other || g === Gap.Stop || codeAfter(tokens, i)) return false;
  if (NOT_A_PERSON.has(tokens, i)) return false;
  if (!GIVEN_NAME_WORDS.has(tokens, i)) return unseenFramed(tokens, i, lex);
  const spaced = i > 0 && g === Gap.Space;
  const addressed = spaced && ADDRESSING.has(tokens, i - 1);
  if (wordName(tokens, i, lex) || CALENDAR.has(tokens, i)) {
    if (addressed && (endsAfter(tokens, i) || spacedIn(tokens, i + 1, AFTER_ADDRESSED))) return true;
    if (g !== Gap.Space && spacedIn(tokens, i + 1, SPEECH)) return true;
    return spaced && AUXILIARY.has(tokens, i - 1) && spacedIn(tokens, i + 1, PLAIN_VERB);
  }
  if (addressed) return true;
  if (PLACE_NAMES.has(tokens, i) || PLACE_WORDS.has(tokens, i)) return false;
  if (spaced && BESIDE.has(tokens, i - 1)) return true;
  // Before a verb or as an owner only where a clause starts ("kasia is covering"; not "a monster hunter is").
  return g !== Gap.Space && (spacedIn(tokens, i + 1, DOING) || isPossessive(tokens, i));
}

/**
 * Whether token i, a lower-case word of three or more letters with two vowels that general English never
 * writes (unseen in the case profile, no country's or company's word), is a name by its frame: after a
 * word one says only to or of a person ("hey kealoha", "who invited kristof"), or opening a clause before
 * a person's verb ("mihai can't make it", "sachini pls send") or as the first of two people before a
 * verb ("batbayar n temuulen are"). Given names of every culture cannot all be listed (given-names.ts);
 * chat shorthand the profile lacks has fewer letters or vowels ("tmrw", "lmk", "ur", "abt").
 */
function unseenFramed(tokens: Tokens, i: number, lex: Lexicon): boolean {
  if (!unseenNameShape(tokens, i, lex)) return false;
  const g = tokens.gap(i);
  if (g === Gap.Space) {
    if (i > 0 && ADDRESSING_ONLY.has(tokens, i - 1)) return true;
    // The second of a pair opening a clause: "batbayar n temuulen are".
    if (i < 2 || !PAIR_JOIN.has(tokens, i - 1) || tokens.gap(i - 1) !== Gap.Space || !spacedIn(tokens, i + 1, PAIR_DOING)) return false;
    const g2 = tokens.gap(i - 2);
    return g2 !== Gap.Space && g2 !== Gap.Other && (GIVEN_NAME_WORDS.has(tokens, i - 2) || unseenNameShape(tokens, i - 2, lex));
  }
  if (spacedIn(tokens, i + 1, HUMAN_DOING)) return true;
  // The first of a pair: "X n Y are"; the second is taken by the rule after the joining word (BESIDE's "and").
  return spacedIn(tokens, i + 1, PAIR_JOIN) && i + 2 < tokens.length && unseenNameShape(tokens, i + 2, lex) && spacedIn(tokens, i + 3, PAIR_DOING);
}

/** Endings of English adverbs, participles and nouns the case profile may not hold ("asked eagerly": a development prompt's find). */
const ENGLISH_WORD_ENDING = /(?:ly|ed|ing|ness|ment|tion|sion|able|ible|ful|less|ous)$/;

/**
 * Whether token i is three or more lower-case ASCII letters with two vowels (a, e, i, o, u), unseen in the
 * case profile, no country's or company's word and no English word's ending. One vowel let chat shorthand
 * and programs through ("hey yall", "sorry abt", "systemd can't": sentences written to probe the rule).
 */
function unseenNameShape(tokens: Tokens, i: number, lex: Lexicon): boolean {
  if (!lowerWord(tokens, i) || lexCode(tokens, i, lex) >> 1 !== 0 || ENGLISH_WORD_ENDING.test(tokens.lower(i))) return false;
  const source = tokens.source;
  let vowels = 0;
  for (let k = tokens.start(i); k < tokens.end(i); k++) {
    const c = source.charCodeAt(k);
    if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) vowels++;
  }
  return vowels >= 2;
}

/**
 * A capitalised given name that English also writes as a word, inside a sentence of lower-case words
 * ("I asked Will to send", "waiting on Bill to approve", "I told Sky the meeting moved"): after an
 * addressing word, or after a joining word with a lower-case word or a stop after it. Opening a
 * sentence, only before a speech verb ("Will said the meeting is off"). The tagger takes most other
 * capitalised names; a title-case heading ("Amazing Grace", "the Rose Bowl") has a capital beside it.
 */
function capitalWordName(tokens: Tokens, i: number, lex: Lexicon): boolean {
  const g = tokens.gap(i);
  // A dash opens a clause too ("RE: the Amazon return — Bilal says", "I'll be out — Rob is covering": the thirteenth round's dev set).
  const opens = g === Gap.Start || g === Gap.Newline || g === Gap.Stop || (g === Gap.Other && i > 0 && dashBefore(tokens, i));
  // The neighbours first (no lookup): a lower-case word after it (or, inside a sentence, a stop), and inside a sentence a lower-case word before.
  const nextLower = i + 1 < tokens.length && tokens.gap(i + 1) === Gap.Space && isLowerAscii(tokens.first(i + 1));
  if (opens) {
    if (!nextLower) return false;
  } else if (g !== Gap.Space || i === 0 || !isLowerAscii(tokens.first(i - 1)) || !(nextLower || endsAfter(tokens, i))) return false;
  // Any given name of the lists, the longer one too (given-names.ts MORE_GIVEN_NAMES: "with Ilse last year", "the 1:1 with
  // Dalia"): issue 30, thirteenth round, 3 more person words on the development sets, none false, no ordinary prompt more with a find.
  if (flagsOf(lexCode(tokens, i, lex)) !== 0 || !LISTED_GIVEN_NAME_WORDS.has(tokens, i) || NOT_A_PERSON.has(tokens, i)) return false;
  if (!wordName(tokens, i, lex)) return plainFramed(tokens, i, opens);
  if (opens) return SPEECH.has(tokens, i + 1);
  if (ADDRESSING.has(tokens, i - 1)) return true;
  if (CALENDAR.has(tokens, i)) return false;
  return BESIDE_CAPITAL.has(tokens, i - 1) || AUXILIARY.has(tokens, i - 1) || spacedIn(tokens, i + 1, DOING);
}

/**
 * A capitalised given name that English does not write as a word, alone in a frame the tagger passed over
 * ("then Ivan needs it", "Kenji and I met with", "as Bilal said"): opening a clause before a person's verb
 * or before "and I"/"and me"; inside one after an addressing, joining or auxiliary word or before a
 * person's verb. Issue 30, twelfth round: lone given names were the largest class of missed person words
 * on the dev half of bench/data/pii-dev12.txt (9 of 40). Not in capitals ("DAN", "HOA": prompts' acronyms).
 */
function plainFramed(tokens: Tokens, i: number, opens: boolean): boolean {
  if (!nameCased(tokens, i) || PLACE_NAMES.has(tokens, i) || PLACE_WORDS.has(tokens, i)) return false;
  if (spacedIn(tokens, i + 1, DOING)) return true;
  // Before a particle the name goes on, or is a street's ("on Dirk de Derdelaan 149": presidio's hold-out); particleNames reads those.
  if (spacedIn(tokens, i + 1, NAME_PARTICLES)) return false;
  if (opens) return spacedIn(tokens, i + 1, PAIR_JOIN) && spacedIn(tokens, i + 2, SELF_WORDS);
  return ADDRESSING.has(tokens, i - 1) || BESIDE_CAPITAL.has(tokens, i - 1) || AUXILIARY.has(tokens, i - 1) || SENT_TO.has(tokens, i - 1);
}

/**
 * Where a given name that is no English word is sent or handed: "sent the deck to Wei", "Forwarding to
 * Lorenzo", "Quick q for Zofia" (not for a word-like one: "to Grace", "for Hope"). Issue 30, thirteenth
 * round: missed on the outside-written bench/data/pii-dev13.txt; places stay out (PLACE_NAMES, PLACE_WORDS).
 */
const SENT_TO = new TokenWordSet(["to", "for"]);

/** The speaker after a name and "and": "Kenji and I met with". */
const SELF_WORDS = new TokenWordSet(["i", "me"]);

/**
 * A capitalised word the case profile never saw, inside a sentence right after a word said only to or
 * of a person ("Translate this note for Makoa" is not; "ask Makoa", "thanks Tsegaye", "cc Oyelowo" are):
 * issue 30's fifth round, where the tagger passed over such given names of less common cultures.
 */
function addressedUnseen(tokens: Tokens, i: number, lex: Lexicon): boolean {
  if (tokens.gap(i) !== Gap.Space || !ADDRESSING_ONLY.has(tokens, i - 1) || tokens.end(i) - tokens.start(i) < 3) return false;
  // One word alone: before another capitalised word it is a title or a first name the tagger reads with the rest ("ask Frau Köhler").
  if (i + 1 < tokens.length && tokens.gap(i + 1) === Gap.Space && capitalised(tokens, i + 1)) return false;
  // A capital, then small letters only ("Tsegaye"; not "BY-NC" of "cc BY-NC", a development prompt's find).
  const source = tokens.source;
  for (let k = tokens.start(i) + 1; k < tokens.end(i); k++) if (!isLowerAscii(source.charCodeAt(k))) return false;
  return lexCode(tokens, i, lex) >> 1 === 0 && !NOT_A_PERSON.has(tokens, i);
}

const PRONOUNS = new TokenWordSet("she her he him they them xe ze".split(" "));

/**
 * Pronouns in brackets after a name ("Soraya (she/her)", "Alex Chen (they/them)", as signatures and
 * chat profiles write them: issue 30's fifth new-style set): token i is the first pronoun, after "(";
 * the one or two name-like capitalised words right before the bracket are a person.
 */
function pronounsAfter(tokens: Tokens, labels: Uint8Array, i: number, lex: Lexicon): void {
  const source = tokens.source;
  if (i === 0 || i + 1 >= tokens.length || !PRONOUNS.has(tokens, i) || !PRONOUNS.has(tokens, i + 1) || source.charCodeAt(tokens.end(i + 1)) !== 41) return;
  // One space between the name and the bracket.
  if (tokens.start(i) - tokens.end(i - 1) !== 2 || source.charCodeAt(tokens.end(i - 1)) !== 32) return;
  for (let k = i - 1, words = 0; k >= 0 && words < 2; k--, words++) {
    const code = lexCode(tokens, k, lex);
    if (!NAME_WORD.test(source.slice(tokens.start(k), tokens.start(k) + 2)) || usuallyLower(code) || flagsOf(code) !== 0) return;
    labels[k] = PERSON;
    if (tokens.gap(k) !== Gap.Space || k === 0 || !capitalised(tokens, k - 1)) return;
  }
}

/**
 * A chat line's speaker: a given name right before a colon after a timestamp's bracket ("[10:42] grace:
 * did anyone restart"), or a lower-case one opening a line ("priya: sounds good") that is no English
 * word. A capitalised one opening a line is left to the tagger: the ordinary prompts' scripts ("Mario:
 * Let's see", "John: propose new idea") gained finds with it (development prompts 119 -> 122 of 2,153).
 */
function speaker(tokens: Tokens, i: number, lex: Lexicon): boolean {
  const source = tokens.source;
  if (source.charCodeAt(tokens.end(i)) !== 58 || source.charCodeAt(tokens.end(i) + 1) !== 32) return false;
  const start = tokens.start(i);
  const bracketed = start >= 2 && source.charCodeAt(start - 1) === 32 && source.charCodeAt(start - 2) === 93;
  const opens = start === 0 || source.charCodeAt(start - 1) === 10;
  if (!(bracketed || opens) || !GIVEN_NAME_WORDS.has(tokens, i) || NOT_A_PERSON.has(tokens, i)) return false;
  return bracketed || (isLowerAscii(tokens.first(i)) && !wordName(tokens, i, lex));
}

/**
 * A username of two words joined by one "." or "_" and nothing else around them ("anna.kowalski",
 * "keisha_brown"; not "os.path.join", "user.name", "a.b@c", "alice.send("): a given name and a word
 * English does not write in lower case, or any two such words after a user's context word ("Author:
 * mthembu.sipho", "user=arjun_mehta"); after one, also an initial and an unseen word or a known name
 * ("login ok: m.achterberg": issue 30's fifth new-style development set).
 */
function username(tokens: Tokens, i: number, lex: Lexicon): boolean {
  const source = tokens.source;
  const start = tokens.start(i);
  const sep = source.charCodeAt(tokens.end(i));
  if (i + 1 >= tokens.length || tokens.start(i + 1) !== tokens.end(i) + 1 || (sep !== 46 && sep !== 95)) return false;
  // An initial and a surname ("m.achterberg") only after a user's context word (below).
  const initial = tokens.end(i) - start === 1 && isLowerAscii(source.charCodeAt(start));
  if (!(initial || lowerWord(tokens, i)) || !lowerWord(tokens, i + 1)) return false;
  const before = start > 0 ? source.charCodeAt(start - 1) : 32;
  if (isWordChar(before) || before === 46 || before === 47 || before === 64 || before === 45) return false;
  const endAt = tokens.end(i + 1);
  const after = endAt < source.length ? source.charCodeAt(endAt) : 32;
  // "." ends the sentence only if no word follows it; "@", "/", "(" and "_" make it an address, a path or code.
  if (after === 64 || after === 47 || after === 40 || after === 95 || after === 45) return false;
  if ((after === 46 || after === 95) && endAt + 1 < source.length && isWordChar(source.charCodeAt(endAt + 1))) return false;
  const secondWord = usuallyLower(lexCode(tokens, i + 1, lex));
  const given = !initial && plainName(tokens, i, lex);
  if (given && !secondWord) return true;
  let context = false;
  for (let k = i - 1; k >= 0 && k >= i - 2 && !context; k--) context = USER_CONTEXT.has(tokens, k);
  // "login ok: m.achterberg", "user=j.okafor": a surname the case profile never saw, or a known name.
  if (initial) return context && (unseenNameShape(tokens, i + 1, lex) || knownName(lexCode(tokens, i + 1, lex)));
  // After a user's context word: a given name and any word ("user keisha_brown"), or two words English does not write in lower case.
  return context && (given || (!usuallyLower(lexCode(tokens, i, lex)) && !secondWord)) && !NOT_A_PERSON.has(tokens, i);
}

/** Whether token i is three or more lower-case ASCII letters: a username's half ("anna", "kowalski"; not "React", "authedUser", "id"). */
function lowerWord(tokens: Tokens, i: number): boolean {
  const source = tokens.source;
  const end = tokens.end(i);
  if (end - tokens.start(i) < 3) return false;
  for (let k = tokens.start(i); k < end; k++) if (!isLowerAscii(source.charCodeAt(k))) return false;
  return true;
}

/** Whether `text[from]` opens a field's value after its key: optional quote, then ":" or "=", then optional quote and spaces. */
function valueStart(source: string, from: number): number {
  let k = from;
  if (source.charCodeAt(k) === 34 || source.charCodeAt(k) === 39) k++;
  while (source.charCodeAt(k) === 32) k++;
  const c = source.charCodeAt(k);
  if (c !== 58 && c !== 61) return -1;
  k++;
  while (source.charCodeAt(k) === 32) k++;
  if (source.charCodeAt(k) === 34 || source.charCodeAt(k) === 39) k++;
  return k;
}

/** Whether source[start, end) is a camelCase key of a name ("displayName", "customerName", "firstName"). */
function camelNameKey(source: string, start: number, end: number): boolean {
  return end - start > 4 && source.startsWith("Name", end - 4) && CAMEL_NAME_PARTS.has(source.slice(start, end - 4));
}

/**
 * The value of a name field: `"first_name": "Alejandro"`, `assignee: Zofia Wrona`, `full_name=Lwazi
 * Ndlovu`. Its words (one to four, on one line, spaces between) must be capitalised and none a word
 * English writes in lower case nor a country's or company's; a bare "name" key (a product's, a
 * project's, a story's character: "name": "Natalia") needs two such words, the first a given name.
 */
function fieldValue(tokens: Tokens, labels: Uint8Array, i: number, lex: Lexicon): void {
  const source = tokens.source;
  // A key in lower case, as data writes it ("assignee", "first_name"); a form's label ("Author: Scott M") is the tagger's.
  if (!isLowerAscii(tokens.first(i))) return;
  // The value's place first (characters only): a capital right after the colon or equals sign and a quote or spaces.
  const at = valueStart(source, tokens.end(i));
  if (at < 0 || !isUpperAscii(source.charCodeAt(at)) || i + 1 >= tokens.length || tokens.start(i + 1) !== at) return;
  let strong = NAME_KEYS.has(tokens, i) || camelNameKey(source, tokens.start(i), tokens.end(i));
  if (!strong && NAME.has(tokens, i)) strong = i > 0 && tokens.end(i - 1) + 1 === tokens.start(i) && NAME_KEY_PARTS.has(tokens, i - 1);
  else if (!strong) return;
  let j = i + 1;
  const first = j;
  for (; j < tokens.length && j - first < 4; j++) {
    if (j > first && tokens.gap(j) !== Gap.Space) break;
    const code = lexCode(tokens, j, lex);
    // A capital, then a lower-case letter: "Zofia", "Øvrebø"; not "Q3", "API", "iOS".
    if (!NAME_WORD.test(source.slice(tokens.start(j), tokens.start(j) + 2)) || usuallyLower(code) || flagsOf(code) !== 0) return;
  }
  // The value ends with its line, a quote, a comma or a tag: a longer run is prose.
  const end = tokens.end(j - 1);
  const stop = end < source.length ? source.charCodeAt(end) : 10;
  if (!(stop === 10 || stop === 13 || stop === 34 || stop === 39 || stop === 44 || stop === 60 || stop === 38 || stop === 125)) return;
  if (!strong && (j - first < 2 || !GIVEN_NAME_WORDS.has(tokens, first))) return;
  for (let k = first; k < j; k++) if (labels[k] === O) labels[k] = PERSON;
}

/** Column names whose cells are people's names in a CSV header ("id,name,plan", "name,role,start_date"). */
const NAME_COLUMNS = new Set([
  "name",
  "full_name",
  "fullname",
  "customer",
  "customer_name",
  "contact_name",
  "employee",
  "employee_name",
  "first_name",
  "last_name",
  "author",
  "assignee",
  "owner",
]);
/**
 * The delimiter of a CSV header at source[from, to): two or more lower-case identifiers between commas,
 * semicolons or tabs, one of them throughout (/^[a-z][a-z_]*(?:,[a-z][a-z_]*)+$/, a trailing "\r"
 * allowed), told by a scan that stops at a line's first space (a line of prose), with no slice of the
 * line; 0 if it is none. Semicolons and tabs since issue 30's fifth round ("full_name;email;role", as
 * European spreadsheets export: the fifth new-style development set's miss).
 */
function headerAt(source: string, from: number, to: number): number {
  if (to > from && source.charCodeAt(to - 1) === 13) to--;
  let delimiter = 0;
  let count = 0;
  let previous = 44;
  for (let k = from; k < to; k++) {
    const c = source.charCodeAt(k);
    if (c === 44 || c === 59 || c === 9) {
      if (previous === delimiter || previous === 44 || (delimiter !== 0 && c !== delimiter)) return 0;
      delimiter = c;
      count++;
    } else if (!(isLowerAscii(c) || (c === 95 && previous !== delimiter && previous !== 44))) return 0;
    previous = c;
  }
  return count > 0 && previous !== delimiter ? delimiter : 0;
}

/**
 * The cells of a CSV's name column ("id,name,plan\n1042,Ilona Kertész,free"): the tagger reads a row's
 * commas as an address's ("1042,Ilona Kertész" was one). A cell is a name if its words are capitalised
 * and none is a word English writes in lower case nor a country's or company's; its words become person
 * words, also those the tagger gave another label. Only a text with a header line is read.
 */
function csvNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  const source = tokens.source;
  let lineStart = 0;
  let column = -1;
  let delimiter = ",";
  let t = 0;
  while (lineStart < source.length) {
    let lineEnd = source.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = source.length;
    const header = headerAt(source, lineStart, lineEnd);
    if (header !== 0) {
      delimiter = String.fromCharCode(header);
      column = source
        .slice(lineStart, lineEnd)
        .trimEnd()
        .split(delimiter)
        .findIndex((c) => NAME_COLUMNS.has(c));
    } else if (column >= 0 && source.slice(lineStart, lineEnd).includes(delimiter)) {
      const cells = source.slice(lineStart, lineEnd).trimEnd().split(delimiter);
      if (column < cells.length) {
        let from = lineStart;
        for (let k = 0; k < column; k++) from += cells[k]!.length + 1;
        const to = from + cells[column]!.length;
        while (t < tokens.length && tokens.start(t) < from) t++;
        let ok = t < tokens.length && tokens.start(t) === from;
        let j = t;
        for (; ok && j < tokens.length && tokens.end(j) <= to; j++) {
          const code = lexCode(tokens, j, lex);
          ok = NAME_WORD.test(source.slice(tokens.start(j), tokens.start(j) + 2)) && !usuallyLower(code) && flagsOf(code) === 0;
        }
        if (ok && j > t && tokens.end(j - 1) === to) for (let k = t; k < j; k++) labels[k] = PERSON;
      }
    } else column = -1;
    lineStart = lineEnd + 1;
  }
}

/** The words of a letter's or e-mail's closing line ("Kind regards,", "Many thanks", "All the best", "Thanks again,", "ttyl"). */
const SIGN_OFF_WORDS = new TokenWordSet(
  "best kind warm warmest many thanks thank you regards cheers sincerely wishes yours truly faithfully again thx ttyl all the with love respectfully cordially".split(
    " ",
  ),
);
/** The words a closing line must have one of (not "All the", "With love" alone). */
const SIGN_OFF_CORE = new TokenWordSet("best regards thanks cheers sincerely wishes yours faithfully thx ttyl".split(" "));
/** Titles a signature's name line may open with ("Dr. Chaminda Jayasuriya"). */
const SIGNATURE_TITLES = new TokenWordSet("dr mr mrs ms mx prof".split(" "));

/**
 * A signature: the line after a closing line ("Best,\nKagiso Molefe", "Many thanks\nDong-hyun Kim",
 * "ttyl\n-njeri") is a name if it is one to four name-like words (a capital then small letters, a part
 * after a hyphen, an initial; or one lower-case word general English never writes), none a word English
 * writes in lower case nor a country's or company's; a title before them stays out. The line after that
 * name is its role ("Accounts Payable", "Consultant Cardiologist"): the person words the tagger gave its
 * English words are taken back. Issue 30, fifth round: the fifth new-style development set's signatures
 * lost hyphenated and lower-case names and had their role lines masked. Called by frameNames at each
 * line's first word with the line before it, when that line has at most three words (most have more).
 */
function signatureAt(tokens: Tokens, labels: Uint8Array, from: number, to: number, lex: Lexicon): void {
  // The closing line [from, to]: one to three words, one of them a closing's core word, every one a closing's.
  if (!SIGN_OFF_CORE.has(tokens, to) && !(to > from && SIGN_OFF_CORE.has(tokens, to - 1))) return;
  for (let k = from; k <= to; k++) if (!SIGN_OFF_WORDS.has(tokens, k)) return;
  let end = to + 1;
  while (end + 1 < tokens.length && tokens.gap(end + 1) !== Gap.Newline) end++;
  if (end < tokens.length && signatureName(tokens, labels, to + 1, end, lex) && end + 1 < tokens.length) roleLine(tokens, labels, end + 1, lex);
}

/** Labels tokens [from, to] a person if they are a signature's name line (signatures); whether they were. */
function signatureName(tokens: Tokens, labels: Uint8Array, from: number, to: number, lex: Lexicon): boolean {
  const source = tokens.source;
  let first = from;
  if (SIGNATURE_TITLES.has(tokens, first) && first < to) first++;
  if (to - first > 3) return false;
  // Initials alone are no name: "Thanks\nM", "Regards,\nC", "Thanks\nA. B. C." (a review of this rule).
  let named = false;
  for (let k = first; k <= to; k++) {
    const start = tokens.start(k);
    const hyphened = k > first && source.charCodeAt(start - 1) === 45 && start - 1 === tokens.end(k - 1);
    const code = lexCode(tokens, k, lex);
    if (flagsOf(code) !== 0) return false;
    if (hyphened) continue;
    if (NAME_WORD.test(source.slice(start, start + 2))) {
      // A capital inside is a product's or team's ("DevOps", "GitHub"), and a word English writes in lower case no name.
      if (usuallyLower(code) || innerCapital(source, start + 1, tokens.end(k))) return false;
      named = true;
    } else if (first === to && unseenNameShape(tokens, k, lex)) named = true;
    else if (!(tokens.end(k) - start === 1 && isUpperAscii(tokens.first(k)))) return false;
  }
  if (!named) return false;
  for (let k = first; k <= to; k++) labels[k] = PERSON;
  return true;
}

/** Endings of the words of a role ("Consultant", "Cardiologist", "Payable", "Director", "Engineer"). */
const ROLE_ENDING = /(?:ant|ent|ist|ian|er|or|ble|ary|ive|ing|ment|tion|ness|ship)$/;

/** Whether source[from, to) holds an ASCII capital. */
function innerCapital(source: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (isUpperAscii(source.charCodeAt(k))) return true;
  return false;
}

/** The role line after a signature's name: its person words that general English writes in lower case, or that are no known name and end as a role's words do, are no name. */
function roleLine(tokens: Tokens, labels: Uint8Array, from: number, lex: Lexicon): void {
  for (let k = from; k < tokens.length && (k === from || tokens.gap(k) !== Gap.Newline); k++) {
    if (labels[k] !== PERSON) continue;
    const code = lexCode(tokens, k, lex);
    if (oftenLower(code) || (!knownName(code) && ROLE_ENDING.test(tokens.lower(k)))) labels[k] = O;
  }
}

/** Applies the rules above to the words the tagger left unlabelled (labels[i] === O); removes only an assistant's name the tagger took after an addressing word ("Ask Siri to"). */
export function frameNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  const source = tokens.source;
  const n = tokens.length;
  const d = tokens.data;
  // A CSV header is a line of lower-case words and delimiters ending in a line break: indexOf finds whether any line could be.
  if ((source.indexOf(",") >= 0 || source.indexOf(";") >= 0 || source.indexOf("\t") >= 0) && source.indexOf("\n") >= 0) csvNames(tokens, labels, lex);
  // Whether the word before has the shape of one a name may follow (tokens.ts: FOLLOWED), carried from word to word.
  let followed = false;
  // The first word of the current line: a line of at most three words before a line break may be a closing (signatureAt).
  let lineStart = 0;
  for (let i = 0; i < n; i++) {
    const meta = d[i * STRIDE + META]!;
    const gap = meta & GAP_MASK;
    if (gap === Gap.Newline) {
      if (i > lineStart && i - lineStart <= 3) signatureAt(tokens, labels, lineStart, i - 1, lex);
      lineStart = i;
    }
    const after = followed;
    followed = (meta & FOLLOWED) !== 0;
    // Most words are let past on their bits alone (tokens.ts): a word that no "." or "_" joins to the next
    // and no key's quote, colon or equals sign follows, in lower case inside a clause after a word no name
    // follows, or opening a clause before a word no person's verb has the shape of; a capitalised word
    // neither after such a word nor before such a verb nor after "@"; a number. Reading each word's
    // characters here instead was about 0.09 of masking's time on the prompts workload (round four).
    if ((meta & SPECIAL) === 0) {
      if ((meta & LOWER_FIRST) !== 0) {
        if (gap === Gap.Space ? !after : gap === Gap.Stop || (gap !== Gap.Other && (meta & AT_BEFORE) === 0 && !beforeVerb(tokens, i))) continue;
      } else if ((meta & UPPER_FIRST) === 0 || !(after || (meta & AT_BEFORE) !== 0 || beforeVerb(tokens, i))) continue;
    }
    if (frameWord(tokens, labels, i, lex, after) === 2) {
      i++;
      followed = false;
    }
  }
}

/** The rules for word i, past frameNames' first tests; 2 when it took word i + 1 too (a username's second half). */
function frameWord(tokens: Tokens, labels: Uint8Array, i: number, lex: Lexicon, after: boolean): number {
  const source = tokens.source;
  const start = tokens.start(i);
  const end = tokens.end(i);
  const c = source.charCodeAt(start);
  const sep = source.charCodeAt(end);
  const gap = tokens.gap(i);
  const n = tokens.length;
  const label = labels[i]!;
  if (label === PERSON && after && gap === Gap.Space && ASSISTANTS.has(tokens, i) && ADDRESSING.has(tokens, i - 1)) {
    labels[i] = O;
    return 1;
  }
  // A username's first half may already be a person word ("nadia" of "nadia_rahimi"), or its second ("oyelaran" of "t.oyelaran").
  if ((sep === 46 || sep === 95) && label !== ADDRESS && i + 1 < n && tokens.start(i + 1) === end + 1) {
    if ((labels[i + 1] === O || labels[i + 1] === PERSON) && username(tokens, i, lex)) {
      labels[i] = PERSON;
      labels[i + 1] = PERSON;
      return 2;
    }
  }
  if (label !== O) return 1;
  if (sep === 34 || sep === 39 || sep === 58 || sep === 61) {
    fieldValue(tokens, labels, i, lex);
    if (sep === 58 && speaker(tokens, i, lex)) {
      labels[i] = PERSON;
      return 1;
    }
  }
  if (isLowerAscii(c)) {
    if (tokens.before(i) === 64) {
      if ((start < 2 || !isWordChar(source.charCodeAt(start - 2))) && plainName(tokens, i, lex) && !NOT_A_PERSON.has(tokens, i)) labels[i] = PERSON;
      return 1;
    }
    if (tokens.before(i) === 40 && sep === 47) {
      pronounsAfter(tokens, labels, i, lex);
      return 1;
    }
    // Inside a clause only after a word of the right shape; at a clause's start before a verb.
    if ((gap === Gap.Space && !after) || gap === Gap.Other || gap === Gap.Stop) return 1;
    if (isPossessive(tokens, i) ? possessiveName(tokens, i, lex) : end - start >= 2 && tokens.isPlain(i) && lowerFramed(tokens, i, lex)) labels[i] = PERSON;
  } else if (isUpperAscii(c)) {
    if (tokens.before(i) === 64) {
      if (GIVEN_NAME_WORDS.has(tokens, i) && !NOT_A_PERSON.has(tokens, i)) labels[i] = PERSON;
      return 1;
    }
    // Looked up only after a word of the right shape or before a verb's (capitalWordName reads the words themselves).
    if ((after || beforeVerb(tokens, i)) && (capitalWordName(tokens, i, lex) || (after && addressedUnseen(tokens, i, lex)))) labels[i] = PERSON;
  }
  return 1;
}
