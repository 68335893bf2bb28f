import type { CompressionRule } from "../types";
import { cutRanges, removeRanges } from "../text/rewrite";
import { splitSentences, type Sentence } from "../text/sentences";
import { asksSomething, framingCueOffsets, isConfidentSmalltalk, isSocialAside, ownsOnlyTheMoment, socialProbability } from "../text/social-model";
import { HAS_EMOJI, POINTS_BACK, readContent } from "./pleasantries";

/**
 * The least probability the model must give a sentence at a level: at 0.5 and below only what it is
 * nearly sure of, more from 1.0 (bench/compress-dev.ts on bench/data/chatty-dev-10.json, see the commit).
 */
export function smalltalkThreshold(level: number): number {
  return level >= 1 ? SMALLTALK_THRESHOLDS.high : SMALLTALK_THRESHOLDS.default;
}
export const SMALLTALK_THRESHOLDS = { default: 0.9, high: 0.8 } as const;
/**
 * From 1.0 a first-person sentence with no personal fact in it may go (isConfidentSmalltalk's `backstory`):
 * 1.0 removed almost nothing more than 0.5 (chatty-11, blind: 14.6 / 14.7%).
 */
const smalltalkReadsBackstory = (level: number): boolean => level >= 1;

const CLOSING_MARKS = /["'”’)\]]+$/;

/** Below this the model reads a sentence as content: a message keeps at least one such sentence, its request. */
const CONTENT = 0.5;

/** A run of emoji and the blanks after it: chatty writers end a sentence with one instead of a full stop. */
const EMOJI_BREAK = /(?:(?:[\u2600-\u27BF\u2B00-\u2BFF]|[\uD83C-\uD83E][\uDC00-\uDFFF])[\uFE0F\u200D]?)+[ \t]+(?=\S)/g;

/**
 * The sentences of `text` (splitSentences), each also cut after a run of emoji inside it: "Hiii beautiful
 * soul ✨ sending you the warmest vibes today 🌸 Could you help me ...?" is two pieces of framing and a
 * request, which read as one sentence kept all three (bench/data/chatty-dev-10.json).
 */
function framingUnits(text: string): Sentence[] {
  const units: Sentence[] = [];
  for (const s of splitSentences(text)) {
    const sentence = text.slice(s.start, s.end);
    if (!HAS_EMOJI.test(sentence)) {
      units.push(s);
      continue;
    }
    let start = s.start;
    for (const m of sentence.matchAll(EMOJI_BREAK)) {
      units.push({ start, end: s.start + m.index + m[0].trimEnd().length, next: s.start + m.index + m[0].length, wholeLine: false });
      start = s.start + m.index + m[0].length;
    }
    units.push(start === s.start ? s : { start, end: s.end, next: s.next, wholeLine: false });
  }
  return units;
}

/** The pieces of one sentence that framingUnits cuts it into, as the quality score reads them. */
export function framingPieces(sentence: string): string[] {
  if (!HAS_EMOJI.test(sentence)) return [sentence];
  return framingUnits(sentence).map((u) => sentence.slice(u.start, u.end));
}

/** Whether a sentence ends with no blank after it, glued to the next: a full stop inside a word or a name. */
const glued = (text: string, s: Sentence) => s.next === s.end && s.end < text.length && text[s.end] !== "\n";

/**
 * Which units of `text` the model calls framing where no guard of the sentence itself vetoes, or null when
 * none: only units with a cue are read (framingCueOffsets), and a message with no candidate costs nothing
 * more. `original` marks the unmasked text, whose sentences may end with a protected span's closing marks.
 */
function candidates(text: string, units: readonly Sentence[], level: number, original = false): boolean[] | null {
  const cues = framingCueOffsets(text);
  if (cues.length === 0) return null;
  let found: boolean[] | null = null;
  let k = 0;
  for (let i = 0; i < units.length; i++) {
    const s = units[i]!;
    while (k < cues.length && cues[k]! < s.start) k++;
    if (k === cues.length) break;
    if (cues[k]! >= s.end) continue;
    // A full stop inside a word is no sentence end: "I use ironpython on .NET Framework." read as "I use
    // ironpython on ." and "NET Framework." (arena-hard).
    if (glued(text, s) || (i > 0 && glued(text, units[i - 1]!))) continue;
    let sentence = text.slice(s.start, s.end);
    // A sentence of the original may end with the closing marks a protected span opens with
    // ('Thanks so much in advance!"quoted"'), where the masked text's sentence ends before the placeholder.
    if (original) sentence = sentence.replace(CLOSING_MARKS, "");
    if (!isConfidentSmalltalk(sentence, smalltalkThreshold(level), smalltalkReadsBackstory(level))) continue;
    found ??= new Array<boolean>(units.length).fill(false);
    found[i] = true;
  }
  return found;
}

/**
 * Whole sentences of a user's message the social-sentence model is confident are framing, where no guard
 * vetoes. After the request, a new paragraph may be a pasted text (an email to rewrite ending "Thank you
 * for your time,", a chat transcript's "I've heard they have great coffee there.", self-instruct): of the
 * paragraphs after the one the request is in, only a last one that is nothing but framing goes.
 */
function smalltalkRanges(text: string, level: number): { start: number; end: number }[] {
  const sentences = framingUnits(text);
  const social = candidates(text, sentences, level);
  if (social === null) return [];
  const { contentFrom } = readContent(text);
  const ranges: { start: number; end: number }[] = [];
  let keepsRequest = false;
  let lastParagraph: { start: number; end: number }[] | null = null;
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i]!;
    // What is asked to be written, and what follows its request, may be made of social sentences.
    if (s.start >= contentFrom) {
      keepsRequest = true;
      break;
    }
    if (keepsRequest && i > 0 && text.slice(sentences[i - 1]!.end, s.start).includes("\n\n")) lastParagraph = [];
    const next = sentences[i + 1];
    const pointedAt = next !== undefined && POINTS_BACK.test(text.slice(next.start, next.end));
    const framing = social[i]! && !pointedAt;
    if (lastParagraph !== null) {
      if (framing) lastParagraph.push({ start: s.start, end: s.next });
      else lastParagraph = null;
      // Once a later paragraph holds content, no later sentence is read: the rest may be a pasted text.
      if (lastParagraph === null) break;
      continue;
    }
    if (framing) ranges.push({ start: s.start, end: s.next });
    else if (!keepsRequest && socialProbability(text.slice(s.start, s.end)) < CONTENT) keepsRequest = true;
  }
  if (!keepsRequest) return [];
  const found = lastParagraph === null ? ranges : [...ranges, ...lastParagraph];
  if (found.length === 0) return found;
  // A sentence that shares a word with what stays is context for it, not framing: "My daughter is really
  // into dinosaurs right now." before a request to plan her party, "I'm struggling with my relationship
  // and unsure if I should stay or leave." before one to act as a relationship coach (both p >= 0.9, the
  // model's kept-back sentences).
  const keptText = cutRanges(text, found).kept;
  const kept = topicWords(keptText);
  // Nor does one that names whom a pronoun of what stays may mean: "My son is obsessed with trains right
  // now." before "Suggest a theme for his birthday party." (bench/data/compress-keep-10.json).
  const refersBack = THIRD_PERSON.test(keptText);
  // A sentence of the moment that owns something ("My coffee has been reheated four times today.") goes only before a
  // request that names its own topic and points back at no thing: "My car made a weird noise all morning." is what
  // "What could it be?" and "What should I do?" ask about.
  const standsAlone = !POINTS_AT_A_THING.test(keptText) && kept.length >= 2;
  return found
    .filter((r) => {
      const sentence = text.slice(r.start, r.end);
      if (!standsAlone && ownsOnlyTheMoment(sentence)) return false;
      return !(refersBack && OWNED.test(sentence)) && !sharesTopic(topicWords(sentence), kept);
    })
    .map((r) => {
      // A piece cut after a run of emoji takes the conjunction that joined it to the rest: "ok so this is prob a
      // dumb question lmao 💀 but whats the difference ...?" left "but whats the difference ...?"
      // (bench/data/chatty-dev-15.json).
      const joiner = /[.!?]\s*$/.test(text.slice(r.start, r.end)) ? null : JOINER.exec(text.slice(r.end));
      return joiner === null ? r : { start: r.start, end: r.end + joiner[0].length };
    });
}

