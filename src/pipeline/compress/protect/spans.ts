import { eachMatch } from "../../../text/each-match";
import { AnchoredMatches, type AnchoredPattern } from "../../../text/anchored-matches";
import { isKnownWordAt } from "../word-stats";
import { dataSpans } from "./data-spans";
import { mentionedSentences } from "./mentioned";
import { socialSentenceRanges } from "../text/social";

/** A half-open character range [start, end) of the original text that no rule may change. */
export interface Span {
  start: number;
  end: number;
}

type Detector = (text: string) => Span[];

function allMatches(text: string, pattern: RegExp): Span[] {
  const spans: Span[] = [];
  eachMatch(text, pattern, (m) => {
    if (m[0].length > 0) spans.push({ start: m.index, end: m.index + m[0].length });
  });
  return spans;
}

/**
 * Fenced code: a run of three or more backticks (anywhere) or tildes (at a line start) opens a
 * block that the next run of at least the same length closes; an unclosed fence runs to the end.
 */
const FENCE = /`{3,}|^[ \t]*~{3,}/gm;
function fencedCode(text: string): Span[] {
  const spans: Span[] = [];
  const fences: RegExpExecArray[] = [];
  eachMatch(text, FENCE, (m) => fences.push(m));
  for (let i = 0; i < fences.length; i++) {
    const open = fences[i]!;
    const marker = open[0].trim();
    let close = i + 1;
    while (close < fences.length && !(fences[close]![0].trim()[0] === marker[0] && fences[close]![0].trim().length >= marker.length)) close++;
    const end = close < fences.length ? fences[close]!.index + fences[close]![0].length : text.length;
    spans.push({ start: open.index, end });
    i = close;
  }
  return spans;
}

const INLINE_CODE = /`[^`\n]+`/g;

const CODE_KEYWORDS = String.raw`def|class|import|from \S+ import|return|function|const|let|var|public|private|static|void|#include|#define|package|func|fn|SELECT|INSERT|UPDATE|DELETE|CREATE TABLE`;
/**
 * Lines that read as code even without a fence: keywords at the start, or ending in ; { }. A line of
 * brackets alone is not protected: in bare JSON it is structure the json rule tightens. Exported for
 * the test that holds codeLineSpans to it.
 */
export const CODE_LINE = new RegExp(String.raw`^(?![ \t]*[{}[\],]+[ \t]*$)[ \t]*(?:(?:${CODE_KEYWORDS})\b[^\n]*|[^\n]*[;{}][ \t]*)$`, "gm");
const CODE_LINE_AT = new RegExp(CODE_LINE.source, "my");
/** Where CODE_LINE can match besides the first line: lines that open with a keyword, and lines that hold a ; { or }. */
const KEYWORD_LINE = new RegExp(String.raw`\n[ \t]*(?:${CODE_KEYWORDS})\b`, "g");
const CODE_PUNCTUATION = /[;{}]/g;
/** Line terminators besides "\n", which CODE_LINE's ^ and $ also stop at. */
const OTHER_LINE_BREAKS = /[\r\u2028\u2029]/;

/**
 * CODE_LINE's matches, the pattern run (sticky) only at the start of the text and of the lines that
 * open with a keyword or hold a ; { or }, which two regexes find fast (each starts with a line break or
 * one of three characters), instead of at every position: 17 -> 8 ms over the 967 prompts of 200+
 * tokens, same matches. A text with line terminators other than "\n" is left to CODE_LINE itself.
 */
export function codeLineSpans(text: string): Span[] {
  if (OTHER_LINE_BREAKS.test(text)) return allMatches(text, CODE_LINE);
  const lineStarts = [0];
  eachMatch(text, KEYWORD_LINE, (m) => lineStarts.push(m.index + 1));
  CODE_PUNCTUATION.lastIndex = 0;
  for (let m = CODE_PUNCTUATION.exec(text); m !== null; m = CODE_PUNCTUATION.exec(text)) {
    lineStarts.push(text.lastIndexOf("\n", m.index) + 1);
    // One look per line: the rest of its punctuation says nothing new.
    const lineBreak = text.indexOf("\n", m.index);
    if (lineBreak < 0) break;
    CODE_PUNCTUATION.lastIndex = lineBreak + 1;
  }
  const spans: Span[] = [];
  let previous = -1;
  for (const start of lineStarts.sort((a, b) => a - b)) {
    if (start === previous) continue;
    previous = start;
    CODE_LINE_AT.lastIndex = start;
    const m = CODE_LINE_AT.exec(text);
    if (m !== null) spans.push({ start, end: start + m[0].length });
  }
  return spans;
}

/** Markdown indented code: lines indented four spaces or a tab after a blank line, not list items. */
const INDENTED_BLOCK = /(?:^|\n[ \t]*\n)((?: {4,}|\t)(?![ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t])[^\n]*\S[^\n]*(?:\n(?: {4,}|\t)[^\n]*)*)/g;
function indentedCode(text: string): Span[] {
  const spans: Span[] = [];
  eachMatch(text, INDENTED_BLOCK, (m) => {
    const start = m.index + m[0].length - m[1]!.length;
    spans.push({ start, end: start + m[1]!.length });
  });
  return spans;
}

const URL = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>"'`]+/gi;
const EMAIL = /[\w.%+-]+@[\w-]+(?:\.[\w-]+)+/g;
const PATH = /(?<![\p{L}\p{N}])(?:~|\.{1,2})?\/[\w.-]+(?:\/[\w.-]*)+/gu;
function urls(text: string): Span[] {
  const spans: Span[] = [];
  eachMatch(text, URL, (m) => {
    let url = m[0];
    // Trailing sentence punctuation is not part of the link; a closing bracket is only if it opened inside.
    while (/[.,;:!?'")\]}]$/.test(url) && !(url.endsWith(")") && url.split("(").length > url.split(")").length - 1)) url = url.slice(0, -1);
    spans.push({ start: m.index, end: m.index + url.length });
  });
  return spans;
}

const QUOTED =
  /"[^"\n]{0,2000}"|“[^“”\n]{0,2000}”|‘[^‘’\n]{0,400}’|«[^«»\n]{0,400}»|„[^„“”\n]{0,400}[“”]|「[^「」\n]{0,400}」|(?<![\p{L}\p{N}])'[^'\n]{1,200}'(?![\p{L}\p{N}])/gu;

/**
 * Straight double quotes paired by their edges: one opens after a space or bracket and before text,
 * one closes after text and before a space or punctuation. A stray quote earlier in the prompt (an
 * inch mark, a quote never closed) shifts QUOTED's left-to-right pairing so that it protects the text
 * between quotations and leaves the quotations open to rules; this reading still finds them. Both
 * readings are protected: which one the writer meant cannot be known.
 */
const QUOTED_BY_EDGES = /(?<![\p{L}\p{N}])"(?=[^\s"])[^"\n]{0,2000}?(?<=[^\s"])"(?![\p{L}\p{N}])/gu;

