import { eachMatch } from "../../../text/each-match";
import { closingAfterQuotation, isSocialSentence, signedClosingStart } from "../text/social";
import { isClosingThanks } from "../text/social-model";
import { isSignedName, signedTailStart } from "../text/social-vocab";
import type { Span } from "./spans";

/**
 * Text the prompt hands the model to work on, as opposed to the instructions about it (issue 25): a
 * pasted email, essay, log or transcript, few-shot examples, a quotation. It goes out byte for byte;
 * only the instructions and the social framing around it are compressed. Detected by how prompts hand
 * text over (a line that ends in a colon, a labelled line, a quote block) and, for tasks whose answer
 * depends on the text's surface (proofreading, counting, translating, editing), by the task itself; a
 * request line that points at a text ("... this email?") hands over the lines after it.
 * A miss here is what the guard exists for, so each reading errs toward protecting too much.
 */

/** A line that ends in a colon: what follows is handed over, to the end of the message. */
const INTRODUCER = /:[ \t]*\n/g;

/**
 * A colon inside a line after words that point at a text ("Translate this into French: Je suis ...",
 * "Here is my email: ..."): the rest of the message is that text. Looked for from each colon back over
 * its sentence (at most INLINE_REACH characters), not at every word: a word-list alternation tried at
 * every position cost 108 ms over the corpora's 3,700 prompts.
 */
const POINTER =
  /\b(?:following|below|this|these|text|e-?mail|message|paragraph|passage|sentences?|essay|letter|draft|document|article|post|transcript|log|story|poem|lyrics|review|tweet|caption|list|data|input|here is|here's|example|examples|quote|phrase|words?|title|summary|abstract|bio|paper|report|note|notes|reply|response)\b[^.!?\n:]*$/i;
/**
 * A verb of editing opening its sentence, with lower-case words after it, points too: "Edit for tone: Honestly I'm
 * not sure ..." and "Make it sound more formal: Honestly I'm so nervous ..." lost the "Honestly" to the filler rule
 * (bench/data/compress-probe16.json, on the lead's tree). Not a heading of a structured prompt ("2. Analyze
 * Requirements: Understand task scope ..."): protected to the end, its list kept its bold (awesome-chatgpt-prompts).
 */
const EDIT_POINTER =
  /(?:^|[.!?\n][ \t]*)(?:[Ee]dit|[Ss]horten|[Ss]implify|[Cc]ondense|[Ss]ummari[sz]e|[Cc]lassify|[Cc]ritique|[Aa]naly[sz]e|[Mm]ake it (?:sound|more|less))(?:[ \t]+[a-z][^.!?\nA-Z:]*)?[ \t]*$/;
/**
 * EDIT_POINTER on `before`, the INLINE_REACH characters before a colon, which start at `from` of `text`: its "^"
 * opens a sentence only where the text before `from` ends with an end mark, a line break and blanks, or is none.
 * A cut inside a word is no sentence's start: "... equal cr|edit for the work ... at home: honestly ..." read
 * "edit for ..." as the verb and froze the rest of the message, where a character more before the colon did not.
 */
function editPointerAt(text: string, from: number, before: string): boolean {
  const m = EDIT_POINTER.exec(before);
  if (m === null || from === 0 || m.index > 0 || /[.!?\n]/.test(before[0]!)) return m !== null;
  let k = from;
  while (k > 0 && (text[k - 1] === " " || text[k - 1] === "\t")) k--;
  return k === 0 || /[.!?\n]/.test(text[k - 1]!);
}
const INLINE_REACH = 80;
const INLINE_COLON = /:[ \t]+(?=\S)/g;

function inlineIntroducerEnd(text: string): number {
  INLINE_COLON.lastIndex = 0;
  for (let m = INLINE_COLON.exec(text); m !== null; m = INLINE_COLON.exec(text)) {
    const from = Math.max(0, m.index - INLINE_REACH);
    const before = text.slice(from, m.index);
    if (POINTER.test(before) || editPointerAt(text, from, before)) return m.index + m[0].length;
  }
  return -1;
}

/**
 * A line that points at a text ("Could you summarise this meeting transcript?", "I got this email from
 * my manager. Could you describe the tone?") hands over the lines after it, as a colon would: new
 * authors' prompts put the text there without one (5 of 60 such texts were edited in chatty-5; 3 of 50
 * in chatty-6 when only a line's last sentence was read). Stricter than POINTER: a determiner that
 * points ("this", "my", "the following") and a noun for a text within three words of it, since
 * "Write a poem.\n" or "Hope this finds you well!\n" hand nothing over. Plurals too: "Could you classify these
 * customer reviews?" above a numbered list of reviews let prune edit one (bench/data/chatty-dev-9.json); and
 * "the text below". A voicemail, a voice note, a recording, a DM or an SMS too: "Summarise this voicemail.\n\nHey
 * it's me, hope you're doing well! ..." lost the caller's greeting (bench/data/compress-keep-10.json, k10-14).
 */
const TEXT_NOUN = String.raw`(?:(?:text|e-?mail|message|paragraph|passage|sentence|essay|letter|draft|document|article|post|transcript|log|story|storie|poem|review|tweet|caption|list|input|example|quote|phrase|title|summar(?:y|ie)|abstract|bio|paper|report|note|repl(?:y|ie)|response|ticket|complaint|chat|conversation|thread|snippet|script|function|quer(?:y|ie)|table|recipe|resume|cv|contract|clause|description|comment|statement|speech|announcement|memo|page|section|chapter|verse|song|output|error|stack ?trace|excerpt|headline|entr(?:y|ie)|item|invoice|receipt|record|row|voicemail|voice ?note|recording|dm|sms)s?|lyrics|data|code|csv|json|feedback|survey|minutes|copy|instructions|content|writing)`;
const POINTED_TEXT = new RegExp(
  String.raw`\b(?:(?:this|these|that|those|the following|following|my|our|his|her|their|the attached|attached)\s+(?:[\w'-]+\s+){0,3}?${TEXT_NOUN}|the\s+(?:[\w'-]+\s+)?${TEXT_NOUN}\s+(?:below|underneath))\b`,
  "i",
);

function lineBreakIntroducerEnd(text: string): number {
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
    if (POINTED_TEXT.test(text.slice(text.lastIndexOf("\n", at - 1) + 1, at))) {
      const next = text.slice(at).search(/\S/);
      return next < 0 ? -1 : at + next;
    }
  }
  return -1;
}

