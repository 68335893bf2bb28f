import { protectedSpans } from "./spans";

/**
 * Protected spans are swapped for placeholders made of Private Use Area characters: OPEN, the span's
 * index in base 4096 (one character per digit), CLOSE. A placeholder has no spaces, letters or
 * punctuation, so rules see it as one opaque word they cannot match into.
 */
const OPEN = "\uE000";
const CLOSE = "\uE001";
const DIGIT_BASE = 0xe100;
const RADIX = 4096;
export const PLACEHOLDER = /\uE000[\uE100-\uF0FF]+\uE001/g;
/** Text that already contains our placeholder alphabet cannot be masked safely. */
const RESERVED = /[\uE000-\uF0FF]/;

function encode(index: number): string {
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
 * Scanned by hand rather than with PLACEHOLDER: the rules unmask every sentence they compare and every
 * fragment they count, and a replace callback per placeholder cost twice as much.
 */
export function unmask(fragment: string, originals: readonly string[]): string {
  let out = "";
  let at = 0;
  for (let open = fragment.indexOf(OPEN); open !== -1; open = fragment.indexOf(OPEN, open + 1)) {
    let close = open + 1;
    while (isDigit(fragment.charCodeAt(close))) close++;
    if (close === open + 1 || fragment[close] !== CLOSE) continue;
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
  for (const m of masked.matchAll(PLACEHOLDER)) {
    const index = decode(m[0], 1, m[0].length - 1);
    if (index >= spanCount || seen.has(index)) return null;
    seen.add(index);
  }
  const stray = masked.replace(PLACEHOLDER, "");
  return RESERVED.test(stray) ? null : seen;
}
