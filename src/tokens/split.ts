import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";

/**
 * The pre-tokenizer's pieces, found without running its regex where that is safe.
 *
 * BPE counts a text piece by piece, and the pieces are the matches of the library's split regex. That
 * regex (unicode property classes, up to nine alternatives tried in turn) took 40% of the time of
 * counting an English prompt, so for ASCII text a scanner decides each piece from character classes
 * instead, reproducing the regex alternative by alternative (o200kPieceEnd, cl100kPieceEnd).
 *
 * The regex has no lookbehind and its `$` is the end of the text, so the piece that starts at `p`
 * depends on `text[p..]` alone: the scanner may hand any single piece back to the regex (sticky, from
 * `p`) and carry on after it. It does so whenever the piece's extent depends on the class of a
 * non-ASCII character, which might be a letter, a mark, a digit or a space. Every piece the scanner
 * decides ends right after an ASCII character, so the regex is always restarted on a code point
 * boundary.
 *
 * Among ASCII characters the regexes tell apart only these classes (JS `\s` is \t \n \v \f \r and space;
 * \p{L} is A-Z a-z; \p{N} is 0-9; everything else, control characters included, is [^\s\p{L}\p{N}]).
 */
const UNKNOWN = 0; // not ASCII
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const BLANK = 4; // \s but not a line break: space \t \v \f
const BREAK = 5; // \r \n
const SYMBOL = 6; // [^\s\p{L}\p{N}]
const END = 7; // past the end of the text

const ASCII_CLASS = new Uint8Array(128).fill(SYMBOL);
for (let c = 0x61; c <= 0x7a; c++) ASCII_CLASS[c] = LOWER;
for (let c = 0x41; c <= 0x5a; c++) ASCII_CLASS[c] = UPPER;
for (let c = 0x30; c <= 0x39; c++) ASCII_CLASS[c] = DIGIT;
for (const c of [0x09, 0x0b, 0x0c, 0x20]) ASCII_CLASS[c] = BLANK;
ASCII_CLASS[0x0a] = ASCII_CLASS[0x0d] = BREAK;

const SPACE = 0x20;
const APOSTROPHE = 0x27;
const SLASH = 0x2f;
const isLetter = (c: number) => c === LOWER || c === UPPER;

/**
 * Scratch for the classes of the text being split, reused across calls (counting is synchronous).
 * The scanner reads classes rather than `charCodeAt`: it looks one character past a run's end, and
 * `charCodeAt` past the text's end yields NaN, which de-optimises it (measured: 1.6x as long), while
 * END here stops every run without a bounds check.
 */
let classes = new Uint8Array(4096);

/** The classes of `text`'s UTF-16 units, then END, where every scan stops. Valid until the next call. */
export function classify(text: string): Uint8Array {
  const n = text.length;
  if (classes.length <= n) classes = new Uint8Array(Math.max(2 * classes.length, n + 1));
  const k = classes;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    k[i] = c < 128 ? ASCII_CLASS[c]! : UNKNOWN;
  }
  k[n] = END;
  return k;
}

/** The scanner's answer when the piece depends on a non-ASCII character: ask the regex. */
export const UNDECIDED = -1;

/** `'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])` at `i`: its end, or `i` if there is none. */
function contractionEnd(s: string, k: Uint8Array, i: number): number {
  if (k[i] !== SYMBOL || s.charCodeAt(i) !== APOSTROPHE) return i;
  // `| 0x20` lower-cases ASCII letters and turns nothing else into one (NaN past the end becomes a space).
  const a = s.charCodeAt(i + 1) | 0x20;
  if (a === 0x73 || a === 0x64 || a === 0x6d || a === 0x74) return i + 2;
  const b = s.charCodeAt(i + 2) | 0x20;
  if ((a === 0x6c && b === 0x6c) || (a === 0x76 && b === 0x65) || (a === 0x72 && b === 0x65)) return i + 3;
  return i;
}

