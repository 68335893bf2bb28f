import type { CompressionRule } from "../types";
import { removeRanges } from "../text/rewrite";
import { splitSentences } from "../text/sentences";
import { FoldedWordTable } from "../text/word-table";
import { forEachProseWord, wordRanges } from "../text/words";
import { isKnownWordAt, selfInformation } from "../word-stats";

/** Pruning starts here; below, a prompt keeps all its words. */
export const PRUNE_MIN_LEVEL = 0.25;
/**
 * Long passages are pruned; shorter ones only when the phrase rules already found wordiness in them.
 * A short prompt with nothing wordy (a math problem, a terse question) has every word doing work.
 */
export const LONG_PASSAGE_WORDS = 150;
export const WORDY_PASSAGE_WORDS = 20;
const WORDINESS_RULES = ["preamble", "intent", "filler"];
/**
 * Share of a sentence's words that may go, at PRUNE_MIN_LEVEL and at 1.0. At the top the output reads
 * telegraphic (LLMLingua keeps about half the tokens at 2x); past that, readers lose the thread.
 */
const SHARE_AT_MIN = 0.15;
const SHARE_AT_MAX = 0.6;
/** Longest run of dropped neighbours: one word below 0.5 ("of the" stays whole), two from 0.5, three at 1.0. */
function maxRun(level: number): number {
  return level >= 1 ? 3 : level >= 0.5 ? 2 : 1;
}
const MIN_SENTENCE_WORDS = 5;
/** Below this share of ordinary English words the passage is another language, code or data: left alone. */
const MIN_ENGLISH_SHARE = 0.8;

/**
 * Closed-class words a reader restores from context, by the level from which they may go: articles
 * first; then hedges, copulas, "will", "and" after a comma, demonstratives and "please"; then
 * possessive determiners, "do"/"does" and vague modifiers; at 1.0 "be", "being" and "been". Never here: "of"
 * ("periods of time"), "that" and "which" (a relative
 * clause without them reads as a new sentence), quantifiers ("some"), most prepositions (they carry
 * the relation: "one by one", "at once", "the cache for the database" is not "the database cache"),
 * personal pronouns (they say who does what: "I will ask" is not "will ask"), words that carry logic
 * (or, if, not, all, any, than, only, each, every) or obligation (should, must, can, may); negations
 * and constraints are masked anyway.
 */
/**
 * Modifiers prompts add to nearly every noun ("a detailed, comprehensive and specific plan"): they ask
 * for what the model does anyway, so they go at high levels. Not here: words that set a direction
 * (short, long, simple, formal, first, last, new) or a scope (all, only, each, following).
 */
const VAGUE_MODIFIERS = ["specific", "various", "appropriate", "relevant", "comprehensive", "detailed", "overall", "particular", "certain", "actual", "proper", "thorough", "additional", "given", "necessary", "possible", "effective", "potential", "key"];
const DROPPABLE_FROM: ReadonlyMap<string, number> = new Map([
  ...["the", "a", "an"].map((w) => [w, 0.25] as const),
  ...["very", "really", "quite", "simply", "just", "also", "please"].map((w) => [w, 0.5] as const),
  ...["is", "are", "was", "were", "will", "and", "this", "these", "those"].map((w) => [w, 0.5] as const),
  ...["your", "my", "our", "their", "its", "do", "does"].map((w) => [w, 0.75] as const),
  ...VAGUE_MODIFIERS.map((w) => [w, 0.75] as const),
  ...["be", "been", "being"].map((w) => [w, 1] as const),
]);
const COPULAS = new Set(["is", "are", "was", "were", "will", "do", "does", "be", "been", "being"]);
/**
 * Word lists for the neighbours of a word that may go, looked up where the neighbours lie (whole words
 * as written, case ignored): slicing and lower-casing the two neighbours of every candidate took 8% of
 * the rule's time.
 */
