import { dataSpans } from "../compress/protect/data-spans";
import {
  closingAfterQuotation,
  isEmojiOnly,
  isSocialSentence,
  LAUGHTER_ONLY,
  signedClosingStart,
  socialSentenceRanges,
  withoutLaughter,
  withoutSocialClauses,
  socialLeadLength,
} from "../compress/text/social";
import { cutRanges } from "../compress/text/rewrite";
import { isSpace } from "../../text/fold-whitespace";
import { WORDY_PHRASES } from "../compress/rules/filler";
import { keptOfFraming, REQUEST_FRAMING } from "../compress/rules/intent";
import { isAnnouncement } from "../compress/rules/preamble";
import { withoutDisclaimers } from "../compress/rules/disclaimers";
import { ASIDE, framingPieces, SMALLTALK_THRESHOLDS, socialAsideRanges } from "../compress/rules/smalltalk";
import { isClosingThanks, isConfidentSmalltalk } from "../compress/text/social-model";
import { selfInformation } from "../compress/word-stats";
import { CHECK_NAMES, meaningChecks, type LostContent } from "./meaning-checks";

/**
 * What a compression changed in the request, as the quality score weighs it (issue 25): not how far
 * the words moved, but whether the prompt still asks for the same thing with the same constraints
 * about the same data. Social sentences and framing words weigh nothing; a lost number, negation,
 * entity, data span, format or constraint word, or content word weighs a lot. Only what changed is
 * looked at: the words common to both texts cancel before anything is weighed.
 */
export interface RequestFeatures {
  /** Numbers, negations, entities, code, URLs and quotes of the original missing after (meaning-checks.ts). */
  hardLost: number;
  /** Text handed to the model to work on (data-spans.ts) that is no longer there byte for byte. */
  dataLost: number;
  /** Words that name a format or a constraint ("bold", "table", "only", "each", "before") lost. */
  formatLost: number;
  /** Content words lost outside social sentences. */
  contentLost: number;
  /** Their self-information, in tens of bits: a rare word says more than a common one. */
  contentBits: number;
  /** Content words the compressed text has and the original had not (a swap, a rewording). */
  contentAdded: number;
  /** Content words both texts have, but in another order ("dog bites man" / "man bites dog"). */
  contentMoved: number;
  /** Function and framing words lost outside social sentences, in tens: the grammar around the request. */
  lightLost: number;
}

export const FEATURE_NAMES = [
  "hardLost",
  "dataLost",
  "formatLost",
  "contentLost",
  "contentBits",
  "contentAdded",
  "contentMoved",
  "lightLost",
] as const satisfies readonly (keyof RequestFeatures)[];

/**
 * Words that carry the grammar and the politeness of a request, not what it asks: function words,
 * request framing ("wondering", "possibly", "help"), hedges and intensifiers.
 */
const LIGHT = new Set(
  (
    "a an the this that these those some any such what which whose " +
    "i me my mine myself you your yours yourself we us our ours he him his she her hers it its they them their theirs who whom " +
    "of to in for on with at by from as into onto about over under above below between through during against among " +
    "up down out off upon within via per than like " +
    "and or but so yet if then because while although though whether " +
    "is are was were be been being am do does did have has had will would shall should can could may might " +
    "also just very really quite even too please pls plz there here well " +
    "i'm i've i'll i'd you're you've you'll you'd it's we're that's there's let's " +
    "wondering wonder mind possibly perhaps maybe kindly help helping able want wanted wanting need needed like love appreciate hoping hope " +
    "basically literally actually honestly obviously totally simply essentially definitely certainly pretty think believe guess feel " +
    "question request task favor favour quick small little get got go going know " +
    // Interjections: "Haha ok this is going to sound silly" lost "haha ok", "ok" weighed as content, and the
    // back-off undid every social edit of the prompt (score 40, bench/data/chatty-dev-9.json, dev split).
    "ok okay alright anyway anyways oh um hmm yeah yep"
  ).split(" "),
);

/** Words that name a format or a constraint on the answer: lost, they change what is asked even when short. */
const FORMAT_WORDS = new Set(
  (
    "bold italic italics heading headings header headers bullet bullets bulleted numbered list lists table tables json csv yaml xml markdown code " +
    "paragraph paragraphs sentence sentences word words line lines column columns format formatted uppercase lowercase capital capitals " +
    "only must exactly always never each every all both either before after first last least most maximum minimum max min limit " +
    "short shorter brief concise long longer formal informal casual simple plain tone style"
  ).split(" "),
);