/** A line opening with a short label and a colon: few-shot examples ("Input: ...", "A: ...") and labelled data. */
const LABELLED_LINE =
  /^[ \t]*(?:input|output|example(?: \d+)?|q|a|question|answer|text|sentence|email|user|assistant|human|ai|bot|customer|agent|review|tweet|label|category|sentiment|original|translation|source|target|context|passage|response|reply|subject|from|to|message)[ \t]*:[^\n]*/gim;

/**
 * A line opening with a speaker's name and a colon ("Maria: Okay, flag that to the client today please."):
 * two or more in a message are a pasted transcript or chat log, kept whole from the first such line to
 * the end of the last, whatever points at it. A blind author's "Could you summarise the transcript in
 * bullet points?" named it with "the", which POINTED_TEXT leaves out, and word pruning took a "please"
 * out of the transcript (chatty-9, 1 of its 60 handed-over texts; the lead's check of that set).
 * Up to three capitalised words: "Step 1:" and "note to self:" are no speakers.
 */
const SPEAKER_LINE = /^[ \t]*\p{Lu}[\p{L}'’.-]*(?:[ \t]\p{Lu}[\p{L}'’.-]*){0,2}[ \t]*:[ \t]*\S[^\n]*/gmu;

function speakerLines(text: string, out: Span[]): void {
  let first = -1;
  let end = -1;
  let lines = 0;
  eachMatch(text, SPEAKER_LINE, (m) => {
    if (first < 0) first = m.index;
    end = m.index + m[0].length;
    lines++;
  });
  if (lines >= 2) out.push({ start: first, end });
}

/** Markdown table rows: data, padding included. */
const TABLE_ROW = /^[ \t]*\|[^\n]*\|[ \t]*$/gm;

/** Quote-block lines: quoted material, kept whole (the marker alone is what the list-marker guard keeps). */
const QUOTE_BLOCK = /^[ \t]*>[^\n]*/gm;

/**
 * Tasks whose answer depends on the exact text they are given: proofreading, grammar, spelling,
 * counting, repetition, exact wording, translation, editing, continuing, matching a register. The text
 * they refer to is protected whole: from the task word to the end of the message, and every paragraph
 * before the one that names the task.
 */
