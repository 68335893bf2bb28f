import type { CaseProfile } from "../../../text/case-profile";
import { FoldedWordTable } from "../../../text/word-table";
import { COMPANY_WORDS, countryWords } from "./gazetteer";
import {
  ASCII,
  CODE,
  END,
  Gap,
  HASH,
  HAS_CODE,
  HAS_HASH,
  HAS_INFO,
  META,
  PLAIN,
  SHAPE,
  START,
  STRIDE,
  SUFFIX2,
  SUFFIX3,
  type Token,
  type Tokens,
} from "./tokens";

/**
 * What the features look words up in: the case profile and the names seen as PERSON in training,
 * folded into one number per word (one lookup a word instead of two): class (0 unseen, 1-4 l/u/s/x)
 * << 4 | frequency bucket << 1 | known name, and the gazetteer flags above.
 *
 * Open addressing over two 32-bit hashes of the lower-cased spelling, the hash the features already
 * made of the word (wordOf) and a second one: a probe reads one pair of ints, [hash, second hash's
 * top 22 bits | PLAIN_KEY | number]. The string-keyed table and map it replaces (a slot, then the
 * key's offsets and letters, then the value: four scattered reads a word) were a quarter of the
 * tagger's time on a batch of the pii-dense texts (CPU profile); this table's: 0.85x. Two words are
 * taken for one only if both hashes agree (54 bits: about once in 10^16 lookups).
 *
 * As in the table and map before, a token the tokenizer does not call plain is looked up among the
 * keys that are not plain words only: a word with a hyphen after it ("-END EXAMPLE-", "\n- item")
 * is not plain, and the shipped model was trained with such words unknown. Finding them too changed
 * training: template cross-validation PERSON P 0.932 R 0.835 -> P 0.927 R 0.830.
 */
export interface Lexicon {
  slots: Int32Array;
}

const CLASS_ID: Record<string, number> = { l: 1, u: 2, s: 3, x: 4 };
const L_CLASS = 1;
const S_CLASS = 3;
const X_CLASS = 4;

/** Flags above the class (gazetteer.ts): a word of a country's name, a company's legal form. */
const COUNTRY_FLAG = 1 << 7;
const COMPANY_FLAG = 1 << 8;
/** The bits of a lexicon number (class, bucket, name bit, the two flags). */
const CODE_BITS = 9;
const CODE_MASK = (1 << CODE_BITS) - 1;
/** Set in a table entry whose key is a plain word (only a-z and apostrophes). */
const PLAIN_KEY = 1 << CODE_BITS;
/** The second hash's bits of a table entry. */
const SECOND_MASK = ~((PLAIN_KEY << 1) - 1);
/** The class bits (0 unseen, 1-4 l/u/s/x) of a lexicon number. */
const classOf = (code: number) => (code >> 4) & 7;
/** The gazetteer flags of a lexicon number: 0-3. */
export const flagsOf = (code: number) => code >> 7;

/** FNV-1a over a lower-cased spelling's units (what wordOf computes of a token). */
function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h;
}

/** The second hash, over the same units (a multiply-xorshift, independent of FNV-1a), in its top 22 bits. */
function secondOf(s: string, from: number, to: number, fold: boolean): number {
  let h = 0x2545f491;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    h = Math.imul(h ^ (fold && c >= 65 && c <= 90 ? c + 32 : c), 0x5bd1e995);
    h ^= h >>> 15;
  }
  return h & SECOND_MASK;
}

const home = (hash: number, mask: number) => (hash ^ (hash >>> 16)) & mask;