/** A conjunction opening what follows a removed piece. */
const JOINER = /^(?:but|and|so)[ \t]+(?=[a-z])/i;

/** The sentence around text[start, end), its closing mark with it. */
function sentenceAround(text: string, start: number, end: number): string {
  const from = Math.max(text.lastIndexOf(".", start), text.lastIndexOf("!", start), text.lastIndexOf("?", start), text.lastIndexOf("\n", start)) + 1;
  const to = text.slice(end).search(/[.!?\n]/);
  return text.slice(from, to < 0 ? text.length : end + to + 1);
}

/** A parenthesis inside a line, with the blanks before it: no placeholder, no nested parenthesis. */
export const ASIDE = /[ \t]*\(([^()\n\uE000-\uF8FF]{1,120})\)/g;

/**
 * The writer's asides in parentheses in the first paragraph of `text`, before what is asked to be written
 * (isSocialAside), that share no word with the rest of the message: from 1.0 they go ("I'm the maid of honour
 * (eek!).", "My grandma gave me $5,000 (so sweet of her!!) and ..."). A later paragraph may be a pasted text.
 */
export function socialAsideRanges(text: string, threshold: number): { start: number; end: number }[] {
  if (!text.includes("(")) return [];
  const paragraph = text.indexOf("\n\n");
  const end = Math.min(paragraph < 0 ? text.length : paragraph, readContent(text).contentFrom);
  const ranges: { start: number; end: number }[] = [];
  for (const m of text.slice(0, end).matchAll(ASIDE)) {
    // An aside opening its line is no aside: a list's "(a)" or a line of its own.
    const lineStart = text.lastIndexOf("\n", m.index) + 1;
    if (text.slice(lineStart, m.index).trim() === "") continue;
    if (!isSocialAside(m[1]!, threshold, asksSomething(sentenceAround(text, m.index, m.index + m[0].length)))) continue;
    ranges.push({ start: m.index, end: m.index + m[0].length });
  }
  if (ranges.length === 0) return ranges;
  const kept = topicWords(cutRanges(text, ranges).kept);
  return ranges.filter((r) => !sharesTopic(topicWords(text.slice(r.start, r.end)), kept));
}

