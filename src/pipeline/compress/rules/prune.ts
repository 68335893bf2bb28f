import type { CompressionRule } from "../types";
import { intensifierOnAVerb, isIntensifier } from "../text/intensifiers";
import { removeRanges } from "../text/rewrite";
import { splitSentences } from "../text/sentences";
import { FoldedWordTable } from "../../../text/word-table";
import { forEachProseWord, hasWordRun, wordRanges } from "../text/words";
import { isKnownWordAt, selfInformation } from "../word-stats";

/** Pruning starts here; below, a prompt keeps all its words. */
export const PRUNE_MIN_LEVEL = 0.5;
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
 * Words whose removal leaves a sentence grammatical and meaning the same (issue 25): intensifiers and
 * "also". Articles, copulas, "will", "do", "be", demonstratives, possessives, the "and" of a list and
 * vague modifiers went until issue 25: without them a sentence is no longer well formed ("Hope your day
 * is going well" -> "Hope day going well"), a referring "this" loses its referent, and "$3.45 a gallon",
 * "two weekends in a row" and "Jira, Linear, and Asana" are constraints the user wrote as they are.
 * Never: subjects, determiners, auxiliaries, prepositions, logic and modal words.
 */
// Not "simply", which mostly means "only" in a request ("simply one word"; filler keeps it for that), and
// an intensifier only where it stresses a verb (text/intensifiers.ts): "a buyer who's very nervous".
const DROPPABLE_FROM: ReadonlyMap<string, number> = new Map(["very", "really", "quite", "also"].map((w) => [w, 0.5] as const));

const DROPPABLE_WORDS = [...DROPPABLE_FROM.keys()];
/** DROPPABLE_FROM, looked up where a word lies, with each word's self-information. */
const DROPPABLE = new FoldedWordTable([...DROPPABLE_FROM].map(([word, level]) => [word, { level, bits: selfInformation(word) }] as const));

/** Word i of a sentence's wordRanges, lower case, or undefined past its ends. */
function wordAt(text: string, words: readonly number[], i: number): string | undefined {
  return i < 0 || 2 * i + 1 >= words.length ? undefined : text.slice(words[2 * i]!, words[2 * i + 1]!).toLowerCase();
}

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
    for (const { start: at, end } of splitSentences(text)) {
      // words[2k], words[2k + 1]: where word k of the sentence starts and ends.
      const words = wordRanges(text, at, end);
      const count = words.length / 2;
      const budget = Math.floor(count * share);
      if (count < MIN_SENTENCE_WORDS || budget === 0) continue;
      const candidates: { bits: number; at: number }[] = [];
      // The last word closes the sentence and stays.
      for (let i = 0; i < count - 1; i++) {
        const start = words[2 * i]!;
        const stop = words[2 * i + 1]!;
        const entry = DROPPABLE.find(text, start, stop);
        if (entry === -1) continue;
        const letterCase = plainWordCase(text, start, stop);
        // The first word opens the sentence and stays ("Also, ..."), as does a capitalised one.
        if (letterCase !== 1 || i === 0) continue;
        const { level, bits } = DROPPABLE.value(entry);
        if (ctx.level < level) continue;
        const word = text.slice(start, stop).toLowerCase();
        if (isIntensifier(word) && !intensifierOnAVerb(word, wordAt(text, words, i - 1), wordAt(text, words, i - 2))) continue;
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
    }
    if (drop.length === 0) return { text, saved: 0 };
    // Merge adjacent ranges so removeRanges sees each gap once.
    const merged: { start: number; end: number }[] = [];
    for (const r of drop.sort((a, b) => a.start - b.start)) {
      const last = merged[merged.length - 1];
      if (last && last.end === r.start) last.end = r.end;
      else merged.push({ ...r });
    }
    return removeRanges(text, merged, ctx);
  },
  // A candidate is a whole run between blanks of lower-case letters: the same run in the original.
  mayChange: (original) => DROPPABLE_WORDS.some((word) => hasWordRun(original, word)),
};
