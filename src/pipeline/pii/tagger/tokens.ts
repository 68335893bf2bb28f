/** What lies between two tokens: decides features and whether neighbours may form one span. */
export enum Gap {
  Start = 0,
  Space = 1,
  Newline = 2,
  Comma = 3,
  Stop = 4,
  Other = 5,
}

/**
 * Each token is STRIDE ints of one Int32Array: its offsets, a word of flags, and what the features
 * compute of it on first use (most words of ordinary prose are only skipped). A Token object and a
 * WordInfo object per scored word and its neighbours were a quarter of the tagger's time on the
 * pii-dense workload (CPU profile of bench/pii-speed.ts: constructors, property reads, the GC);
 * a token's fields side by side also put a word's neighbours in the same cache lines.
 */
export const STRIDE = 8;
export const START = 0;
export const END = 1;
/** Gap (bits 0-2), PLAIN, ASCII, and which of the fields below are filled (HAS_HASH, HAS_INFO). */
export const META = 2;
/** The hash of the lower-case spelling (features.ts: wordOf). */
export const HASH = 3;
/** The lexicon number (features.ts: lexCode). */
export const CODE = 4;
/** Shape and suffix hashes (features.ts: infoOf). */
export const SHAPE = 5;
export const SUFFIX3 = 6;
export const SUFFIX2 = 7;

const GAP_BITS = 7;
/** Only ASCII letters and apostrophes: a word the lexicon's folded ASCII table can spell. */
export const PLAIN = 1 << 3;
/** Only ASCII characters: lower-cased by folding A-Z alone, so its length stays. */
export const ASCII = 1 << 4;
export const HAS_HASH = 1 << 5;
export const HAS_CODE = 1 << 6;
export const HAS_INFO = 1 << 7;

/*
 * What frames.ts's loop over every word reads of a token, told while tokenize has its characters at hand
 * (issue 30, fifth round): that loop read each token's first, last and following characters itself, about
 * a tenth of masking's time on ordinary prompts (bench/results/pii-helper-2026-11-27-round4.md).
 */
/** The first character is a-z. */
export const LOWER_FIRST = 1 << 8;
/** The first character is A-Z. */
export const UPPER_FIRST = 1 << 9;
/** A plain word of at most 15 letters whose (length, first, last letter) is one of FRAME_SHAPES' FOLLOWED_SHAPE words (case folded). */
export const FOLLOWED = 1 << 10;
/** A word of at most 15 characters, first and last a-z, whose shape is one of FRAME_SHAPES' VERB_SHAPE words. */
export const VERB = 1 << 11;
/** Followed by a quote, a colon or an equals sign, or by "." or "_" and a-z (a key, a username, code). */
export const SPECIAL = 1 << 12;
/** Right after "@". */
export const AT_BEFORE = 1 << 13;
/** Three or more characters ending in "'s" or "’s". */
export const POSSESSIVE = 1 << 14;

/** FRAME_SHAPES' bits. */
export const FOLLOWED_SHAPE = 1;
export const VERB_SHAPE = 2;
/**
 * Per (length up to 15, first letter, last letter), case folded: FOLLOWED_SHAPE for the words a name in a
 * clause may follow, VERB_SHAPE for the verbs a person opening a clause comes before. frames.ts fills it
 * from its word lists when it loads (the tagger imports it before any text is tagged).
 */
export const FRAME_SHAPES = new Uint8Array(16 * 26 * 26);
export const frameShapeIndex = (length: number, first: number, last: number) => (Math.min(length, 15) * 26 + ((first | 32) - 97)) * 26 + ((last | 32) - 97);

/**
 * A read-only view of one token, for code that is not on the tagger's hot path (training, tests):
 * the tagger itself reads the typed array through Tokens' methods.
 */
export class Token {
  constructor(
    private readonly tokens: Tokens,
    readonly index: number,
  ) {}

  get source(): string {
    return this.tokens.source;
  }
  get start(): number {
    return this.tokens.start(this.index);
  }
  get end(): number {
    return this.tokens.end(this.index);
  }
  get gap(): Gap {
    return this.tokens.gap(this.index);
  }
  get plain(): boolean {
    return this.tokens.isPlain(this.index);
  }
  get ascii(): boolean {
    return this.tokens.isAscii(this.index);
  }
  get text(): string {
    return this.tokens.text(this.index);
  }
  get lower(): string {
    return this.tokens.lower(this.index);
  }
  /** The code of its first character. */
  get first(): number {
    return this.tokens.first(this.index);
  }
  /** The character codes right before and right after the token (0 at the text's ends). */
  get before(): number {
    return this.tokens.before(this.index);
  }
  get after(): number {
    return this.tokens.after(this.index);
  }
}

/** The tokens of a text: offsets, flags and the features' per-word values, STRIDE ints a token. */
export class Tokens {
  /** Lower-cased spellings of the words outside ASCII, made on first use (String.toLowerCase). */
  private lowers: (string | undefined)[] | undefined;

  constructor(
    readonly source: string,
    readonly length: number,
    /** STRIDE ints a token (the constants above); the feature fields are filled on first use. */
    readonly data: Int32Array,
  ) {}

