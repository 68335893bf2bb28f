import type { CompressionRule } from "../types";
import { cutRanges, removeRanges } from "../text/rewrite";
import { splitSentences } from "../text/sentences";
import { PhrasePattern } from "../text/phrase-patterns";
import { EMOJI } from "../text/social";
import { MANNER_OF } from "./filler";
import { readContent } from "./pleasantries";

/**
 * What the writer says about the question or about how they feel while asking, as a clause of a sentence
 * that tells something else ("I'm a data analyst, not a DBA, so this might be a silly one.", "I'm a
 * history teacher and, I'll admit, a little tired", "we're a bit clueless, to be honest", "my boss
 * noticed in the report output, which was embarrassing") or as a sentence of its own ("Forgive me for
 * asking such a trivial thing."). The sentence's own facts stay; the clause goes whole, with its joiner.
 * Before what is asked to be written only (readContent), and never in a sentence that asks: "Tell me
 * what you think, honestly." asks for honesty. Such clauses were left in 21 of the 80 prompts of
 * bench/data/chatty-dev-15.json and 9 of the 150 of bench/data/chatty-dev-12.json (an outside writer's):
 * the pleasantries rule reads whole sentences and leads, and the social-sentence model keeps a sentence
 * that tells a fact of the writer's ("I'm a data analyst").
 */

// "bit" before "of" is read only as "bit of": both readings of each "bit of" made a run of them take 2^n steps ("this
// might be a bit of bit of ... zzz." with 22 of them took 2 s in withoutDisclaimers).
const DEGREE = String.raw`(?:(?:a[ \t]+)?(?:bit(?![ \t]+of\b)|little|really|very|super|pretty|quite|so|such|totally|just|absolutely|kind[ \t]+of|kinda|bit[ \t]+of)[ \t]+(?:of[ \t]+)?)*`;
const TRIVIAL = String.raw`(?:silly|dumb|stupid|basic|simple|easy|obvious|trivial|naive|newbie|noob|lazy|weird|random|daft)`;
/** About the question: "this might be a silly one", "I apologise if this is too simple", "forgive the 3am typing". */
const ABOUT_THE_QUESTION = String.raw`(?:(?:i[ \t]+know[ \t]+|i[ \t]+guess[ \t]+)?(?:this|it)[ \t]+(?:might|may|could|will|is[ \t]+probably|is[ \t]+likely|is)[ \t]+(?:be[ \t]+|sound[ \t]+|seem[ \t]+)?(?:(?:a|an|such[ \t]+a)[ \t]+)?${DEGREE}(?:too[ \t]+)?${TRIVIAL}(?:[ \t]+(?:one|question|q|request|ask|thing))?|(?:please[ \t]+)?(?:forgive|excuse|pardon)[ \t]+(?:me|my|the|any)\b[^.!?\n,;:()\uE000-\uF8FF]{0,50}|(?:please[ \t]+)?bear[ \t]+with[ \t]+me|i(?:['’]m|[ \t]+am)[ \t]+${DEGREE}(?:too[ \t]+)?(?:embarrassed|ashamed|shy)[ \t]+to[ \t]+ask[ \t]+(?:(?:hr|them|him|her|anyone|anybody|people|my[ \t]+[a-z]+)[ \t]+)?(?:what[ \t]+(?:it|that|this|they)[ \t]+(?:is|are|means|mean)|about[ \t]+it)|(?:i[ \t]+)?(?:apologi[sz]e|am[ \t]+sorry|['’]m[ \t]+sorry|i['’]m[ \t]+sorry)[ \t]+(?:in[ \t]+advance[ \t]+)?(?:if[ \t]+this[ \t]+(?:is|sounds|seems)|for[ \t]+(?:asking|bothering|my[ \t]+(?:ignorance|english|typos?|spelling|grammar|rambling)|the[ \t]+(?:long|basic|silly|dumb|stupid|simple|trivial|random|rambling)))[^.!?\n,;:()\uE000-\uF8FF]{0,40})`;
/** How the writer feels about it: "which was embarrassing", "and I feel like an idiot", "and it's making me miserable". */
const FEELING = String.raw`(?:(?:it['’]s|it[ \t]+is|it[ \t]+was|that['’]s|that[ \t]+is|that[ \t]+was|is|was|i['’]m|i[ \t]+am|i[ \t]+was)[ \t]+${DEGREE}(?:embarrassing|mortifying|disheartening|humiliating|driving[ \t]+me[ \t]+(?:crazy|mad|insane|nuts|bananas|up[ \t]+the[ \t]+wall)|making[ \t]+me[ \t]+(?:miserable|crazy|mad|sad|anxious)|wrecking[ \t]+me|killing[ \t]+me|dreading[ \t]+it|blanking|panicking|freaking[ \t]+out|losing[ \t]+my[ \t]+mind|at[ \t]+(?:my[ \t]+wits['’]?[ \t]+end|the[ \t]+end[ \t]+of[ \t]+my[ \t]+(?:rope|tether)))|i[ \t]+(?:feel|felt)[ \t]+(?:like[ \t]+)?(?:(?:a|an|such[ \t]+an?|a[ \t]+total|a[ \t]+complete|an[ \t]+absolute)[ \t]+)?(?:idiot|fool|dummy|moron|dinosaur|imposter|impostor))`;
/** Honesty markers, which add nothing to what they mark. */
const HONESTLY = String.raw`(?:to[ \t]+be[ \t]+(?:honest|fair|frank)|if[ \t]+i['’]m[ \t]+(?:being[ \t]+)?honest|if[ \t]+i[ \t]+am[ \t]+(?:being[ \t]+)?honest|honestly|tbh|ngl|i['’]ll[ \t]+admit|i[ \t]+(?:must|have[ \t]+to)[ \t]+admit|i[ \t]+admit|admittedly|i[ \t]+confess|not[ \t]+gonna[ \t]+lie)`;
/**
 * What may end a clause that ends its sentence: end marks, an emoji, the line's end, or an honesty marker
 * that ends it in turn ("which is very disheartening, to be honest 😔").
 */
