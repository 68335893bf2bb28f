import { Packr } from "msgpackr";
import { nameOnlyByCapital } from "../../text/case-profile";
import { withRequestPhrases } from "./request-phrases";
import {
  AMBIGUOUS_LANGUAGES,
  CODE_CONTEXT_WORDS,
  directionPole,
  NATURAL_LANGUAGES,
  NEGATIONS,
  NOT_ENTITIES,
  NUMBER_SCALES,
  NUMBER_WORDS,
  OPERATOR_SYMBOLS,
  OPERATOR_WORDS,
  oppositeParticle,
  ORDINAL_WORDS,
  OUTPUT_FORMATS,
  PHRASAL_VERBS,
  PROGRAMMING_LANGUAGES,
  unitFacet,
  unitOf,
  wordTable,
} from "./lexicon";

/**
 * The parts of a prompt that decide its answer yet barely move its embedding. Two prompts can be
 * served the same cached answer only if these agree (see verify.ts).
 */
export interface PromptFacets {
  /** Canonical numbers, sorted, with repeats ("2+2" has two 2s). Ordinals are "#3". */
  numbers: string[];
  /** How many negation cues the prompt has. */
  negations: number;
  /** The word right after each negation cue, sorted: what is negated ("isn't who has" / "is who doesn't have"). */
  negated: string[];
  /** Canonical operators, sorted, with repeats. */
  operators: string[];
  /** Canonical units, sorted, with repeats: "2 hours 30 minutes" and "2 minutes 30 minutes" differ. */
  units: string[];
  /** Antonym pair to how often the prompt uses each pole ("2:0" for "more ... more"). */
  directions: Map<string, string>;
  languages: Set<string>;
  formats: Set<string>;
  /** Lower-cased names: words capitalised mid-sentence, acronyms, mixed-case words. */
  entities: Set<string>;
  /**
   * The names among them that are names only by their capital ("Apple", "Polish", "US"; nameOnlyByCapital), written
   * alone (no capitalised word beside them, unless an acronym) in a prompt not all in capitals: the other prompt
   * must write each as a name too, unless it writes in lower case (lowerCaseWriter).
   */
  capitalNames: Set<string>;
  /**
   * Whether a sentence opens in lower case ("should i buy apple shares?", "Hi! should i ..."): its writer's lower
   * case says nothing about names, and the other prompt's capitalNames are not asked of it. Refused, such re-asks
   * of stored prompts cost the lookup bench's lower-cased rewordings 92.4 -> 82.3% served.
   */
  lowerCaseWriter: boolean;
  /** Text that must match byte for byte: quoted strings, code, URLs, identifiers, alphanumeric codes. */
  literals: string[];
  /** Quoted plain words, lower-cased, in the order written ("will 'respond' if"): their words stay in the prompt too. */
  quoted: string[];
  /** "to:<x>" and "from:<x>" for the target of a conversion or trip ("to French", "from Celsius"). */
  targets: Set<string>;
  /** Every word, lower-cased; used to tell a renamed entity from one merely written another way. */
  words: Set<string>;
  /** Stems of the content words (no function words, numbers or names) with their counts: what the prompt is about. */
  content: Map<string, number>;
  /** The function words that still steer an answer, by role, each role's groups sorted ("modal" -> ["must"], "wh" -> ["how", "why"]), quantifiers in order with repeats. */
  roles: Map<string, string[]>;
  /**
   * Code and math symbols (operators and, when there is one, brackets) in the order written, character
   * for character: "(a + b) / 2" is not "a + b / 2", "a != b" not "a !== b".
   */
  symbols: string[];
  /** The words that carry the meaning, in the order written, each with its relation word: who does what to whom (see Slot). */
  slots: Slot[];
  /**
   * The auxiliary after an opening question word ("m:should") and the prepositions of place, topic and
   * manner ("p:in"), sorted: "how should I" asks for advice and "how did I" about the past where "how do
   * I" asks for a procedure, and "the man in the car" is not "the man on the car". An adversarial probe
   * (399 near misses of a new author's) found 11 and 20 such pairs served before these were compared.
   */
  frame: string[];
}

/**
 * One meaning-carrying word of a prompt where it stands: a content word (by stem), a name, a number
 * or a one-letter variable. Order and relation words tell "Spain beat Italy" from "Italy beat Spain"
 * and "from a tenant to a landlord" from "from a landlord to a tenant", which the bags above cannot.
 */
export interface Slot {
  /** "c:<stem>", "e:<name>", "n:<number>", "v:<letter>", "l:<place in the sorted literals>", or "p:<person>" for a pronoun where a prompt speaks of two persons. */
  key: string;
  /** The relation word just before it ("from", "to", "than", "vs", "by", "for", "of"), or "". */
  rel: string;
  /** Position in the prompt; the members of a coordinated list ("apples and pears") share one. */
  rank: number;
  /**
   * The preposition of place, topic or manner (FRAME_PREPOSITIONS) between this slot and the one before it, if
   * any: "the fish in my tank" has "in" on "tank". Without it the two words may make one compound ("my fish
   * tank"), which the frame check refuses (verify.ts compoundFromPreposition).
   */
  prep?: string;
  /** A determiner stands right before it ("my fish tank"): it opens a noun phrase, whose words may make a compound. */
  opens?: true;
  /** "a": after "a" / "an" ("a door"); "the": a plural after "the", "these" or "those" ("the doors"), which are all of them. */
  article?: "a" | "the";
}

interface Token {
  text: string;
  lower: string;
  kind: "word" | "number" | "symbol" | "break";
  /** First word of a sentence, where capitals say nothing about names. */
  sentenceStart: boolean;
  /** Written with 's ("Ann's"), which the tokenizer strips. */
  possessive: boolean;
  /** A "++" or "--" written right after a name ("i++"), not before one ("++i"): another operation. */
  postfix?: boolean;
}

