import { FoldedWordTable } from "../../../text/word-table";
import { COMPANY_WORDS, countryWords } from "./gazetteer";
import { Gap, type Token, type Tokens, type WordInfo } from "./tokens";

/**
 * How general English writes a word: "l" mostly lower case, "u" mostly capitalised, "s" mostly first in
 * a sentence ("Hi", "Please"), "x" mixed; then log10 of how often it was seen ("l4": very common).
 */
export type CaseClass = `${"l" | "u" | "s" | "x"}${0 | 1 | 2 | 3 | 4}`;
export type CaseProfile = ReadonlyMap<string, CaseClass>;

/**
 * What the features look words up in: the case profile and the names seen as PERSON in training,
 * folded into one number per word (one map lookup a word instead of two): class (0 unseen, 1-4
 * l/u/s/x) << 4 | frequency bucket << 1 | known name.
 */
export interface Lexicon {
  /** Plain ASCII words, found in place without slicing or lower-casing (most of the lookups). */
  ascii: FoldedWordTable<number>;
  /** Words with other letters, digits or hyphens, by their lower-cased spelling. */
  other: ReadonlyMap<string, number>;
}

const CLASS_ID: Record<string, number> = { l: 1, u: 2, s: 3, x: 4 };
const L_CLASS = 1;
const S_CLASS = 3;

/** Flags above the class (gazetteer.ts): a word of a country's name, a company's legal form. */
const COUNTRY_FLAG = 1 << 7;
const COMPANY_FLAG = 1 << 8;
/** The class bits (0 unseen, 1-4 l/u/s/x) of a lexicon number. */
const classOf = (code: number) => (code >> 4) & 7;
/** The gazetteer flags of a lexicon number: 0-3. */
const flagsOf = (code: number) => code >> 7;