const wordList = (words: readonly string[]) => new FoldedWordTable(words.map((w) => [w, true] as const));
/** A copula or "will" after one of these is the sentence's verb: "I was wondering" is not "I wondering". */
const SUBJECT_PRONOUNS = wordList(["i", "you", "he", "she", "it", "we", "they", "there", "this", "that", "these", "those", "who", "what", "which"]);
/** "will" before these is half of a verb ("it will be", "will have done"): both stay. */
const VERB_AFTER_WILL = wordList(["be", "have", "need", "also"]);
/**
 * After a modal or "to", "be" and "do" are the verb ("should be short", "I will do so", "unless I
 * instruct you to do so"); "do" before "not" is masked with the negation.
 */
const MODALS = wordList(["will", "would", "should", "must", "can", "could", "may", "might", "shall", "to"]);
/** An article at a sentence start goes with the sentence's first word capitalized; other openers stay. */
const ARTICLES = new Set(["the", "a", "an"]);

/**
 * True when `lower`, word k of a sentence whose word offsets are `words`, may go between its neighbours
 * (the first word has none before it; the last never goes, so every candidate has one after it).
 */
function fitsContext(text: string, words: readonly number[], k: number, lower: string): boolean {
  const previousIn = (list: FoldedWordTable<true>) => k > 0 && list.find(text, words[2 * k - 2]!, words[2 * k - 1]!) !== -1;
  if (COPULAS.has(lower) && previousIn(SUBJECT_PRONOUNS)) return false;
  if (lower === "will") return VERB_AFTER_WILL.find(text, words[2 * k + 2]!, words[2 * k + 3]!) === -1;
  if (lower === "be" || lower === "do") return !previousIn(MODALS);
  // In "a, b, and c" the comma already says it; "read and write" without "and" is a different phrase.
  if (lower === "and") return k > 0 && text.charCodeAt(words[2 * k - 1]! - 1) === 0x2c;
  return true;
}

/** DROPPABLE_FROM, looked up where a word lies, with each word's self-information. */
const DROPPABLE = new FoldedWordTable([...DROPPABLE_FROM].map(([word, level]) => [word, { level, bits: selfInformation(word) }] as const));

/** Where `level` sits between PRUNE_MIN_LEVEL (0) and 1.0 (1). */
function strength(level: number): number {
  return Math.max(0, Math.min(1, (level - PRUNE_MIN_LEVEL) / (1 - PRUNE_MIN_LEVEL)));
}

/** Whether text[start, end) has at least MIN_ENGLISH_SHARE of its prose words (letter runs) in the word statistics. */
function mostlyEnglish(text: string, start: number, end: number): boolean {
  let prose = 0;
  let known = 0;
  forEachProseWord(text, start, end, (from, to) => {
    prose++;
    if (isKnownWordAt(text, from, to)) known++;
  });
  return known >= prose * MIN_ENGLISH_SHARE;
}

/** True when `text` has at least `count` prose words. */
function hasProseWords(text: string, count: number): boolean {
  let n = 0;
  forEachProseWord(text, 0, text.length, () => ++n < count);
  return n >= count;
}

/** Whether text[start, end) is all ASCII letters (a plain word); 0 if not, 1 if lower case, 2 if it has a capital. */
function plainWordCase(text: string, start: number, end: number): 0 | 1 | 2 {
  let upper = false;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x61 && code <= 0x7a) continue;
    if (code >= 0x41 && code <= 0x5a) upper = true;
    else return 0;
  }
  return upper ? 2 : 1;
}

/** `text` with the letter at each of the ascending offsets `at` upper-cased, in one pass. */
function capitalizeFirstLetters(text: string, at: readonly number[]): string {
  if (at.length === 0) return text;
  let out = "";
  let from = 0;
  for (const i of at) {
    out += text.slice(from, i) + text[i]!.toUpperCase();
    from = i + 1;
  }
  return out + text.slice(from);
}

