import type { CompressionRule } from "../types";
import { sentenceKey, splitSentences } from "../text/sentences";
import { removeRanges } from "../text/rewrite";

/** Short sentences ("Yes.", "Go on.") repeat for a reason; only longer ones are redundant when repeated. */
export const MIN_DUPLICATE_WORDS = 4;

/** Whitespace-separated words in `s`, counted without allocating. */
export function wordCount(s: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const space = s.charCodeAt(i) <= 32;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/**
 * A sentence said twice in one message is kept once (the first time). A line that repeats a whole
 * earlier line is left alone: refrains, table rows and log lines repeat on purpose.
 */
export const dedup: CompressionRule = {
  name: "dedup",
  minLevel: 0.25,
  apply(text, ctx) {
    const seen = new Set<string>();
    const drop: { start: number; end: number }[] = [];
    for (const s of splitSentences(text)) {
      const sentence = ctx.unmask(text.slice(s.start, s.end));
      if (wordCount(sentence) < MIN_DUPLICATE_WORDS) continue;
      const key = sentenceKey(sentence);
      if (seen.has(key) && !s.wholeLine) drop.push({ start: s.start, end: s.next });
      seen.add(key);
    }
    return removeRanges(text, drop, ctx);
  },
};
