import { opensWithMarker } from "../protect/spans";
import { cutRanges } from "./rewrite";

/** A sentence of one line: its text (with closing punctuation) and the spaces after it, as offsets. */
export interface Sentence {
  readonly start: number;
  /** End of the sentence text, before the spaces that follow it. */
  readonly end: number;
  /** End including the trailing spaces (never a newline): removing [start, next) removes it cleanly. */
  readonly next: number;
  /** True when the sentence is the whole of its line. */
  readonly wholeLine: boolean;
}

/** Sentences never cross a line break: lines are structure (lists, verse, data) the prompt may rely on. */
const SENTENCE = /[^\n.!?]*(?:[.!?]+["'”’)\]]*|(?=\n)|$)[ \t]*/g;

/**
 * The text split last and its sentences. dedup and prune split the same message in turn, and the
 * rules between them mostly leave it as it is; the sentences are read-only, so they can be shared.
 */
let lastSplit: { text: string; sentences: readonly Sentence[] } | undefined;

export function splitSentences(text: string): readonly Sentence[] {
  if (lastSplit?.text === text) return lastSplit.sentences;
  const sentences: Sentence[] = [];
  let atLineStart = true;
  SENTENCE.lastIndex = 0;
  for (let m = SENTENCE.exec(text); m !== null; m = SENTENCE.exec(text)) {
    if (m[0].length === 0) {
      // Empty only before a line break or at the end: step over it as matchAll would.
      SENTENCE.lastIndex++;
      atLineStart = true;
      continue;
    }
    const start = m.index;
    const next = start + m[0].length;
    const end = start + m[0].trimEnd().length;
    const wholeLine = atLineStart && (next === text.length || text[next] === "\n");
    atLineStart = false;
    if (end > start) sentences.push({ start, end, next, wholeLine });
  }
  lastSplit = { text, sentences };
  return sentences;
}

/** Whitespace that sentenceKey must rewrite: a run, or any blank other than a single space. */
const UNEVEN_SPACING = /\s\s|[^\S ]/;
const SPACE = 0x20;
/** A space or . ! ?: what closes a sentence once its whitespace is single spaces. */
const isClosing = (code: number) => code === SPACE || code === 0x2e || code === 0x21 || code === 0x3f;

/**
 * What two sentences are compared by: case, spacing and closing punctuation do not matter. Lower-cased,
 * whitespace runs made single spaces, then closing spaces and punctuation and an opening space cut off.
 * Most sentences are spaced evenly already and skip the rewrite.
 */
export function sentenceKey(sentence: string): string {
  const lower = sentence.toLowerCase();
  const key = UNEVEN_SPACING.test(lower) ? lower.replace(/\s+/g, " ") : lower;
  let end = key.length;
  while (end > 0 && isClosing(key.charCodeAt(end - 1))) end--;
  const start = end > 0 && key.charCodeAt(0) === SPACE ? 1 : 0;
  return start === 0 && end === key.length ? key : key.slice(start, end);
}

/**
 * FNV-1a over the letters and digits that sentenceKey keeps of `sentence`: ASCII letters lower-cased,
 * ASCII digits, and the "i" and "k" that U+0130 and the Kelvin sign lower-case to (toLowerCase takes no
 * other character into ASCII). Spacing and closing punctuation, which the key evens out, are left out
 * with everything else, so sentences with the same key have the same hash.
 */
export function letterHash(sentence: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < sentence.length; i++) {
    let code = sentence.charCodeAt(i);
    if (code >= 0x41 && code <= 0x5a) code += 0x20;
    else if (code === 0x130) code = 0x69;
    else if (code === 0x212a) code = 0x6b;
    else if (!((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39))) continue;
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  return hash;
}

/**
 * Sentences compared by sentenceKey, which is taken only when an earlier sentence has the same
 * letterHash: most sentences of a message are unlike all the others, and lower-casing each one into a
 * key for a Set took a third of the dedup rule's time (about 25 of 76 ms over the 967 prompts of 200+
 * tokens, masked; 58 ms with this set).
 */
export class SentenceSet {
  /** By letterHash: the one sentence added with that hash, as it came, or the keys of all of them. */
  private readonly byHash = new Map<number, string | Set<string>>();

  /** Adds `sentence`; true when one with the same key was added before. */
  add(sentence: string): boolean {
    const hash = letterHash(sentence);
    const keys = this.keysOf(hash);
    if (keys === undefined) {
      this.byHash.set(hash, sentence);
      return false;
    }
    const key = sentenceKey(sentence);
    if (keys.has(key)) return true;
    keys.add(key);
    return false;
  }

  has(sentence: string): boolean {
    return this.keysOf(letterHash(sentence))?.has(sentenceKey(sentence)) ?? false;
  }

  private keysOf(hash: number): Set<string> | undefined {
    const earlier = this.byHash.get(hash);
    if (typeof earlier !== "string") return earlier;
    const keys = new Set([sentenceKey(earlier)]);
    this.byHash.set(hash, keys);
    return keys;
  }
}

/** Short sentences ("Yes.", "Go on.") repeat for a reason; only longer ones are redundant when repeated. */
const MIN_DUPLICATE_WORDS = 4;

/** Whether a sentence is long enough that saying it again adds nothing (the dedup and repeat rules' test). */
export function isRedundantWhenRepeated(sentence: string): boolean {
  // Words are runs of characters above U+0020, counted only as far as the threshold.
  let words = 0;
  let inWord = false;
  for (let i = 0; i < sentence.length; i++) {
    const space = sentence.charCodeAt(i) <= 32;
    if (!space && !inWord && ++words >= MIN_DUPLICATE_WORDS) return true;
    inWord = !space;
  }
  return false;
}

/**
 * [start, next) ranges of the sentences of masked `text` that `isRepeat` picks, among those long
 * enough to be redundant; `isRepeat` sees every such sentence, in order, unmasked, with the offset
 * where its line starts. A sentence
 * that opens a line (or follows only dropped ones) stays when it opens with a list marker or heading,
 * or when the text after it does: removing it would take the line's structure with it or make one.
 */
export function repeatedSentences(
  text: string,
  unmask: (fragment: string) => string,
  isRepeat: (sentence: string, at: Sentence, lineStart: number) => boolean,
): { start: number; end: number }[] {
  const drop: { start: number; end: number }[] = [];
  let lineShownFrom = 0;
  // What follows a dropped sentence is read from its line, unmasked once: unmasking the rest of the
  // line anew for each of a run of dropped sentences made a long line of repeats quadratic. A sentence
  // never starts or ends inside a placeholder, so the rest of the line unmasked is the unmasked line
  // after the sentence's offset there: its masked offset plus how much longer the sentences before
  // it on the line, and itself, are unmasked (`grown`); what lies between sentences is blank.
  let lineStart = 0;
  let lineEnd = -1;
  let unmaskedLine: string | undefined;
  let grown = 0;
  for (const s of splitSentences(text)) {
    if (s.start > lineEnd) {
      lineStart = text.lastIndexOf("\n", s.start - 1) + 1;
      const lineBreak = text.indexOf("\n", s.start);
      lineEnd = lineBreak < 0 ? text.length : lineBreak;
      unmaskedLine = undefined;
      grown = 0;
    }
    const sentence = unmask(text.slice(s.start, s.end));
    grown += sentence.length - (s.end - s.start);
    if (!isRedundantWhenRepeated(sentence) || !isRepeat(sentence, s, lineStart)) continue;
    const opensLine = s.start === lineShownFrom || text[s.start - 1] === "\n";
    if (opensLine) {
      unmaskedLine ??= unmask(text.slice(lineStart, lineEnd));
      if (opensWithMarker(sentence) || opensWithMarker(unmaskedLine.slice(s.next - lineStart + grown))) continue;
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
  const seen = new SentenceSet();
  return cutRanges(text, repeatedSentences(text, (fragment) => fragment, (sentence) => seen.add(sentence))).kept;
}
