import type { CompressionRule } from "../types";
import { repeatedSentences } from "../text/sentences";
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
    const drop = repeatedSentences(text, ctx.unmask, (key, s) => {
      const repeated = seen.has(key) && !s.wholeLine;
      seen.add(key);
      return repeated;
    });
    return removeRanges(text, drop, ctx);
  },
};