/**
 * o200k's words from a letter at `i`: `[\p{Lu}…]*[\p{Ll}…]+'x?`, else `[\p{Lu}…]+[\p{Ll}…]*'x?`. In ASCII
 * the first matches when the capitals (perhaps none) are followed by a small letter, and takes the
 * small letters after them; otherwise the second takes the capitals alone. A run that stops at a
 * non-ASCII character is undecided: it might be a letter or a mark that continues it.
 */
function o200kWordEnd(s: string, k: Uint8Array, i: number): number {
  while (k[i] === UPPER) i++;
  while (k[i] === LOWER) i++;
  return k[i] === UNKNOWN ? UNDECIDED : contractionEnd(s, k, i);
}

/** cl100k's words: `\p{L}+`, both cases alike; a contraction is a piece of its own. */
function cl100kWordEnd(k: Uint8Array, i: number): number {
  let c: number;
  do c = k[++i]!;
  while (c === LOWER || c === UPPER);
  return c === UNKNOWN ? UNDECIDED : i;
}

/** `[^\s\p{L}\p{N}]+` from `i`, then the trailing `[\r\n]*` (o200k: `[\r\n/]*`; a slash in the run itself is already a symbol). */
function symbolsEnd(s: string, k: Uint8Array, i: number, slash: boolean): number {
  while (k[i] === SYMBOL) i++;
  if (k[i] === UNKNOWN) return UNDECIDED;
  while (k[i] === BREAK || (slash && k[i] === SYMBOL && s.charCodeAt(i) === SLASH)) i++;
  return i;
}

/** `\p{N}{1,3}`: fewer than three ASCII digits before a non-ASCII character is undecided (it may be a digit). */
function digitsEnd(k: Uint8Array, p: number): number {
  let i = p + 1;
  while (i < p + 3 && k[i] === DIGIT) i++;
  return i < p + 3 && k[i] === UNKNOWN ? UNDECIDED : i;
}

/** End of the run of `\s` from `p`, or UNDECIDED if it stops at a non-ASCII character (it may be `\s`). */
function whitespaceEnd(k: Uint8Array, p: number): number {
  let e = p + 1;
  while (k[e] === BLANK || k[e] === BREAK) e++;
  return k[e] === UNKNOWN ? UNDECIDED : e;
}

/** One past the last line break in the whitespace run [p, e), or -1. */
function afterLastBreak(k: Uint8Array, p: number, e: number): number {
  for (let i = e - 1; i >= p; i--) if (k[i] === BREAK) return i + 1;
  return -1;
}

/**
 * o200k_base's alternatives, in the regex's order (the first that matches at `p` wins):
 *   `[^\r\n\p{L}\p{N}]?` + a word (two alternatives, see o200kWordEnd)  |  `\p{N}{1,3}`
 *   | ` ?[^\s\p{L}\p{N}]+[\r\n/]*`  |  `\s*[\r\n]+`  |  `\s+(?!\S)`  |  `\s+`
 * A letter starts a word, a digit a digit group; a symbol or a lone blank is a word's prefix when a
 * letter follows; otherwise a symbol starts a symbol run, and whitespace is one of the last three.
 */
function o200kPieceEnd(s: string, k: Uint8Array, p: number): number {
  const c = k[p]!;
  if (isLetter(c)) return o200kWordEnd(s, k, p);
  if (c === DIGIT) return digitsEnd(k, p);
  const next = k[p + 1]!;
  if (c === SYMBOL) {
    if (isLetter(next)) return o200kWordEnd(s, k, p + 1);
    // Also undecided when `next` is not ASCII: a letter would make this symbol a word's prefix.
    return symbolsEnd(s, k, p, true);
  }
  if (c !== BLANK && c !== BREAK) return UNDECIDED;
  const e = whitespaceEnd(k, p);
  if (e === UNDECIDED) return UNDECIDED;
  // A lone blank: the prefix of a word that follows, or (a space only) the ` ?` of a symbol run.
  if (e === p + 1 && c === BLANK) {
    if (isLetter(next)) return o200kWordEnd(s, k, p + 1);
    if (next === SYMBOL && s.charCodeAt(p) === SPACE) return symbolsEnd(s, k, p + 1, true);
  }
  // `\s*[\r\n]+`: \s* gives characters back until a break follows it, so it ends after the last break.
  const afterBreak = afterLastBreak(k, p, e);
  if (afterBreak !== -1) return afterBreak;
  // `\s+(?!\S)`: the whole run at the end of the text, else all but its last blank (which becomes the
  // next piece's prefix); a single blank before a non-space fails it and is `\s+`.
  return e === s.length || e === p + 1 ? e : e - 1;
}