/** "due to the fact that" and "because" are one request: both sides are read with the shorter forms. */
const WORDY = new RegExp(WORDY_PHRASES.map(([wordy]) => `\\b(?:${wordy})\\b`).join("|"), "gi");
const SHORTER = WORDY_PHRASES.map(([wordy, short]) => [new RegExp(`^(?:${wordy})$`, "i"), short] as const);
function plainForms(text: string): string {
  WORDY.lastIndex = 0;
  if (!WORDY.test(text)) return text;
  return text.replace(WORDY, (m) => SHORTER.find(([re]) => re.test(m))?.[1] ?? m);
}

/** Sentences of a line, as the compressor splits them (closing punctuation with the sentence). */
const SENTENCE = /[^\n.!?]+[.!?]*["'”’)\]]*/g;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/**
 * The words of `text` outside its social sentences, lower-cased, in order. A sign-off with the sender's
 * name ending the text ("Kind regards, Jonathan", "Kind regards,\nPeter" under a letter to the assistant)
 * is social, name and all, unless `closing` is given and differs from it: the compressed text's closing
 * is cut only when it is the original's. A pasted email's "Thanks, Mark" ends the compressed text once the
 * sender's "Thanks a lot!\nSophie" after it is gone, and read as a signature there, "mark" counted as lost
 * content (score 40 for a compression that only removed social sentences, bench/data/chatty-dev-9.json).
 * `smalltalk` is given for the compressed text: the original's sentences read as smalltalk, as words.
 */
function requestWords(text: string, closing?: string, smalltalk?: Set<string>[]): { words: string[]; closing: string; smalltalk: Set<string>[] } {
  const words: string[] = [];
  const skipped: Set<string>[] = [];
  let plain = plainForms(text);
  const signed = signedClosingStart(plain);
  const tail = signed >= 0 ? plain.slice(signed) : "";
  if (signed >= 0 && (closing === undefined || closing === tail)) plain = plain.slice(0, signed);
  // The writer's asides the smalltalk rule removes at 1.0 weigh nothing, on both sides, nor does what a rule
  // leaves of one ("(god help us lol)" -> "(god help us)"): read as content where they stay, they were "added"
  // at 0.5.
  const asides = socialAsideRanges(plain, SMALLTALK_THRESHOLDS.high);
  for (const a of asides) skipped.push(new Set(plain.slice(a.start, a.end).toLowerCase().match(WORD) ?? []));
  if (smalltalk !== undefined && plain.includes("(")) {
    for (const m of plain.matchAll(ASIDE)) {
      const own = m[0].toLowerCase().match(WORD) ?? [];
      if (!asides.some((a) => a.start === m.index) && smalltalk.some((words) => own.every((w) => words.has(w))))
        asides.push({ start: m.index, end: m.index + m[0].length });
    }
    asides.sort((a, b) => a.start - b.start);
  }
  if (asides.length > 0) plain = cutRanges(plain, asides).kept;
  for (const whole of plain.match(SENTENCE) ?? []) {
    const trimmed = whole.trim();
    // So does an announcement of the request, after a greeting too ("Hey, I was wondering if you could help me with something?").
    if (isSocialSentence(trimmed) || isAnnouncement(trimmed.slice(socialLeadLength(trimmed)).trim())) continue;
    // Thanks closing the message weigh nothing, and neither does what a rule leaves of them ("Cheers, oh wise
    // one." -> "Oh wise one.", bench/data/chatty-dev-10.json).
    if (isClosingThanks(trimmed)) {
      skipped.push(new Set(trimmed.toLowerCase().match(WORD) ?? []));
      continue;
    }
    // A sentence the smalltalk rule may remove at some level weighs nothing either, nor does a piece of a
    // sentence it cuts after a run of emoji; the hard checks still read them (hardChecks does not leave them
    // out), though its guards keep numbers, names and negations out of them.
    const pieces = framingPieces(trimmed);
    const kept = pieces.filter((piece) => {
      const wordsOf = () => piece.toLowerCase().match(WORD) ?? [];
      // Laughter or emoji alone, a piece of its own after a run of emoji ("Hope you're having a spooky good day
      // 👻 haha."), weighs nothing: read as content, its "haha" was lost (bench/data/chatty-dev-13.json). So does
      // a greeting the piece is: once backstory after it weighed nothing, "Hi there 😅" of "Hi there 😅 I burned
      // the rice again." was read alone as content, and removing it scored 42 (bench/data/compress-keep-14.json).
      if (LAUGHTER_ONLY.test(piece) || isEmojiOnly(piece) || isSocialSentence(piece)) return false;
      // Backstory the smalltalk rule removes at 1.0 weighs nothing in the original only: read so in the
      // compressed text, what is left of a sentence once its social lead is gone ("Excel is driving me nuts 😤"
      // of "Hi, sorry to bother you, Excel is driving me nuts 😤") weighed nothing there and its words were
      // "lost" (bench/data/chatty-dev-12.json: the greeting came back).
      if (isConfidentSmalltalk(piece, SMALLTALK_THRESHOLDS.high, smalltalk === undefined)) {
        skipped.push(new Set(wordsOf()));
        return false;
      }
      if (smalltalk === undefined || smalltalk.length === 0) return true;
      const own = wordsOf();
      // So does what is left of such a sentence of the original once a social lead or a word is gone ("Hey
      // hey, just got back from rehearsal." -> "Just got back from rehearsal."), every word of it one of that
      // sentence: read as content only in the compressed text, its words were "added", and 29 of the 67
      // prompts of bench/data/chatty-check-10.json scored under the floor.
      return !smalltalk.some((words) => own.every((w) => words.has(w)));
    });
    if (kept.length === 0) continue;
    // A social clause before or after the request ("Sorry if this is a dumb question, but ...") weighs
    // nothing either, nor does the framing of an indirect request ("Would it be possible for you to"), nor a
    // disclaimer the disclaimers rule removes (", so this might be a silly one", ", to be honest"), read as it is
    // once the laughter after it is gone ("and I feel like an idiot haha."). Each is read at the start of a piece
    // an emoji run cuts off, as intent reads a request there: "... at all 😭 can u explain ...?" became "...
    // 😭 Explain ...", "u" was read as a lost word, and the back-off undid the rule (chatty-dev-12).
    for (const piece of kept) {
      const sentence = withoutSocialClauses(withoutDisclaimers(withoutLaughter(piece))).replace(REQUEST_FRAMING, keptOfFraming);
      for (const w of sentence.match(WORD) ?? []) words.push(w.toLowerCase().replace("’", "'"));
    }
  }
  return { words, closing: tail, smalltalk: skipped };
}

function counted(words: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

/** Length of the longest common subsequence; the shared prefix and suffix (most of a compression) cost nothing. */
function commonInOrder(a: readonly string[], b: readonly string[]): number {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  let previous = new Uint16Array(y.length + 1);
  let row = new Uint16Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) row[j] = x[i - 1] === y[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    [previous, row] = [row, previous];
  }
  return head + tail + previous[y.length]!;
}

/** Sentences of a data span, outside social ones: each must still be sent as it was. */
function dataSentences(span: string): string[] {
  return (span.match(SENTENCE) ?? []).map((s) => s.trim()).filter((s) => s !== "" && !isSocialSentence(s));
}

/**
 * Where a sentence may start: the text's start, or after a line break or closing punctuation and a blank.
 * Read by char code: changedMiddles steps back over a changed sentence a character at a time, and two
 * regex tests of one-character strings a step were 2% of the quality score's samples (bun --cpu-prof).
 */
const isSentenceStart = (text: string, at: number) => {
  if (at === 0 || text.charCodeAt(at - 1) === 0x0a) return true;
  if (!isSpace(text.charCodeAt(at - 1))) return false;
  const mark = at >= 2 ? text.charCodeAt(at - 2) : 0;
  return mark === 0x2e || mark === 0x21 || mark === 0x3f;
};

/**
 * The two texts without the sentences they begin and end with in common: only what changed is weighed
 * (issue 25). Words there cancel anyway, and the longest common subsequence of the rest plus them is
 * theirs plus the rest's, so no feature changes. The cuts fall on sentence starts, where the social
 * sentence tests read whole sentences.
 */
function changedMiddles(a: string, b: string): [string, string] {
  let head = 0;
  const shorter = Math.min(a.length, b.length);
  while (head < shorter && a.charCodeAt(head) === b.charCodeAt(head)) head++;
  while (head > 0 && !(isSentenceStart(a, head) && isSentenceStart(b, head))) head--;
  let tail = 0;
  while (tail < shorter - head && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail++;
  while (tail > 0 && !(isSentenceStart(a, a.length - tail) && isSentenceStart(b, b.length - tail))) tail--;
  return [a.slice(head, a.length - tail), b.slice(head, b.length - tail)];
}

/**
 * `text` without its social sentences. With `closing`, the original's closing (see requestWords), a signed
 * closing that ends `text` and is not that one stays: a pasted letter's "Yours faithfully, George Bell" ends
 * the compressed text once the sender's "Kind regards, George" after it is gone, and read as a signature
 * there its names were lost entities (a hold-out prompt of bench/data/chatty-dev-9.json, found after it
 * was scored).
 */
export function withoutSocialSentences(text: string, closing?: string): string {
  let ranges = socialSentenceRanges(text);
  if (closing !== undefined) {
    const own = closingOf(text);
    if (own !== "" && own !== closing) ranges = ranges.filter((r) => !(r.end === text.length && r.start === text.length - own.length));
  }
  return cutRanges(text, ranges).kept;
}

/** Quotations and code, which a cut at a sentence start could split: texts with them are checked whole. */
const SPLITTABLE = /[`"“‘«]|(?<![\p{L}\p{N}])'/u;

/**
 * The hard checks (meaning-checks.ts) of a compression, social sentences left out on both sides (a
 * negation or a name in "I hope this isn't a silly question" is no content), and only on the sentences
 * that changed when no quotation or code could straddle a cut: each check compares what one text has
 * with what the other has, so the sentences both share cancel.
 */
export function hardChecks(original: string, compressed: string): LostContent {
  const [a, b] = SPLITTABLE.test(original) ? [original, compressed] : changedMiddles(original, compressed);
  return meaningChecks(withoutSocialSentences(a), withoutSocialSentences(b, closingOf(a)));
}

/** The sender's closing that ends `text` ("Kind regards, George"), or "". */
function closingOf(text: string): string {
  const signed = signedClosingStart(text);
  return signed >= 0 ? text.slice(signed) : "";
}

/**
 * `text` without the user's closing after a quoted text (closingAfterQuotation): read from a cut at a
 * sentence start its quotation marks no longer pair, and "Merci beaucoup!" after '... Helen Brooks"' counted
 * as two content words lost (3 prompts of bench/data/chatty-dev-12.json scored 3 and were backed off).
 */
function withoutQuotedClosing(text: string): string {
  const at = closingAfterQuotation(text);
  return at >= 0 ? text.slice(0, at).trimEnd() : text;
}

export function requestFeatures(original: string, compressed: string, lost: LostContent = hardChecks(original, compressed)): RequestFeatures {
  const f: RequestFeatures = { hardLost: 0, dataLost: 0, formatLost: 0, contentLost: 0, contentBits: 0, contentAdded: 0, contentMoved: 0, lightLost: 0 };
  if (original === compressed) return f;
  for (const check of CHECK_NAMES) f.hardLost += lost[check].length;
  for (const span of dataSpans(original)) {
    const text = original.slice(span.start, span.end);
    if (!compressed.includes(text) && dataSentences(text).some((s) => !compressed.includes(s))) f.dataLost++;
  }
  const [changedBefore, changedAfter] = changedMiddles(withoutQuotedClosing(original), withoutQuotedClosing(compressed));
  const { words: beforeWords, closing, smalltalk } = requestWords(changedBefore);
  const afterWords = requestWords(changedAfter, closing, smalltalk).words;
  const before = counted(beforeWords);
  const after = counted(afterWords);
  for (const [word, n] of before) {
    const gone = n - (after.get(word) ?? 0);
    if (gone <= 0) continue;
    if (FORMAT_WORDS.has(word)) f.formatLost += gone;
    else if (LIGHT.has(word)) f.lightLost += gone / 10;
    else {
      f.contentLost += gone;
      f.contentBits += (gone * selfInformation(word)) / 10;
    }
  }
  for (const [word, n] of after) {
    const added = n - (before.get(word) ?? 0);
    if (added > 0 && !LIGHT.has(word) && !FORMAT_WORDS.has(word)) f.contentAdded += added;
  }
  const isContent = (w: string) => !LIGHT.has(w);
  const a = beforeWords.filter(isContent);
  const b = afterWords.filter(isContent);
  let shared = 0;
  const pool = counted(b);
  for (const w of a) {
    const n = pool.get(w) ?? 0;
    if (n > 0) {
      shared++;
      pool.set(w, n - 1);
    }
  }
  f.contentMoved = shared - commonInOrder(a, b);
  return f;
}