  start(i: number): number {
    return this.data[i * STRIDE + START]!;
  }

  end(i: number): number {
    return this.data[i * STRIDE + END]!;
  }

  gap(i: number): Gap {
    return this.data[i * STRIDE + META]! & GAP_BITS;
  }

  isPlain(i: number): boolean {
    return (this.data[i * STRIDE + META]! & PLAIN) !== 0;
  }

  isAscii(i: number): boolean {
    return (this.data[i * STRIDE + META]! & ASCII) !== 0;
  }

  /** The code of token i's first character. */
  first(i: number): number {
    return this.source.charCodeAt(this.data[i * STRIDE + START]!);
  }

  before(i: number): number {
    const s = this.data[i * STRIDE + START]!;
    return s > 0 ? this.source.charCodeAt(s - 1) : 0;
  }

  after(i: number): number {
    const e = this.data[i * STRIDE + END]!;
    return e < this.source.length ? this.source.charCodeAt(e) : 0;
  }

  text(i: number): string {
    return this.source.slice(this.data[i * STRIDE + START]!, this.data[i * STRIDE + END]!);
  }

  /** Token i's spelling lower-cased: for a word outside ASCII, made once and kept. */
  lower(i: number): string {
    if (this.isAscii(i)) return this.text(i).toLowerCase();
    // Sized once: assigning far past the end of an empty array made it a sparse one (4% of the tagger's time on the pii-dense workload).
    this.lowers ??= new Array(this.length);
    return (this.lowers[i] ??= this.text(i).toLowerCase());
  }

  at(i: number): Token {
    return new Token(this, i);
  }

  *[Symbol.iterator](): IterableIterator<Token> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }
}

const NON_ASCII_WORD = /[\p{L}\p{M}\p{N}]/u;

/** What an ASCII character is to the tokenizer: part of a word (a letter or a digit) or the gap it makes. */
const LETTER = 1;
const DIGIT = 2;
const WORD = LETTER | DIGIT;
const NEWLINE = 4;
const STOP = 8;
const COMMA = 16;
const BLANK = 32;
const OTHER = 64;
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  const stop = c === 46 || c === 33 || c === 63 || c === 58 || c === 59; // . ! ? : ;
  ASCII_CLASS[c] = letter
    ? LETTER
    : c >= 48 && c <= 57
      ? DIGIT
      : c === 10 || c === 13
        ? NEWLINE
        : stop
          ? STOP
          : c === 44
            ? COMMA
            : c === 32 || c === 9
              ? BLANK
              : OTHER;
}

/**
 * Whether the unit c (128 or above) is part of a word, remembered per unit: NON_ASCII_WORD tested on a
 * one-unit string made per letter was a third of tokenizing the pii-dense workload, whose names are
 * full of accented letters. A unit alone is what the test always saw (a lone surrogate is no letter).
 */
function nonAsciiWord(c: number): boolean {
  let known = NON_ASCII_KNOWN[c]!;
  if (known === 0) NON_ASCII_KNOWN[c] = known = NON_ASCII_WORD.test(String.fromCharCode(c)) ? 1 : 2;
  return known === 1;
}
/** Per unit: 0 not yet known, 1 part of a word, 2 not. */
const NON_ASCII_KNOWN = new Uint8Array(65536);

/** Whether the unit at text[i] (code c) is part of a word. */
function isWordUnit(c: number): boolean {
  return c < 128 ? (ASCII_CLASS[c]! & WORD) !== 0 : nonAsciiWord(c);
}

/** The frame bits (LOWER_FIRST ... POSSESSIVE) of the word text[start, end), whose first character is `first`, which `before` precedes and which is PLAIN or not. */
function frameBits(text: string, start: number, end: number, first: number, before: number, plain: boolean): number {
  let bits = before === 64 ? AT_BEFORE : 0;
  const length = end - start;
  const last = text.charCodeAt(end - 1);
  if (length >= 3 && (last | 32) === 115) {
    const quote = text.charCodeAt(end - 2);
    if (quote === 39 || quote === 0x2019) bits |= POSSESSIVE;
  }
  if (end < text.length) {
    const sep = text.charCodeAt(end);
    if (sep === 34 || sep === 39 || sep === 58 || sep === 61) bits |= SPECIAL;
    else if (sep === 46 || sep === 95) {
      const next = text.charCodeAt(end + 1);
      if (next >= 97 && next <= 122) bits |= SPECIAL;
    }
  }
  const lower = first >= 97 && first <= 122;
  if (lower) bits |= LOWER_FIRST;
  else if (first >= 65 && first <= 90) bits |= UPPER_FIRST;
  else return bits;
  if (length > 15) return bits;
  const lastFolded = last | 32;
  if (lastFolded < 97 || lastFolded > 122) return bits;
  const shape = FRAME_SHAPES[frameShapeIndex(length, first, last)]!;
  if ((shape & FOLLOWED_SHAPE) !== 0 && plain) bits |= FOLLOWED;
  if ((shape & VERB_SHAPE) !== 0 && lower && last >= 97 && last <= 122) bits |= VERB;
  return bits;
}