/** True when dropping word `at` leaves no run of more than `maxRun` dropped words in a row. */
function fitsGap(chosen: ReadonlySet<number>, at: number, maxRun: number): boolean {
  let run = 1;
  for (let i = at - 1; chosen.has(i); i--) run++;
  for (let i = at + 1; chosen.has(i); i++) run++;
  return run <= maxRun;
}

/**
 * Token-level pruning in the spirit of Selective Context: in wordy or long English passages, drop the
 * closed-class words the level allows, those with the least self-information (models/word-stats)
 * first, never more than a share of any sentence that grows with the level, never in short sentences,
 * never the last word of a sentence. Protected spans are masked, so negations, numbers, names and
 * constraints are out of its reach.
 */
export const prune: CompressionRule = {
  name: "prune",
  minLevel: PRUNE_MIN_LEVEL,
  apply(text, ctx) {
    const wordy = WORDINESS_RULES.some((rule) => ctx.changedBy.has(rule));
    // Most prompts stop here, before their sentences are split and their words looked up.
    if (!hasProseWords(text, wordy ? WORDY_PASSAGE_WORDS : LONG_PASSAGE_WORDS)) return { text, saved: 0 };
    const share = SHARE_AT_MIN + strength(ctx.level) * (SHARE_AT_MAX - SHARE_AT_MIN);
    const run = maxRun(ctx.level);
    const drop: { start: number; end: number }[] = [];
    const capitalizeAt: number[] = [];
    for (const { start: at, end } of splitSentences(text)) {
      // words[2k], words[2k + 1]: where word k of the sentence starts and ends.
      const words = wordRanges(text, at, end);
      const count = words.length / 2;
      const budget = Math.floor(count * share);
      if (count < MIN_SENTENCE_WORDS || budget === 0) continue;
      const candidates: { bits: number; at: number }[] = [];
      // The last word closes the sentence and stays; the first goes only if it is an article.
      for (let i = 0; i < count - 1; i++) {
        const start = words[2 * i]!;
        const stop = words[2 * i + 1]!;
        const entry = DROPPABLE.find(text, start, stop);
        if (entry === -1) continue;
        const letterCase = plainWordCase(text, start, stop);
        if (letterCase === 0 || (letterCase === 2 && i > 0)) continue;
        const lower = DROPPABLE.key(entry);
        const { level, bits } = DROPPABLE.value(entry);
        if (ctx.level < level || (i === 0 && !ARTICLES.has(lower))) continue;
        if (!fitsContext(text, words, i, lower)) continue;
        candidates.push({ bits, at: i });
      }
      // Each sentence is checked on its own: an English request may quote a passage in another language.
      // Checked last, since it looks up every word, and only sentences with something to drop need it.
      if (candidates.length === 0 || !mostlyEnglish(text, at, end)) continue;
      // Lowest information first, in runs no longer than the level allows.
      const chosen = new Set<number>();
      for (const c of candidates.sort((a, b) => a.bits - b.bits || a.at - b.at)) {
        if (chosen.size >= budget) break;
        if (fitsGap(chosen, c.at, run)) chosen.add(c.at);
      }
      for (const i of chosen) drop.push({ start: words[2 * i]!, end: words[2 * i + 2]! });
      if (chosen.has(0)) {
        let first = 1;
        while (chosen.has(first)) first++;
        capitalizeAt.push(words[2 * first]!);
      }
    }
    if (drop.length === 0) return { text, saved: 0 };
    // Merge adjacent ranges so removeRanges sees each gap once.
    const merged: { start: number; end: number }[] = [];
    for (const r of drop.sort((a, b) => a.start - b.start)) {
      const last = merged[merged.length - 1];
      if (last && last.end === r.start) last.end = r.end;
      else merged.push({ ...r });
    }
    return removeRanges(capitalizeFirstLetters(text, capitalizeAt), merged, ctx);
  },
};