const LITERAL_PATTERNS: readonly RegExp[] = [
  /```[\s\S]*?```/g,
  /`[^`\n]+`/g,
  /"[^"\n]{1,300}"/g,
  /“[^”\n]{1,300}”/g,
  /(?<![\p{L}\p{N}])'[^'\n]{1,300}'(?![\p{L}\p{N}])/gu,
  /\bhttps?:\/\/\S+/g,
  // Calls and math functions: "len(s)", "P(A|B)", "f(x)".
  /\b\w+\([^()\n]{0,40}\)/g,
  /\b[\w.+-]+@[\w-]+\.[\w.]+\b/g,
];

/** Identifiers and codes: snake_case, camelCase, dotted.names, file.ext, letters mixed with digits. */
const IDENTIFIER = /^(?:\w*_\w+|[a-z]+[A-Z]\w*|\w+(?:\.\w+)+|(?=\w*\d)(?=\w*[A-Za-z])\w{2,})$/;

/** A word that is an identifier or a code, a literal of its own ("python3" names a language instead). */
function isIdentifier(t: Token): boolean {
  return IDENTIFIER.test(t.text) && !PROGRAMMING_LANGUAGES[t.lower];
}

const TOKEN =
  /\n|\d+(?:[.,]\d+)*(?:\/\d+)?|\.\d+|[\p{L}_][\p{L}\p{N}_'’.@-]*(?:\+\+|#)?|===|!==|\*\*|\/\/|==|!=|<=|>=|&&|\|\||<<|>>|(?:\+\+|--)(?=[\p{L}_])|[^\s\p{L}\p{N}]/gu;
/**
 * Increment and decrement: operators glued to a name, after it or before it ("i++" / "i--" / "++i" ask
 * three things). A spaced "--" is a dash in prose: read as an operator, it cost 3 of the 284 hits on the
 * other natural pairs (STS news, `bun bench/cache-eval.ts`).
 */
const STEP_OPERATORS: ReadonlySet<string> = new Set(["++", "--"]);
const SENTENCE_END = new Set([".", "!", "?", ":", ";", "\n", "-", "*", "•", "(", '"', "“", ">", "#"]);

/** Words that carry grammar, not subject: two prompts may differ in them and still ask the same. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  "the and are was were been being have has had having does did doing you your yours our ours him his her hers its they them their theirs this that these those what which who whom whose when where why how can could should would will shall may might must about for with into onto from than then there here some any each every all both few many much more most other such only own same very just also too please tell give show let get got want need know like kindly explain describe several".split(
    " ",
  ),
);
/**
 * Function words that still change what is asked, by role. Two prompts that both use a role must use
 * it alike: "You should do it" is not "You can do it", "Why peel peaches?" not "How to peel peaches?",
 * "he is the future" not "it was the future". A prompt without the role says nothing against the
 * other ("How can I ..." / "How do I ...", "Can you do this?" / "Can you do it?").
 */
type Role = readonly [role: string, group: string];
const ROLE_OF: ReadonlyMap<string, Role> = new Map<string, Role>([
  ...["must", "should", "ought", "shall"].map((w) => [w, ["modal", "must"]] as const),
  ...["can", "could", "may", "might"].map((w) => [w, ["modal", "can"]] as const),
  ...["why", "how", "when", "where", "who", "whom", "whose", "which"].map((w) => [w, ["wh", w === "whom" ? "who" : w]] as const),
  // The time an auxiliary puts a question in: "Did my payment go through?" asks what happened, "Will
  // my payment go through?" what will. A blind probe had 18 such pairs of 23 served (probe-cache-2,
  // past-vs-future; `bun bench/cache-eval.ts --pairs probe-cache-2.json`). A prompt without an
  // auxiliary says nothing ("How can I ...?"); "has"/"have" are left out, a perfect asks what a past does.
  ...["did", "was", "were"].map((w) => [w, ["tense", "past"]] as const),
  ...["do", "does", "is", "are", "am"].map((w) => [w, ["tense", "present"]] as const),
  // Not "would": "I'd like to ..." is a polite request, not a future.
  ["will", ["tense", "future"]],
  ...[
    ["i", "me", "my", "mine", "myself"],
    ["you", "your", "yours", "yourself", "yourselves"],
    ["we", "us", "our", "ours", "ourselves"],
    ["he", "him", "his", "himself"],
    ["she", "her", "hers", "herself"],
    ["it", "its", "itself"],
    ["they", "them", "their", "theirs", "themselves"],
  ].flatMap((forms) => forms.map((w) => [w, ["person", forms[0]!]] as const)),
  // How many a statement is about: "Do all birds fly?" is not "Do some birds fly?" (bench/cache-eval.ts
  // had no such pair; the verifier served every one of these swaps before). The pronouns stay content
  // words too: "know everything" is not "know" (SemEval 2016 scored such a pair 3 of 5).
  ...[
    ["all", "every", "each", "everyone", "everybody", "everything"],
    ["some", "any", "someone", "somebody", "something", "anyone", "anybody", "anything"],
    ["several"],
    ["most"],
    ["many", "much"],
    ["few"],
    // Two of them, and one of two: "Are both tests failing?" asks of two what "Are all tests failing?" asks of any number.
    ["both"],
    ["either"],
  ].flatMap((forms) => forms.map((w) => [w, ["quantity", forms[0]!]] as const)),
]);

/**
 * Intensifiers and discourse markers: they colour a sentence, not what it asks ("It makes absolutely
 * no difference" / "It makes no difference"). "Currently" is the "now" of the present tense, which the
 * tense role keeps apart from another time ("What plan am I currently on?" / "What plan was I on?";
 * issue 24, eighth session: bench/data/cache-frame-pairs8.json). Not "pretty", "well" or "right": those are also
 * adjectives and adverbs that change an answer; not "but" or "besides", which also exclude ("all
 * colours but red", "animals besides cats").
 */
const DISCOURSE_WORDS: ReadonlySet<string> = new Set(
  "really actually already definitely absolutely basically certainly surely totally truly indeed anyway anyways whatsoever therefore thus hence however nevertheless nonetheless moreover furthermore additionally yes yeah now currently guys".split(
    " ",
  ),
);

/** Opening a sentence, these link it to what came before, as "however" does ("But it is not a good idea"); inside one, "but" excludes. */
const OPENING_CONNECTIVES: ReadonlySet<string> = new Set(["but", "yet"]);

/** A stem of one vowel between consonants ("mak", "hop", "us"): it lost a silent "e" ("making", "hoped", "using"). */
const SHORT_STEM = /^[^aeiouy]*[aeiouy][^aeiouywx]$/;

function isVowel(c: string | undefined): boolean {
  return c === "a" || c === "e" || c === "i" || c === "o" || c === "u" || c === "y";
}

function hasVowel(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (isVowel(s[i])) return true;
  return false;
}

/**
 * Suffix stripping in the manner of Porter's first steps, enough to match "plays" / "playing" /
 * "played", "time" / "times", "make" / "making", "run" / "running", "study" / "studies", with British
 * spellings folded into American ones ("colour", "programme", "organised"); the embedder judges the
 * rest. It stays short of merging different words: "paste" / "past", "apply" / "app", "early" / "ear",
 * "notes" / "not", "hoping" / "hopping" keep apart. String tests rather than regular expressions where
 * they will do: every content word of every lookup comes through here.
 */
/** Verbs that end in "-ell" themselves, whose "-ing" and "-ed" keep both letters. */
const ELL_WORDS = /(?:spell|tell|sell|dwell|smell|shell|swell|quell|yell|fell|well|jell|knell)$/;

/**
 * Words whose final "s" is no plural: "https" is not "http" ("Redirect http to https" / "https to http"
 * was served, the two words read as one: probe-cache-2), "news" not "new", "Windows" not "window".
 */
const NO_PLURAL: ReadonlySet<string> = new Set(["https", "news", "lens", "windows", "macos", "always", "perhaps", "series", "species", "whereas"]);

export function stem(word: string): string {
  let s =
    word.length < 6
      ? word
      : word
          .replace(/our(ite|ites|able|ably|s|ed|ing|er|ers)?$/, "or$1")
          .replace(/mme(s)?$/, "m$1")
          .replace(/is(e|es|ed|ing|ation|ations)$/, "iz$1");
  const suffix = s.endsWith("ing") ? 3 : s.endsWith("ed") && s.at(-3) !== "e" ? 2 : 0;
  // "-ing" and "-ed" only after a vowel: "string", "bring", "red" and "need" are whole words.
  const base = suffix > 0 ? s.slice(0, -suffix) : "";
  if (hasVowel(base)) {
    s = base;
    const last = s.at(-1)!;
    if (s.length > 3 && last === s.at(-2) && !isVowel(last) && !"lsfz".includes(last)) s = s.slice(0, -1);
    // British doubling of an "-el" verb: "cancelling" / "cancelled" meet "cancel", "travelled" "travel" (issue 24,
    // sixth session: "I need help cancelling my plan" / "How do I cancel my plan?"); not words that end in
    // "-ell" themselves ("spelled", "misspelling", "foretelling").
    else if (s.length >= 6 && s.endsWith("ell") && !ELL_WORDS.test(s)) s = s.slice(0, -1);
    else if (SHORT_STEM.test(s) || (s.length <= 2 && last === "i")) s += "e";
  } else if (s.endsWith("es") && /(?:ss|x|zz|ch|sh)es$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith("oes") && s.length >= 6) s = s.slice(0, -2);
  else if (s.endsWith("ies") && s.length >= 6) s = s.slice(0, -3) + "i";
  // Not the "s" of "class", "status", "analysis", "axis" or "tennis", nor of words too short to tell.
  else if (s.endsWith("s") && s.length >= 4 && s.at(-2) !== "s" && s.at(-2) !== "u" && !/[sxnt]is$/.test(s) && !NO_PLURAL.has(s)) s = s.slice(0, -1);
  else if (s.endsWith("ly") && s.length >= 6) s = s.slice(0, -2);
  if (s.length >= 4 && s.endsWith("y") && !isVowel(s.at(-2))) s = s.slice(0, -1) + "i";
  // A final silent "e" goes too in longer words, so "compute" meets "computed" and "computing".
  return s.length >= 6 && s.endsWith("e") && !isVowel(s.at(-2)) ? s.slice(0, -1) : s;
}

/**
 * isFacetWord's words: the number, scale, ordinal and operator tables' own keys and the negations. One
 * Set lookup per word rather than four property reads, each of which makes the word a property key:
 * packFacets 650-728 -> 610-682 µs p50 on ~890-character workload prompts (3 runs interleaved with main,
 * load 13), the same facets on every string of ../shared/data up to 1,000 characters (221,802).
 */
const FACET_WORDS: ReadonlySet<string> = new Set([
  ...[NUMBER_WORDS, NUMBER_SCALES, ORDINAL_WORDS, OPERATOR_WORDS].flatMap((table) => Object.keys(table)),
  ...NEGATIONS,
]);

/** Words that other facets already compare exactly: numbers, operators, negations. */
function isFacetWord(word: string): boolean {
  return FACET_WORDS.has(word);
}

/**
 * `table[word]` for the number, scale, ordinal and operator tables: read only for a facet word, as
 * what the read finds for any other word is undefined (FACET_WORDS holds every key it finds something
 * at). Most words are no facet word, and the property read makes each a property key: numberAt's read
 * alone held 4.4% of packFacets' samples (bun --cpu-prof, workload prompts).
 */
function tableValue<T>(table: Readonly<Record<string, T>>, word: string): T | undefined {
  return isFacetWord(word) ? table[word] : undefined;
}

/** The stem by which `content` counts a lower-case word; undefined for what it leaves out (function words, numbers, short words). */
export function contentStem(word: string): string | undefined {
  if (!/^\p{Ll}{3,}$/u.test(word) || FUNCTION_WORDS.has(word) || DISCOURSE_WORDS.has(word) || isFacetWord(word)) return undefined;
  return stem(word);
}

function addContent(content: Map<string, number>, word: string): void {
  const s = contentStem(word);
  if (s !== undefined) content.set(s, (content.get(s) ?? 0) + 1);
}

/**
 * Two-letter words that are not grammar ("px" / "em", "$a -eq $b" / "-ne", "ui" / "ux") are too short
 * for `content` (contentStem reads three letters or more), so nothing compared them: a blind author's
 * "Set the CSS margin to 2em." / "2px." and the bash "-eq" / "-ne" pair were served (pairs-5, 2 of its 3
 * false hits, `bun bench/cache-eval.ts --pairs pairs-5.json`). They are compared exactly, as literals;
 * units, numbers and operators among them have facets of their own.
 */
const TWO_LETTER_GRAMMAR: ReadonlySet<string> = new Set("of to in it is be as at so we he by or on do if me my up an am us go no ok oh hi vs".split(" "));

function isShortCode(lower: string): boolean {
  return lower.length === 2 && /^\p{Ll}{2}$/u.test(lower) && !TWO_LETTER_GRAMMAR.has(lower) && !isFacetWord(lower) && unitOf(lower, true) === undefined;
}

/** "five-year-old" and "twenty-five" hold numbers; the hyphen would hide them inside one word. */
const NUMBER_WORD_HYPHEN = new RegExp(`\\b(${Object.keys({ ...NUMBER_WORDS, ...NUMBER_SCALES }).join("|")})-(?=\\p{L})`, "giu");

const CONTRACTED = wordTable<string>({ re: "are", ve: "have", ll: "will", d: "would" });

/** Spells out what hides negations and operators inside words ("don't", "cannot", "3x4", "five-year-old") and undots abbreviations. */
function normalizeForTokens(text: string): string {
  return (
    text
      .replace(/\b(can)['’]?t\b/gi, "$1 not")
      .replace(/\bwon['’]t\b/gi, "will not")
      .replace(/\b(\w+)n['’]t\b/gi, "$1 not")
      .replace(/\bcannot\b/gi, "can not")
      // "I'm thinking" is "I am thinking": the pronoun must stay a word of its own for the role check.
      .replace(/\b(i)['’]m\b/gi, "$1 am")
      .replace(/\b(\w+)['’](re|ve|ll|d)\b/gi, (_, w: string, c: string) => `${w} ${CONTRACTED[c.toLowerCase()]}`)
      .replace(/\b(it|that|there|what|he|she|who|where|how|here)['’]s\b/gi, "$1 is")
      .replace(/(\d)\s*[xX]\s*(?=\d)/g, "$1 × ")
      // "U.N." and "UN", "e.g." and "eg" are one word; dotted, they would read as a dotted identifier.
      .replace(/\b(?:\p{L}\.){2,}(?!\p{L})/gu, (m) => m.replaceAll(".", ""))
      .replace(NUMBER_WORD_HYPHEN, "$1 ")
      // After an operator, "b-c" between single letters is a minus, not a hyphenated word: "a+b-c" is not "a+b".
      .replace(/(?<=[+*/=^]\s*)(\p{L})-(?=\p{L}(?![\p{L}\p{N}_]))/gu, "$1 - ")
  );
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let startOfSentence = true;
  for (const m of text.matchAll(TOKEN)) {
    const word = /[\p{L}_]/u.test(m[0][0] ?? "");
    // Trailing dots and hyphens belong to the sentence, not the word ("C++." / "well-").
    let trimmed = word ? m[0].replace(/[.'’@-]+$/u, "") : m[0];
    // A name written with "++" or "--" is a name and an operator, unless "++" names a language ("C++").
    const step = word ? (/--$/.test(m[0]) ? "--" : /\+\+$/.test(trimmed) && !PROGRAMMING_LANGUAGES[trimmed.toLowerCase()] ? "++" : undefined) : undefined;
    if (step === "++") trimmed = trimmed.slice(0, -2);
    const raw = trimmed.replace(/['’]s$/u, "");
    const kind: Token["kind"] = raw === "\n" ? "break" : /^\.?\d/.test(raw) ? "number" : /^[\p{L}_]/u.test(raw) ? "word" : "symbol";
    tokens.push({ text: raw, lower: raw.toLowerCase(), kind, sentenceStart: startOfSentence && kind === "word", possessive: raw !== trimmed });
    if (step) tokens.push({ text: step, lower: step, kind: "symbol", sentenceStart: false, possessive: false, postfix: true });
    if (kind === "word" || kind === "number") startOfSentence = false;
    if (kind === "break" || SENTENCE_END.has(raw) || m[0].endsWith(".")) startOfSentence = true;
  }
  return tokens;
}

function canonicalNumber(raw: string): string {
  if (raw.includes("/")) {
    // A fraction; anything else with a slash ("10.0.1.40/27", a network) is compared as written: its
    // value was NaN, and every two of them were the same number (bench/cache-eval.ts --seed 1, tune split).
    const [n, d] = raw.split("/").map(Number);
    return n !== undefined && d !== undefined && Number.isFinite(n) && Number.isFinite(d) && d !== 0 ? String(n / d) : raw;
  }
  // "1,000" and "1,000,000" are thousands; "3,5" is a European decimal.
  const plain = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(raw) ? raw.replaceAll(",", "") : raw.replace(",", ".");
  const value = Number(plain);
  return Number.isFinite(value) ? String(value) : raw;
}

function isOperand(t: Token | undefined): boolean {
  return (
    t !== undefined && (t.kind === "number" || (t.kind === "word" && /^[a-zA-Z]$/.test(t.text)) || /^[()[\]{}!]$/.test(t.text) || literalMark(t) !== undefined)
  );
}

/** Either side of an operator in code, where operands are names of any length: "total/count" is not "total*count". */
function isCodeOperand(t: Token | undefined): boolean {
  return t !== undefined && (t.kind === "word" || t.kind === "number" || BRACKETS.has(t.text) || literalMark(t) !== undefined);
}

/** Symbols that are operators only next to an operand: "*" not as a bullet, "/" not in "and/or". */
const NEEDS_OPERAND = new Set(["*", "/", "%", "&", "|", "~", "<", ">", "<<", ">>", "//"]);
/** Dashes need an operand on both sides: "5 - 3", not "- item" or "Paris - London". */
const NEEDS_OPERANDS = new Set(["-", "−"]);

/**
 * "which one", "the one", "one of": a pronoun, not the number 1. Not after "only": "stage only one
 * changed file" counts, and read as the pronoun it served "stage all changed files" (an outside
 * writer's pairs, 2026-11-27); "the only one" refused as a number is a miss, not a wrong answer.
 */
const ONE_AS_PRONOUN_BEFORE = new Set([
  "which",
  "this",
  "that",
  "the",
  "every",
  "each",
  "any",
  "no",
  "some",
  "another",
  "other",
  "little",
  "right",
  "wrong",
  "new",
  "old",
  "same",
  "first",
  "last",
  "next",
]);
/** "one of", and "one would", "one can": the generic pronoun ("one would need 16 million" / "it would need 16 million"). */
const ONE_AS_PRONOUN_AFTER = new Set(["of", "would", "could", "should", "can", "must", "might", "may", "ought", "needs", "has"]);

function numberWordsValue(tokens: readonly Token[], i: number): { value: number; end: number } | undefined {
  let total = 0;
  let current = 0;
  let j = i;
  let seen = false;
  // What the last number word was: a word after it joins the number only as English writes one ("twenty-five",
  // "three hundred and five", "a million two"); "two and three" or "one and four" are two numbers, which read as
  // one (5) made "the difference between two and three" one question with "between one and four".
  let last: "unit" | "tens" | "scale" | undefined;
  while (j < tokens.length) {
    const t = tokens[j]!;
    const unit = tableValue(NUMBER_WORDS, t.lower);
    const scale = tableValue(NUMBER_SCALES, t.lower);
    if (unit !== undefined) {
      if (seen && last !== "scale" && !(last === "tens" && unit < 10)) break;
      current += unit;
      seen = true;
      last = unit >= 20 && unit % 10 === 0 ? "tens" : "unit";
    } else if (scale !== undefined && seen) {
      current = Math.max(current, 1) * scale;
      if (scale >= 1000) {
        total += current;
        current = 0;
      }
      last = "scale";
    } else if (!seen || !((t.text === "-" && last === "tens") || (t.lower === "and" && last === "scale"))) break;
    j++;
  }
  if (!seen) return undefined;
  // A trailing "-" or "and" is not part of the number.
  while (j > i && (tokens[j - 1]!.text === "-" || tokens[j - 1]!.lower === "and")) j--;
  return { value: total + current, end: j };
}

/** The number that number words from `i` on spell ("twenty-five"), unless "one" is the pronoun there. */
function numberAt(tokens: readonly Token[], i: number): { value: number; end: number } | undefined {
  const t = tokens[i];
  if (t === undefined || tableValue(NUMBER_WORDS, t.lower) === undefined) return undefined;
  if (t.lower === "one" && (ONE_AS_PRONOUN_BEFORE.has(tokens[i - 1]?.lower ?? "") || ONE_AS_PRONOUN_AFTER.has(tokens[i + 1]?.lower ?? ""))) return undefined;
  return numberWordsValue(tokens, i);
}

/**
 * A quotation of a few plain words: scare quotes or a term ("will 'respond' if", "the 'term'"), which
 * the same prompt may also write without quotes. Code, symbols and digits stay strict literals.
 */
const PLAIN_QUOTE = /^["“']\s*(\p{L}+(?:['’-]\p{L}+)*(?:\s+\p{L}+(?:['’-]\p{L}+)*){0,5})\s*[.,?!]?\s*["”']$/u;

/**
 * Where a literal stood, it leaves a mark (a private-use character, one per literal: the first
 * U+E000, the next U+E001...) that the symbol stream reads as an operand and as the literal itself:
 * "f(x) * g(x)" / "f(x) / g(x)" and "f(x) / g(x)" / "g(x) / f(x)" differ in their operators and their
 * order, which a literal cut out of the text took with it (the hold-out of issue 24's fourth session
 * served such a pair). Private-use characters in the prompt itself are read as no mark.
 */
const LITERAL_MARK_BASE = 0xe000;
const LITERAL_MARKS = 0x1900;
const PRIVATE_USE = /[\ue000-\uf8ff]/g;

function literalMark(t: Token | undefined): number | undefined {
  const code = t?.kind === "symbol" && t.text.length === 1 ? t.text.charCodeAt(0) - LITERAL_MARK_BASE : -1;
  return code >= 0 && code < LITERAL_MARKS ? code : undefined;
}

function extractLiterals(text: string): { literals: string[]; quoted: string[]; rest: string } {
  const literals: string[] = [];
  const quoted: string[] = [];
  let rest = text.replace(PRIVATE_USE, "\ufffd");
  for (const pattern of LITERAL_PATTERNS) {
    rest = rest.replace(pattern, (m) => {
      const plain = PLAIN_QUOTE.exec(m)?.[1];
      if (plain !== undefined) {
        quoted.push(plain.toLowerCase().replace(/\s+/g, " "));
        return ` ${plain} `;
      }
      literals.push(m.replace(/[ \t]+$/gm, "").replace(/^["“'`]+|["”'`]+$/g, ""));
      return literals.length <= LITERAL_MARKS ? ` ${String.fromCharCode(LITERAL_MARK_BASE + literals.length - 1)} ` : " ";
    });
  }
  return { literals, quoted, rest };
}

/** Around a lower-case "go" these make it the verb: "have to go look", "go to", "go with option A". */
const MOTION_WORDS: ReadonlySet<string> = new Set(["to", "into", "in", "with"]);

