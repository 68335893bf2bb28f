import type { CompressionRule } from "../types";
import { UnmaskedReader } from "../protect/mask";
import { repeatedSentences, SentenceSet, UnmaskedSentence } from "../text/sentences";
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
    const seen = new SentenceSet();
    const lines = new UnmaskedReader(text, ctx.originals);
    const line = (start: number, end: number) => new UnmaskedSentence(lines, start, end);
    // Earlier lines are read only once a sentence repeats, which most messages never do.
    const earlierLines = new SentenceSet();
    let readUpTo = 0;
    let lineStart = -1;
    let repeatedLine = false;
    const isRepeatedLine = (start: number) => {
      if (start === lineStart) return repeatedLine;
      for (; readUpTo < start; readUpTo = text.indexOf("\n", readUpTo) + 1) earlierLines.add(line(readUpTo, text.indexOf("\n", readUpTo)));
      const end = text.indexOf("\n", start);
      lineStart = start;
      repeatedLine = earlierLines.has(line(start, end < 0 ? text.length : end));
      return repeatedLine;
    };
    const drop = repeatedSentences(
      text,
      ctx.originals,
      (sentence, s, sentenceLineStart) => seen.add(sentence) && !s.wholeLine && !isRepeatedLine(sentenceLineStart),
    );
    return removeRanges(text, drop, ctx);
  },
};