export function makeLexicon(cases: CaseProfile, names: Iterable<string>): Lexicon {
  const words = new Map<string, number>();
  for (const [w, c] of cases) words.set(w, (CLASS_ID[c[0]!]! << 4) | (Number(c[1]) << 1));
  for (const w of names) words.set(w, (words.get(w) ?? 0) | 1);
  for (const w of countryWords()) words.set(w, (words.get(w) ?? 0) | COUNTRY_FLAG);
  for (const w of COMPANY_WORDS) words.set(w, (words.get(w) ?? 0) | COMPANY_FLAG);
  // At most half full, as probes for words not in it (most names) end at the first empty slot.
  let size = 16;
  while (size < words.size * 2) size *= 2;
  const slots = new Int32Array(size * 2);
  for (const [w, code] of words) {
    // Words starting with a digit are left out (none are in the shipped lists): lexCode skips numbers.
    if (code === 0 || /^\d/.test(w)) continue;
    const hash = hashWord(w);
    const entry = secondOf(w, 0, w.length, false) | (/^[a-z']+$/.test(w) ? PLAIN_KEY : 0) | code;
    let slot = home(hash, size - 1);
    while (slots[slot * 2 + 1] !== 0) slot = (slot + 1) & (size - 1);
    slots[slot * 2] = hash;
    slots[slot * 2 + 1] = entry;
  }
  return { slots };
}

/**
 * Token i's lexicon number (0 for a word in neither list), looked up once. A plain word is found by
 * the hash the features already made of it (wordOf), so its letters are read once more, for the
 * second hash.
 */
export function lexCode(tokens: Tokens, i: number, lex: Lexicon): number {
  const d = tokens.data;
  const at = i * STRIDE;
  const meta = d[at + META]!;
  if ((meta & HAS_CODE) !== 0) return d[at + CODE]!;
  const source = tokens.source;
  const start = d[at + START]!;
  let code = 0;
  // No word of the lexicon starts with a digit (makeLexicon): numbers need no lookup.
  const first = source.charCodeAt(start);
  if (!(first >= 48 && first <= 57)) {
    const hash = wordOf(tokens, i);
    const plain = (meta & PLAIN) !== 0 ? PLAIN_KEY : 0;
    const slots = lex.slots;
    const mask = (slots.length >> 1) - 1;
    // The second hash is made only when the first matches: most words not in the lexicon never need it.
    let second = 1;
    for (let slot = home(hash, mask); ; slot = (slot + 1) & mask) {
      const entry = slots[slot * 2 + 1]!;
      if (entry === 0) break;
      if (slots[slot * 2] !== hash) continue;
      if (second === 1) {
        if ((meta & ASCII) !== 0) second = secondOf(source, start, d[at + END]!, true);
        else {
          const lower = tokens.lower(i);
          second = secondOf(lower, 0, lower.length, false);
        }
      }
      if ((entry & SECOND_MASK) === second && (entry & PLAIN_KEY) === plain) {
        code = entry & CODE_MASK;
        break;
      }
    }
  }
  d[at + CODE] = code;
  d[at + META] = d[at + META]! | HAS_CODE;
  return code;
}

/**
 * The lexicon number of a lower-cased spelling that is no token of the text ("garcia" of "Garcias"),
 * probed by the hashes makeLexicon keyed it with: so a rule that asks about such a spelling reads the
 * lexicon's name bit instead of a second copy of the name list.
 */
export function wordCode(word: string, lex: Lexicon): number {
  if (word.length === 0 || /^\d/.test(word)) return 0;
  const hash = hashWord(word);
  const key = secondOf(word, 0, word.length, false) | (/^[a-z']+$/.test(word) ? PLAIN_KEY : 0);
  const slots = lex.slots;
  const mask = (slots.length >> 1) - 1;
  for (let slot = home(hash, mask); ; slot = (slot + 1) & mask) {
    const entry = slots[slot * 2 + 1]!;
    if (entry === 0) return 0;
    if (slots[slot * 2] === hash && (entry & ~CODE_MASK) === key) return entry & CODE_MASK;
  }
}

/** Whether token i is a possessive ("Alex's", "Jones’s"): a name does not run on past one ("Kevin Lamovec's Cautionary Tales"). */
export function isPossessive(tokens: Tokens, i: number): boolean {
  const source = tokens.source;
  const start = tokens.start(i);
  const end = tokens.end(i);
  if (end - start < 3 || (source.charCodeAt(end - 1) | 0x20) !== 115) return false;
  const quote = source.charCodeAt(end - 2);
  return quote === 39 || quote === 0x2019;
}

/** Whether token i starts with a capital letter (of any script). */
export function capitalised(tokens: Tokens, i: number): boolean {
  const c = tokens.first(i);
  if (c < 128) return c >= 65 && c <= 90;
  return firstLower(c) !== c;
}

/**
 * Whether token i is capitalised with a lower-case letter after its first: a name's shape, not an
 * acronym's ("Priya", "Łukasz"; not "ETA:", "QA:", "TAS").
 */
export function nameCased(tokens: Tokens, i: number): boolean {
  if (!capitalised(tokens, i)) return false;
  const c = tokens.source.charCodeAt(tokens.start(i) + 1);
  // NaN past the text's end: no letter.
  if (!(c >= 128)) return c >= 97 && c <= 122;
  const unit = String.fromCharCode(c);
  return unit !== unit.toUpperCase();
}

/**
 * The first unit of the unit c lower-cased (String.toLowerCase), remembered per unit. A word's first
 * unit lower-cases the same alone as at the start of the word (the one rule that reads the context,
 * Greek final sigma, needs a letter before it): completeNames asks of every word outside ASCII, and
 * lower-casing each whole word was 7% of the tagger's time on the pii-dense workload.
 */
function firstLower(c: number): number {
  let m = FIRST_LOWER[c]!;
  if (m === 0) FIRST_LOWER[c] = m = String.fromCharCode(c).toLowerCase().charCodeAt(0);
  return m;
}
/** 0 where not yet known: no unit a word starts with lower-cases to U+0000. */
const FIRST_LOWER = new Uint16Array(65536);

/** Whether general English writes the word in lower case, or mostly first in a sentence. */
export const usuallyLower = (code: number) => classOf(code) === L_CLASS;
export const usuallySentenceStart = (code: number) => classOf(code) === S_CLASS;
/** Whether general English writes the word in lower case at least as often as capitalised (class l or x: "will", "grace", "bill"). */
export const oftenLower = (code: number) => classOf(code) === L_CLASS || classOf(code) === X_CLASS;
/** Whether a lexicon number's word is a known name (names.json: the training spans' name words). */
export const knownName = (code: number) => (code & 1) === 1;
/** An ASCII lower-case letter's code unit (a-z). */
export const isLowerAscii = (c: number) => c >= 97 && c <= 122;
/** A word of the lexicon no name list holds that the case profile saw more than seldom ("Python", "Amazon", "Cheers"). */
export const commonWord = (code: number) => !knownName(code) && ((code >> 1) & 7) > 0;

/** The labels the tagger gives a token. */
export const LABELS = ["O", "PERSON", "ADDRESS"] as const;
export type Label = (typeof LABELS)[number];

/**
 * Features are hashed into 2^18 slots (the ~10k the training keeps collide rarely) and named by
 * integers, not strings: building and looking up ~20 strings a word cost ~6 µs a word.
 */
export const FEATURE_BITS = 18;
const SLOT_MASK = (1 << FEATURE_BITS) - 1;
/** Room for every feature of one token. */
export const MAX_FEATURES = 26;

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ Math.imul(b, 0x9e3779b1), 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 13);
}

/**
 * FNV-1a over `s[from, to)` lower-cased, for ASCII text (where lower-casing folds A-Z alone): no
 * slice or lower-cased copy is made.
 */
function hashAscii(s: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), 0x01000193);
  }
  return h;
}

