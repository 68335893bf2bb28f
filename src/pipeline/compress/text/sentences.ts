import { opensWithMarker } from "../protect/spans";
import { cutRanges } from "./rewrite";

/** A sentence of one line: its text (with closing punctuation) and the spaces after it, as offsets. */
export interface Sentence {
  start: number;
  /** End of the sentence text, before the spaces that follow it. */
  end: number;
  /** End including the trailing spaces (never a newline): removing [start, next) removes it cleanly. */
  next: number;
  /** True when the sentence is the whole of its line. */
  wholeLine: boolean;
}

/** Sentences never cross a line break: lines are structure (lists, verse, data) the prompt may rely on. */
const SENTENCE = /[^\n.!?]*(?:[.!?]+["'”’)\]]*|(?=\n)|$)[ \t]*/g;

export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let atLineStart = true;
  for (const m of text.matchAll(SENTENCE)) {
    if (m[0].length === 0) {
      atLineStart = true;
      continue;
    }
    const start = m.index;
    const next = start + m[0].length;
    const end = start + m[0].trimEnd().length;
    const wholeLine = atLineStart && (next === text.length || text[next] === "\n");
    atLineStart = false;
    if (end > start && m[0].trim() !== "") out.push({ start, end, next, wholeLine });
  }
  return out;
}

/** What two sentences are compared by: case, spacing and closing punctuation do not matter. */
export function sentenceKey(sentence: string): string {
  return sentence.toLowerCase().replace(/\s+/g, " ").replace(/[\s.!?]+$/, "").trim();
}

/** Short sentences ("Yes.", "Go on.") repeat for a reason; only longer ones are redundant when repeated. */
const MIN_DUPLICATE_WORDS = 4;

/** Whitespace-separated words in `s`, counted without allocating. */
function wordCount(s: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const space = s.charCodeAt(i) <= 32;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** Whether a sentence is long enough that saying it again adds nothing (the dedup and repeat rules' test). */
export function isRedundantWhenRepeated(sentence: string): boolean {
  return wordCount(sentence) >= MIN_DUPLICATE_WORDS;
}

/**
 * [start, next) ranges of the sentences of masked `text` that `isRepeat` picks, among those long
 * enough to be redundant; `isRepeat` sees every such sentence, in order, by its sentenceKey. A sentence
 * that opens a line (or follows only dropped ones) stays when it opens with a list marker or heading,
 * or when the text after it does: removing it would take the line's structure with it or make one.
 */
export function repeatedSentences(
  text: string,
  unmask: (fragment: string) => string,
  isRepeat: (key: string, sentence: Sentence) => boolean,
): { start: number; end: number }[] {
  const drop: { start: number; end: number }[] = [];
  let lineShownFrom = 0;
  for (const s of splitSentences(text)) {
    const sentence = unmask(text.slice(s.start, s.end));
    if (!isRedundantWhenRepeated(sentence) || !isRepeat(sentenceKey(sentence), s)) continue;
    const opensLine = s.start === lineShownFrom || text[s.start - 1] === "\n";
    if (opensLine) {
      const lineEnd = text.indexOf("\n", s.next);
      if (opensWithMarker(sentence) || opensWithMarker(unmask(text.slice(s.next, lineEnd < 0 ? text.length : lineEnd)))) continue;
      lineShownFrom = s.next;
    }
    drop.push({ start: s.start, end: s.next });
  }
  return drop;
}

/**
 * `text` with every sentence that repeats an earlier one left out, as the dedup rule would leave it
 * out (long enough to be redundant, not the one that carries a line's list marker): what the text says,
 * each thing once.
 */
export function saidOnce(text: string): string {
  const seen = new Set<string>();
  const isRepeat = (key: string) => seen.has(key) || (seen.add(key), false);
  return cutRanges(text, repeatedSentences(text, (fragment) => fragment, isRepeat)).kept;
}
