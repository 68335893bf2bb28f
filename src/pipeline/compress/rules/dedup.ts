import type { CompressionRule } from "../types";
import { repeatedSentences, sentenceKey } from "../text/sentences";
import { removeRanges } from "../text/rewrite";

/**
 * A sentence said twice in one message is kept once (the first time). A line that repeats a whole
 * earlier line is left alone, however many sentences it holds: refrains, table rows, log lines and a
 * passage pasted twice repeat on purpose.
 */
export const dedup: CompressionRule = {
  name: "dedup",
  minLevel: 0.25,
  apply(text, ctx) {
    const seen = new Set<string>();
    const seenLines = new Set<string>();
    let lineStart = -1;
    let repeatedLine = false;
    const drop = repeatedSentences(text, ctx.unmask, (key, s) => {
      const start = text.lastIndexOf("\n", s.start - 1) + 1;
      if (start !== lineStart) {
        lineStart = start;
        const end = text.indexOf("\n", s.start);
        const lineKey = sentenceKey(ctx.unmask(text.slice(start, end < 0 ? text.length : end)));
        repeatedLine = seenLines.has(lineKey);
        seenLines.add(lineKey);
      }
      const repeated = seen.has(key) && !s.wholeLine && !repeatedLine;
      seen.add(key);
      return repeated;
    });
    return removeRanges(text, drop, ctx);
  },
};
