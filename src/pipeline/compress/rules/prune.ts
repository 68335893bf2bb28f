import type { CompressionRule } from "../types";
import { removeRanges } from "../text/rewrite";
import { splitSentences } from "../text/sentences";
import { isKnownWord, selfInformation } from "../word-stats";

/** Pruning starts here; below, a prompt keeps all its words. */
export const PRUNE_MIN_LEVEL = 0.4;
/**
 * Long passages are pruned; shorter ones only when the phrase rules already found wordiness in them.
 * A short prompt with nothing wordy (a math problem, a terse question) has every word doing work.
 */
export const LONG_PASSAGE_WORDS = 150;
export const WORDY_PASSAGE_WORDS = 30;
const WORDINESS_RULES = ["preamble", "intent", "filler"];
/** Bits of self-information a word may have and still be dropped, at PRUNE_MIN_LEVEL and at 1.0. */
const BITS_AT_MIN = 7.5;
const BITS_AT_MAX = 13;
/** Share of a sentence that may go, at PRUNE_MIN_LEVEL and at 1.0: past half, readers lose the thread. */
const SHARE_AT_MIN = 0.3;
const SHARE_AT_MAX = 0.5;
const MIN_SENTENCE_WORDS = 6;
/** Below this share of ordinary English words the passage is another language, code or data: left alone. */
const MIN_ENGLISH_SHARE = 0.8;

/**
 * Closed-class words a reader restores from context. Words that carry logic (and, or, if, not, all,
 * any, than, only, each) or obligation (should, must, can) are never in it.
 */
const FUNCTION_WORDS = new Set([
  "the", "a", "an", "of", "to", "in", "on", "at", "for", "with", "from", "into", "onto", "upon", "about",
  "is", "are", "was", "were", "will", "shall", "that", "which",
  "very", "really", "just", "also", "so", "quite", "some", "such", "there", "these", "those", "through",
]);
/** "and" joins, it does not choose (unlike "or"); it goes after the lighter words. */
const JOINERS = new Set(["and"]);
const JOINER_EXTRA_BITS = 1.5;
/** Who-does-what words: dropped only at the highest levels, after the function words. */
const ROLE_WORDS = new Set(["i", "you", "me", "my", "your", "it", "its", "we", "our", "us", "they", "their", "them", "his", "her"]);
const ROLE_WORD_EXTRA_BITS = 3;

const WORD = /\S+/g;
const PLAIN_WORD = /^[a-z]+$/;
const PROSE_WORD = /\p{L}+(?:['’]\p{L}+)?/gu;

/** Where `level` sits between PRUNE_MIN_LEVEL (0) and 1.0 (1). */
function strength(level: number): number {
  return Math.max(0, Math.min(1, (level - PRUNE_MIN_LEVEL) / (1 - PRUNE_MIN_LEVEL)));
}

/** Self-information of a droppable word, or null when the word must stay. */
function droppableBits(word: string): number | null {
  if (!PLAIN_WORD.test(word)) return null;
  if (FUNCTION_WORDS.has(word)) return selfInformation(word);
  if (ROLE_WORDS.has(word)) return selfInformation(word) + ROLE_WORD_EXTRA_BITS;
  if (JOINERS.has(word)) return selfInformation(word) + JOINER_EXTRA_BITS;
  return null;
}

/** Words of prose outside protected spans, and the share of them that are ordinary English words. */
function proseWords(text: string): { count: number; englishShare: number } {
  let count = 0;
  let known = 0;
  for (const [w] of text.matchAll(PROSE_WORD)) {
    count++;
    if (isKnownWord(w.toLowerCase().replace("’", "'"))) known++;
  }
  return { count, englishShare: count === 0 ? 0 : known / count };
}

/** Each sentence is checked on its own: an English request may quote a passage in another language. */
function isEnglish(sentence: string): boolean {
  return proseWords(sentence).englishShare >= MIN_ENGLISH_SHARE;
}

/**
 * Token-level pruning in the spirit of Selective Context: in long English passages, drop the
 * function words with the least self-information (from models/word-stats), lowest first, never more
 * than a share of any sentence that grows with the level, and never in short sentences. Protected spans are masked, so
 * negations, numbers, names and constraints are out of its reach.
 */
export const prune: CompressionRule = {
  name: "prune",
  minLevel: PRUNE_MIN_LEVEL,
  apply(text, ctx) {
    const wordy = WORDINESS_RULES.some((rule) => ctx.changedBy.has(rule));
    if (proseWords(text).count < (wordy ? WORDY_PASSAGE_WORDS : LONG_PASSAGE_WORDS)) return { text, saved: 0 };
    const s = strength(ctx.level);
    const threshold = BITS_AT_MIN + s * (BITS_AT_MAX - BITS_AT_MIN);
    const share = SHARE_AT_MIN + s * (SHARE_AT_MAX - SHARE_AT_MIN);
    const drop: { start: number; end: number }[] = [];
    for (const sentence of splitSentences(text)) {
      const body = text.slice(sentence.start, sentence.end);
      const words = [...body.matchAll(WORD)];
      if (words.length < MIN_SENTENCE_WORDS || !isEnglish(body)) continue;
      const candidates: { bits: number; at: number }[] = [];
      // The first word opens the sentence and the last one closes it; both stay.
      for (let i = 1; i < words.length - 1; i++) {
        const bits = droppableBits(words[i]![0]);
        if (bits !== null && bits <= threshold) candidates.push({ bits, at: i });
      }
      const budget = Math.floor(words.length * share);
      // Lowest information first; never two neighbours, so every gap is one word wide.
      const chosen = new Set<number>();
      for (const c of candidates.sort((a, b) => a.bits - b.bits || a.at - b.at)) {
        if (chosen.size >= budget) break;
        if (!chosen.has(c.at - 1) && !chosen.has(c.at + 1)) chosen.add(c.at);
      }
      for (const i of [...chosen].sort((a, b) => a - b)) {
        const start = sentence.start + words[i]!.index;
        drop.push({ start, end: sentence.start + words[i + 1]!.index });
      }
    }
    return removeRanges(text, drop, ctx);
  },
};