/**
 * Words: letters (any script, with combining marks) and digits, joined by an inner apostrophe or
 * hyphen ("O'Neil", "Jean-Luc", "22-B"); punctuation and spaces are only gaps. A character loop, not
 * a /\p{L}+/u regex: the regex took 0.5-1 µs a word, most of what the tagger then cost.
 *
 * `reuse`: an array to write the tokens into (grown into a new one when too small), for a caller that
 * is done with the last text's tokens before it tokenizes the next. A fresh 30 kB array per 1k-token
 * text cost as much as the scan itself: the memory is new to the process, and each page's first write
 * faults (tokenizing: 5.7 -> 2.3 ns a character, pii-dense workload).
 */
export function tokenize(text: string, reuse?: Int32Array): Tokens {
  const n = text.length;
  // Room for a word every four characters (English averages one every six with its space), doubled when full.
  let data = reuse ?? new Int32Array(((n >> 2) + 8) * STRIDE);
  let count = 0;
  let gap = Gap.Start;
  let i = 0;
  // The character before the next word: the last one the gap branch passed over.
  let before = 0;
  // One table read per ASCII character (a class each, ASCII_CLASS): comparing ranges and punctuation in
  // line took 3.8 ns a character against 2.6 (pii-dense workload, tokens written into a reused array).
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c < 128) {
      const k = ASCII_CLASS[c]!;
      if ((k & WORD) === 0) {
        if (k === NEWLINE) gap = Gap.Newline;
        else if (gap !== Gap.Newline) {
          if (k === STOP) gap = Gap.Stop;
          else if (k === COMMA) {
            if (gap !== Gap.Stop) gap = Gap.Comma;
          } else if (k === OTHER && gap === Gap.Space) gap = Gap.Other;
        }
        before = c;
        i++;
        continue;
      }
    } else if (!nonAsciiWord(c)) {
      if (gap === Gap.Space) gap = Gap.Other;
      before = c;
      i++;
      continue;
    }
    const start = i;
    const first = c;
    // Whether the word is plain is decided in the same scan (a second pass over its letters was 4% of the tagger's time):
    // no digit, no unit outside ASCII, no hyphen after any of its runs.
    let seen = 0;
    let ascii = true;
    let hyphen = false;
    for (;;) {
      while (i < n) {
        c = text.charCodeAt(i);
        if (c < 128) {
          const k = ASCII_CLASS[c]!;
          if ((k & WORD) === 0) break;
          seen |= k;
          i++;
        } else if (nonAsciiWord(c)) {
          ascii = false;
          i++;
        } else break;
      }
      if (c === 45) hyphen = true;
      // An inner apostrophe or hyphen joins two runs of letters or digits.
      if (i + 1 < n && (c === 39 || c === 0x2019 || c === 45) && isWordUnit(text.charCodeAt(i + 1))) {
        if (c === 0x2019) ascii = false;
        i++;
      } else break;
    }
    if ((count + 1) * STRIDE > data.length) {
      const grown = new Int32Array(data.length * 2);
      grown.set(data);
      data = grown;
    }
    const plain = ascii && !hyphen && (seen & DIGIT) === 0;
    const at = count * STRIDE;
    data[at + START] = start;
    data[at + END] = i;
    data[at + META] = gap | (plain ? PLAIN : 0) | (ascii ? ASCII : 0) | frameBits(text, start, i, first, before, plain);
    count++;
    gap = Gap.Space;
    before = 0;
  }
  return new Tokens(text, count, data);
}

/** The index of the token starting at or after `at` (tokens.length if none). */
export function tokenFrom(tokens: Tokens, at: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens.start(mid) < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether token i is one capital ASCII letter followed by a full stop: an initial ("J." of "J. R. Mwansa"). */
export function isInitial(tokens: Tokens, i: number): boolean {
  const c = tokens.first(i);
  return tokens.end(i) - tokens.start(i) === 1 && c >= 65 && c <= 90 && tokens.source.charCodeAt(tokens.end(i)) === 46;
}

/** The last token of the span that token i opens: the tokens after it with its label, on one line and joined by spaces ("Grace Okafor"). */
export function spanEnd(tokens: Tokens, labels: Uint8Array, i: number): number {
  const label = labels[i];
  let j = i;
  while (j + 1 < tokens.length && labels[j + 1] === label && tokens.gap(j + 1) === Gap.Space) j++;
  return j;
}

/** Whether the text between tokens k-1 and k holds a dash set off by spaces (" — ", " – ", ". - "): a signature after an address. */
export function dashBefore(tokens: Tokens, k: number): boolean {
  const source = tokens.source;
  for (let c = tokens.end(k - 1); c < tokens.start(k) - 1; c++) {
    const u = source.charCodeAt(c);
    if ((u === 0x2014 || u === 0x2013 || u === 45) && source.charCodeAt(c + 1) === 32 && (c === 0 || source.charCodeAt(c - 1) !== 45)) return true;
  }
  return false;
}