const SURFACE_TASK =
  /\b(?:proof-?read(?:ing)?|grammar|grammatical(?:ly)?|spelling|spell-?check|typos?|punctuation|verbatim|word for word|exact (?:wording|words|text)|word count|how many (?:times|words|letters|characters|sentences|lines|paragraphs|vowels|consonants|syllables|commas|occurrences)|count (?:the|how|each|every|all)|transl(?:ate|ated|ating|ation)|rewrit(?:e|ing)|rephras(?:e|ing)|paraphras(?:e|ing)|reword(?:ing)?|edit(?:ing)? (?:this|my|the|it|these|our)|copy-?edit|polish|improve (?:the|my|this|our) (?:writing|wording|text|essay|email|paragraph|draft|letter|prose|flow)|formatting|continue (?:it|this|the|my|writing)|finish (?:this|the|my) (?:story|sentence|text|paragraph|poem)|match (?:the|my|this) (?:tone|style|register|voice)|same (?:tone|style|register|voice|format)|(?:tone|style|register) of (?:this|the following|my))/gi;

/** Talk about formatting: bold, italics and headings written in such a prompt are examples of the instruction. */
const FORMAT_TALK = /\b(?:bold|italics?|markdown|asterisks?|emphasi[sz]e|emphasis|highlight|headings?|headers?|formatt?(?:ed|ing)?)\b/i;
const FORMAT_MARKS = /\*{1,3}[^*\n]+\*{1,3}|_{1,2}[^_\n]+_{1,2}|^[ \t]*#{1,6}[ \t][^\n]*/gm;

/** Every non-empty match of a global `pattern` in `text`, as a span pushed to `out`. */
function matchSpans(text: string, pattern: RegExp, out: Span[]): void {
  eachMatch(text, pattern, (m) => {
    if (m[0].length > 0) out.push({ start: m.index, end: m.index + m[0].length });
  });
}

/** Start of the paragraph (after the last blank line) that holds `at`. */
function paragraphStart(text: string, at: number): number {
  const blank = /\n[ \t]*\n/g;
  let start = 0;
  for (let m = blank.exec(text); m !== null && m.index < at; m = blank.exec(text)) start = m.index + m[0].length;
  return start;
}

/** Where a surface task is named in `text`, or -1: the offset just after its first naming. */
export function surfaceTaskEnd(text: string): number {
  // Plain exec: run through AnchoredMatches at its opening words ("how", "word", "count", "same" are
  // common) it took 160-290 ms over the corpora's 3,700 prompts, the regex 61 ms (throwaway timings).
  SURFACE_TASK.lastIndex = 0;
  const m = SURFACE_TASK.exec(text);
  return m === null ? -1 : m.index + m[0].length;
}

/**
 * The span [task, end) of a surface task's text, less the user's thanks between the task and a block the text is
 * handed over in ("Could you translate these instructions into Spanish? Thanks so much! Here they are:\n\n..."):
 * the text is the block, and a sentence of thanks before its introducer is the user's, not the text's. 7 of the 120
 * prompts of bench/data/chatty-dev-16.json (an outside writer's) thanked so and kept it. Only whole sentences
 * the closed vocabulary calls social, or thanks (isClosingThanks), in the task's paragraph, go unprotected, with the
 * end marks and blanks before them, so a rule reads each as a sentence of its own; the rest stays protected.
 */
function withoutThanksBeforeHandover(text: string, task: number, end: number): Span[] {
  INTRODUCER.lastIndex = task;
  const block = INTRODUCER.exec(text);
  if (block === null || block.index >= end) return [{ start: task, end }];
  // The introducer ends the task's line: a line break before it may be a pasted text's.
  if (text.slice(task, block.index).includes("\n")) return [{ start: task, end }];
  const spans: Span[] = [];
  let from = task;
  for (const m of text.slice(task, block.index).matchAll(SENTENCE)) {
    const sentence = m[0].trim();
    // The introducer's own sentence may open with the thanks: "Thank you very much in advance, here it is:", "Thank
    // you so much 💙 The advice:" (4 more of chatty-dev-16's prompts). Its words are no part of the text either, and
    // a bare "The advice:" is read so too: once the thanks before it went, the quality score read "the advice" as
    // protected in the compressed prompt only, as words added (score 64).
    const introducer = task + m.index + m[0].length === block.index;
    if (!(isSocialSentence(sentence) || isClosingThanks(sentence) || (introducer && introducesOnly(sentence)))) continue;
    // Thanks to an audience open the text itself: "Translate the toast into French. Thank you all for coming! The
    // toast: ..." (a second reading found it cut from the toast).
    if (AUDIENCE.test(sentence)) continue;
    const at = task + m.index + m[0].search(/\S/);
    // The end marks and blanks before the sentence go unprotected with it: the sentence before ends there.
    let start = at;
    while (start > from && /[\s.!?]/.test(text[start - 1]!)) start--;
    if (start === at || start <= from) continue;
    const after = task + m.index + m[0].length;
    let stop = after;
    while (stop < end && (text[stop] === " " || text[stop] === "\t")) stop++;
    spans.push({ start: from, end: start });
    from = stop;
  }
  spans.push({ start: from, end });
  return spans;
}

