import type { CompressionRule } from "../types";
import { UnmaskedReader } from "../protect/mask";
import { letterHashOf, MIN_DUPLICATE_WORDS, repeatedSentences, SentenceSet, splitSentences, UnmaskedSentence, wordsOpeningIn } from "../text/sentences";
import { removeRanges } from "../text/rewrite";

/**
 * Whether two sentences of the masked text can have one key, read in the original. Masking adds no
 * sentence end and removes only those inside the spans it hides, so a sentence of the masked text,
 * unmasked, is a run of the original's sentences (the same ones, when the spans in it end none); two
 * sentences with one key are two runs whose sentences agree pairwise in letters (letterHash: case,
 * spacing and closing punctuation aside, they read alike, so they end at the same . ! ?), and the
 * first run holds at least MIN_DUPLICATE_WORDS words. Chained rather than one sentence at a time:
 * "U.S." is two of the original's sentences, which a prompt that names the U.S. twice repeats, and
 * 89 of 1,303 workload prompts that no rule changes were read as repeating one that way.
 */
function mayRepeatSentence(original: string): boolean {
  const sentences = splitSentences(original);
  const n = sentences.length;
  const hashes = new Int32Array(n);
  for (let j = 0; j < n; j++) hashes[j] = letterHashOf(original, sentences[j]!.start, sentences[j]!.end);
  const firstWith = new Map<number, number>();
  for (let j = 0; j < n; j++) {
    const first = firstWith.get(hashes[j]!);
    if (first === undefined) {
      firstWith.set(hashes[j]!, j);
      continue;
    }
    // Hashes repeat rarely: the earlier sentences with this one are found by looking back from the first.
    for (let i = first; i < j; i++) {
      let words = 0;
      for (let k = 0; i + k < j && j + k < n && hashes[i + k] === hashes[j + k]; k++) {
        const s = sentences[i + k]!;
        words += wordsOpeningIn(original, s.start, s.end);
        if (words >= MIN_DUPLICATE_WORDS) return true;
      }
    }
  }
  return false;
}

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
  mayChange: (original) => mayRepeatSentence(original),
};