/**
 * cl100k_base's alternatives, in the regex's order (the first that matches at `p` wins):
 *   `'(?:[sS]|[dD]|…)`  |  `[^\r\n\p{L}\p{N}]?\p{L}+`  |  `\p{N}{1,3}`  |  ` ?[^\s\p{L}\p{N}]+[\r\n]*`
 *   | `\s+$`  |  `\s*[\r\n]`  |  `\s+(?!\S)`  |  `\s`
 * As o200k, but for the contraction first, words of either case without one, no slash after a
 * symbol run, and whitespace reaching the end of the text taken whole before line breaks are looked at.
 */
function cl100kPieceEnd(s: string, k: Uint8Array, p: number): number {
  const c = k[p]!;
  if (isLetter(c)) return cl100kWordEnd(k, p);
  if (c === DIGIT) return digitsEnd(k, p);
  const next = k[p + 1]!;
  if (c === SYMBOL) {
    const contraction = contractionEnd(s, k, p);
    if (contraction !== p) return contraction;
    if (isLetter(next)) return cl100kWordEnd(k, p + 1);
    return symbolsEnd(s, k, p, false); // undecided before non-ASCII, as in o200k
  }
  if (c !== BLANK && c !== BREAK) return UNDECIDED;
  const e = whitespaceEnd(k, p);
  if (e === UNDECIDED) return UNDECIDED;
  if (e === p + 1 && c === BLANK) {
    if (isLetter(next)) return cl100kWordEnd(k, p + 1);
    if (next === SYMBOL && s.charCodeAt(p) === SPACE) return symbolsEnd(s, k, p + 1, false);
  }
  if (e === s.length) return e; // `\s+$`
  // `\s*[\r\n]` ends after the run's last break, as o200k's `\s*[\r\n]+` does.
  const afterBreak = afterLastBreak(k, p, e);
  if (afterBreak !== -1) return afterBreak;
  return e === p + 1 ? e : e - 1; // `\s+(?!\S)`, else `\s`
}

export interface Splitter {
  /** The end of the piece that starts at `p`, or UNDECIDED. */
  scan: (text: string, classes: Uint8Array, p: number) => number;
  /** The library's split regex, sticky: what `scan` reproduces, and where it defers. */
  regex: RegExp;
}

export const O200K_SPLIT: Splitter = { scan: o200kPieceEnd, regex: new RegExp(O200K_TOKEN_SPLIT_REGEX.source, "uy") };
export const CL100K_SPLIT: Splitter = { scan: cl100kPieceEnd, regex: new RegExp(CL100K_TOKEN_SPLIT_REGEX.source, "uy") };

/** Where the piece that starts at `p` ends; `classes` is `classify(text)`. */
export function pieceEnd(split: Splitter, text: string, classes: Uint8Array, p: number): number {
  const end = split.scan(text, classes, p);
  if (end !== UNDECIDED) return end;
  // Every character starts some piece (the alternatives cover letters, digits, `\s` and the rest), so
  // the sticky regex always matches at `p`. `test`, not `exec`: only the end is needed, and building the
  // match array made a deferred piece cost 1.5x as much (measured).
  split.regex.lastIndex = p;
  split.regex.test(text);
  return split.regex.lastIndex;
}