const ENDS = String.raw`(?=(?:,[ \t]*${HONESTLY})?[ \t]*(?:[.!?]|${EMOJI}|\n|$))`;

const TAIL = new RegExp(
  String.raw`(?:,[ \t]*(?:(?:so|and|but|which)[ \t]+)?|[ \t]+(?:so|and|which)[ \t]+)(?:${ABOUT_THE_QUESTION}|${FEELING})${ENDS}|,[ \t]*${HONESTLY}${ENDS}`,
  "gi",
);
/** A marker between commas inside a clause: "and, I'll admit, a little tired" -> "and a little tired". */
const INSIDE = new RegExp(String.raw`,[ \t]*${HONESTLY}[ \t]*,(?=[ \t]+[a-z])`, "gi");
/**
 * How the writer feels while asking, as a sentence of its own with no object ("I'm equally excited and
 * terrified.", "I'm just at my wits' end."): "terrified of public speaking" or "nervous about the interview"
 * says what the answer is for and never matches.
 */
const STATE = String.raw`(?:excited|nervous|terrified|stressed|anxious|overwhelmed|exhausted|panicking|freaking[ \t]+out)`;
const FEELS = String.raw`i(?:['’]m|[ \t]+am)[ \t]+(?:(?:so|really|equally|a[ \t]+bit|a[ \t]+little|kind[ \t]+of|kinda|super|pretty|quite|very|both|just|honestly|absolutely)[ \t]+)*${STATE}(?:[ \t]+and[ \t]+(?:(?:a[ \t]+bit|a[ \t]+little|so|really|very)[ \t]+)?${STATE})?`;
/** A sentence that is nothing but the writer's disclaimer: "Forgive me for asking such a trivial thing." */
const WHOLE = new RegExp(String.raw`^(?:${ABOUT_THE_QUESTION}|${FEELS}|${FEELING})[ \t]*[.!]*[ \t]*$`, "i");

