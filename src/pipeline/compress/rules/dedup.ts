import type { CompressionRule } from "../types";
import { isRedundantWhenRepeated, sentenceKey, splitSentences } from "../text/sentences";
import { removeRanges } from "../text/rewrite";

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
      if (!isRedundantWhenRepeated(sentence)) continue;
      const key = sentenceKey(sentence);
      if (seen.has(key) && !s.wholeLine) drop.push({ start: s.start, end: s.next });
      seen.add(key);
    }
    return removeRanges(text, drop, ctx);
  },
};
