import { protectedSpans } from "./spans";

/**
 * Protected spans are swapped for placeholders made of Private Use Area characters: OPEN, the span's
 * index in base 4096 (one character per digit), CLOSE. A placeholder has no spaces, letters or
 * punctuation, so rules see it as one opaque word they cannot match into.
 */
const OPEN = "\uE000";
const CLOSE = "\uE001";
const OPEN_CODE = OPEN.charCodeAt(0);
const CLOSE_CODE = CLOSE.charCodeAt(0);
const DIGIT_BASE = 0xe100;
const RADIX = 4096;
const LAST_DIGIT_CODE = DIGIT_BASE + RADIX - 1;
/** `\uXXXX`, the regex escape of one UTF-16 code. */
const escaped = (code: number) => `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
/**
 * Regex sources for rules that match around placeholders, from the constants above: a whole
 * placeholder, its closing character, its opening character, and any character of the alphabet (OPEN
 * to the last digit).
 */
export const PLACEHOLDER_SOURCE = `${escaped(OPEN_CODE)}[${escaped(DIGIT_BASE)}-${escaped(LAST_DIGIT_CODE)}]+${escaped(CLOSE_CODE)}`;
export const PLACEHOLDER_CLOSE_SOURCE = escaped(CLOSE_CODE);
export const PLACEHOLDER_OPEN_SOURCE = escaped(OPEN_CODE);
export const PLACEHOLDER_CHAR_SOURCE = `${escaped(OPEN_CODE)}-${escaped(LAST_DIGIT_CODE)}`;
/** Text that already contains our placeholder alphabet cannot be masked safely. */
const RESERVED = new RegExp(`[${PLACEHOLDER_CHAR_SOURCE}]`);

/**
 * One-digit placeholders already spelled, by index: every message spells the same first few hundred.
 * Longer ones are rare and not kept, so the table never outgrows RADIX entries.
 */
const spelled: string[] = [];

function encode(index: number): string {
  return index < RADIX ? (spelled[index] ??= spell(index)) : spell(index);
}

function spell(index: number): string {
  let digits = "";
  do {
    digits = String.fromCharCode(DIGIT_BASE + (index % RADIX)) + digits;
    index = Math.floor(index / RADIX);
  } while (index > 0);
  return OPEN + digits + CLOSE;
}

/** The span index spelled by the placeholder digits text[from, to). */
function decode(text: string, from: number, to: number): number {
  let index = 0;
  for (let i = from; i < to; i++) index = index * RADIX + (text.charCodeAt(i) - DIGIT_BASE);
  return index;
}

const isDigit = (code: number) => code >= DIGIT_BASE && code < DIGIT_BASE + RADIX;
/** RESERVED, for one character code. */
const isReserved = (code: number) => code >= OPEN_CODE && code < DIGIT_BASE + RADIX;

export interface MaskedText {
  masked: string;
  /** Original text of each span, by placeholder index. */
  originals: readonly string[];
}

/** Masks the protected spans of `text`; null when the text cannot be masked safely (it uses our placeholder characters). */
export function mask(text: string): MaskedText | null {
  if (RESERVED.test(text)) return null;
  const originals: string[] = [];
  let masked = "";
  let at = 0;
  for (const span of protectedSpans(text)) {
    masked += text.slice(at, span.start) + encode(originals.length);
    originals.push(text.slice(span.start, span.end));
    at = span.end;
  }
  return { masked: masked + text.slice(at), originals };
}

/**
 * Calls `visit(source, start, end)` for each stretch of text[from, to) unmasked, in order (never an
 * empty one): the text's own characters between placeholders, and each placeholder's original (a
 * damaged placeholder is read as the characters it is). `open` is the first OPEN at or after `from`
 * (or -1); returns the first at or after `to`.
 */
function eachStretch(
  text: string,
  from: number,
  to: number,
  originals: readonly string[],
  open: number,
  visit: (source: string, start: number, end: number) => void,
): number {
  let at = from;
  for (; open !== -1 && open < to; open = text.indexOf(OPEN, open + 1)) {
    let close = open + 1;
    while (close < to && isDigit(text.charCodeAt(close))) close++;
    if (close === open + 1 || close === to || text.charCodeAt(close) !== CLOSE_CODE) continue;
    const original = originals[decode(text, open + 1, close)];
    if (original === undefined) continue;
    if (open > at) visit(text, at, open);
    if (original.length > 0) visit(original, 0, original.length);
    at = close + 1;
  }
  if (to > at) visit(text, at, to);
  return open;
}

/**
 * `fragment` with each placeholder swapped back for its original; a damaged one is left as it is.
 * Scanned by hand rather than with a regex: the rules unmask every fragment they count, and a replace
 * callback per placeholder cost twice as much.
 */
export function unmask(fragment: string, originals: readonly string[]): string {
  const open = fragment.indexOf(OPEN);
  if (open === -1) return fragment;
  let out = "";
  eachStretch(fragment, 0, fragment.length, originals, open, (source, start, end) => {
    out += source.slice(start, end);
  });
  return out;
}

/**
 * Reads a masked text unmasked, stretch by stretch, without joining the stretches: a reader that only
 * looks at the characters (a hash, a word count) need not build the unmasked string. 84% of the
 * corpora's sentences hold a placeholder, and joining one cost more than reading it (the joined string
 * is copied again when first read). Reads that move front to back find the placeholders in one pass
 * over the text, however many reads there are.
 */
export class UnmaskedReader {
  /** The first OPEN at or after `scannedTo`, or -1 if there is none. */
  private nextOpen = -1;
  private scannedTo = Infinity;

  constructor(
    readonly text: string,
    private readonly originals: readonly string[],
  ) {}

  /** Calls `visit(source, start, end)` for each stretch of text[from, to) unmasked, in order (never an empty one). */
  read(from: number, to: number, visit: (source: string, start: number, end: number) => void): void {
    if (from < this.scannedTo || (this.nextOpen !== -1 && this.nextOpen < from)) this.nextOpen = this.text.indexOf(OPEN, from);
    this.nextOpen = eachStretch(this.text, from, to, this.originals, this.nextOpen, visit);
    this.scannedTo = to;
  }

  /** text[from, to) unmasked, joined. */
  unmask(from: number, to: number): string {
    return unmask(this.text.slice(from, to), this.originals);
  }
}

/** Indexes of the spans whose placeholders are in `masked`; null if a placeholder was damaged or appears twice. */
export function placeholdersPresent(masked: string, spanCount: number): Set<number> | null {
  const seen = new Set<number>();
  // One scan: every character of the placeholder alphabet must belong to a whole placeholder.
  for (let i = 0; i < masked.length; i++) {
    const code = masked.charCodeAt(i);
    if (!isReserved(code)) continue;
    if (code !== OPEN_CODE) return null;
    let close = i + 1;
    while (isDigit(masked.charCodeAt(close))) close++;
    if (close === i + 1 || masked.charCodeAt(close) !== CLOSE_CODE) return null;
    const index = decode(masked, i + 1, close);
    if (index >= spanCount || seen.has(index)) return null;
    seen.add(index);
    i = close;
  }
  return seen;
}