const THIRD_PERSON = /\b(?:he|she|him|his|her|hers|they|them|their|theirs)\b/i;
const OWNED = /\b(?:my|our)[ \t]+[a-z]/i;
const POINTS_AT_A_THING = /\b(?:it|its|this|that|these|those|one)\b/i;

/** Words of four letters or more that name what a text is about: not function words or framing's own. */
const FRAMING_WORDS = new Set(
  (
    "this that these those with have from your yours about what when where which while just really very been being they them their there here " +
    "would could should will into some than then only also much many more most like know want need make take help please thanks thank hope " +
    "time today week weekend morning evening night good great well still back going doing getting again always ever sure right okay " +
    "thing things stuff something anything everything someone anyone everyone does done"
  ).split(" "),
);

function topicWords(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  return words.filter((w) => !FRAMING_WORDS.has(w)).map((w) => (w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w));
}

/**
 * Whether two lists of topic words share one, in any of its forms: equal, or a past form of the other ("burned"
 * and "burnt", "bake" and "baked"). "I burned the rice again." went at 1.0 before "How do I get the burnt taste
 * out?" (bench/data/compress-keep-14.json): an irregular form shares no word with its regular one. Other endings
 * do not count: with "-ing", "I am writing you from my small room ..." shared "write" with the request and
 * stayed (2 of chatty-dev-11.json's 60 prompts).
 */
function sharesTopic(words: readonly string[], kept: readonly string[]): boolean {
  return words.some((w) => kept.some((k) => w === k || pastForms(w, k)));
}

const PAST_ENDINGS = new Set(["", "e", "d", "ed", "t"]);

function pastForms(a: string, b: string): boolean {
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return common >= 4 && PAST_ENDINGS.has(a.slice(common)) && PAST_ENDINGS.has(b.slice(common));
}

/**
 * Social sentences in phrasings the pleasantries rule's patterns do not know ("I've had three cups of tea
 * and I'm still none the wiser.", "My cat is literally sitting on the keyboard right now."), found by a
 * linear model (text/social-model.ts). Only user turns: a system prompt's sentences set up the model.
 */
export const smalltalk: CompressionRule = {
  name: "smalltalk",
  minLevel: 0.5,
  apply(text, ctx) {
    if (ctx.conversation[ctx.index]?.role !== "user") return { text, saved: 0 };
    const sentences = smalltalkRanges(text, ctx.level);
    const asides = smalltalkReadsBackstory(ctx.level) ? socialAsideRanges(text, smalltalkThreshold(ctx.level)) : [];
    // An aside inside a sentence that goes whole goes with it.
    const ranges = [...sentences, ...asides.filter((a) => !sentences.some((r) => r.start <= a.start && a.end <= r.end))].sort((a, b) => a.start - b.start);
    return ranges.length === 0 ? { text, saved: 0 } : removeRanges(text, ranges, ctx);
  },
  mayChange(original, ctx) {
    const units = HAS_EMOJI.test(original) ? framingUnits(original) : splitSentences(original);
    if (candidates(original, units, ctx.level, true) !== null) return true;
    return smalltalkReadsBackstory(ctx.level) && socialAsideRanges(original, smalltalkThreshold(ctx.level)).length > 0;
  },
};