/** FNV-1a over the last `take` characters of `s` (all of it by default). */
function hashTail(s: string, take = s.length): number {
  let h = 0x811c9dc5;
  for (let i = s.length - take; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** Character classes with repeats collapsed, as a number: "Smith" -> Xx, "42" -> d, "B12" -> Xd. */
export function shapeCode(word: string, from = 0, to = word.length): number {
  let code = 0;
  let prev = -1;
  let n = 0;
  for (let i = from; i < to && n < 6; i++) {
    const c = word.charCodeAt(i);
    let k: number;
    if (c >= 48 && c <= 57) k = 1;
    else if (c >= 65 && c <= 90) k = 2;
    else if (c >= 97 && c <= 122) k = 3;
    else if (c === 39 || c === 0x2019 || c === 45) k = 4;
    else {
      const ch = word[i]!;
      k = ch !== ch.toLowerCase() ? 2 : 3;
    }
    if (k !== prev) {
      code = code * 5 + k;
      n++;
    }
    prev = k;
  }
  return code;
}

/** The token's spelling lower-cased (String.toLowerCase). */
export function lowerOf(t: Token): string {
  return t.lower;
}

/** The hash of text[from, to) lower-cased, as wordOf makes it of a token spelled so. */
export function hashSpan(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) >= 128) return hashTail(text.slice(from, to).toLowerCase());
  return hashAscii(text, from, to);
}

/** The hash of token i's lower-case spelling: all the features read of the words two away. */
export function wordOf(tokens: Tokens, i: number): number {
  const d = tokens.data;
  const at = i * STRIDE;
  const meta = d[at + META]!;
  if ((meta & HAS_HASH) !== 0) return d[at + HASH]!;
  // An ASCII word is hashed as its lower-case spelling in place (toLowerCase was 5-10% of the tagger's time).
  const hash = (meta & ASCII) !== 0 ? hashAscii(tokens.source, d[at + START]!, d[at + END]!) : hashTail(tokens.lower(i));
  d[at + HASH] = hash;
  d[at + META] = meta | HAS_HASH;
  return hash;
}

