import { TYPE_BY_LETTERS, type PlaceholderMap } from "./placeholders";

/**
 * A placeholder as a model may write it back: any case, spaces inside the brackets, "_" written as
 * " ", "-" or "\_", markdown emphasis inside the brackets ("[**EMAIL_1**]") and escaped brackets
 * ("\[EMAIL\_1\]"). Emphasis around the brackets ("**[EMAIL_1]**") is left in place around the value.
 */
const PLACEHOLDER = /\\?\[[\s*_]*([A-Za-z](?:[A-Za-z]|[ _-]|\\_){1,24}?)(?:\s|_|-|\\_)*(\d{1,6})[\s*_]*\\?\]/g;
/** The longest a placeholder in any of those spellings runs; a held-back tail never grows past it. */
const MAX_PLACEHOLDER = 48;
const TYPE_NAMES = [...TYPE_BY_LETTERS.keys()];

/** How a restored value is written: as is in text, JSON-escaped inside a JSON string. */
export type Escape = (value: string) => string;
export const asText: Escape = (v) => v;
export const inJsonString: Escape = (v) => JSON.stringify(v).slice(1, -1);

/** The value of one placeholder spelling, or undefined when the map never made it (a model invented it). */
function lookup(map: PlaceholderMap, letters: string, n: string): string | undefined {
  const type = TYPE_BY_LETTERS.get(letters.replace(/[^A-Za-z]/g, "").toUpperCase());
  return type === undefined ? undefined : map.valueOf(`${type}_${Number(n)}`);
}

/** Puts the values back into `text`; placeholders the map does not know stay as written. */
export function restoreText(text: string, map: PlaceholderMap, escape: Escape = asText): string {
  if (map.size === 0 || !text.includes("[")) return text;
  PLACEHOLDER.lastIndex = 0;
  return text.replace(PLACEHOLDER, (whole, letters: string, n: string) => {
    const value = lookup(map, letters, n);
    return value === undefined ? whole : escape(value);
  });
}

/**
 * Whether `s` (starting at "\" or "[") could still grow into a placeholder: the start of some spelling
 * of a known type name, then digits, then closing spaces or markdown. "[the" or "[1]" cannot.
 */
export function couldBePlaceholder(s: string): boolean {
  let i = 0;
  if (s[i] === "\\") i++;
  if (i === s.length) return true;
  if (s[i] !== "[") return false;
  i++;
  while (i < s.length && /[\s*_]/.test(s[i]!)) i++;
  let letters = "";
  while (i < s.length && /[A-Za-z\s_\-\\]/.test(s[i]!)) {
    if (/[A-Za-z]/.test(s[i]!)) letters += s[i]!.toUpperCase();
    i++;
  }
  if (!TYPE_NAMES.some((t) => t.startsWith(letters))) return false;
  if (i === s.length) return true;
  if (!TYPE_BY_LETTERS.has(letters) || !/\d/.test(s[i]!)) return false;
  while (i < s.length && /\d/.test(s[i]!)) i++;
  while (i < s.length && /[\s*_\\]/.test(s[i]!)) i++;
  return i === s.length;
}

/**
 * Restores a stream of text deltas. Text that cannot be the start of a placeholder goes out at once;
 * a tail that could ("... at [EMA") is held until the next delta completes it or rules it out, so a
 * placeholder split across deltas at any character is restored and nothing else waits.
 */
export class StreamRestorer {
  private held = "";

  constructor(
    private readonly map: PlaceholderMap,
    private readonly escape: Escape = asText,
  ) {}

  push(delta: string): string {
    const text = this.held + delta;
    const cut = holdFrom(text);
    this.held = text.slice(cut);
    return restoreText(text.slice(0, cut), this.map, this.escape);
  }

  /** The end of the stream: whatever is held goes out, restored if it is a placeholder. */
  flush(): string {
    const rest = this.held;
    this.held = "";
    return restoreText(rest, this.map, this.escape);
  }
}

/** Where the tail that could still become a placeholder starts (text.length when none). */
function holdFrom(text: string): number {
  for (let i = Math.max(0, text.length - MAX_PLACEHOLDER); i < text.length; i++) {
    const c = text[i];
    if ((c === "[" || c === "\\") && couldBePlaceholder(text.slice(i))) return i;
  }
  return text.length;
}

/** A TransformStream of text deltas that restores placeholders (see StreamRestorer). */
export function restoreStream(map: PlaceholderMap, escape: Escape = asText): TransformStream<string, string> {
  const r = new StreamRestorer(map, escape);
  return new TransformStream({
    transform(delta, controller) {
      const out = r.push(delta);
      if (out !== "") controller.enqueue(out);
    },
    flush(controller) {
      const out = r.flush();
      if (out !== "") controller.enqueue(out);
    },
  });
}