/** Two or more capital letters standing alone ("angles A, B and C", "let S ⊂ R"): letters there name variables, not languages. */
function hasLetterVariables(tokens: readonly Token[]): boolean {
  let first = "";
  for (const t of tokens) {
    if (t.kind !== "word" || t.text.length !== 1 || t.text === "I" || t.text === "A" || !/\p{Lu}/u.test(t.text)) continue;
    if (first === "") first = t.text;
    else if (t.text !== first) return true;
  }
  return false;
}

function languageOf(tokens: Token[], i: number, letterVariables: boolean): string | undefined {
  const t = tokens[i]!;
  const known = PROGRAMMING_LANGUAGES[t.lower];
  if (known) return known;
  if (NATURAL_LANGUAGES.has(t.lower)) return t.lower;
  const ambiguous = AMBIGUOUS_LANGUAGES[t.lower];
  if (!ambiguous) return undefined;
  const before = tokens[i - 1]?.lower ?? "";
  const after = tokens[i + 1]?.lower ?? "";
  // "C", "R", "D" as capital letters standing alone are the languages, unless letters name variables; "Go" needs code context.
  if (t.lower !== "go" && t.text === t.text.toUpperCase() && !t.sentenceStart && !letterVariables) return ambiguous;
  if (t.text === "go")
    return (CODE_CONTEXT_WORDS.has(before) && !MOTION_WORDS.has(before)) || (CODE_CONTEXT_WORDS.has(after) && !MOTION_WORDS.has(after)) ? ambiguous : undefined;
  return CODE_CONTEXT_WORDS.has(before) || CODE_CONTEXT_WORDS.has(after) ? ambiguous : undefined;
}

/** Words a title leaves in lower case ("Lord of the Rings", "Trip to Paris"). */
const TITLE_LOWER: ReadonlySet<string> = new Set(
  "a an the and but or nor for so yet as at by in of off on to up via vs per from into onto over with".split(" "),
);

/**
 * Whether the capitalised word at i is a name of its own: an acronym, or a word with no capitalised word beside it.
 * A run of capitals is a title or a writer's emphasis ("A Golden Retriever jumping", "Dynamic Programming", "Bill
 * De Blasio"), where a capital is no evidence for any one word (STS pairs the annotators scored as the same).
 */
function nameOfItsOwn(tokens: readonly Token[], i: number, acronym: boolean): boolean {
  if (acronym) return true;
  // A sentence's first word is capitalised for its place ("Is Apple a good investment?").
  const capitalised = (u: Token | undefined) => u !== undefined && u.kind === "word" && !u.sentenceStart && u.text[0] !== u.lower[0];
  return !capitalised(tokens[i - 1]) && !capitalised(tokens[i + 1]);
}

/**
 * Title case ("Russian Opposition Leader Placed Under House Arrest", "Who Is The Author Of ..."):
 * nearly every word inside the sentences is capitalised, so a capital no longer tells a name from a word.
 */
function isTitleCase(tokens: readonly Token[]): boolean {
  let capitalised = 0;
  let lower = 0;
  for (const t of tokens) {
    if (t.kind !== "word" || t.sentenceStart) continue;
    // Capitalised is "Leader": not "UN" or "I", which are capitals in any text.
    if (t.text[0] !== t.lower[0]) {
      if (t.text.length > 1 && t.text[1] === t.lower[1]) capitalised++;
    } else if (!TITLE_LOWER.has(t.lower)) lower++;
  }
  return capitalised >= 3 && capitalised >= 8 * lower;
}

/** Names by their spelling: acronyms, mixed case, and (unless the text is in title case) capitals inside a sentence. */
function isEntity(t: Token, titleCase: boolean): boolean {
  if (t.kind !== "word" || NOT_ENTITIES.has(t.lower)) return false;
  const hasUpper = /\p{Lu}/u.test(t.text);
  if (!hasUpper) return false;
  const acronym = t.text.length >= 2 && t.text === t.text.toUpperCase();
  const mixed = /\p{Ll}\p{Lu}/u.test(t.text);
  return acronym || mixed || (!t.sentenceStart && !titleCase);
}

/**
 * Operator words that are also everyday words ("the product I received", "added to the oil", "log
 * in", "the power of habit"): operators only in math, with a number, a one-letter variable, a
 * bracket or a symbol within three words, or before "of" ("the sum of", "the root of"; not
 * "difference of", as in "a difference of opinion"). The others ("plus", "squared", "modulo") are
 * operators wherever they stand.
 */
const EVERYDAY_OPERATOR_WORDS: ReadonlySet<string> = new Set([
  "added",
  "sum",
  "difference",
  "product",
  "power",
  "root",
  "log",
  "remainder",
  "ratio",
  "integral",
  "integrate",
  "derivative",
  "divide",
  "divided",
  "multiply",
  "multiplied",
  "subtract",
  "subtracted",
  "exponent",
  "mod",
]);

function operatorWordAt(tokens: readonly Token[], i: number): string | undefined {
  const t = tokens[i]!;
  const op = tableValue(OPERATOR_WORDS, t.lower);
  if (op === undefined || !EVERYDAY_OPERATOR_WORDS.has(t.lower)) return op;
  if (tokens[i + 1]?.lower === "of" && t.lower !== "difference") return op;
  for (let j = Math.max(0, i - 3); j <= Math.min(tokens.length - 1, i + 3); j++) {
    const u = tokens[j]!;
    if (j === i) continue;
    if (
      u.kind === "number" ||
      tableValue(NUMBER_WORDS, u.lower) !== undefined ||
      isVariable(u) ||
      BRACKETS.has(u.text) ||
      OPERATOR_SYMBOLS[u.text] !== undefined
    )
      return op;
  }
  return undefined;
}

/** "need to" and "have to" say the same under a negation: "You do not need to worry" / "You don't have to worry". */
const NEED = new Set(["need", "needs", "needed"]);

/** The word a negation cue applies to, as the negated facet compares it: by stem, so "not working" is "doesn't work". */
function negatedWord(next: Token | undefined, after: Token | undefined): string {
  if (next?.kind !== "word" && next?.kind !== "number") return "";
  if (NEED.has(next.lower) && after?.lower === "to") return "have";
  return next.kind === "word" ? (contentStem(next.lower) ?? next.lower) : next.lower;
}

function addDirection(directions: Map<string, string>, pole: string): void {
  const pair = pole.slice(0, -1);
  const [a, b] = (directions.get(pair) ?? "0:0").split(":").map(Number) as [number, number];
  directions.set(pair, pole.endsWith("a") ? `${a + 1}:${b}` : `${a}:${b + 1}`);
}

/**
 * Greetings, thanks and polite frames at the edges of a prompt: "Hi! Can you please list ...? Thanks"
 * asks what "List ..." asks. Only at the edges, where they frame the request; inside a sentence
 * "can you" may be the question itself ("Can you swim faster than a shark?" keeps its "can").
 */
const COURTESY_LEAD = new RegExp(
  [
    // A greeting goes only before punctuation, a line break or a question: "Hello world program", "Hey
    // Jude chords", "Hi-fi speakers" and "Good morning message" name things (11 of 36 such pairs were
    // served before, an adversarial probe's).
    String.raw`^\s*(?:(?:hi|hello|hey|greetings|good (?:morning|afternoon|evening))(?: there)?(?:[ \t]*[,.!:;]+\s*|[ \t]*\n\s*|\s+(?=(?:how|what|where|when|why|who|which|can|could|would|will|is|are|do|does|i|please|quick|one|a question)\b)))?`,
    String.raw`(?:(?:quick question|one question|a question)\s*[:,.-]\s*|i was wondering,?\s*(?:if you could\s+)?|i(?:'d| would) like to know\s*[:,]?\s*|can you help me(?: with this| out)?\s*[?:.!]\s*|(?:please\s+)?help(?: me)?(?: please)?\s*[,:!]+\s*)?`,
    String.raw`(?:(?:could|can|would|will) you(?: please| kindly)?\s+(?=[a-z]+\s)(?!(?:be|do|have|know|think|swim|run|see|feel|say|rather|tell me if)\b)|please,?\s+|kindly\s+|i(?:'d| would) like you to\s+|i want you to\s+)?`,
  ].join(""),
  "i",
);
/**
 * The closing words; the run of spaces and punctuation before them goes too (stripCourtesyTail). In
 * the pattern that run was quadratic: tried from every position of a long ". . . ." run.
 */
const COURTESY_TAIL =
  /(?<![\p{L}\p{N}])(?:(?:thanks|thank you|thx)(?: (?:so|very) much)?(?: in advance)?|please|cheers|(?:can|could) you(?: please)? help(?: me)?(?: please)?\s*\?)[\s.!]*$/iu;
const TAIL_SEPARATOR = /[\s,.!]/;

function stripCourtesyTail(text: string): string {
  const m = COURTESY_TAIL.exec(text);
  if (!m) return text;
  let start = m.index;
  while (start > 0 && TAIL_SEPARATOR.test(text[start - 1]!)) start--;
  return text.slice(0, start);
}

/** The request without its courtesy: what the answer depends on. */
function withoutCourtesy(prompt: string): string {
  const stripped = stripCourtesyTail(prompt.replace(COURTESY_LEAD, ""));
  return stripped.trim() === "" ? prompt : stripped;
}

/**
 * The actions whose "where do I X" asks for the procedure of X (a place in the app or the account), not
 * a place in the world: "where do I reset my password", not "where do I print" or "where do I return it".
 * Issue 24, ninth session: report, reload (top up) and register, whose "where" the FAQ files ask as a
 * procedure (a power outage, a damaged bike, a lift card, a child for a league: 11 of the "where" / "how"
 * pairs bench/cache-misses.ts found refused on question words alone); not "save" ("where do I save the
 * file" asks a folder), "pay" ("where do I pay" asks a counter) nor "withdraw" ("where can I withdraw
 * cash" asks for an ATM). Not "report for" / "report to", which is going somewhere ("Where do I report for jury
 * duty?" was served "How do I report for jury duty?", cache9fix probe, bench/data/cache-probe9.json).
 */
const WHERE_ACTIONS =
  "reset|change|update|cancel|delete|remove|edit|enter|add|find|download|upload|see|view|check|manage|turn|enable|disable|set|get|redeem|apply|track|unsubscribe|export|import|freeze|unfreeze|lock|unlock|activate|deactivate|renew|upgrade|downgrade|submit|verify|choose|select|book|reserve|schedule|reschedule|configure|request|drop (?=(?:a|my|the) (?:course|class))|skip|hide|unhide|block|unblock|rate|tip|pause|resume|share|unshare|restore|unenroll|open|adjust|pair|link|unlink|sign up|report(?! [ft]or?\\b)|reload|top up|register";

/**
 * Ways to open a question that ask for the same procedure as "how do I": "what's the way to reset my
 * password", "is there a way to reset my password", "where do I reset my password" (where with an
 * action on something the user has: reset, change, cancel, download...; "where do I live" is no
 * "how do I live"). Only at the start of the request, followed by the action itself. Not "the best
 * way" (asks for a ranking), "is it possible to" (may ask whether at all), "how should I" (advice),
 * "how do you" (then "your" is not "my"). Issue 24's seventh session added booking and setting up
 * (book, reserve, schedule, reschedule, configure, request): "Where do I book the meeting rooms?" asks
 * the procedure (bench/data/faq-dev5.json); "where can I print" or "where do I return it" name a place
 * and stay out. "I need a way to X", "What's the process to X" (or "for X-ing", X a support action), "What should I do to X"
 * and "Where's the option to X" ask it too (issue 24, session 6 of 2026-11-27; test/cache/support-frames.test.ts).
 */
/**
 * The one-word support actions as their "-ing" forms begin ("cancel" + "ling", "chang" + "ing", "set" +
 * "ting"): "What's the process for cancelling my subscription?" asks the user's steps. Before any other
 * action the process may be the company's ("the process for approving a loan", "for shipping to Canada":
 * a review served them "How do I approve a loan?" and "How do I ship to Canada?").
 */
const WHERE_GERUND_STEMS = WHERE_ACTIONS.split("|")
  .map((action) => action.replace(/\(\?! [^)]*\)$/, ""))
  .filter((action) => /^[a-z]+$/.test(action))
  .map((action) => action.replace(/e$/, ""))
  .join("|");

const HOW_DO_I_FRAME = new RegExp(
  [
    String.raw`^\s*(?:what(?:['’]s| is) the way to|is there (?:a|any) way (?:to|for me to|(?:that )?i can)|how (?:do|can) i go about (?=[a-z]+ing\b)|what (?:do|should) i (?:have to |need to )?do to`,
    String.raw`|what(?:['’]s| is) the (?:process|procedure) (?:to (?=(?:${WHERE_ACTIONS})\b)|for (?=(?:${WHERE_GERUND_STEMS})[a-z]?ing\b))|i need a way to`,
    String.raw`|(?:where (?:do|can) i|where(?:['’]s| is) the (?:option|setting|button|link) to) (?=(?:${WHERE_ACTIONS})\b))\s*`,
  ].join(""),
  "i",
);

/**
 * "Which ocean is the largest?" asks what "Which is the largest ocean?" asks: a question word, a noun,
 * a copula and a superlative, read in the second order. Only at the start and with a superlative
 * ("-est"), where the noun can only be what the superlative ranks.
 */
const WHICH_N_IS_THE_SUPERLATIVE = /^(\s*(?:which|what))\s+([a-z]+)\s+(is|are|was|were)\s+the\s+([a-z]+est)\b/i;

/**
 * A wish followed by a bare "how" asks for the procedure of the wish: "I want to cancel my plan, how
 * do I do it?", "I'd like to open an account. How?", "I need to change my PIN, what do I do?", "I want
 * to send back an item, how does it work?" ask what
 * "how do I cancel my plan" asks. The whole request must be the wish and the question, nothing else.
 */
const WISH_THEN_HOW =
  /^\s*(?:i(?: really)?(?: want| wanna| would like|['’]d like| need|(?:['’]m| am) trying)(?: to)?|(?:want|need|trying) to) ((?:[^.,;?!\n]|,(?!\s*(?:how|what)\b))+?)\s*[,.;:!-]*\s*(?:so\s+)?(?:how(?: (?:do|can|should) i(?: do (?:it|that|this|so))?| does (?:it|that|this) work)?|what (?:do|should|can) i do(?: to do (?:it|that|this))?)\s*[?.!]*\s*$/i;

/**
 * A thing needed, then how to get "one" or "it": "I need a guest pass, how do I get one?" asks "How do I
 * get a guest pass?", the pronoun read as the thing it stands for (issue 24, session 6 of 2026-11-27:
 * bench/data/faq-frames-dev.json). One thing named by a/an/another and at most four words, and the
 * whole request: "I need two passes, how do I get them?" or "..., how do I get one for my son?" stay.
 */