/** Fills token i's hash, lexicon number, shape and suffix hashes (the fields features() reads of it and its neighbours). */
function fillInfo(tokens: Tokens, i: number, lex: Lexicon): void {
  const d = tokens.data;
  const at = i * STRIDE;
  if ((d[at + META]! & HAS_INFO) !== 0) return;
  wordOf(tokens, i);
  lexCode(tokens, i, lex);
  const source = tokens.source;
  const start = d[at + START]!;
  const end = d[at + END]!;
  d[at + SHAPE] = shapeCode(source, start, end);
  if ((d[at + META]! & ASCII) !== 0) {
    const long = end - start > 3;
    d[at + SUFFIX3] = long ? hashAscii(source, end - 3, end) : 0;
    d[at + SUFFIX2] = long ? hashAscii(source, end - 2, end) : 0;
  } else {
    const lower = tokens.lower(i);
    const long = lower.length > 3;
    d[at + SUFFIX3] = long ? hashTail(lower, 3) : 0;
    d[at + SUFFIX2] = long ? hashTail(lower, 2) : 0;
  }
  d[at + META] = d[at + META]! | HAS_INFO;
}

/** A lexicon number as the features read it: case class (0 unseen, 1-4 l/u/s/x) times 2, plus 1 if the word is a known name. */
const clsOf = (code: number) => (classOf(code) << 1) | (code & 1);

/** Whether the unit c (128 or above) is a Latin letter with a mark (Latin-1, Latin Extended A/B, Latin Extended Additional: "é", "ş", "ễ"). */
const latinLetter = (c: number) => (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) || (c >= 0x1e00 && c <= 0x1eff);

/**
 * Whether the tagger scores a token at all. In a text that writes capitals, a name or an address
 * starts with a capital or a digit: its lower-case words are never scored on their own, which is most
 * of the tagger's speed (ordinary prose is 80-90% such words, and looking each up cost more than the
 * scoring; CPU profile of bench/pii-speed.ts). In a lower-cased text ("call dawn jessen") the words
 * general English does not write in lower case are scored.
 */
export function isCandidate(tokens: Tokens, i: number, lex: Lexicon, cased: boolean): boolean {
  const c = tokens.first(i);
  if (c < 128) {
    if (!(c >= 97 && c <= 122)) return true; // digit or capital
  } else if (capitalised(tokens, i)) return true;
  if (cased) return false;
  // In a text without capitals only words in Latin letters are scored: the lower-case names the tagger
  // learns to find there are Latin ("ask jake"), and with the chat frames of written-world.ts the
  // uncased words of Chinese, Korean, Arabic or Russian prompts came out as names (development prompts
  // with a find 107 of 539 with them scored; ERRORS=ordinary bun models/pii-ner/train.ts).
  if (c >= 128 && !latinLetter(c)) return false;
  const code = lexCode(tokens, i, lex);
  return !usuallyLower(code) || knownName(code);
}

/**
 * A capitalised word opening a sentence or line that general English writes in lower case and that
 * is no known name nor a country's or company's word ("The", "Write", "Please" ...): a third of the
 * words the tagger would score in ordinary prose (bench corpora: 55 of 141 per 1k tokens); and such a
 * word inside a sentence when it is one of the commonest ("For", "With" in a title: tagger time 0.94x
 * on the corpora's prompts, their spans and the cross-validation unchanged). Tagging skips them;
 * training still scores them, as they are the negatives that teach the tagger what a capital at a
 * sentence's start means (skipped in training too, the development split's PERSON precision fell
 * 0.942 -> 0.922). Skipped in tagging only (and scored before a number: "Unit 1783 Box 3210"), the
 * spans of the corpora's prompts and of every training text are unchanged.
 */
export function ordinaryCapital(tokens: Tokens, i: number, lex: Lexicon): boolean {
  const g = tokens.gap(i);
  const opener = g === Gap.Start || g === Gap.Stop || g === Gap.Newline;
  const code = lexCode(tokens, i, lex);
  // Inside a sentence only the commonest words (seen 1,000+ times: "For", "With" in a title): with the
  // words seen 100+ times too, ADDRESS recall fell 0.859 -> 0.856 in the template cross-validation.
  if (!opener && ((code >> 1) & 7) < 3) return false;
  // Not a known name, a country's word or a company's (the gazetteer flags): those openers are scored.
  return classOf(code) === L_CLASS && !knownName(code) && flagsOf(code) === 0;
}