/**
 * Quoted strings written with escaped quotes, as in JSON or code pasted on one line ("say: \\"hi\\""):
 * which unescaped quotes pair up there is anyone's guess, so the escaped pairs are protected as well.
 */
const ESCAPED_QUOTED = /\\"(?:[^"\\\n]|\\[^"\n]){0,2000}\\"/g;

/** Template slots users leave for the model or for themselves: {like this}, [PROMPT], <name>. */
const SLOT = /\{[^{}\n]{0,120}\}|\[[^[\]\n]{0,120}\]|<[^<>\n]{0,120}>/g;

const NUMBER_WORD =
  "(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?|millions?|billions?|trillions?|dozens?|half|halves|twice|thrice|double|triple|quarter|once|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|twelfth|hundredth|thousandth)";
const DIGITS = String.raw`[-+±~≈$€£¥#]?\d(?:[\d,._:/]*\d)?(?:st|nd|rd|th|k|K|M|B|x|%|‰)?`;
const QUALIFIER = String.raw`(?:(?:at\s+(?:least|most)|no\s+(?:more|less|fewer|later|earlier)\s+than|(?:more|less|fewer|greater|other|longer|shorter)\s+than|up\s+to|under|over|below|above|within|exactly|approximately|roughly|about|around|nearly|almost|max(?:imum)?|min(?:imum)?|between|from|per)\s+)?`;
const UNIT = String.raw`(?:\s?(?:%|°[CF]?|(?:mm|cm|m|km|in|ft|yd|mi|mg|g|kg|lbs?|oz|t|ml|l|L|s|sec|secs|ms|µs|ns|min|mins|h|hr|hrs|am|pm|a\.m\.|p\.m\.|mph|kph|km\/h|m\/s|Hz|kHz|MHz|GHz|W|kW|kWh|V|mAh|B|KB|MB|GB|TB|px|pt|em|rem|dpi|fps|USD|EUR|GBP|percent|dollars?|euros?|cents?|pounds?|words?|characters?|chars?|letters?|tokens?|sentences?|paragraphs?|lines?|pages?|items?|points?|bullet\s+points?|bullets?|steps?|examples?|questions?|options?|ideas?|names?|seconds?|minutes?|hours?|days?|weeks?|months?|years?|times?|people|persons?|per\s+cent)\b))?`;
const NUMBER_CORE = String.raw`(?:${DIGITS}|\b${NUMBER_WORD}(?:(?:[\s-]+|\s+and\s+)${NUMBER_WORD})*\b)`;
const NUMBER = new RegExp(String.raw`(?:\b${QUALIFIER})?${NUMBER_CORE}(?:\s*(?:-|–|—|to|and|or)\s*${NUMBER_CORE})?${UNIT}`, "gi");

/**
 * Month and day names (an abbreviation with its period). "today", "tomorrow", "tonight" and "yesterday"
 * are not protected since issue 25: no rule drops such a word, and protected they kept "I hope you're
 * doing well today." from going as the social sentence it is; the period after a full day name is the
 * sentence's, and masked with it, it hid the next sentence's start from the phrase rules.
 */
const DATE =
  /\b(?:(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b\.?)/g;

/** Clause scope: the words after a marker up to the next punctuation, at most `n` of them. */
const scope = (n: number) => String.raw`(?:[ \t]+[^\s.,;:!?()[\]{}]+){0,${n}}`;
const AUXILIARY = String.raw`(?:(?:do|does|did|should|must|will|would|can|could|may|might|shall|is|are|was|were|have|has|had|please)\s+)?`;
const NEGATION_WORD = String.raw`(?:not|no|never|none|nothing|nobody|nowhere|neither|nor|without|cannot|avoid|avoiding|except|unless|instead\s+of|rather\s+than|refrain\s+from|[a-z]+n['’]t|dont|doesnt|didnt|cant|wont|isnt|arent|shouldnt)`;
const NEGATION = new RegExp(String.raw`\b${AUXILIARY}${NEGATION_WORD}\b${scope(2)}`, "gi");

const CONSTRAINT = new RegExp(
  String.raw`\b(?:must|always|only|exactly|strictly|solely|required?|mandatory|ensure|make\s+sure|at\s+(?:least|most)|no\s+more\s+than|limit(?:ed)?\s+to|maximum|minimum|keep\s+it)\b` +
    scope(2),
  "gi",
);

/**
 * A run of capitals with no letter, digit or "_" on either side. The lookbehind is tested after the
 * first capital rather than before it, so that it runs at capitals only, not at every position.
 */
const ACRONYM = /\p{Lu}(?<![\p{L}\p{N}_]\p{Lu})[\p{Lu}\p{N}&]+(?![\p{L}\p{N}_])/gu;
/** Acronyms; in a social sentence they are laughter or thanks ("TIA!", "LOL"), no content. */
const acronyms: Detector = (t) => allMatches(t, ACRONYM);
/** camelCase, snake_case, word2vec, file.ext, @handle, #tag: identifiers, never prose. Exported for the test that holds identifierSpans to it. */
export const IDENTIFIER =
  /(?<!\w)[@#$]\w+|\b[A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*\b|\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b|\b[A-Za-z]*\d[A-Za-z0-9]*\b|\b[\w-]+(?:\.[\w-]+)+\b/g;
const IDENTIFIER_AT = new RegExp(IDENTIFIER.source, "y");
/**
 * What IDENTIFIER needs beyond letters: a sigil, or in a run of [\w-] a digit, a "_", a small letter
 * before a capital, or a "." with more of the run's characters after it. A match opens at the sigil or
 * at a word boundary of a run that holds (or, for the ".", ends at) one of these.
 */
const IDENTIFIER_MARK = /[@#$\d_]|[a-z][A-Z]|\.(?=[\w-])/g;
const isAsciiWordUnit = (code: number) => (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f;
const isRunUnit = (code: number) => code === 0x2d || isAsciiWordUnit(code);

/**
 * IDENTIFIER's matches, the pattern run (sticky) only at the sigils and at the word boundaries of the
 * runs that IDENTIFIER_MARK finds something in, instead of at every position: most words are plain, and
 * no match opens in one (about 29 -> 19 ms over the 967 prompts of 200+ tokens, same matches).
 */
export function identifierSpans(text: string): Span[] {
  const spans: Span[] = [];
  let resume = 0; // where the last match ended
  const tryAt = (at: number) => {
    if (at < resume) return;
    IDENTIFIER_AT.lastIndex = at;
    const m = IDENTIFIER_AT.exec(text);
    if (m === null) return;
    resume = at + m[0].length;
    spans.push({ start: at, end: resume });
  };
  let tried = 0; // the runs before this were tried
  IDENTIFIER_MARK.lastIndex = 0;
  for (let mark = IDENTIFIER_MARK.exec(text); mark !== null; mark = IDENTIFIER_MARK.exec(text)) {
    const at = mark.index;
    const code = text.charCodeAt(at);
    if (code === 0x40 || code === 0x23 || code === 0x24) {
      tryAt(at);
      continue;
    }
    let start = at;
    while (start > tried && isRunUnit(text.charCodeAt(start - 1))) start--;
    let end = code === 0x2e ? at : at + 1;
    while (end < text.length && isRunUnit(text.charCodeAt(end))) end++;
    for (let p = start; p < end; p++) if (isAsciiWordUnit(text.charCodeAt(p)) !== (p > 0 && isAsciiWordUnit(text.charCodeAt(p - 1)))) tryAt(p);
    tried = end;
    // The run's other marks say nothing new.
    if (IDENTIFIER_MARK.lastIndex < end) IDENTIFIER_MARK.lastIndex = end;
  }
  return spans;
}

const CAPITALIZED = /\p{Lu}[\p{L}\p{N}'’-]*/gu;
const FIRST_PERSON = /^I(?:['’](?:m|ll|ve|d))?$/;
/** Characters after which a word opens a sentence; and those a capitalised word may end with but a name does not. */
const SENTENCE_BOUNDARIES = '.!?:;\n•*#>"“(-';
const TRAILING_MARKS = "'’-";
const WORD_CHARACTER = /[\p{L}\p{N}_]/u;

/** WORD_CHARACTER for one UTF-16 unit, deciding ASCII (most text) without the regex. */
function isWordUnit(code: number): boolean {
  return code >= 0x80 ? WORD_CHARACTER.test(String.fromCharCode(code)) : isAsciiWordUnit(code);
}
/** Laughter, thanks and sign-offs the word statistics do not hold: at a sentence start they are no names. */
const SOCIAL_CAPITALIZED = /^(?:(?:ha){2,}h?|he(?:he)+|lol+|lmao|rofl|thx|tysm|xoxo|ttyl|hiya|howdy|cheers|regards|apologies|thanks)$/i;
/** "Hello ChatGPT," — the assistant's name in an opening greeting is not content to protect. */
const GREETING_ADDRESSEE = /^\s*(?:hi|hello|hey|dear|greetings)[ \t,]+(?:chat ?gpt|gpt(?:-?\d[\w.-]*)?|claude|gemini|bard|copilot|assistant|ai)\b/i;

/** Whether text[k] closes a smiley (":)", ";-(", ":D"): the next word opens a sentence ("Hi :) Could you ..."). */
function endsEmoticon(text: string, k: number): boolean {
  if (!")(DPp".includes(text[k]!)) return false;
  const eyes = text[k - 1] === "-" ? k - 2 : k - 1;
  return text[eyes] === ":" || text[eyes] === ";";
}

/**
 * Whether text[k] ends an emoji (U+2600-27BF, U+2B00-2BFF, a variation selector, or a character above U+FFFF, whose
 * low surrogate ends it): chatty text ends sentences with them ("I'm terrified 😬 Could you write ...").
 */
function endsEmoji(text: string, k: number): boolean {
  const code = text.charCodeAt(k);
  return (code >= 0x2600 && code <= 0x27bf) || (code >= 0x2b00 && code <= 0x2bff) || code === 0xfe0f || (code >= 0xdc00 && code <= 0xdfff);
}

function holdsRightQuote(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) === 0x2019) return true;
  return false;
}

/**
 * Named entities by shape: a capitalised word inside a sentence is a name; at a sentence start it
 * is one when it is not an ordinary English word (the word statistics tell). "I" is not a name.
 */
function capitalizedNames(text: string): Span[] {
  const spans: Span[] = [];
  eachMatch(text, CAPITALIZED, (m) => {
    const start = m.index;
    if (start > 0 && isWordUnit(text.charCodeAt(start - 1))) return;
    // The match opens with a capital, so trimming stops before its start.
    let end = start + m[0].length;
    while (TRAILING_MARKS.includes(text[end - 1]!)) end--;
    if (text.charCodeAt(start) === 0x49 && FIRST_PERSON.test(text.slice(start, end))) return;
    let k = start - 1;
    while (k >= 0 && (text[k] === " " || text[k] === "\t")) k--;
    const sentenceStart = k < 0 || SENTENCE_BOUNDARIES.includes(text[k]!) || endsEmoticon(text, k) || endsEmoji(text, k);
    // Looked up as written, where it lies: the statistics spell an apostrophe ', so a word with ’ is none of theirs.
    if (sentenceStart && !holdsRightQuote(text, start, end) && isKnownWordAt(text, start, end)) return;
    if (sentenceStart && SOCIAL_CAPITALIZED.test(text.slice(start, end))) return;
    spans.push({ start, end });
  });
  return spans;
}

/** List markers, headings and quote markers: the structure the prompt relies on when they open a line. */
const MARKER = String.raw`[ \t]*(?:[-*+•]|\d{1,3}[.)]|[a-zA-Z][.)]|#{1,6}|>+)`;
const LINE_MARKER = new RegExp(String.raw`^${MARKER}[ \t]+`, "gm");
const OPENS_WITH_MARKER = new RegExp(String.raw`^${MARKER}(?:[ \t]|$)`);

/**
 * True when `text` (unmasked) begins with what reads as a list marker, heading or quote marker once
 * it stands at a line start: a rule that removes the text before it, or the text it opens, changes the
 * prompt's structure.
 */
export function opensWithMarker(text: string): boolean {
  return OPENS_WITH_MARKER.test(text);
}

const words = (list: string) => list.split(" ");
/**
 * The detectors whose matches open at one of a few words (numbers also at a digit or sign), with those
 * words: every word each pattern can open with, whatever follows it. Exported for the test that holds
 * the lists to the patterns.
 */
export const WORD_ANCHORED: readonly AnchoredPattern[] = [
  {
    pattern: NUMBER,
    words: words(
      "at no more less fewer greater other longer shorter up under over below above within exactly approximately roughly about around nearly almost max maximum min minimum between from per " +
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety " +
        "hundred hundreds thousand thousands million millions billion billions trillion trillions dozen dozens half halves twice thrice double triple quarter once " +
        "first second third fourth fifth sixth seventh eighth ninth tenth twelfth hundredth thousandth",
    ),
    units: "0123456789-+±~≈$€£¥#",
  },
  {
    pattern: DATE,
    words: words(
      "january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec " +
        "monday tuesday wednesday thursday friday saturday sunday",
    ),
  },
  {
    pattern: NEGATION,
    words: words(
      "do does did should must will would can could may might shall is are was were have has had please " +
        "not no never none nothing nobody nowhere neither nor without cannot avoid avoiding except unless instead rather refrain dont doesnt didnt cant wont isnt arent shouldnt",
    ),
    // `[a-z]+n['’]t`: a word ending in "n" before an apostrophe ("don't", "WON’T").
    opensWord: (text, _start, end) => (text.charCodeAt(end - 1) | 0x20) === 0x6e && (text.charCodeAt(end) === 0x27 || text.charCodeAt(end) === 0x2019),
  },
  {
    pattern: CONSTRAINT,
    words: words("must always only exactly strictly solely require required mandatory ensure make at no limit limited maximum minimum keep"),
  },
];
const wordAnchored = new AnchoredMatches(WORD_ANCHORED);

function wordAnchoredSpans(text: string): Span[] {
  const spans: Span[] = [];
  wordAnchored.each(text, (_, m) => {
    if (m[0].length > 0) spans.push({ start: m.index, end: m.index + m[0].length });
  });
  return spans;
}

/**
 * Detectors whose spans inside a social sentence are no content: "I hope this isn't a silly question"
 * holds a negation, "I hope you're doing well this week" a date, and the sentence goes whole. Data spans
 * are not among them: a pasted letter's "I hope you are well." is part of the letter.
 */
const CONTENT_DETECTORS = new Set<Detector>([wordAnchoredSpans, capitalizedNames, acronyms]);

const DETECTORS: readonly Detector[] = [
  (t) => (t.includes("```") || t.includes("~~~") ? fencedCode(t) : []),
  (t) => (t.includes("`") ? allMatches(t, INLINE_CODE) : []),
  codeLineSpans,
  indentedCode,
  (t) => (t.includes("://") || t.includes("www.") ? urls(t) : []),
  (t) => (t.includes("@") ? allMatches(t, EMAIL) : []),
  (t) => (t.includes("/") ? allMatches(t, PATH) : []),
  (t) => allMatches(t, QUOTED),
  (t) => (t.includes('"') ? allMatches(t, QUOTED_BY_EDGES) : []),
  (t) => (t.includes('\\"') ? allMatches(t, ESCAPED_QUOTED) : []),
  (t) => allMatches(t, SLOT),
  wordAnchoredSpans,
  acronyms,
  identifierSpans,
  capitalizedNames,
  (t) => allMatches(t, LINE_MARKER),
  dataSpans,
  mentionedSentences,
];

/**
 * Every protected span of `text`, sorted and merged. Spans that overlap, touch, or are separated by
 * spaces only become one ("under 200 words", "April 5") so that no rule can work its way between them.
 */
export function protectedSpans(text: string): Span[] {
  const addresseeEnd = GREETING_ADDRESSEE.exec(text)?.[0].length ?? 0;
  const spans: Span[] = [];
  const social = socialSentenceRanges(text);
  const inSocial = (span: Span) => social.some((s) => s.start <= span.start && span.end <= s.end);
  for (const detect of DETECTORS) {
    const filter = social.length > 0 && CONTENT_DETECTORS.has(detect);
    for (const span of detect(text)) if (span.end > addresseeEnd && !(filter && inSocial(span))) spans.push(span);
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  // The detectors' spans are fresh objects, owned here: merging grows them in place.
  const merged: Span[] = [];
  let last: Span | undefined;
  for (const span of spans) {
    if (last && (span.start <= last.end || onlyBlanks(text, last.end, span.start))) last.end = Math.max(last.end, span.end);
    else merged.push((last = span));
  }
  return merged;
}

/** Whether text[from, to) is a non-empty run of spaces and tabs. */
function onlyBlanks(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return to > from;
}
