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
    const lineKey = (start: number, end: number) => sentenceKey(ctx.unmask(text.slice(start, end)));
    // Line keys are taken only once a sentence repeats, which most messages never do.
    const earlierLines = new Set<string>();
    let keyedUpTo = 0;
    let lineStart = -1;
    let repeatedLine = false;
    const isRepeatedLine = (start: number) => {
      if (start === lineStart) return repeatedLine;
      for (; keyedUpTo < start; keyedUpTo = text.indexOf("\n", keyedUpTo) + 1) earlierLines.add(lineKey(keyedUpTo, text.indexOf("\n", keyedUpTo)));
      const end = text.indexOf("\n", start);
      lineStart = start;
      repeatedLine = earlierLines.has(lineKey(start, end < 0 ? text.length : end));
      return repeatedLine;
    };
    const drop = repeatedSentences(text, ctx.unmask, (key, s, sentenceLineStart) => {
      const repeated = seen.has(key) && !s.wholeLine && !isRepeatedLine(sentenceLineStart);
      seen.add(key);
      return repeated;
    });
    return removeRanges(text, drop, ctx);
  },
};
