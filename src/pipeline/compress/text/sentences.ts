import { UnmaskedReader } from "../protect/mask";
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

const FNV_OFFSET = 0x811c9dc5 | 0;

/** What letterHash hashes for each ASCII character: letters lower-cased, digits, 0 for the rest. */
const HASHED_ASCII = new Uint8Array(128);
for (let code = 0x30; code <= 0x39; code++) HASHED_ASCII[code] = code;
for (let code = 0x61; code <= 0x7a; code++) HASHED_ASCII[code] = HASHED_ASCII[code - 0x20] = code;

/** letterHash carried on over source[from, to) from `hash`. */
function hashLetters(hash: number, source: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const code = source.charCodeAt(i);
    const hashed = code < 0x80 ? HASHED_ASCII[code]! : code === 0x130 ? 0x69 : code === 0x212a ? 0x6b : 0;
    if (hashed !== 0) hash = Math.imul(hash ^ hashed, 0x01000193);
  }
  return hash;
}

/**
 * FNV-1a over the letters and digits that sentenceKey keeps of `sentence`: ASCII letters lower-cased,
 * ASCII digits, and the "i" and "k" that U+0130 and the Kelvin sign lower-case to (toLowerCase takes no
 * other character into ASCII). Spacing and closing punctuation, which the key evens out, are left out
 * with everything else, so sentences with the same key have the same hash.
 */
export function letterHash(sentence: string): number {
  return letterHashOf(sentence, 0, sentence.length);
}

/** letterHash of text[from, to), read where it lies. */
export function letterHashOf(text: string, from: number, to: number): number {
  return hashLetters(FNV_OFFSET, text, from, to);
}

/** Short sentences ("Yes.", "Go on.") repeat for a reason; only longer ones are redundant when repeated. */
export const MIN_DUPLICATE_WORDS = 4;

/**
 * How many words (runs of characters above U+0020) open in source[from, to), `before` being the code of
 * the character before it; counted only as far as `wanted`.
 */
function wordsOpening(source: string, from: number, to: number, before: number, wanted: number): number {
  let words = 0;
  let inWord = before > 32;
  for (let i = from; i < to && words < wanted; i++) {
    const space = source.charCodeAt(i) <= 32;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** The words opening in text[from, to) read on their own (as isRedundantWhenRepeated reads a sentence), counted up to MIN_DUPLICATE_WORDS. */
export function wordsOpeningIn(text: string, from: number, to: number): number {
  return wordsOpening(text, from, to, 0x20, MIN_DUPLICATE_WORDS);
}

/** Whether a sentence is long enough that saying it again adds nothing (the dedup and repeat rules' test). */
export function isRedundantWhenRepeated(sentence: string): boolean {
  return wordsOpening(sentence, 0, sentence.length, 0x20, MIN_DUPLICATE_WORDS) === MIN_DUPLICATE_WORDS;
}

/**
 * A sentence (or line) of a masked text as it reads unmasked, looked at where it lies: its length,
 * letterHash and whether it is redundant when repeated come from one read of its stretches, and the
 * unmasked string is joined only when asked for, which few sentences are. With every sentence joined
 * (and copied again when first read) the dedup rule took 52 ms over the 967 masked prompts of 200+
 * tokens once SentenceSet was in, 42 ms this way.
 */
export class UnmaskedSentence {
  readonly length: number;
  readonly hash: number;
  readonly redundant: boolean;
  private joined: string | undefined;

  constructor(
    private readonly reader: UnmaskedReader,
    private readonly start: number,
    private readonly end: number,
  ) {
    let length = 0;
    let hash = FNV_OFFSET;
    let words = 0;
    let before = 0x20;
    reader.read(start, end, (source, from, to) => {
      length += to - from;
      hash = hashLetters(hash, source, from, to);
      if (words < MIN_DUPLICATE_WORDS) words += wordsOpening(source, from, to, before, MIN_DUPLICATE_WORDS - words);
      before = source.charCodeAt(to - 1);
    });
    this.length = length;
    this.hash = hash;
    this.redundant = words === MIN_DUPLICATE_WORDS;
  }

  get text(): string {
    return (this.joined ??= this.reader.unmask(this.start, this.end));
  }
}

/**
 * Sentences compared by sentenceKey, which is taken only when an earlier sentence has the same
 * letterHash: most sentences of a message are unlike all the others, and lower-casing each one into a
 * key for a Set took a third of the dedup rule's time (about 25 of its 76 ms over the 967 prompts of
 * 200+ tokens, masked, before this and UnmaskedSentence).
 */
export class SentenceSet {
  /** By letterHash: the one sentence added with that hash, or the keys of all of them. */
  private readonly byHash = new Map<number, UnmaskedSentence | Set<string>>();

  /** Adds `sentence`; true when one with the same key was added before. */
  add(sentence: UnmaskedSentence): boolean {
    const keys = this.keysOf(sentence.hash);
    if (keys === undefined) {
      this.byHash.set(sentence.hash, sentence);
      return false;
    }
    const key = sentenceKey(sentence.text);
    if (keys.has(key)) return true;
    keys.add(key);
    return false;
  }

  has(sentence: UnmaskedSentence): boolean {
    return this.keysOf(sentence.hash)?.has(sentenceKey(sentence.text)) ?? false;
  }

  private keysOf(hash: number): Set<string> | undefined {
    const earlier = this.byHash.get(hash);
    if (!(earlier instanceof UnmaskedSentence)) return earlier;
    const keys = new Set([sentenceKey(earlier.text)]);
    this.byHash.set(hash, keys);
    return keys;
  }
}

/**
 * [start, next) ranges of the sentences of masked `text` (whose spans' `originals` it holds) that
 * `isRepeat` picks, among those long enough to be redundant; `isRepeat` sees every such sentence, in
 * order, with the offset where its line starts. A sentence
 * that opens a line (or follows only dropped ones) stays when it opens with a list marker or heading,
 * or when the text after it does: removing it would take the line's structure with it or make one.
 */
export function repeatedSentences(
  text: string,
  originals: readonly string[],
  isRepeat: (sentence: UnmaskedSentence, at: Sentence, lineStart: number) => boolean,
): { start: number; end: number }[] {
  const reader = new UnmaskedReader(text, originals);
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
    const sentence = new UnmaskedSentence(reader, s.start, s.end);
    grown += sentence.length - (s.end - s.start);
    if (!sentence.redundant || !isRepeat(sentence, s, lineStart)) continue;
    const opensLine = s.start === lineShownFrom || text[s.start - 1] === "\n";
    if (opensLine) {
      unmaskedLine ??= reader.unmask(lineStart, lineEnd);
      if (opensWithMarker(sentence.text) || opensWithMarker(unmaskedLine.slice(s.next - lineStart + grown))) continue;
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
  return cutRanges(
    text,
    repeatedSentences(text, [], (sentence) => seen.add(sentence)),
  ).kept;
}