/**
 * A set of lower-case ASCII words that a token is tested against without slicing or lower-casing it
 * (Set.has(lowerOf(token)) for every word after an address word was 5% of the tagger's time on the
 * pii-dense workload): a plain word by the hash its features use, a word outside ASCII by its
 * lower-cased spelling, as String.toLowerCase may land it in ASCII.
 */
export class TokenWordSet {
  private readonly table: FoldedWordTable<true>;
  private readonly words: ReadonlySet<string>;

  constructor(words: Iterable<string>) {
    this.words = new Set(words);
    // The table spells ASCII words only; a word outside ASCII ("señor") is found by has()'s lower-cased spelling.
    this.table = new FoldedWordTable([...this.words].filter((w) => /^[a-z0-9']+$/.test(w)).map((w) => [w, true] as const));
  }

  has(tokens: Tokens, i: number): boolean {
    const meta = tokens.data[i * STRIDE + META]!;
    if ((meta & PLAIN) !== 0) return this.table.findHashed(wordOf(tokens, i), tokens.source, tokens.start(i), tokens.end(i)) !== -1;
    // An ASCII word that is not plain holds a digit or a hyphen, which no key of the table does.
    if ((meta & ASCII) !== 0) return false;
    return this.words.has(tokens.lower(i));
  }
}

/**
 * The first letters of lower-case ASCII words, one bit a letter (a = bit 0): the loops over every word
 * test a word's first letter against it (hasLetter) before a TokenWordSet lookup, as most words start
 * with none of a short list's letters.
 */
export function firstLetters(words: Iterable<string>): number {
  let bits = 0;
  for (const w of words) bits |= 1 << (w.charCodeAt(0) - 97);
  return bits;
}

/** Whether the code c is a lower-case ASCII letter among `letters` (firstLetters); false for any other code. */
export const hasLetter = (letters: number, c: number) => c >= 97 && c <= 122 && (letters & (1 << (c - 97))) !== 0;

/** Whether a text writes capitals at all (any word starting with an ASCII capital). */
export function writesCapitals(tokens: Tokens): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const c = tokens.first(i);
    if (c >= 65 && c <= 90) return true;
  }
  return false;
}

function slot(template: number, a: number, b: number): number {
  return mix(mix(template, a), b) & SLOT_MASK;
}

/** The slot of the bias feature, on for every scored token. */
export const BIAS_SLOT = slot(1, 0, 0);

const NONE = 0x7fffffff;
const sentenceStart = (g: Gap) => g === Gap.Start || g === Gap.Stop || g === Gap.Newline;

/**
 * slot(template, a, b) for every a < as and b < bs, at a * bs + b: the features that read only small
 * numbers (a case class, a gap, the labels before) take their slot from a table instead of mixing two
 * hashes (half of features()' slots; its time on the pii-dense workload 0.8x).
 */
function slotTable(template: number, as: number, bs = 1): Int32Array {
  const table = new Int32Array(as * bs);
  for (let a = 0; a < as; a++) for (let b = 0; b < bs; b++) table[a * bs + b] = slot(template, a, b);
  return table;
}

/** mix(template, a) for every a < as: the first half of a slot whose second value is no small number. */
function mixTable(template: number, as: number): Int32Array {
  return Int32Array.from({ length: as }, (_, a) => mix(template, a));
}

/** Case classes with the known-name bit (clsOf: 0-9), gaps (0-5, 9 for none), the labels before (0-2). */
const CLASSES = 10;
const GAPS = 10;
const CLASS_SLOT = slotTable(4, CLASSES);
const CLASS_SHAPE = mixTable(5, CLASSES);
const CLASS_FULL_SLOT = slotTable(6, 64, 2);
const GAP_SLOT = slotTable(7, GAPS);
const NEXT_GAP_SLOT = slotTable(8, GAPS);
const PREV_CLASS_SLOT = slotTable(15, CLASSES);
const NEXT_CLASS_SLOT = slotTable(16, CLASSES);
const PREV_LABEL_SLOT = slotTable(17, 3);
const PREV_LABELS_SLOT = slotTable(18, 9);
const LABEL_GAP_SHAPE = mixTable(19, 3 * 8);
const LENGTH_SLOT = slotTable(23, 8);
const FLAGS_SLOT = slotTable(24, 4);
const FLAGS_AROUND_SLOT = slotTable(25, 4, 16);

/**
 * Writes the feature slots of token i into `out` (given the label indices chosen for the two before
 * it) and returns how many. Each is a template number mixed with the values it reads.
 */
export function features(tokens: Tokens, i: number, prev: number, prev2: number, lex: Lexicon, out: Int32Array): number {
  const d = tokens.data;
  const n = tokens.length;
  fillInfo(tokens, i, lex);
  const me = i * STRIDE;
  const meCode = d[me + CODE]!;
  const meWord = d[me + HASH]!;
  const meShape = d[me + SHAPE]!;
  const meCls = clsOf(meCode);
  const meFlags = flagsOf(meCode);
  let p1Word = NONE;
  let p1Shape = NONE;
  let p1Cls = NONE;
  let p1Flags = 0;
  if (i > 0) {
    fillInfo(tokens, i - 1, lex);
    const p1 = me - STRIDE;
    p1Word = d[p1 + HASH]!;
    p1Shape = d[p1 + SHAPE]!;
    p1Cls = clsOf(d[p1 + CODE]!);
    p1Flags = flagsOf(d[p1 + CODE]!);
  }
  let n1Gap = 9;
  let n1Word = NONE;
  let n1Shape = NONE;
  let n1Cls = NONE;
  let n1Flags = 0;
  if (i + 1 < n) {
    fillInfo(tokens, i + 1, lex);
    const n1 = me + STRIDE;
    n1Gap = d[n1 + META]! & 7;
    n1Word = d[n1 + HASH]!;
    n1Shape = d[n1 + SHAPE]!;
    n1Cls = clsOf(d[n1 + CODE]!);
    n1Flags = flagsOf(d[n1 + CODE]!);
  }
  // Of the words two away only the spelling is read: no lexicon lookup, which was a fifth of the tagger's time.
  const p2 = i > 1 ? wordOf(tokens, i - 2) : NONE;
  const n2 = i + 2 < n ? wordOf(tokens, i + 2) : NONE;
  // Each slot: the template number mixed with the values it reads (written out, not through a
  // closure: allocating one per word was measurable at ~150 scored words per 1k tokens). Training drops
  // places 1 and 8-15 at random (WORD_FEATURES in models/pii-ner/train.ts): keep them where they are.
  const g: Gap = d[me + META]! & 7;
  out[0] = BIAS_SLOT;
  out[1] = slot(2, meWord, 0);
  out[2] = slot(3, meShape, 0);
  out[3] = CLASS_SLOT[meCls]!;
  out[4] = mix(CLASS_SHAPE[meCls]!, meShape) & SLOT_MASK;
  out[5] = CLASS_FULL_SLOT[((meCode >> 1) & 63) * 2 + (sentenceStart(g) ? 1 : 0)]!;
  out[6] = GAP_SLOT[g]!;
  out[7] = NEXT_GAP_SLOT[n1Gap]!;
  out[8] = slot(9, p1Word, 0);
  out[9] = slot(10, n1Word, 0);
  out[10] = slot(11, p2, 0);
  out[11] = slot(12, n2, 0);
  out[12] = slot(13, p1Shape, g);
  out[13] = slot(14, n1Shape, 0);
  out[14] = p1Cls === NONE ? slot(15, NONE, 0) : PREV_CLASS_SLOT[p1Cls]!;
  out[15] = n1Cls === NONE ? slot(16, NONE, 0) : NEXT_CLASS_SLOT[n1Cls]!;
  out[16] = PREV_LABEL_SLOT[prev]!;
  out[17] = PREV_LABELS_SLOT[prev2 * 3 + prev]!;
  out[18] = mix(LABEL_GAP_SHAPE[prev * 8 + g]!, meShape) & SLOT_MASK;
  // Punctuation touching the word: "/" and "@" put it in a URL or address, "(" and ":" after a label.
  out[19] = slot(20, tokens.before(i), tokens.after(i));
  let k = 20;
  const suffix3 = d[me + SUFFIX3]!;
  if (suffix3 !== 0) {
    out[k++] = slot(21, suffix3, 0);
    out[k++] = slot(22, d[me + SUFFIX2]!, 0);
  }
  if (meShape === 1) out[k++] = LENGTH_SLOT[Math.min(d[me + END]! - d[me + START]!, 7)]!;
  // A country's or company's word here or next door ("the Uganda Producer", "Smith Ltd").
  const around = p1Flags * 4 + n1Flags;
  if (meFlags !== 0 || around !== 0) {
    out[k++] = FLAGS_SLOT[meFlags]!;
    out[k++] = FLAGS_AROUND_SLOT[meFlags * 16 + around]!;
  }
  return k;
}