const NEED_ONE_THEN_HOW =
  /^\s*i(?: need| want| would like|['’]d like) ((?:a|an|another) (?:[\p{L}-]+ ){0,3}[\p{L}-]+)\s*[,.;:!-]*\s*(?:so\s+)?how (?:do|can) i (get|request|order|buy|book|obtain) (?:one|it)\s*[?.!]*\s*$/iu;

/**
 * A secret the user chose and forgot, asked to be changed or reset, is asked to be reset: "I forgot my
 * password, how can I change it?" asks what "How do I reset my password?" asks, since a change without
 * the old secret is a reset. Only passwords, PINs, passcodes and passphrases (a forgotten username is
 * looked up, not reset), only the whole request, and only "change" or "reset" it: "How do I change my
 * password?" (the old one known) stays another request.
 */
const FORGOTTEN_SECRET =
  /^\s*i(?:['’]ve| have)? forgot(?:ten)? my ((?:[a-z]+ )?(?:password|pin|passcode|passphrase))\s*[,.;:!-]*\s*(?:so\s+)?how (?:do|can|should) i (?:change|reset) it\s*[?.!]*\s*$/i;

/**
 * The same forgotten secret said without a question, as people write to support: "I forgot my password",
 * "I can't remember my PIN", "I forgot my password and can't log in" ask for the reset (issue 24,
 * sixth session). Only the whole request and only a password, PIN, passcode or passphrase: "I forgot my
 * username", "I forgot my password hint", "I can't change my password" stay what they are.
 * (withPlainVerbs has made "log in" "login" by then.)
 */
const FORGOTTEN_SECRET_STATEMENT =
  /^\s*i(?:['’]ve| have)? (?:forgot(?:ten)?|can(?:no|['’])?t remember|can not remember|do(?: not|n['’]t) remember) my ((?:[a-z]+ )?(?:password|pin|passcode|passphrase))(?:\s*(?:,|and|so)\s*(?:now\s+)?(?:i\s+)?(?:can(?:no|['’])?t|can not|am unable to|(?:['’]m|am) not able to)\s+(?:login|get in|access my account|get into my account))?\s*[.!]*\s*$/i;

/**
 * Support actions a stated wish asks the procedure of: "I want to cancel my subscription", "I'd like to
 * delete my account", "I need to change my email address" ask what "How do I ...?" asks (issue 24, sixth
 * session). Only these verbs (not "I want to learn Python", "I need to lose weight", "I want to die"),
 * only the whole request, one sentence with no question word and nothing negated before the verb;
 * the answer to "Should I change my email?" or "Can I ...?" is another (see roleClash). Issue 24, session
 * 6 of 2026-11-27: a try ("I'm trying to X"; not "I was trying", over, nor "... but it fails", which
 * the rest keeps), the wish without its "I" ("need to X") and more actions a user does in a service
 * (pay, submit, book, schedule, withdraw, register, reload, pair, set up, add, open, sign up, adjust:
 * bench/data/faq-frames-dev.json's wishes were 0 of 44 served without them).
 */
const WISH_ACTIONS =
  "cancel|change|update|reset|delete|remove|unsubscribe|upgrade|downgrade|renew|pause|freeze|unfreeze|lock|unlock|block|unblock|reserve|reschedule|return|exchange|track|transfer|enroll|unenroll|download|upload|restore|redeem|top up|contact|activate|deactivate|verify|edit|hide|unhide|skip|dispute|appeal|replace|enable|disable|extend|link|unlink|export|import|report|get a refund|request a refund|file a claim|submit a claim|make a claim|pay|submit|book|schedule|withdraw|register|reload|pair|unpair|set up|add|open|sign up|adjust";
/** The actions of WISH_ACTIONS that are one word (no "get a refund"): the verbs a keyword query opens with (KEYWORD_REQUEST). */
const WISH_ACTIONS_ONE_WORD = WISH_ACTIONS.split("|")
  .filter((action) => /^[a-z]+$/.test(action))
  .join("|");
/**
 * A support action typed as a keyword query, the whole request a verb of WISH_ACTIONS and its bare object: "reset
 * password", "cancel subscription?", "enable captions" ask what "How do I reset my password?" asks (the issue's own
 * example; a search box or a chat opened on a help page is typed this way). Marked as the role "ask" -> "keyword",
 * which roleClash lets stand against a plain "how do I" of the asker's own (see keywordAsksSteps in verify.ts); the
 * request itself stays as written, so "reset password" / "reset my password" are still read alike (rewritten to "how
 * do I reset password", the pair lead serves was refused, and so were commands like it). Only one
 * to four plain words after the verb, none a determiner, pronoun or quantifier ("cancel my subscription" or "delete
 * the file" is a command, whose answer may be the act). Issue 24, cache14: faq-dev12 and the intent groups' wordings
 * had 32 pairs refused only on the question word ("cancel subscription" / "How do I cancel my subscription?"), the
 * largest question-form refusal left (bench/cache-intent-reach.ts --threshold=-1).
 */
const KEYWORD_REQUEST = new RegExp(
  String.raw`^\s*((?:${WISH_ACTIONS_ONE_WORD})(?: (?!(?:my|your|his|her|their|our|its|the|this|that|these|those|me|you|him|them|us|it|i|we|he|she|they|a|an|all|every|each|both|some|any|no|not|one|another)\b)[\p{L}-]+){1,4})\s*\??\s*$`,
  "iu",
);
const STATED_WISH = new RegExp(
  String.raw`^\s*(?:i(?: really)?(?: want| wanna| would like|['’]d like| need| wish|(?:['’]m| am) trying)(?: to)?|(?:want|need|trying) to) ((?:${WISH_ACTIONS})\b[^.?!\n]*?)\s*[.!]*\s*$`,
  "i",
);
/** "Help me cancel my subscription", "Please help me reset my PIN" and "Steps to cancel my subscription" ask how (the same support actions, the whole request). */
const HELP_ME = new RegExp(String.raw`^\s*(?:(?:please\s+)?help me(?: to)?|steps (?:to|for))\s+((?:${WISH_ACTIONS})\b[^.?!\n]*?)\s*[.!?]*\s*$`, "i");
/** "What should I do if I forgot my password?" asks for the reset too (see FORGOTTEN_SECRET_STATEMENT). */
const IF_FORGOTTEN_SECRET =
  /^\s*what (?:should|do|can) i do if i(?:['’]ve| have)? (?:forgot(?:ten)?|forget|can(?:no|['’])?t remember|can not remember) my ((?:[a-z]+ )?(?:password|pin|passcode|passphrase))\s*[?.!]*\s*$/i;
/** "I need help cancelling my subscription" asks "how do I cancel my subscription" (the verifier's stems read the gerund as the verb). */
const NEED_HELP_WITH = new RegExp(
  String.raw`^\s*i need help (?:with )?((?:${WISH_ACTIONS.split("|")
    .filter((a) => !a.includes(" "))
    .map((a) => `${a.replace(/e$/, "")}[a-z]?ing`)
    .join("|")})\b[^.?!\n]*?)\s*[.!]*\s*$`,
  "i",
);

/**
 * Not knowing how to do something asks how to do it: "I can't find how to cancel my booking", "I can't
 * figure out how to pair my phone", "I don't know how to export my data", "not sure how to renew my
 * permit" ask what "How do I ...?" asks (issue 24, session 6 of 2026-11-27: 0 of 84 such wordings in
 * bench/data/cache-frame-pairs.json were served, each refused for its negation). The negation is on
 * knowing, not on the action, which comes right after "how to" with the rest of the request as
 * written: "I can't cancel my booking" (the action fails), "I can't find my booking" (no "how") and
 * "I don't know whether to cancel" stay what they are. Only before the support actions of
 * WISH_ACTIONS and WHERE_ACTIONS: "I don't know how to thank you" or "... how to feel about it" asks
 * no procedure. "Where to" only with WHERE_ACTIONS ("I can't find where to cancel my plan"; not
 * "where to buy milk", a place).
 */
const DONT_KNOW_HOW = new RegExp(
  [
    String.raw`^\s*(?:(?:i\s+)?(?:can(?:no|['’])?t|can not|could(?:n['’]t| not)) (?:find|figure(?: out)?|work out|see|tell)`,
    String.raw`|(?:i\s+)?(?:do(?:n['’]t| not)|did(?:n['’]t| not)) (?:know|understand|see)`,
    String.raw`|(?:i(?:['’]m| am)\s+)?(?:not (?:sure|certain)|unsure)|i have no idea)`,
    String.raw`\s+(?:how (?:to|(?:do|can) i|i (?:can|do))(?=\s+(?:${WISH_ACTIONS}|${WHERE_ACTIONS})\b)|where (?:to|(?:do|can) i|i (?:can|do))(?=\s+(?:${WHERE_ACTIONS})\b))\s+`,
  ].join(""),
  "iu",
);

/**
 * Verbs with a particle that many people write as one word or with another verb: "turn on" / "switch
 * on" / "enable", "log in" / "sign in" / "login". Rewritten to one form before the words are read, so
 * the content check sees one word; on and off, in and out keep apart (enable / disable, login /
 * logout are direction poles too).
 */
const PARTICLE_VERBS: readonly [RegExp, string][] = [
  [/\b(?:turn|switch)(s|ed|ing)? on\b/gi, "enable"],
  [/\b(?:turn|switch)(s|ed|ing)? off\b/gi, "disable"],
  [/\b(?:log|sign)(s|ged|ed|ging|ing)? (?:in|on)(?:to)?\b|\blog-?in\b/gi, "login"],
  [/\b(?:log|sign)(s|ged|ed|ging|ing)? (?:out|off)\b|\blog-?out\b/gi, "logout"],
];

/** `base` ("enable") with the inflection the particle verb had ("turned on": "enabled"). */
function inflect(base: string, inflection: string | undefined): string {
  if (!inflection) return base;
  if (inflection === "s") return `${base}s`;
  const root = base.endsWith("e") ? base.slice(0, -1) : base;
  return inflection.endsWith("ing") ? `${root}ing` : `${root}ed`;
}

/**
 * Whether a particle verb can be in the text at all: most prompts have none. Two facet reads and a
 * comparison of 4,000 STS pairs took 1.36 times main's time with the four passes on every prompt and
 * 1.04 times with this test first (a throwaway timing, 11 interleaved rounds in one process, load 20).
 */
const PARTICLE_VERB_HINT = /turn|switch|log|sign/i;

function withPlainVerbs(request: string): string {
  if (!PARTICLE_VERB_HINT.test(request)) return request;
  let out = request;
  for (const [re, base] of PARTICLE_VERBS) out = out.replace(re, (_m, inflection: string | undefined) => inflect(base, inflection));
  return out;
}

/**
 * "Can I cancel my subscription?" asks whether the user can do something to what is theirs; the answer
 * to "How do I cancel my subscription?" says that too (how, or that it cannot be done), so the second
 * may answer the first and not the other way round (a "Yes." answers no "how"; see roleClash). Only
 * at the start, only "can/could I" (or "is it possible to", read as "can") and a support action on the
 * user's own account, order or data, written right before "my": not "Can I eat raw fish?" (asks
 * whether it is safe, which a "how" answer takes for granted), not "Can I increase my dose?", not "Can
 * I cancel the order?" (whose order?). Issue 24's sixth session added actions (reschedule, skip, hide,
 * block, restore, share, remove, add, top up...); "a" and "the" as well served no more of faq-dev4.
 * The seventh added booking something new: "Can I book / reserve / schedule / add a ...?" (a new room,
 * slot or driver is nobody else's; "the" stays out), which "How do I book a meeting room?" answers
 * (bench/data/faq-dev5.json: "can i reserve a conference room" / "How do I book a meeting room?").
 * The eighth: "another" as "a" ("Can I add another user to my account?"), a new one of a kind, only
 * after adding or booking and before a noun: "Can I skip another delivery?" or "return another item"
 * asks about a limit, which the steps of "How do I skip another delivery?" do not answer (a review).
 * Not "withdraw" nor "get a refund": "Can I withdraw my money?" and "Can I get a refund?" ask whether the
 * user may, which the steps of "How do I ..." take for granted (a review, 2026-11-27).
 */
const ABILITY_QUESTION =
  /^\s*(?:can|could)(?: i)? (?:(?:reset|change|update|cancel|delete|edit|download|upload|export|import|enable|disable|unsubscribe|redeem|track|renew|transfer|freeze|unfreeze|lock|unlock|upgrade|downgrade|pause|activate|deactivate|extend|return|exchange|modify|close|reschedule|skip|hide|unhide|block|unblock|restore|share|unshare|remove|add|top up|enroll|unenroll|refund|replace|book|reserve|schedule|pay|submit|pair|link|unlink|verify) (?:my|(?:a|an)(?! (?:lot|few|bit|little)\b))|(?:add|book|reserve|schedule) another(?= [a-z]))\b/i;

/** "Is it possible to cancel my order?" and "Am I able to cancel my order?" ask what "Can I cancel my order?" asks: whether it can be done. */
const IS_IT_POSSIBLE_TO = /^\s*(?:is it possible(?: for me)? to|am i able to)\b/i;
/**
 * "Am I allowed to X?" and "Is it OK if I X?" ask what "Can I X?" asks: a yes or no on whether the user
 * may (issue 24, session 6 of 2026-11-27: bench/data/faq-frames-dev.json's "Am I allowed to donate blood
 * if I have a tattoo?" / "Can I donate blood if I have a tattoo?"). Read as "may I" (the modal role's
 * group of "can"), not "can I": a permission is never answered by the steps of a cached "How do I ..."
 * (ABILITY_QUESTION), and a "how do I" is not served from them either (see roleClash).
 */
const MAY_I = /^\s*(?:am i allowed to|is it (?:ok|okay|alright|all right) (?:for me to|if i))\b/i;

/**
 * Asking to be told or shown how asks how: "(Can you) tell me how to reset my password", "show me how
 * to...", "explain how to...", "I'd like to know how to...", "what are the steps to...". Only at the
 * start of the request and before "to" or "I": "tell me how you reset it" asks about someone else.
 */
const TELL_ME_HOW =
  /^\s*(?:(?:tell|show|teach) me|explain(?: to me)?|i(?:['’]d| would) like to know|i want to know|i need to know|what are the (?:steps|exact steps) (?=to\b))\s*(?:how (?:to|do i|can i|i can)\b|to\b)\s*/i;

/**
 * "Do you offer a student discount?", "Do you have parking?" and "Are there any student discounts?" ask
 * what "Is there a student discount?" asks (issue 24, sixth session): whether the service has it. Only
 * at the start and only "you" (the service asked): "Do they have parking?" asks about someone else.
 */
const DO_YOU_OFFER =
  /^\s*(?:do you(?: guys)?|does your (?:app|service|company|team|office|hotel|clinic|store|shop|site|website|platform)) (?:offer|have|provide)(?: any)?\b/i;
const ARE_THERE_ANY = /^\s*are there(?: any)?\b|^\s*is there any\b/i;
/**
 * "Do you allow dogs on the ferry?" and "Do you accept credit cards?" ask what "Are dogs allowed on the
 * ferry?" and "Are credit cards accepted?" ask (issue 24, eighth session: bench/data/faq-replay.json's
 * ferry pair, refused on order). Only "you" (the service) at the start and a plural noun of at most
 * three words: "Do you allow me to ...?" or "Do you accept a cheque?" stay as written.
 */
const DO_YOU_ALLOW = /^\s*do you (allow|accept|permit) ((?:[a-z]+ ){0,2}[a-z]+s)\b(?! (?:to|me|us|him|her|them)\b)/i;
const PASSIVE_OF: Readonly<Record<string, string>> = { allow: "allowed", accept: "accepted", permit: "permitted" };
/**
 * "Is same-day delivery available?" and "Are gift cards available?" ask what "Is there same-day
 * delivery?" asks (issue 24, eighth session: bench/data/faq-dev6.json, "Is same-day delivery available?" /
 * "Do you offer same-day delivery?" refused on "available").
 * Only the whole request, "available" last, and a kind of thing, not a particular one: "Is the pool
 * available?" (free now) and "Is Dr. Lee available?" (a person's time) are no "is there"; a name after
 * "is" stays a name, which "Is there Dr. Lee?" would have to share. "available on Sundays" or "in my
 * area" adds a detail and stays as written. Nor one of a kind or a quantity ("Is a doctor available?" is
 * someone on duty now, "Do you have a doctor?" one on the staff; "Is every seat available?"), nor a
 * capital ("Is Dr Patel available?"): the match is case-sensitive, "Is"/"Are" aside (a review).
 */
const IS_AVAILABLE =
  /^\s*(?:[Ii]s|[Aa]re) (?!(?:the|my|your|our|his|her|their|its|this|that|these|those|it|he|she|they|there|you|i|we|a|an|any|every|each|all|both|few|many|some|several|no|dr|mr|mrs|ms)\b)([a-z][^?.!,;:\n]*?) available\s*([?.!]*)\s*$/;

/** "How does one renew a passport?" and "How would I renew my passport?" ask "How do I...". */
const HOW_IMPERSONAL = /^\s*how (?:does one|would i) (?=\S)/i;

/**
 * A question about what a word or phrase means, in its usual frames: "What does 'ephemeral' mean?",
 * "What is the meaning of ephemeral?", "meaning of ephemeral", "ephemeral meaning" (read as the
 * first); and about its definition: "What's the definition of ephemeral?", "ephemeral definition",
 * "Define ephemeral". Meaning and definition stay apart ("the meaning of life" is not "the definition
 * of life"); "the word", "the phrase" before it name what it is. The whole request is the frame and
 * at most four words (three lower-case ones before a trailing "meaning"); "What does it mean to be
 * free?" or "What does this mean for my taxes?" are no such frame.
 */
const MEANING_FRAMES: readonly RegExp[] = [
  /^\s*what (?:does|do) (?:the (?:word|phrase|term|expression) )?([^\s?.!]+(?: [^\s?.!]+){0,3}) mean\s*[?.!]*\s*$/i,
  /^\s*(?:what(?:['’]s| is) the )?meaning of (?:the (?:word|phrase|term|expression) )?([^\s?.!]+(?: [^\s?.!]+){0,3})\s*[?.!]*\s*$/i,
  /^\s*((?!(?:what|the|its?|a|an)\b)[\p{Ll}'’-]+(?: [\p{Ll}'’-]+){0,2}) meaning\s*[?.!]*\s*$/u,
];
const DEFINITION_FRAMES: readonly RegExp[] = [
  /^\s*(?:what(?:['’]s| is) the )?definition of ([^\s?.!]+(?: [^\s?.!]+){0,3})\s*[?.!]*\s*$/i,
  /^\s*((?!(?:what|the|its?|a|an)\b)[\p{Ll}'’-]+(?: [\p{Ll}'’-]+){0,2}) definition\s*[?.!]*\s*$/u,
];

function withDefinitionFrame(request: string): string {
  for (const frame of MEANING_FRAMES) {
    const m = frame.exec(request);
    if (m) return `what does ${m[1]!.trim()} mean`;
  }
  for (const frame of DEFINITION_FRAMES) {
    const m = frame.exec(request);
    if (m) return `define ${m[1]!.trim()}`;
  }
  return request;
}

/**
 * "How is climate different from weather?", "How does climate differ from weather?" and "How do
 * climate and weather differ?" ask "What is the difference between climate and weather?" (whose two
 * members may come in either order: see coordinate). Only the whole request, each side at most four words.
 */
const DIFFERENCE_FRAMES: readonly RegExp[] = [
  /^\s*how (?:is|are) ([^\s?.!,]+(?: [^\s?.!,]+){0,3}) different (?:from|than) ([^\s?.!,]+(?: [^\s?.!,]+){0,3})\s*[?.!]*\s*$/i,
  /^\s*how (?:does|do) ([^\s?.!,]+(?: [^\s?.!,]+){0,3}) differ from ([^\s?.!,]+(?: [^\s?.!,]+){0,3})\s*[?.!]*\s*$/i,
  /^\s*how (?:does|do) ([^\s?.!,]+(?: [^\s?.!,]+){0,3}) and ([^\s?.!,]+(?: [^\s?.!,]+){0,3}) differ\s*[?.!]*\s*$/i,
];

/**
 * "What's the difference between X and Y?" as the whole request, each side at most four words: with the frames above
 * it is written with its two sides in one order (differenceBetween).
 */
const DIFFERENCE_BETWEEN =
  /^\s*what(?:['’]s| is| are) the differences? between ([^\s?.!,]+(?: [^\s?.!,]+){0,3}) and ([^\s?.!,]+(?: [^\s?.!,]+){0,3})\s*[?.!]*\s*$/i;

/**
 * A difference is the same both ways: "the difference between baking soda and baking powder" is "How is baking powder
 * different from baking soda?", as coordinate lets single words swap ("weather and climate"); sides of two words or
 * more were refused on order (bench/data/cache-pairs-dev9.json: 2 paraphrases). The sides in sorted order, each as
 * written; a side that differs in any word still differs ("a process and a thread" / "a thread and a fiber").
 */
function differenceBetween(x: string, y: string): string {
  // Not numbers, nor anything that is not words: "the difference between 10 and 4" may be signed, as coordinate keeps numbers in order.
  // Nor math spelled in words, with a variable or an operator word: "the difference between x squared and y squared" is
  // x² - y², not y² - x² (bench/data/cache-probe11.json's review: lead served the pair).
  if (![x, y].every((side) => /^[\p{L}'’ -]+$/u.test(side.trim()) && !NUMBER_WORD_SIDE.test(side) && !MATH_WORD_SIDE.test(side)))
    return `what is the difference between ${x.trim()} and ${y.trim()}?`;
  const [first, second] = [x.trim(), y.trim()].sort((p, q) => p.replace(/^(?:the|a|an) /i, "").localeCompare(q.replace(/^(?:the|a|an) /i, "")));
  return `what is the difference between ${first} and ${second}?`;
}

/** A one-letter variable (not the article "a", nor "I") or an operator word ("squared", "plus", "minus"). */
const MATH_WORD_SIDE = new RegExp(`(?:^|\\s)(?![ai]\\b)\\p{L}(?=\\s|$)|\\b(?:${Object.keys(OPERATOR_WORDS).join("|")})\\b`, "iu");
const NUMBER_WORD_SIDE = new RegExp(`\\b(?:${Object.keys({ ...NUMBER_WORDS, ...NUMBER_SCALES }).join("|")})\\b`, "i");

/** Every frame withDifferenceFrame reads, built once rather than copied on each lookup's canonicalRequest. */
const EVERY_DIFFERENCE_FRAME: readonly RegExp[] = [...DIFFERENCE_FRAMES, DIFFERENCE_BETWEEN];

function withDifferenceFrame(request: string): string {
  for (const frame of EVERY_DIFFERENCE_FRAME) {
    const m = frame.exec(request);
    if (m) return differenceBetween(m[1]!, m[2]!);
  }
  return request;
}

/** "What does a passport cost?", "What is the price of a passport?" and "What's the cost of a passport?" ask "How much does a passport cost?". */
const WHAT_COST = /^\s*what (does|do) (.+?) cost\b/i;
const PRICE_OF = /^\s*what(?:['’]s| is) the (?:price|cost) of ([^\s?.!,]+(?: [^\s?.!,]+){0,5})\s*([?.!]*)\s*$/i;
/**
 * "How much is the annual pass?" asks "How much does the annual pass cost?" (issue 24, eighth session:
 * bench/data/faq-dev6.json). Only the whole request and a thing named with an article: "How much is
 * left?" or "How much is 5 times 3?" are no price.
 */
const HOW_MUCH_IS = /^\s*how much (?:is|are) ((?:the|a|an) [^\s?.!,]+(?: [^\s?.!,]+){0,4})\s*([?.!]*)\s*$/i;
/**
 * "How much do you charge for a dog walk?" asks "How much does a dog walk cost?": the service's charge is
 * the customer's cost (issue 24, ninth session: bench/data/faq-dev9.json; 10 more pairs of the FAQ files
 * were refused on "charge" / "cost" alone). Only "you" (the service asked) and the whole request: "How much
 * do they charge?" asks about someone else, "Do you charge for shipping?" asks yes or no.
 */
const HOW_MUCH_YOU_CHARGE = /^\s*how much do you charge for ((?:(?:the|a|an)\s+)?[^\s?.!,]+(?: [^\s?.!,]+){0,4})\s*([?.!]*)\s*$/i;
/** "How much time does it take to..." asks "How long does it take to...". */
const HOW_MUCH_TIME = /^\s*how much time (does|do|will|would) /i;
/**
 * "How long will the installation take?" and "How much would it cost to fix my screen?" ask what "How long
 * does ... take?" and "How much does ... cost?" ask: a process's duration and a price are the same asked
 * ahead (issue 24, ninth session; the tense role refused "will" on one side, as it must for "Will my
 * prescription be refilled?" / "Has it been ...?"). Only these two frames, opening the request; "How long
 * did it take?" and "How much did it cost?" (past) stay apart.
 */
const HOW_LONG_WILL_TAKE = /^(\s*how long) (?:will|would) (.+?) take\b/i;
const HOW_MUCH_WILL_COST = /^(\s*how much) (?:will|would) (.+?) cost\b/i;

/**
 * A phrase of place, tool or standing fronted before a question and set off by a comma, moved to the question's end:
 * "In Python, how can I detect duplicates in a list?" asks what "How can I detect duplicates in a list in Python?"
 * asks, "With CSS, how do I center a div?" what "How do I center a div with CSS?" asks, "As a non-resident, how can
 * I open a bank account?" what "How can I open a bank account as a non-resident?" asks; a fronted adverbial
 * modifies the whole question wherever it stands (bench/data/cache-pairs-dev9.json: 5 such paraphrases refused on
 * order). Only one sentence, a question word or an auxiliary after the comma, and no comma, verb-like "-ing" or
 * second clause inside the phrase: "In case it fails, how do I ..." (a condition) and "If ..." stay as written. Nor a
 * phrase ending in the answer's form or length ("In a sentence, how do I use a semicolon?" asks briefly what "How do I use
 * a semicolon in a sentence?" asks of its use; "In one paragraph, how do I write a cover letter?": lead served 6 such pairs
 * to this branch's review, after bench/data/cache-probe11.json), which at the end is the form of what the user makes.
 */
const FRONTED_PHRASE =
  /^(\s*)(in|with|on|for|as|using|at|during|from|by|inside|within)\s+((?:(?!case\b|order\b|that\b|which\b|if\b|when\b)[\p{L}\p{N}'’-]+\s+){0,4}?(?!case\b|order\b|(?:words?|sentences?|paragraphs?|lines?|pages?|detail|points|steps|terms)\b)[\p{L}\p{N}'’-]+),\s+((?:how|what|what['’]s|where|when|why|which|who|can|could|should|is|are|do|does)\b[^?.!\n]*?)\s*([?.!]?)\s*$/iu;

/**
 * "The Mona Lisa was painted by whom?" asks "Who painted the Mona Lisa?": a passive whose agent is the question is its
 * active (bench/data/cache-pairs-dev9.json: 4 such paraphrases refused on order). Only the whole request, a single
 * participle of "-ed" or "-en" (regular verbs, whose participle is their past: "invented", "discovered"; "written"
 * stays "written", which "wrote" does not meet), and "by who / whom" closing it.
 */
const PASSIVE_BY_WHOM = /^\s*(?:(the|a|an)\s+)?([^?.!,]+?)\s+(?:was|were)\s+(\p{L}+(?:ed|en))\s+by\s+(?:whom|who)\s*([?]*)\s*$/iu;

/** Whether PASSIVE_BY_WHOM can match at all: few requests say "by who", and every lookup's query comes through here. */
const BY_WHOM = /\bby\s+whom?\b/i;

/**
 * The request with its question frame read as "how do I" (see HOW_DO_I_FRAME, TELL_ME_HOW,
 * WISH_THEN_HOW, FORGOTTEN_SECRET, HOW_IMPERSONAL), "can" (IS_IT_POSSIBLE_TO), "which is the largest N" (see
 * WHICH_N_IS_THE_SUPERLATIVE), "what does X mean" and "define X" (MEANING_FRAMES, DEFINITION_FRAMES),
 * "what is the difference between X and Y" (DIFFERENCE_FRAMES), "how much does it cost" (WHAT_COST, PRICE_OF,
 * HOW_MUCH_IS, HOW_MUCH_YOU_CHARGE), "how long", "is there" (IS_AVAILABLE, DO_YOU_OFFER) and "are X allowed" (DO_YOU_ALLOW),
 * after a fronted phrase is moved to its end (FRONTED_PHRASE) and "X was V-ed by whom" read "who V-ed X" (PASSIVE_BY_WHOM).
 */
function withCanonicalFrame(request: string): string {
  const fronted = request.replace(FRONTED_PHRASE, "$1$4 $2 $3$5");
  const active = BY_WHOM.test(fronted)
    ? fronted.replace(
        PASSIVE_BY_WHOM,
        (_m, det: string | undefined, what: string, verb: string, mark: string) => `who ${verb} ${det ? `${det.toLowerCase()} ` : ""}${what}${mark}`,
      )
    : fronted;
  return withDifferenceFrame(
    withDefinitionFrame(
      withRequestPhrases(withPlainVerbs(active))
        .replace(NEED_ONE_THEN_HOW, "how do I $2 $1")
        .replace(WISH_THEN_HOW, "how do I $1")
        .replace(FORGOTTEN_SECRET, "how do I reset my $1")
        .replace(FORGOTTEN_SECRET_STATEMENT, "how do I reset my $1")
        .replace(STATED_WISH, "how do I $1")
        .replace(NEED_HELP_WITH, "how do I $1")
        .replace(HELP_ME, "how do I $1")
        .replace(DONT_KNOW_HOW, "how do I ")
        .replace(IF_FORGOTTEN_SECRET, "how do I reset my $1")
        .replace(IS_IT_POSSIBLE_TO, "can")
        .replace(MAY_I, "may I")
        .replace(TELL_ME_HOW, "how do I ")
        .replace(HOW_IMPERSONAL, "how do I ")
        .replace(HOW_DO_I_FRAME, "how do I ")
        .replace(WHICH_N_IS_THE_SUPERLATIVE, "$1 $3 the $4 $2")
        .replace(WHAT_COST, "how much $1 $2 cost")
        .replace(PRICE_OF, "how much does $1 cost$2")
        .replace(HOW_MUCH_IS, "how much does $1 cost$2")
        .replace(HOW_MUCH_YOU_CHARGE, "how much does $1 cost$2")
        .replace(HOW_MUCH_TIME, "how long $1 ")
        .replace(HOW_LONG_WILL_TAKE, "$1 does $2 take")
        .replace(HOW_MUCH_WILL_COST, "$1 does $2 cost")
        .replace(IS_AVAILABLE, "is there $1$2")
        .replace(DO_YOU_ALLOW, (_m, verb: string, what: string) => `are ${what} ${PASSIVE_OF[verb.toLowerCase()]}`)
        .replace(DO_YOU_OFFER, "is there")
        .replace(ARE_THERE_ANY, "is there"),
    ),
  );
}

const BRACKETS: ReadonlySet<string> = new Set(["(", ")", "[", "]", "{", "}"]);
/**
 * A literal in the symbol stream ("`f(x)`" between operators) is this prefix and, once the facets are
 * read, its place in the sorted `literals`: a hit needs equal `literals`, so the place names the same
 * text in both prompts, and a large code literal is kept once, not twice.
 */
const LITERAL_SYMBOL = "lit:";
/** A literal's slot (see readSlots): this prefix and, once the facets are read, its place in the sorted `literals`. */
const LITERAL_SLOT = "l:";
/** "how" before these asks a quantity, its own question word. */
const HOW_QUANTITY: ReadonlySet<string> = new Set([
  "much",
  "many",
  "long",
  "often",
  "far",
  "old",
  "big",
  "large",
  "small",
  "fast",
  "high",
  "tall",
  "deep",
  "early",
  "late",
  "soon",
]);

/** Opening a sentence, these make it a yes-or-no question. */
const AUXILIARIES: ReadonlySet<string> = new Set("do does did is are was were am can could will would should shall may might must has have had".split(" "));

/** Words that open a statement as its subject when an auxiliary follows ("it is", "there are", "I can"). */
const SUBJECTS: ReadonlySet<string> = new Set(["i", "you", "we", "he", "she", "it", "they", "there", "this", "that"]);

/**
 * Quantifiers are kept in the order written, with repeats: "include every heading ... any other
 * words" is not "include some heading ... any other words", though both use both forces.
 */
const ORDERED_ROLES: ReadonlySet<string> = new Set(["quantity"]);
/**
 * "one of" as a quantifier: "Is one of the numbers even?" is not "Is any of the numbers even?", nor "Every one of
 * the variables is undefined" "One of the variables is undefined" (the second adversarial probe served both,
 * bench/data/cache-probe10.json).
 */
const ONE_OF: Role = ["quantity", "one"];
/**
 * Quantifiers of two words that say otherwise than their head: "every other row" is every second one, not
 * "every row"; "a few people" is some, where "few people" is hardly any (bench/data/cache-probe11.json: lead
 * served both pairs).
 */
const EVERY_OTHER: Role = ["quantity", "every other"];
const A_FEW: Role = ["quantity", "a few"];
/**
 * "both X and Y" coordinates two things, which "X and Y" names as well ("claimed by both India and Pakistan" /
 * "divided between India and Pakistan", SemEval pairs scored equivalent): an "and" within four words, in the same sentence.
 */
function coordinates(tokens: readonly Token[], i: number): boolean {
  for (let j = i + 2; j <= i + 5 && j < tokens.length; j++) {
    const t = tokens[j]!;
    if (t.lower === "and") return true;
    if (t.kind === "break" || CLAUSE_END.has(t.text)) return false;
  }
  return false;
}
/**
 * Amount words count what follows them ("many rooms", "a few coupons", "most plans", "several users"): the "count"
 * role, which verify.ts refuses on one side only. Not as adverbs or after "how", "too", "so", "very", "as" ("most
 * likely", "The questions are many", "how much", "thank you very much"), where the quantity role alone stays.
 */
const AMOUNT_WORDS: ReadonlySet<string> = new Set(["many", "much", "few", "most", "several"]);
const AMOUNT_ADVERB_BEFORE: ReadonlySet<string> = new Set(["how", "too", "so", "very", "as", "that", "this"]);
function countsNoun(prev: Token | undefined, next: Token | undefined): boolean {
  return (
    next?.kind === "word" &&
    !next.lower.endsWith("ly") &&
    next.lower !== "of" &&
    RELATIONS[next.lower] === undefined &&
    !AMOUNT_ADVERB_BEFORE.has(prev?.lower ?? "")
  );
}
/** "at all", "first of all", "after all", "above all" closing a phrase: idioms, no quantity ("Firstly" / "First of all"). */
const ALL_IDIOM_BEFORE: ReadonlySet<string> = new Set(["at", "of", "after", "above"]);

function addRole(roles: Map<string, string[]>, [role, group]: Role): void {
  const groups = roles.get(role) ?? [];
  if (ORDERED_ROLES.has(role) || !groups.includes(group)) roles.set(role, [...groups, group]);
}

/** Verbs that follow "which" or "what" as a question's verb, not as a noun it picks ("which causes rain", "what makes sense"). */
const VERB_AFTER_WH: ReadonlySet<string> = new Set([
  "happens",
  "happened",
  "causes",
  "caused",
  "makes",
  "made",
  "means",
  "meant",
  "matters",
  "counts",
  "works",
  "comes",
  "goes",
  "remains",
  "seems",
  "looks",
  "sounds",
  "needs",
  "helps",
  "says",
  "said",
  "costs",
  "takes",
  "gives",
  "uses",
]);

/** A one-letter name ("x", "table A"); "a", "I" and a sentence's opening "A" are words. */
function isVariable(t: Token): boolean {
  return t.kind === "word" && t.text.length === 1 && /\p{L}/u.test(t.text) && t.text !== "I" && t.text !== "a" && !(t.text === "A" && t.sentenceStart);
}
const TYPESET_MATH: ReadonlySet<string> = new Set(["×", "·", "÷", "−"]);

/**
 * Relation words, each with the role it gives the word after it ("into", "onto", "toward(s)" are "to").
 * A word both prompts share must follow the same relation word in both ("from a tenant" / "to a
 * tenant"). Where only one prompt has one, that refuses only for STRICT_RELATIONS: "for" and "of"
 * also build what a compound says ("recipes for pasta" / "pasta recipes", which the order check then
 * decides), and a "to" before a bare word may mark an infinitive (WEAK_TO: "how to reset" / "how do I reset").
 */
const RELATIONS = wordTable<string>({
  from: "from",
  to: "to",
  into: "to",
  onto: "to",
  toward: "to",
  towards: "to",
  than: "than",
  vs: "vs",
  versus: "vs",
  by: "by",
  for: "for",
  of: "of",
});
export const STRICT_RELATIONS: ReadonlySet<string> = new Set(["from", "to", "than", "vs", "by"]);
/** "to" before a bare word ("to reset", "to miles"): an infinitive or a preposition; it agrees with "to" and with no relation word. */
export const WEAK_TO = "to?";
const CLAUSE_END: ReadonlySet<string> = new Set([".", "!", "?", ";", ":"]);
/** May stand between a conjunction and its conjunct ("the apples and the pears"). */
const DETERMINERS: ReadonlySet<string> = new Set([
  "the",
  "a",
  "an",
  "my",
  "your",
  "our",
  "their",
  "his",
  "her",
  "its",
  "this",
  "that",
  "these",
  "those",
  "some",
]);
/** Words that take a list: "Compare Python and Java" coordinates as "the difference between Python and Java" does. */
const LIST_VERBS: ReadonlySet<string> = new Set(["compare", "contrast", "list", "name", "define", "summarize", "summarise", "between", "among", "amongst"]);

/** The value of a scale word, singular or plural ("billion", "millions"), or undefined. */
function scaleValue(word: string): number | undefined {
  return tableValue(NUMBER_SCALES, word) ?? (word.endsWith("s") ? tableValue(NUMBER_SCALES, word.slice(0, -1)) : undefined);
}

function slotKey(t: Token | undefined, titleCase: boolean): string | undefined {
  if (t === undefined) return undefined;
  if (t.kind === "number") return `n:${canonicalNumber(t.text)}`;
  if (t.kind !== "word") return undefined;
  const s = contentStem(t.lower);
  if (s !== undefined) return `c:${s}`;
  if (/^\p{Ll}+(?:-\p{Ll}+)+$/u.test(t.lower)) return `c:${t.lower}`;
  const op = tableValue(OPERATOR_WORDS, t.lower);
  if (op !== undefined) return `o:${op}`;
  const ordinal = tableValue(ORDINAL_WORDS, t.lower);
  if (ordinal !== undefined) return `n:#${ordinal}`;
  // A scale word alone has its place like a number: "Is a million bigger than a billion?" is not the reverse.
  const scale = scaleValue(t.lower);
  if (scale !== undefined) return `n:x${scale}`;
  if (isEntity(t, titleCase)) return `e:${t.lower}`;
  if (isVariable(t)) return `v:${t.text}`;
  // An identifier is an argument in its place, as a literal is: "a foreign key from orders.customer_id
  // referencing customers.id" is another key with the two exchanged (pairs-4, written blind, served it).
  if (isIdentifier(t)) return `${LITERAL_SLOT}${t.text}`;
  return undefined;
}

/**
 * "a" (or "A", "I") beside an operator is a variable, not a word: "set d - a" / "set a - d" swap two
 * variables (bench/cache-eval.ts, swapped operands, test split: served before).
 */
function articleAsVariable(tokens: readonly Token[], i: number): string | undefined {
  const t = tokens[i]!;
  if (t.kind !== "word" || !/^[aAI]$/.test(t.text)) return undefined;
  const isOperator = (x: Token | undefined) => x?.kind === "symbol" && (OPERATOR_SYMBOLS[x.text] !== undefined || x.text === "=");
  return isOperator(tokens[i - 1]) || isOperator(tokens[i + 1]) ? `v:${t.text}` : undefined;
}

type PlacedSlot = Slot & { at: number };

/**
 * Giving, getting and showing said of the user or someone else: "When do I hand over (give) the keys?" is not "When
 * do I get the keys?", "Do I need to give my ID?" not "... show my ID?", "give up my account" not "give my account"
 * (cache9fix probe, bench/data/cache-probe9.json: "hand over" read as "give" and "receive a X" as "get a X" met these
 * verbs, which STOP_WORDS drops as the frame of a request, and 3 such pairs were served; main served "How do I get a
 * refund?" for "How do I give a refund?" already). Not when the requester is the one given or shown ("give me",
 * "show us"), nor when the assistant is asked ("Give an example", "can you (please) show"): that is the request's
 * frame, and the giving goes to whoever asks. Nor when someone else gives or gets: one's giving is the other's getting.
 */
const GIVING: ReadonlySet<string> = new Set(["give", "gives", "gave", "giving"]);
const GETTING: ReadonlySet<string> = new Set(["get", "gets", "got", "gotten", "getting"]);
const SHOWING: ReadonlySet<string> = new Set(["show", "shows", "showed", "shown", "showing"]);
const GIVE_PARTICLES: ReadonlySet<string> = new Set(["up", "away", "back", "in", "out", "off"]);

function transferPoles(tokens: readonly Token[], i: number): string[] {
  const t = tokens[i]!;
  const giving = GIVING.has(t.lower);
  if (!giving && !GETTING.has(t.lower) && !SHOWING.has(t.lower)) return [];
  const before = tokens[i - 1];
  if (before === undefined || before.kind === "break" || CLAUSE_END.has(before.text)) return [];
  if (/^(?:me|us)$/.test(tokens[i + 1]?.lower ?? "")) return [];
  // "you" asked to give or show ("can you (please) show") is the request's frame; "you" who gave or got ("Did you receive
  // (get) a gift?" / "Did you give a gift?", served: second adversarial probe, bench/data/cache-probe10.json) is a side.
  const you = before.lower === "you" ? i - 1 : tokens[i - 2]?.lower === "you" ? i - 2 : -1;
  if (you >= 0 && (tokens[you - 1] === undefined || /^(?:can|could|would|will|please)$/.test(tokens[you - 1]!.lower))) return [];
  // Only the user's giving or getting: "How do I give the walker my keys?" is "How does the walker get my keys?" (faq-dev9).
  if (before.lower !== "to" && ![1, 2, 3, 4].some((back) => /^(?:i|we|you)$/.test(tokens[i - back]?.lower ?? ""))) return [];
  if (!giving) return [GETTING.has(t.lower) ? "give/getb" : "give/showb"];
  return ["give/geta", "give/showa", `give/give up${GIVE_PARTICLES.has(tokens[i + 1]?.lower ?? "") ? "b" : "a"}`];
}

/**
 * "all of your stores" is not "one of your stores": which of them a question is about, where both name it with "of"
 * (main served "Is one of your stores open 24 hours?" for "Are all of your stores open 24 hours?", cache9fix probe).
 */
const QUANTIFIERS: Readonly<Record<string, "a" | "b">> = wordTable({ all: "a", each: "a", every: "a", both: "a", one: "b", some: "b", any: "b", either: "b" });

/**
 * A determiner with no noun after it stands for one: "gave her $50 for her to buy" has the pronoun
 * "her" after "for", and "by her to buy" is another request (bench/cache-eval.ts served it as one).
 */
function standsAlone(next: Token | undefined): boolean {
  return (
    next === undefined || (next.kind !== "word" && next.kind !== "number") || RELATIONS[next.lower] !== undefined || next.lower === "and" || next.lower === "or"
  );
}

/**
 * Words whose "between X and Y" is ordered: "the ratio between boys and girls" is boys / girls, which "the ratio between
 * girls and boys" inverts (bench/data/cache-probe11.json: lead served the pair), where "the difference between" or "the
 * relationship between" two things is the same both ways.
 */
const ORDERED_BETWEEN: ReadonlySet<string> = new Set(["ratio", "ratios", "quotient", "proportion"]);

/**
 * The members of a coordinated list of single words share one rank: "apples and pears" asks what
 * "pears and apples" asks. Only bare words (a determiner allowed) that nothing else could modify or
 * govern: the word after the last member must not be a content word ("red apples and pears" and
 * "Italy and France beat Spain" stay in order), nor the word before the first unless it is a verb
 * that takes a list ("Compare Python and Java"). Numbers are never reordered ("subtract 3 and 5").
 */
function coordinate(slots: PlacedSlot[], tokens: readonly Token[], titleCase: boolean): void {
  const byToken = new Map(slots.map((s) => [s.at, s]));
  const member = (at: number) => {
    const s = byToken.get(at);
    return s && !s.key.startsWith("n:") && !tokens[at]!.possessive ? s : undefined;
  };
  for (let k = 1; k < tokens.length - 1; k++) {
    if (tokens[k]!.lower !== "and" && tokens[k]!.lower !== "or") continue;
    let j = k + 1;
    while (DETERMINERS.has(tokens[j]?.lower ?? "")) j++;
    const right = member(j);
    if (!right || slotKey(tokens[j + 1], titleCase) !== undefined || numberAt(tokens, j + 1)) continue;
    const members = [right];
    let at = tokens[k - 1]?.text === "," ? k - 2 : k - 1;
    for (let left = member(at); left; left = tokens[at - 1]?.text === "," ? member((at -= 2)) : undefined) {
      members.push(left);
      while (DETERMINERS.has(tokens[at - 1]?.lower ?? "")) at--;
    }
    const before = tokens[at - 1];
    if (members.length < 2 || (slotKey(before, titleCase) !== undefined && !LIST_VERBS.has(before!.lower))) continue;
    if (before?.lower === "between" && ORDERED_BETWEEN.has(tokens[at - 2]?.lower ?? "")) continue;
    const rank = Math.min(...members.map((m) => m.rank));
    for (const m of members) m.rank = rank;
  }
}

/** The group of a personal pronoun ("me", "my" -> "i"), or undefined. */
function personOf(t: Token): string | undefined {
  if (t.kind !== "word") return undefined;
  const role = ROLE_OF.get(t.lower);
  return role?.[0] === "person" ? role[1] : undefined;
}

/**
 * Whether a prompt speaks of two persons or more ("I'm the interviewer and you're the candidate"):
 * only then can two prompts with the same pronouns give the roles to different people. The role
 * check compares which persons a prompt names, not who does what, and a hand-written hold-out pair
 * that swapped "I" and "you" between two roles was served. With one person ("How do I reset my
 * password?") the pronouns stay out of the order check, where a rewording that repeats them ("I forgot
 * my password, how can I reset it?") would fail it.
 */
function twoPersons(tokens: readonly Token[]): boolean {
  let first: string | undefined;
  for (const t of tokens) {
    const person = personOf(t);
    if (person === undefined) continue;
    if (first === undefined) first = person;
    else if (person !== first) return true;
  }
  return false;
}

/** A personal pronoun as a slot of its own ("p:i", "p:you"), in prompts that speak of two persons. */
function personSlot(t: Token): string | undefined {
  const person = personOf(t);
  return person === undefined ? undefined : `p:${person}`;
}

/** The slots of a prompt in order (see Slot); "Ann's brother" reads as "the brother of Ann". */
function readSlots(tokens: Token[], titleCase: boolean, literals: readonly string[]): Slot[] {
  const slots: PlacedSlot[] = [];
  let rel = "";
  let prep: string | undefined;
  const place = (key: string, at: number, relation: string) => {
    const slot: PlacedSlot = { key, rel: relation, rank: slots.length, at };
    if (prep !== undefined) slot.prep = prep;
    const det = tokens[at - 1]?.lower ?? "";
    if (DETERMINERS.has(det)) slot.opens = true;
    const word = tokens[at]!.lower;
    if (det === "a" || det === "an") slot.article = "a";
    else if ((det === "the" || det === "these" || det === "those") && key.startsWith("c:") && word.endsWith("s") && stem(word) !== word) slot.article = "the";
    slots.push(slot);
    prep = undefined;
  };
  const persons = twoPersons(tokens);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === "break" || CLAUSE_END.has(t.text)) {
      rel = "";
      prep = undefined;
      continue;
    }
    if (t.kind === "word" && FRAME_PREPOSITIONS.has(t.lower)) prep = t.lower;
    const relation = t.kind === "word" ? RELATIONS[t.lower] : undefined;
    if (relation !== undefined) {
      // "to" before a bare word may mark an infinitive ("how to reset"): a weak "to".
      const next = tokens[i + 1];
      rel = t.lower === "to" && next?.kind === "word" && next.text === next.lower && !DETERMINERS.has(next.lower) ? WEAK_TO : relation;
      continue;
    }
    const mark = literalMark(t);
    if (mark !== undefined) {
      // A literal is an argument like a word: "add `\printbibliography` to the table of contents
      // (`\tableofcontents`)" is not the same with the two exchanged (bun bench/cache-eval.ts --seed 1 served it as
      // swapped content words: the literals, compared as a sorted list, had no place). Named by its
      // text here, by its place in the sorted literals once they are sorted (extractFacets).
      place(`${LITERAL_SLOT}${literals[mark]}`, i, rel);
      rel = "";
      continue;
    }
    const number = t.kind === "word" ? numberAt(tokens, i) : undefined;
    const key = number ? undefined : (slotKey(t, titleCase) ?? articleAsVariable(tokens, i) ?? (persons ? personSlot(t) : undefined));
    if (rel !== "" && !number && key === undefined && t.kind === "word" && (!DETERMINERS.has(t.lower) || standsAlone(tokens[i + 1]))) {
      // What a relation word governs may be a pronoun or an adverb ("ask for them" / "ask by them", "take it from there").
      place(`x:${t.lower}`, i, rel);
    } else if (number) {
      place(`n:${number.value}`, i, rel);
      i = number.end - 1;
    } else {
      if (key === undefined) continue;
      const owned = t.possessive && !tokens[i + 1]?.possessive ? slotKey(tokens[i + 1], titleCase) : undefined;
      if (owned !== undefined && slotKey(tokens[i + 2], titleCase) === undefined) {
        place(owned, i + 1, rel);
        place(key, i, "of");
        i++;
      } else place(key, i, rel);
    }
    rel = "";
  }
  coordinate(slots, tokens, titleCase);
  return slots.map(({ at: _at, ...slot }) => slot);
}

/**
 * Words written with a hyphen or without one, the same word either way: "Wi-Fi" / "wifi", "e-mail" /
 * "email", "e-book" / "ebook", "to-do", "on-site" (issue 24, eighth session: "connect my
 * thermostat to Wi-Fi" / "... to wifi" was refused as another name). Joined, a one-letter prefix also
 * stays in the word: read as parts, its letter was no content word, so main served "How do I rent an
 * e-scooter?" for "How do I rent a scooter?", "t-shirt" for "shirt", "u-turn" for "turn", "e-book" for
 * "book" (bench/data/cache-frame-pairs8.json). Only before a word of two letters or more, not after an
 * apostrophe ("a cat's-eye"), and outside an expression ("x-ab(c)", "=a-bc" may subtract); "re-sign" /
 * "resign" and "re-cover" / "recover" are other words and stay apart, as are "co-op" / "coop" (a chicken's:
 * served on a blind probe, probe-cache-4), its two-letter parts compared as literals. The one-letter prefixes
 * of words (e-, t-, u-, k-) before three letters or more, not any letter: "Simplify x-yz" (x minus yz) was
 * served for "Simplify xyz", "to-go" for "Togo", "on-set" for "onset" (a review).
 */
const HYPHENATED_WORD = /(?<![-=+*/^(.'’])\b([etuk]-[a-z]{3,}|wi-fi|to-do|on-site)\b(?!\()/giu;

/**
 * Contractions typed without their apostrophe, as people type to support ("whats the way to share an
 * album", "i dont have access"), with it: the frames, the negation count and the role check then read
 * them as they read "what's" and "don't" (issue 24, ninth session: bench/data/faq-dev9.json's "whats the
 * way to" / "whats the price of" wordings were refused on question words). Only spellings that are no
 * other English word: "cant", "wont", "ill", "id", "its", "were", "shell" are words and stay, but for
 * "cant" after a subject pronoun ("i cant login"); "hows" and "im" only opening a sentence ("the hows and
 * whys", "an IM" stay), "ive" only in lower case (Jony Ive).
 */
const APOSTROPHE_LESS =
  /\b(?:(what|that|where|who|there)s|(do|does|did|is|are|was|were|have|has|had|could|should|would)nt|(you|they)re|(i|you|we|they|he|she|it) (cant)|(hows|im)|(ive))\b/gi;
/** What may stand before "hows" or "im" that opens a sentence: nothing, or the end of the sentence before. */
const SENTENCE_OPENING = /(?:^|[.!?,;])\s*$/;

function withApostrophes(text: string): string {
  return text.replace(
    APOSTROPHE_LESS,
    (m, wh?: string, aux?: string, pron?: string, subject?: string, cant?: string, open?: string, ive?: string, at?: number) => {
      if (wh) return `${wh}'s`;
      if (aux) return `${aux}n't`;
      if (pron) return `${pron}'re`;
      if (subject) return `${subject} ${cant!.slice(0, 3)}'t`;
      if (open) return SENTENCE_OPENING.test(text.slice(0, at)) ? `${open.slice(0, -1)}'${open.slice(-1)}` : m;
      return ive === "ive" ? "i've" : m;
    },
  );
}

/**
 * The request the facets are read from: the prompt without its courtesy, its question frame in one
 * form ("What's the way to X", "Is there a way to X", "What steps do I take to X" read "how do I X"), its
 * contractions typed without an apostrophe with one (withApostrophes).
 */
export function canonicalRequest(prompt: string): string {
  const powers = prompt.replace(SUPERSCRIPT_DIGITS, (digits) => `^${[...digits].map((d) => SUPERSCRIPTS.indexOf(d)).join("")}`);
  return withCanonicalFrame(withoutCourtesy(withApostrophes(powers.normalize("NFKC").replace(HYPHENATED_WORD, (word: string) => word.replace("-", "")))));
}

/**
 * A sentence that opens in lower case (at the start, after an end mark and a blank, or at a line's start), or the
 * pronoun "i" in lower case ("how do i", "i'm"), which survives compression's capital after a removed greeting.
 */
const LOWER_CASE_OPENING =
  /(?:^|[.!?][ \t]+|\n)[ \t]*\p{Ll}|(?<![\p{L}\p{N}_.])i(?=['’]m\b|[ \t]+(?:am|have|had|was|need|want|do|did|can|could|would|will|think|know|get|got|use|tried|just|really)\b)/u;

/** Superscript digits are a power: NFKC alone reads "x²" as "x2" (cacheprobe13 had "Solve x² = 9" served for "Solve x2 = 9"). */
const SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹";
const SUPERSCRIPT_DIGITS = /[⁰¹²³⁴⁵⁶⁷⁸⁹]+/g;

/** Whether a word holds digits for `/\d+/g` to find. */
const ASCII_DIGIT = /\d/;

/** Prepositions compared as they are (FRAME in PromptFacets); from, to, for, of, by and into are relation words of their own. */
const FRAME_PREPOSITIONS: ReadonlySet<string> = new Set(
  "in on at about with without under over inside outside near behind above below like within upon across through around against".split(" "),
);
const QUESTION_WORDS: ReadonlySet<string> = new Set(["how", "what", "where", "when", "why", "who", "which"]);
/** The auxiliary after an opening question word, with those that ask the same thing ("how do I" / "how can I") as one. */
const QUESTION_AUXILIARY = wordTable<string>({
  do: "do",
  does: "do",
  can: "do",
  did: "did",
  should: "should",
  would: "would",
  could: "could",
  will: "will",
  shall: "should",
  must: "must",
  might: "might",
  may: "may",
});

/** Reads the facets of one prompt. Pure; a few tens of microseconds for a paragraph. */
export function extractFacets(prompt: string): PromptFacets {
  const request = canonicalRequest(prompt);
  const { literals, quoted, rest } = extractLiterals(request);
  const tokens = tokenize(normalizeForTokens(rest));
  const titleCase = isTitleCase(tokens);
  // "HOW DO I CHANGE A FLAT TIRE?": in a prompt without a lower-case letter no capital tells a name.
  const shouted = !/\p{Ll}/u.test(prompt);
  const letterVariables = hasLetterVariables(tokens);
  const facets: PromptFacets = {
    numbers: [],
    negations: 0,
    negated: [],
    operators: [],
    units: [],
    directions: new Map(),
    languages: new Set(),
    formats: new Set(),
    entities: new Set(),
    capitalNames: new Set(),
    // Read on the prompt as written: the canonical request drops courtesy ("Can you explain what ...") and moves
    // fronted phrases, which leaves sentences opening in lower case that the writer began with a capital.
    lowerCaseWriter: LOWER_CASE_OPENING.test(prompt),
    literals,
    quoted,
    targets: new Set(),
    words: new Set(),
    content: new Map(),
    roles: new Map(),
    symbols: [],
    slots: [],
    frame: [],
  };

  const asked = QUESTION_AUXILIARY[tokens[1]?.lower ?? ""];
  if (asked !== undefined && QUESTION_WORDS.has(tokens[0]?.lower ?? "")) facets.frame.push(`m:${asked}`);
  let squareDepth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    const afterNumber = prev?.kind === "number" || (prev !== undefined && tableValue(NUMBER_WORDS, prev.lower) !== undefined);
    for (const pole of transferPoles(tokens, i)) addDirection(facets.directions, pole);
    if (next?.lower === "of" && QUANTIFIERS[t.lower] !== undefined) addDirection(facets.directions, `all/one${QUANTIFIERS[t.lower]}`);

    if (t.kind === "number") {
      // "-5" (a sign, not a subtraction: nothing to subtract from) is another number than "5".
      const signed = prev?.text === "-" && !isOperand(tokens[i - 2]);
      // "3rd" is the ordinal "third", as ORDINAL_WORDS reads it, not the count 3.
      const ordinal = next !== undefined && /^(st|nd|rd|th)$/.test(next.lower);
      // A clock time carries its half of the day: "from 9am to 5pm" is not "from 9pm to 5am" (a blind
      // probe served "open at 8am" / "at 8pm"); "I'm 25 am I eligible" has no time in it.
      const half = next?.kind === "word" && /^[ap]m$/.test(next.lower) && (prev?.text === ":" || /^(?:[1-9]|1[0-2])$/.test(t.text)) ? next.lower : "";
      facets.numbers.push((ordinal ? "#" : signed ? "-" : "") + canonicalNumber(t.text) + half);
      // Beside a slice's colon a number's side counts: "a[1:]" is not "a[:1]" (a review served it).
      if (squareDepth > 0 && (prev?.text === ":" || next?.text === ":")) facets.symbols.push("#");
      if (ordinal || half) i++;
      continue;
    }
    if (t.kind === "symbol") {
      const mark = literalMark(t);
      if (mark !== undefined) {
        facets.symbols.push(`${LITERAL_SYMBOL}${literals[mark]}`);
        continue;
      }
      // "5!" is five factorial and "5!!" its double factorial (pairs-5 served one for the other): marks
      // right after a number are an operator, counted; "I need 5!" / "I need 5" is refused, which costs a hit at most.
      if (t.text === "!" && prev?.kind === "number") {
        let end = i;
        while (tokens[end + 1]?.text === "!") end++;
        facets.symbols.push("!".repeat(end - i + 1));
        i = end;
        continue;
      }
      if (STEP_OPERATORS.has(t.text)) {
        facets.symbols.push(t.postfix ? `x${t.text}` : `${t.text}x`);
        continue;
      }
      const op = OPERATOR_SYMBOLS[t.text];
      const unit = unitFacet(t.text, t.lower, afterNumber);
      if (unit && (afterNumber || /^[$€£¥₹]$/.test(t.text))) facets.units.push(unit);
      else if (op && (NEEDS_OPERANDS.has(t.text) ? isOperand(prev) && isOperand(next) : !NEEDS_OPERAND.has(t.text) || isOperand(prev) || isOperand(next))) {
        facets.operators.push(op);
        // Typeset math ("3 × 4", "6 ÷ 2") is what the keyboard writes "*" and "/"; code operators stay as typed ("!=" / "!==").
        facets.symbols.push(TYPESET_MATH.has(t.text) ? op : t.text);
      } else if (BRACKETS.has(t.text) || (op && isCodeOperand(prev) && isCodeOperand(next))) facets.symbols.push(t.text);
      // A colon inside square brackets slices: "a[1:3]" is not "a[1::3]" (pairs-4, written blind, served it).
      else if (t.text === ":" && squareDepth > 0) facets.symbols.push(t.text);
      if (t.text === "[") squareDepth++;
      else if (t.text === "]" && squareDepth > 0) squareDepth--;
      continue;
    }
    if (t.kind !== "word") continue;
    if (FRAME_PREPOSITIONS.has(t.lower)) facets.frame.push(`p:${t.lower}`);
    // A preposition closing its sentence governs a question word before it: "Who was the letter sent to?" asks the
    // receiver, "Who sent the letter?" the sender (a probe of this session served the pair). Compared on both sides.
    // Relation words and "with", "about" only: "in", "on", "up" close phrasal verbs ("What time can I check in?").
    if ((RELATIONS[t.lower] !== undefined || t.lower === "with" || t.lower === "about") && (next === undefined || SENTENCE_END.has(next.text)))
      facets.frame.push(`s:${t.lower}`);

    facets.words.add(t.lower);
    // Scripts without case (Chinese, Japanese, Arabic, Thai...) hide names, numbers and languages
    // from every check here, and Chinese has no spaces to split words on: such text must match exactly.
    if (/\p{Lo}/u.test(t.text)) {
      facets.literals.push(t.text);
      continue;
    }
    if (!(t.sentenceStart && OPENING_CONNECTIVES.has(t.lower))) addContent(facets.content, t.lower);
    // Digits inside a word ("1人", "x86") are numbers all the same. Most words have none: the test skips
    // the match's allocation for them (the match held 2.5% of packFacets' samples).
    if (ASCII_DIGIT.test(t.text)) for (const digits of t.text.match(/\d+/g)!) facets.numbers.push(digits);
    // The parts of "well-known" and of an elision ("l’action", "rock'n'roll"; not "cat's") are words
    // too: as one token no content check saw them ("l’action" swapped for "l’exécution" was served).
    if (/[-'’]/.test(t.lower)) {
      const hyphenParts = t.lower.split("-");
      for (const part of hyphenParts.flatMap((p) => (/['’](?!s$)/.test(p) ? p.split(/['’]/) : [p]))) {
        facets.words.add(part);
        addContent(facets.content, part);
        if (NEGATIONS.has(part)) facets.negations++;
        // A two-letter part that is no grammar is compared as the word alone is (isShortCode): too short for
        // `content`, it vanished, and main served "my ex-wife" for "my wife" and "lo-fi music" for "music"
        // (issue 24, eighth session; bench/data/cache-frame-pairs8.json). So is a one-letter part of a hyphen
        // that canonicalRequest did not join: "an x-ray" was served for "Ray" (blind probe-cache-4), as
        // "a c-section" would be for "a section". Not the letter of an elision ("don't", "l’action").
        if (isShortCode(part) || (part.length === 1 && hyphenParts.includes(part) && /\p{Ll}/u.test(part))) facets.literals.push(part);
      }
    }
    if (isIdentifier(t)) facets.literals.push(t.text);
    else if (isShortCode(t.lower)) facets.literals.push(t.lower);

    const numberWords = numberAt(tokens, i);
    if (numberWords) {
      facets.numbers.push(String(numberWords.value));
      for (let j = i + 1; j < numberWords.end; j++) facets.words.add(tokens[j]!.lower);
      i = numberWords.end - 1;
      continue;
    }
    // A scale word without a number word before it is a number all the same: "count to a billion" is not "count
    // to a million", "millions of" not "thousands of" (as content words, close in the embedding, the second
    // adversarial probe served the first pair, bench/data/cache-probe10.json). "5 million" keeps its digit beside it.
    const scale = scaleValue(t.lower);
    if (scale !== undefined) {
      facets.numbers.push(`x${scale}`);
      continue;
    }
    const ordinal = tableValue(ORDINAL_WORDS, t.lower);
    if (ordinal !== undefined && !(t.lower === "second" && afterNumber)) facets.numbers.push(`#${ordinal}`);

    // "How much storage do I get?" asks an amount, "How do I get more storage?" a procedure.
    // "What browsers do you support?" asks what "Which browsers do you support?" asks: before a noun
    // both pick one of a kind. A sentence opening with an auxiliary asks yes or no ("Do you support
    // Safari?"), which verify.ts keeps apart from a question word.
    const picksOne =
      (t.lower === "which" || t.lower === "what") && next?.kind === "word" && contentStem(next.lower) !== undefined && !VERB_AFTER_WH.has(next.lower);
    // "one of the Xs" picks one of them, as "each of" takes every one and "any of" whichever (ONE_OF).
    const role: Role | undefined =
      t.lower === "how" && HOW_QUANTITY.has(next?.lower ?? "")
        ? ["wh", `how ${next!.lower}`]
        : picksOne
          ? ["wh", "which"]
          : t.lower === "one" && next?.lower === "of"
            ? ONE_OF
            : t.lower === "every" && next?.lower === "other"
              ? EVERY_OTHER
              : t.lower === "few" && prev?.lower === "a"
                ? A_FEW
                : (t.lower === "all" && ALL_IDIOM_BEFORE.has(prev?.lower ?? "") && next?.kind !== "word") || (t.lower === "both" && coordinates(tokens, i))
                  ? undefined
                  : ROLE_OF.get(t.lower);
    if (role) addRole(facets.roles, role);
    if (role && AMOUNT_WORDS.has(t.lower) && countsNoun(prev, next)) addRole(facets.roles, ["count", role[1]]);
    if (t.sentenceStart && AUXILIARIES.has(t.lower)) addRole(facets.roles, ["mood", "yes/no"]);
    // "It is legal to grow." states what "Is it legal to grow?" asks: a subject before its auxiliary.
    const clauseStart = t.sentenceStart || (prev?.text === "," && tokens[i - 2]?.sentenceStart === true && DISCOURSE_WORDS.has(tokens[i - 2]!.lower));
    if (clauseStart && SUBJECTS.has(t.lower) && next !== undefined && AUXILIARIES.has(next.lower)) addRole(facets.roles, ["mood", "statement"]);
    if (NEGATIONS.has(t.lower)) {
      facets.negations++;
      facets.negated.push(negatedWord(next, tokens[i + 2]));
    }
    const opWord = operatorWordAt(tokens, i);
    // "The product I received is broken": an operator word outside math is a word like any other.
    if (opWord === undefined && tableValue(OPERATOR_WORDS, t.lower) !== undefined)
      facets.content.set(stem(t.lower), (facets.content.get(stem(t.lower)) ?? 0) + 1);
    if (opWord) {
      facets.operators.push(opWord);
      // Where it stands among brackets and symbols: "2 plus 3" is "2+3".
      facets.symbols.push(opWord);
    }
    if ((t.lower === "times" || t.lower === "x") && afterNumber && next?.kind === "number") {
      facets.operators.push("*");
      facets.symbols.push("*");
    }

    // "5-year-old" and "10-minute" carry their unit in the first part; a word without a hyphen is its
    // own first part, already looked up (its split held 6% of packFacets' samples).
    const hyphen = t.lower.indexOf("-");
    const unit =
      unitFacet(t.text, t.lower, afterNumber) ?? (hyphen < 0 ? undefined : unitFacet(t.text.slice(0, hyphen), t.lower.slice(0, hyphen), afterNumber));
    if (unit) facets.units.push(unit);

    const pole = directionPole(t.lower);
    if (pole) addDirection(facets.directions, pole);
    const opposite = oppositeParticle(t.lower);
    // The verbs are looked for only around a particle: most words are none.
    if (opposite && [1, 2, 3].some((back) => PHRASAL_VERBS.has(tokens[i - back]?.lower ?? "")))
      addDirection(facets.directions, `${[t.lower, opposite].sort().join("/")}${t.lower < opposite ? "a" : "b"}`);

    const language = languageOf(tokens, i, letterVariables);
    if (language) facets.languages.add(language);
    const format = OUTPUT_FORMATS[t.lower];
    if (format) facets.formats.add(format);
    if (isEntity(t, titleCase)) {
      facets.entities.add(t.lower);
      // A programming language is one whatever its case ("java", "Java"): the languages facet compares it.
      const acronym = t.text.length >= 2 && t.text === t.text.toUpperCase();
      if (!shouted && nameOnlyByCapital(t.lower, acronym) && !PROGRAMMING_LANGUAGES[t.lower] && nameOfItsOwn(tokens, i, acronym))
        facets.capitalNames.add(t.lower);
    }

    if (t.lower === "to" || t.lower === "into" || t.lower === "from") {
      let j = i + 1;
      while (tokens[j] && /^(the|a|an|my|our|this|that)$/.test(tokens[j]!.lower)) j++;
      const target = tokens[j];
      if (target && target.kind === "word") {
        const what =
          languageOf(tokens, j, letterVariables) ??
          OUTPUT_FORMATS[target.lower] ??
          unitOf(target.lower, false) ??
          (isEntity(target, titleCase) ? target.lower : undefined);
        if (what) facets.targets.add(`${t.lower === "from" ? "from" : "to"}:${what}`);
      }
    }
  }
  // Brackets group operators, and literals are their operands; in prose without any operator they are asides ("(optional)", "`ls`").
  if (!facets.symbols.some((x) => !BRACKETS.has(x) && !x.startsWith(LITERAL_SYMBOL))) facets.symbols = [];
  facets.slots = readSlots(tokens, titleCase, literals);
  if (ABILITY_QUESTION.test(request)) addRole(facets.roles, ["ask", "ability"]);
  if (KEYWORD_REQUEST.test(request)) addRole(facets.roles, ["ask", "keyword"]);
  facets.numbers.sort();
  facets.negated.sort();
  for (const [role, groups] of facets.roles) if (!ORDERED_ROLES.has(role)) groups.sort();
  facets.operators.sort();
  facets.units.sort();
  facets.literals.sort();
  facets.frame.sort();
  // The first place of equal texts, so a literal written twice is named alike both times; a map, as
  // indexOf per slot grew with the square of the identifiers ("x.y " x 20,000: 3.0 s, a review).
  const placeOf = new Map<string, number>();
  facets.literals.forEach((text, i) => placeOf.has(text) || placeOf.set(text, i));
  facets.symbols = facets.symbols.map((x) => (x.startsWith(LITERAL_SYMBOL) ? `${LITERAL_SYMBOL}${placeOf.get(x.slice(LITERAL_SYMBOL.length))}` : x));
  for (const slot of facets.slots) if (slot.key.startsWith(LITERAL_SLOT)) slot.key = `${LITERAL_SLOT}${placeOf.get(slot.key.slice(LITERAL_SLOT.length))}`;
  // `quoted` stays in the order written: "x is 'hello' and y is 'he'" is not "x is 'he' and y is 'hello'".
  return facets;
}

/**
 * Facets as bytes, in which form the cache keeps every entry's. Live, one prompt's facets take about
 * 6.2 KB of heap (Maps, Sets and a slot object per word; 30k real texts of 130 characters on average),
 * 620 MB for a full cache of 100k entries; packed they take about 560 bytes, and reading them back
 * costs a fifth of extracting them again (46 against 231 µs per text, same run, load 10), which is
 * what the first verification of an entry used to pay on the request's path.
 * Each pack carries its own record definitions, so bytes packed in one thread (the gateway's
 * worker) read back in another; maps come back as Maps and sets as Sets (test/cache/facets.test.ts).
 */
const facetPackr = new Packr({ moreTypes: true });

/** A prompt's facets, packed, with the prompt they were extracted from. */
export interface PackedFacets {
  prompt: string;
  bytes: Uint8Array;
}

export function packFacets(prompt: string): PackedFacets {
  return { prompt, bytes: facetBytes(extractFacets(prompt)) };
}

export function facetBytes(facets: PromptFacets): Uint8Array {
  // A copy: msgpackr packs into a buffer it reuses for the next call.
  return new Uint8Array(facetPackr.pack(facets));
}

export function unpackFacets(bytes: Uint8Array): PromptFacets {
  return facetPackr.unpack(bytes) as PromptFacets;
}