export function makeLexicon(cases: CaseProfile, names: Iterable<string>): Lexicon {
  const words = new Map<string, number>();
  for (const [w, c] of cases) words.set(w, (CLASS_ID[c[0]!]! << 4) | (Number(c[1]) << 1));
  for (const w of names) words.set(w, (words.get(w) ?? 0) | 1);
  for (const w of countryWords()) words.set(w, (words.get(w) ?? 0) | COUNTRY_FLAG);
  for (const w of COMPANY_WORDS) words.set(w, (words.get(w) ?? 0) | COMPANY_FLAG);
  const plain = [...words].filter(([w]) => /^[a-z']+$/.test(w));
  // Words starting with a digit are left out (none are in the shipped lists): lexCode skips numbers.
  return { ascii: new FoldedWordTable(plain), other: new Map([...words].filter(([w]) => !/^[a-z']+$/.test(w) && !/^\d/.test(w))) };
}

/**
 * The token's lexicon number (0 for a word in neither list), looked up once. A string-keyed map
 * hashed a fresh slice for every word: 16% of the tagger's time on ordinary prompts (CPU profile).
 */
export function lexCode(t: Token, lex: Lexicon): number {
  if (t.code !== undefined) return t.code;
  if (t.plain) {
    const entry = lex.ascii.find(t.source, t.start, t.end);
    return (t.code = entry === -1 ? 0 : lex.ascii.value(entry));
  }
  // No word of the lexicon starts with a digit (makeLexicon): numbers need no lookup.
  const first = t.first;
  if (first >= 48 && first <= 57) return (t.code = 0);
  return (t.code = lex.other.get(lowerOf(t)) ?? 0);
}

/** Whether the token starts with a capital letter (of any script). */
export function capitalised(t: Token): boolean {
  const c = t.first;
  if (c < 128) return c >= 65 && c <= 90;
  return t.text[0] !== lowerOf(t)[0];
}

/** Whether general English writes the word in lower case, or mostly first in a sentence. */
export const usuallyLower = (code: number) => classOf(code) === L_CLASS;
export const usuallySentenceStart = (code: number) => classOf(code) === S_CLASS;

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

export function lowerOf(t: Token): string {
  return (t.lower ??= t.text.toLowerCase());
}

/** The hash of the token's lower-case spelling: all the features read of the words two away. */
function wordOf(t: Token): number {
  if (t.hash !== undefined) return t.hash;
  // An ASCII word is hashed as its lower-case spelling in place (toLowerCase was 5-10% of the tagger's time).
  return (t.hash = t.ascii ? hashAscii(t.source, t.start, t.end) : hashTail(lowerOf(t)));
}

function infoOf(t: Token, lex: Lexicon): WordInfo {
  if (t.info) return t.info;
  const code = lexCode(t, lex);
  const lower = t.ascii ? "" : lowerOf(t);
  const long = (t.ascii ? t.end - t.start : lower.length) > 3;
  return (t.info = {
    word: wordOf(t),
    shape: shapeCode(t.source, t.start, t.end),
    cls: (classOf(code) << 1) | (code & 1),
    clsFull: (code >> 1) & 63,
    flags: flagsOf(code),
    suffix3: !long ? 0 : t.ascii ? hashAscii(t.source, t.end - 3, t.end) : hashTail(lower, 3),
    suffix2: !long ? 0 : t.ascii ? hashAscii(t.source, t.end - 2, t.end) : hashTail(lower, 2),
  });
}

/**
 * Whether the tagger scores a token at all. In a text that writes capitals, a name or an address
 * starts with a capital or a digit: its lower-case words are never scored on their own, which is most
 * of the tagger's speed (ordinary prose is 80-90% such words, and looking each up cost more than the
 * scoring; CPU profile of bench/pii-speed.ts). In a lower-cased text ("call dawn jessen") the words
 * general English does not write in lower case are scored.
 */
export function isCandidate(token: Token, lex: Lexicon, cased: boolean): boolean {
  const c = token.first;
  if (c < 128) {
    if (!(c >= 97 && c <= 122)) return true; // digit or capital
  } else if (capitalised(token)) return true;
  if (cased) return false;
  const code = lexCode(token, lex);
  return !usuallyLower(code) || (code & 1) === 1;
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
export function ordinaryCapital(token: Token, lex: Lexicon): boolean {
  const g = token.gap;
  const opener = g === Gap.Start || g === Gap.Stop || g === Gap.Newline;
  const code = lexCode(token, lex);
  // Inside a sentence only the commonest words (seen 1,000+ times: "For", "With" in a title): with the
  // words seen 100+ times too, ADDRESS recall fell 0.859 -> 0.856 in the template cross-validation.
  if (!opener && ((code >> 1) & 7) < 3) return false;
  // Not a known name, a country's word or a company's (the gazetteer flags): those openers are scored.
  return classOf(code) === L_CLASS && (code & 1) === 0 && flagsOf(code) === 0;
}

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
 * Writes the feature slots of token i into `out` (given the label indices chosen for the two before
 * it) and returns how many. Each is a template number mixed with the values it reads.
 */
export function features(tokens: Tokens, i: number, prev: number, prev2: number, lex: Lexicon, out: Int32Array): number {
  const t = tokens.at(i);
  const me = infoOf(t, lex);
  const p1 = i > 0 ? infoOf(tokens.at(i - 1), lex) : undefined;
  // Of the words two away only the spelling is read: no lexicon lookup, which was a fifth of the tagger's time.
  const p2 = i > 1 ? wordOf(tokens.at(i - 2)) : NONE;
  const n1t = i + 1 < tokens.length ? tokens.at(i + 1) : undefined;
  const n1 = n1t ? infoOf(n1t, lex) : undefined;
  const n2 = i + 2 < tokens.length ? wordOf(tokens.at(i + 2)) : NONE;
  // Each slot: the template number mixed with the values it reads (written out, not through a
  // closure: allocating one per word was measurable at ~150 scored words per 1k tokens). Training drops
  // places 1 and 8-15 at random (WORD_FEATURES in models/pii-ner/train.ts): keep them where they are.
  const g = t.gap;
  out[0] = slot(1, 0, 0); // bias
  out[1] = slot(2, me.word, 0);
  out[2] = slot(3, me.shape, 0);
  out[3] = slot(4, me.cls, 0);
  out[4] = slot(5, me.cls, me.shape);
  out[5] = slot(6, me.clsFull, sentenceStart(g) ? 1 : 0);
  out[6] = slot(7, g, 0);
  out[7] = slot(8, n1t ? n1t.gap : 9, 0);
  out[8] = slot(9, p1 ? p1.word : NONE, 0);
  out[9] = slot(10, n1 ? n1.word : NONE, 0);
  out[10] = slot(11, p2, 0);
  out[11] = slot(12, n2, 0);
  out[12] = slot(13, p1 ? p1.shape : NONE, g);
  out[13] = slot(14, n1 ? n1.shape : NONE, 0);
  out[14] = slot(15, p1 ? p1.cls : NONE, 0);
  out[15] = slot(16, n1 ? n1.cls : NONE, 0);
  out[16] = slot(17, prev, 0);
  out[17] = slot(18, prev2 * 3 + prev, 0);
  out[18] = slot(19, prev * 8 + g, me.shape);
  // Punctuation touching the word: "/" and "@" put it in a URL or address, "(" and ":" after a label.
  out[19] = slot(20, t.before, t.after);
  let k = 20;
  if (me.suffix3 !== 0) {
    out[k++] = slot(21, me.suffix3, 0);
    out[k++] = slot(22, me.suffix2, 0);
  }
  if (me.shape === 1) out[k++] = slot(23, Math.min(t.end - t.start, 7), 0);
  // A country's or company's word here or next door ("the Uganda Producer", "Smith Ltd").
  const around = (p1 ? p1.flags : 0) * 4 + (n1 ? n1.flags : 0);
  if (me.flags !== 0 || around !== 0) {
    out[k++] = slot(24, me.flags, 0);
    out[k++] = slot(25, me.flags, around);
  }
  return k;
}