const AUDIENCE = /\b(?:all|everyone|everybody|folks|guests|ladies|gentlemen|for (?:coming|joining|being here|attending))\b/i;

/** The words that introduce a handed-over block, ending its sentence: "here it is", "here's what I wrote", "The advice", "His story". */
const INTRODUCER_WORDS =
  /(?:^|[,;–—]|\p{Extended_Pictographic}\uFE0F?)[ \t]*((?:here(?:['’]s| is| are)(?: it| they| mine| my [a-z]+| the [a-z]+| what I (?:wrote|have|got))?|here it (?:is|goes)|here they are|(?:the|my|his|her|their|our) [a-z]+(?: [a-z]+)?(?: (?:is|reads|says|goes))?))$/iu;

/** Whether an introducer's sentence is its introducing words alone, or opens with thanks and nothing else before them. */
function introducesOnly(sentence: string): boolean {
  const words = INTRODUCER_WORDS.exec(sentence);
  if (words === null) return false;
  const head = sentence
    .slice(0, words.index)
    .replace(/(?:[\p{Extended_Pictographic}\s,;–—]|\uFE0F|\u200D)+$/u, "")
    .trim();
  return head === "" || isSocialSentence(head) || isClosingThanks(head);
}

/** A sentence with its closing punctuation, for reading a paragraph sentence by sentence. */
const SENTENCE = /[^\n.!?]+[.!?]*/g;

/** Whether every sentence of a paragraph is social ("Thanks so much!", "Dear Assistant,"). */
function isSocialParagraph(paragraph: string): boolean {
  const sentences = paragraph.match(SENTENCE) ?? [];
  return paragraph.trim() !== "" && sentences.every((s) => s.trim() === "" || isSocialSentence(s.trim()));
}

/** At most this many closing paragraphs are read back from the end: "Thanks in advance.\n\nKind regards,\nPeter". */
const MAX_CLOSING_PARAGRAPHS = 3;

/**
 * Where a handed-over text that runs to the end of the message ends: before last paragraphs that are
 * nothing but social sentences ("\n\nThanks so much!"), which are the user's closing, not the text's, and
 * before social sentences after the closing quotation mark of a quoted text (closingAfterQuotation). A
 * paragraph with a name or anything else in it stays with the text (a pasted letter's sign-off), except,
 * with `signed`, the sender's closing with a name (signedClosingStart; see findDataSpans for when it is the user's).
 */
function dataEnd(text: string, signed: boolean): number {
  const closing = signed ? signedClosingStart(text) : -1;
  let end = closing > 0 ? closing : text.length;
  for (let k = 0; k < MAX_CLOSING_PARAGRAPHS; k++) {
    const blank = text.lastIndexOf("\n\n", end - 1);
    if (blank < 0) break;
    const paragraph = text.slice(blank + 2, end);
    if (paragraph.trim() !== "" && !isSocialParagraph(paragraph)) break;
    end = blank;
  }
  // A quoted text closed on the last line, with the user's closing after it: '... your team." Thanks a lot!'.
  const quoted = closingAfterQuotation(end === text.length ? text : text.slice(0, end));
  return quoted > 0 ? text.slice(0, quoted).trimEnd().length : end;
}

/** A text that opens as a letter does: "Dear Madame Dubois,", "Hi all,", "Hello, I ordered ...". */
const SALUTATION = /^\s*(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|greetings|to whom)\b/i;

/**
 * Where the social paragraphs that open the message end (0 when it opens with none): "Dear Assistant,\n\nI
 * hope this email finds you well.\n\n" above a request is the user's letter, not text handed over.
 */
function socialOpeningEnd(text: string, before: number): number {
  let end = 0;
  for (const m of text.slice(0, before).matchAll(/\n[ \t]*\n\s*/g)) {
    if (!isSocialParagraph(text.slice(end, m.index))) break;
    end = m.index + m[0].length;
  }
  return end;
}

/**
 * The last text read and its spans: one request reads the prompt for its guard (protectedSpans) and
 * again for the quality score of each compression tried (request-features.ts), the same string for a
 * one-message prompt. Copies are handed out: protectedSpans grows the spans it is given in place.
 */
let last: { text: string; spans: readonly Span[] } | undefined;

/** The data spans of one message's text, unsorted and possibly overlapping (protectedSpans merges them). */
export function dataSpans(text: string): Span[] {
  if (last?.text !== text) last = { text, spans: findDataSpans(text) };
  return last.spans.map(({ start, end }) => ({ start, end }));
}

function findDataSpans(text: string): Span[] {
  const spans: Span[] = [];
  const closing = dataEnd(text, false);
  // A message that opens as a letter to the assistant ("Dear Assistant,", "Hello,") is signed by its
  // sender: a last paragraph "Kind regards,\nPeter" after the text handed over is the sender's, unless the
  // text opens as a letter too and has no sign-off of its own (then the signature may be the text's). The
  // polite emails of bench/data/chatty-dev-9.json (dev split) kept 7 such closings with the text.
  const opensAsLetter = text.includes("\n\n") && isSocialSentence(text.slice(0, text.search(/[\n.!?]|$/) + 1).trim());
  const signedClosing = opensAsLetter ? dataEnd(text, true) : closing;
  const closingOf = (start: number) => {
    if (signedClosing === closing || !SALUTATION.test(text.slice(start, start + 40))) return signedClosing;
    const body = text.slice(start, signedClosing).trimEnd();
    return signedTailStart(body) >= 0 || isSignedName(body.slice(body.lastIndexOf("\n") + 1).trim()) ? signedClosing : closing;
  };
  // A text that is nothing but the social paragraph is the text: "Proofread this:\n\nI hope you are well."
  const endOf = (start: number) => {
    const end = closingOf(start);
    return start < end && text.slice(start, end).trim() !== "" ? end : text.length;
  };
  if (text.includes(":")) {
    // The first introducer hands over the rest: later ones are inside the data.
    INTRODUCER.lastIndex = 0;
    const block = INTRODUCER.exec(text);
    if (block) spans.push({ start: block.index + block[0].length, end: endOf(block.index + block[0].length) });
    const inline = inlineIntroducerEnd(text);
    if (inline >= 0) spans.push({ start: inline, end: endOf(inline) });
    matchSpans(text, LABELLED_LINE, spans);
    if (text.includes("\n")) speakerLines(text, spans);
  }
  if (text.includes("\n")) {
    const after = lineBreakIntroducerEnd(text);
    if (after >= 0) spans.push({ start: after, end: endOf(after) });
  }
  if (text.includes("|")) matchSpans(text, TABLE_ROW, spans);
  if (text.includes(">")) matchSpans(text, QUOTE_BLOCK, spans);
  const task = surfaceTaskEnd(text);
  if (task >= 0) {
    const paragraph = paragraphStart(text, task);
    // The paragraphs before the task's are the text it refers to, but for social ones opening the message
    // when the text is handed over after the task ("Hello,\n\nI hope you are well.\n\nCould you proofread
    // the following:\n\n..."): those are the user's letter (bench/data/chatty-dev-9.json, dev split).
    const handedAfter = spans.some((s) => s.start > paragraph);
    const from = handedAfter && paragraph > 0 ? socialOpeningEnd(text, paragraph) : 0;
    if (paragraph > from) spans.push({ start: from, end: paragraph });
    spans.push(...withoutThanksBeforeHandover(text, task, endOf(task)));
  }
  // Marks first: most prompts have no *, _ or #, and the word test reads the whole text.
  if ((text.includes("*") || text.includes("_") || text.includes("#")) && FORMAT_TALK.test(text)) matchSpans(text, FORMAT_MARKS, spans);
  return spans;
}
