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
 * placeholder, its closing character, and any character of the alphabet (OPEN to the last digit).
 */
export const PLACEHOLDER_SOURCE = `${escaped(OPEN_CODE)}[${escaped(DIGIT_BASE)}-${escaped(LAST_DIGIT_CODE)}]+${escaped(CLOSE_CODE)}`;
export const PLACEHOLDER_CLOSE_SOURCE = escaped(CLOSE_CODE);
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
 * `fragment` with each placeholder swapped back for its original; a damaged one is left as it is.
 * Scanned by hand rather than with a regex: the rules unmask every sentence they compare and every
 * fragment they count, and a replace callback per placeholder cost twice as much.
 */
export function unmask(fragment: string, originals: readonly string[]): string {
  let out = "";
  let at = 0;
  for (let open = fragment.indexOf(OPEN); open !== -1; open = fragment.indexOf(OPEN, open + 1)) {
    let close = open + 1;
    while (isDigit(fragment.charCodeAt(close))) close++;
    if (close === open + 1 || fragment.charCodeAt(close) !== CLOSE_CODE) continue;
    const original = originals[decode(fragment, open + 1, close)];
    if (original === undefined) continue;
    out += fragment.slice(at, open) + original;
    at = close + 1;
  }
  return at === 0 ? fragment : out + fragment.slice(at);
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