/** A sentence that asks: a question, a request to the assistant, or an imperative opening it. */
const ASKS =
  /\?|^\W*(?:please|kindly|(?:could|can|would|will)[ \t]+(?:you|u)|(?:write|explain|tell|give|show|list|describe|summari[sz]e|translate|create|draft|compare|find|answer|suggest|recommend|help|make|rewrite|fix|proofread|edit|check|review|be|keep|use|say|reply|respond)\b)|\b(?:help[ \t]+me|i[ \t]+need|i[ \t]+want|i['’]d[ \t]+like|i[ \t]+would[ \t]+like)\b/i;

/** Words one of the patterns needs: most messages hold none, and no pattern is tried. */
const CUE_WORDS = `honest honestly tbh ngl admit admittedly confess lie forgive excuse pardon bear apologise apologize sorry
  silly dumb stupid basic simple easy obvious trivial naive newbie noob lazy weird random daft
  embarrassing mortifying disheartening humiliating driving making wrecking killing dreading blanking panicking freaking losing
  idiot fool dummy moron dinosaur imposter impostor embarrassed ashamed shy wits end excited nervous terrified stressed anxious overwhelmed
  exhausted`.split(/\s+/);
const CUE = new RegExp(String.raw`\b(?:${CUE_WORDS.join("|")})\b`, "i");
/**
 * The same words found by the scan the phrase rules share (text/phrase-patterns.ts): as a regex tried at every
 * position of every message, CUE took 1.1% of optimize()'s samples on fresh ~300-token prompts (bun --cpu-prof).
 */
const CUE_SCAN = new PhrasePattern({ pattern: new RegExp(CUE.source, "gi"), words: CUE_WORDS });

/**
 * The disclaimer clauses of one sentence, as [start, end) ranges of it: none in a sentence that asks; the
 * whole sentence when `whole` allows and it is nothing but one.
 */
function clauseRanges(sentence: string, whole: boolean): { start: number; end: number }[] {
  if (!CUE.test(sentence)) return [];
  const ranges: { start: number; end: number }[] = [];
  for (const piece of emojiPieces(sentence)) {
    const text = sentence.slice(piece.start, piece.end);
    if (!CUE.test(text) || ASKS.test(text)) continue;
    if (whole && piece.start === 0 && piece.end === sentence.length && WHOLE.test(text)) return [{ start: 0, end: sentence.length }];
    // The clause must leave a sentence behind: at least three words before it, so it starts after the third word's
    // first character. Read once a piece: splitting the text before each match took O(n) a match, and 4,000 ", to
    // be honest," in one sentence took 409 ms to compress and 393 ms to score (6 and 8 ms before the rule).
    const third = THIRD_WORD.exec(text);
    const thirdWord = third === null ? text.length : third[0].length;
    for (const re of [TAIL, INSIDE]) {
      re.lastIndex = 0;
      for (const m of text.matchAll(re)) {
        if (m.index <= thirdWord) continue;
        ranges.push({ start: piece.start + m.index, end: piece.start + m.index + m[0].length });
      }
    }
  }
  ranges.sort((a, b) => a.start - b.start);
  return ranges.filter((r, k) => k === 0 || r.start >= ranges[k - 1]!.end);
}

/** What comes before a text's third word: two words, each with the blanks after it. */
const THIRD_WORD = /^\s*\S+\s+\S+\s+(?=\S)/;

/** A run of emoji and the blanks after it, before more text: chatty writers end a clause with one instead of a mark. */
const EMOJI_BREAK = new RegExp(String.raw`(?:${EMOJI})+[ \t]+(?=\S)`, "g");

/**
 * The pieces of a sentence cut after each run of emoji, as the smalltalk rule cuts them: "... which is very
 * disheartening, to be honest 😔 Could you explain ...?" is a clause of the writer's and a request, and read
 * as one sentence it asked, so its disclaimer stayed (bench/data/chatty-dev-15.json).
 */
function emojiPieces(sentence: string): { start: number; end: number }[] {
  const pieces: { start: number; end: number }[] = [];
  let start = 0;
  EMOJI_BREAK.lastIndex = 0;
  for (const m of sentence.matchAll(EMOJI_BREAK)) {
    pieces.push({ start, end: m.index + m[0].trimEnd().length });
    start = m.index + m[0].length;
  }
  pieces.push({ start, end: sentence.length });
  return pieces;
}

/** A disclaimer that is a feeling: what a later sentence may point back at. */
const FELT = new RegExp(String.raw`${FEELS}|${FEELING}`, "i");
/**
 * A feeling named again after it is told ("... a tweet that captures this feeling", "How do I calm these nerves?",
 * "a poem about how I feel"): the feeling is what is asked about, and goes nowhere.
 */
const NAMES_THE_FEELING =
  /\b(?:feelings?|moods?|emotions?|nerves|sensations?|how[ \t]+i(?:['’]m)?[ \t]+feel(?:ing)?|feel[ \t]+(?:this|that)[ \t]+way|(?:this|that|these|those|the|my|such|both)[ \t]+(?:[a-z]+[ \t]+)?(?:anxiety|fears?|excitement|stress|frustration|embarrassment|panic|pride|worry|worries|state|exhaustion|dread))\b/i;
/**
 * "this", "that" or "it" standing alone in the sentence right after one that told a feeling ("I'm nervous. Which
 * breathing exercise helps with this?", "I'm terrified. Is this normal before surgery?", "... put this into words"):
 * what it points back at is that sentence, and without it the request asks about nothing. 11 of the 11 such prompts
 * of bench/data/compress-probe16.json lost their feeling on the lead's tree. "it" only at a clause's end or before a
 * preposition: "I'd appreciate it if it's gentle" two sentences on points at the plan asked for (chatty-dev-12's
 * c12-005). Read loosely ("Is this essay good?" keeps the feeling too): a miss keeps a sentence, a wrong removal
 * changes what is asked.
 */
const POINTS_BACK =
  /\b(?:(?:this|that|it)(?=[ \t]*(?:[.?!,;)]|$))|(?:this|that|it)[ \t]+(?:into|in|to|for|with|about|away|down|off|out|over)\b|(?:is|was|are|does|do|did|will|can|could|should|would)[ \t]+(?:this|that)[ \t]+[a-z]+|(?:this|that)(?:['’]s|[ \t]+(?:is|was|means|happens|feels|will|can|could|should|might|may)\b))/i;
/** The sentence after `end`, with its end mark. */
const NEXT_SENTENCE = /^\s*[^\n.!?]*[.!?]*/;

/** NAMES_THE_FEELING where it is read: at the start of the text after a feeling, the start standing for a word's boundary. */
const NAMES_THE_FEELING_HERE = new RegExp(`^(?:${NAMES_THE_FEELING.source})`, "i");
const NAMES_THE_FEELING_ALL = new RegExp(NAMES_THE_FEELING.source, "gi");

/**
 * Where the last match of NAMES_THE_FEELING in `text` starts, -1 for none: the text after a feeling at `end` names
 * it when a match starts after `end` (the same characters before it) or one starts at `end` itself. Read once a
 * message: the rest of the text read again for each feeling took 891 ms to compress 4,000 sentences "My boss saw
 * the report, which was embarrassing." (65 ms before the rule).
 */
function lastNamingStart(text: string): number {
  let last = -1;
  NAMES_THE_FEELING_ALL.lastIndex = 0;
  for (let m = NAMES_THE_FEELING_ALL.exec(text); m !== null; m = NAMES_THE_FEELING_ALL.exec(text)) {
    last = m.index;
    NAMES_THE_FEELING_ALL.lastIndex = m.index + 1;
  }
  return last;
}

/** Whether a feeling in [start, end) of `text` is pointed back at by what follows it (`lastNaming`: lastNamingStart). */
function feelingPointedAt(text: string, start: number, end: number, lastNaming: () => number): boolean {
  const removed = text.slice(start, end);
  if (!FELT.test(removed)) return false;
  const after = text.slice(end);
  if (lastNaming() > end || NAMES_THE_FEELING_HERE.test(after)) return true;
  // A clause's feeling ("..., which was embarrassing. Fix it.") is not what a bare "it" after it points at; a sentence's is.
  return WHOLE.test(removed.trim()) && POINTS_BACK.test(NEXT_SENTENCE.exec(after)![0]);
}

function disclaimerRanges(text: string): { start: number; end: number }[] {
  const cues = CUE_SCAN.matches(text);
  if (cues.length === 0) return [];
  const ranges: { start: number; end: number; sentenceEnd: number }[] = [];
  const sentences = splitSentences(text);
  let k = 0;
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i]!;
    while (k < cues.length && cues[k]!.index < s.start) k++;
    if (k === cues.length) break;
    if (cues[k]!.index >= s.end) continue;
    // A sentence that is nothing but a disclaimer goes whole, with the blanks after it, unless it ends the message.
    for (const r of clauseRanges(text.slice(s.start, s.end), i + 1 < sentences.length))
      ranges.push({ start: s.start + r.start, end: r.start === 0 && r.end === s.end - s.start ? s.next : s.start + r.end, sentenceEnd: s.end });
  }
  if (ranges.length === 0) return ranges;
  // Read only once a clause is found: the cue words are common ones ("simple", "making"), and most messages have none.
  const { contentFrom } = readContent(text);
  let last: number | undefined;
  const lastNaming = () => (last ??= lastNamingStart(text));
  return ranges.filter((r) => r.sentenceEnd <= contentFrom && !feelingPointedAt(text, r.start, r.end, lastNaming)).map(({ start, end }) => ({ start, end }));
}

/**
 * A sentence without its disclaimers: what the quality score reads of it, so that a removed one weighs
 * nothing (as withoutSocialClauses does for social leads).
 */
export function withoutDisclaimers(sentence: string): string {
  const ranges = clauseRanges(sentence, true);
  return (ranges.length === 0 ? sentence : cutRanges(sentence, ranges).kept).replace(OPENING_MARKER, "$1");
}
/**
 * An honesty marker opening a sentence, as the filler rule drops it (not "Honestly rate ...", a manner it keeps): read
 * as content, "honest" was a lost word, the score 37 for "To be honest, list the downsides of remote work." -> "List
 * the downsides of remote work." and 33 for "Honestly any help is appreciated" -> "Any help ...", and the back-off
 * undid the rule (6 of 212 prompts of bench/data/compress-probe16.json and keep-14's k14-long-102 sent as written).
 */
const OPENING_MARKER = new RegExp(String.raw`^(\s*)(?:to[ \t]+be[ \t]+honest(?:[ \t]+with[ \t]+you)?|honestly(?!${MANNER_OF}))\b[ \t]*,?[ \t]*(?=\S)`, "i");

/** The writer's disclaimers about the question and about how they feel while asking, as whole clauses. Only user turns. */
export const disclaimers: CompressionRule = {
  name: "disclaimers",
  minLevel: 0.5,
  apply(text, ctx) {
    if (ctx.conversation[ctx.index]?.role !== "user") return { text, saved: 0 };
    const ranges = disclaimerRanges(text);
    return ranges.length === 0 ? { text, saved: 0 } : removeRanges(text, ranges, ctx);
  },
  mayChange: (original) => disclaimerRanges(original).length > 0,
};
