import type { ChatMessage } from "../../core/messages";
import type { PassThroughParams } from "../../providers/types";
import { countMessageTokens } from "../../tokens/count";
import { techShare } from "../../ml/text-features";
import { hardnessOf, HARDNESS_SAMPLE_CHARS, type Hardness } from "../../text/hardness";

/** Writing system of the prompt: a cheap stand-in for its language that needs no model. */
export type Script = "latin" | "cyrillic" | "greek" | "arabic" | "hebrew" | "devanagari" | "cjk" | "hangul" | "thai" | "other" | "none";

/** What routing can tell from the request itself, without the classifier. */
export interface PromptSignals {
  /** o200k tokens of all messages with chat framing: what must fit in a model's context window. */
  promptTokens: number;
  /** Completion tokens the client allows (`max_tokens`); they share the context window with the prompt. */
  maxCompletionTokens: number;
  /** Messages from the user: 1 for a single question, more for a conversation. */
  userTurns: number;
  /** Fenced code blocks (``` or ~~~) across all messages. */
  codeFences: number;
  /** Dominant writing system of the user's text. */
  script: Script;
  /** Tools were offered, or the history holds tool calls or results: only tool-capable models can serve. */
  needsTools: boolean;
  /** `response_format` asks for JSON (`json_object` or `json_schema`): only models with the "json" feature can serve. */
  needsJson: boolean;
  /** `response_format` is `json_schema`: only models with the "json_schema" feature can serve. */
  needsJsonSchema: boolean;
  /** A message holds an image part: only models with the "vision" feature can serve. */
  needsVision: boolean;
  /** What makes the prompt hard whatever its class (src/text/hardness.ts), from the user's text. */
  hardness: Readonly<Hardness>;
  /**
   * The user's text asks the assistant about itself the way small talk does ("have you ever...", "how's
   * your day", "what's your favourite..."): a long prompt with it is conversation, not a hard question
   * (capabilities.json `long_question.spare_small_talk`). Computed when read.
   */
  readonly smallTalk: boolean;
  /**
   * The user's text has PASTED_CODE_LINES lines that read as source code outside any fence (an `#include`,
   * `import`, `def`, a line ending in ";" or "{", an assignment...): code pasted without backticks.
   * Computed when read.
   */
  readonly pastedCode: boolean;
  /**
   * Share of the user's words that are software or system-administration terms, times 5, at most 1 (the
   * classifier's `tech_share` feature, src/ml/text-features.ts). Computed when read.
   */
  readonly softwareShare: number;
  /** The user's text asks for an estimate to be worked out (ESTIMATION). Computed when read. */
  readonly estimation: boolean;
}

/** The parts of a completion request the signals are computed from. */
export interface SignalSource {
  messages: readonly ChatMessage[];
  /** Defaults to 1000, as the interface specifies. */
  max_tokens?: number;
  params?: Pick<PassThroughParams, "tools" | "tool_choice" | "response_format">;
}

export const DEFAULT_MAX_TOKENS = 1000;

/** Only the start of a long prompt is read for its script: enough to tell, and keeps the cost flat. */
const SCRIPT_SAMPLE_CHARS = 4000;
const FENCE_LINE = /^[ \t]*(?:```|~~~)/gm;
// Questions about the assistant's own life, which only small talk asks. Issue 26's twelfth round: of the
// ~12,000 labelled rows, writers' files and dev sets, it matches 68 chat rows and no code, math or
// reasoning row; broader forms ("what's the best...", "what's your best guess", "if you could only keep",
// "would you rather... think it through", "do you have any idea") matched 18 code and reasoning rows.
// Code pasted without a fence: issue 26's fifteenth round, for long requests with bare code that a model
// trained on more written chat took for chat (arena-hard left out: 70 -> 90 of 500 code, math and reasoning
// prompts on the cheapest tier; with PASTED_CODE_LINES such lines counted as a fence, 76; with the start
// model 70 -> 64). Of every labelled row and written dev set without a fence, 3 or more such lines are in 71
// code and 18 math prompts of arena-hard, 10 of humaneval, 8 written code prompts and 1 extract prompt, and
// in no faq or chat prompt but 11 of awesome-chatgpt-prompts' role-play set-ups. A line that opens with a
// quote or a list mark is not counted even when it ends in "{" or ";" (JSON image prompts, lists: 184 of
// those set-ups had 3 such lines). A line is read when it is at most CODE_LINE_CHARS long (a paragraph of
// prose is not code), and the count stops at PASTED_CODE_LINES: one pattern over a whole 8,000-character
// prompt took up to 4 ms on the longest unfenced prompts, this 8-13 µs p50, 32-42 µs p99 on the 200 longest.
const CODE_LINE =
  /^[ \t]*(?:#include\b|#define\b|#!|import[ \t]+[\w.{*"']|from[ \t]+[\w.]+[ \t]+import\b|package[ \t]+[\w.]+|def[ \t]+\w+[ \t]*\(|class[ \t]+\w+|(?:public|private|protected|static|async|export)[ \t]+\w|function\b|(?:const|let|var)[ \t]+\w+[ \t]*=|return\b|(?:if|for|while|switch)[ \t]*\(|\.\w+[ \t]|\w+(?:\.\w+)*[ \t]*\(.*\)[ \t]*;?[ \t]*$|\w+[ \t]*=[ \t]*\S|[\w$})].*[;{][ \t]*$)/;
const CODE_LINE_CHARS = 200;
const PASTED_CODE_LINES = 3;

/** Whether `text` has PASTED_CODE_LINES lines that read as code (CODE_LINE). */
function hasPastedCode(text: string): boolean {
  let found = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    if (end - start <= CODE_LINE_CHARS && CODE_LINE.test(text.slice(start, text.charCodeAt(end - 1) === 13 ? end - 1 : end)) && ++found >= PASTED_CODE_LINES)
      return true;
    start = end + 1;
  }
  return false;
}

// An estimate to work out, not a fact to recall: "estimate how many...", "Fermi", "back of the envelope",
// "ballpark". "roughly" alone is left out: "roughly how far is Saturn from the sun" asks for a known figure.
const ESTIMATION =
  /\b(?:(?:estimate|guesstimate)\b[^.?!\n]{0,40}\bhow (?:many|much|long|far|big)|fermi|back[- ]of[- ](?:the[- ])?envelope|ballpark|order[- ]of[- ]magnitude)\b/i;
const SMALL_TALK =
  /\b(?:have you ever|do you (?:have a favou?rite|follow|like)|what'?s your (?:favou?rite|ideal)|how(?:'s| is| was) your (?:day|week|weekend|morning|evening|night)|tell me (?:about )?your|aren'?t we)\b/i;

/**
 * `promptTokens` may be passed when the pipeline has already counted the messages (the compression
 * stage does), so that a long prompt is tokenized once per request.
 */
export function promptSignals(req: SignalSource, promptTokens?: number): PromptSignals {
  let fenceLines = 0;
  let userTurns = 0;
  let toolHistory = false;
  let images = false;
  let userText = "";
  for (const m of req.messages) {
    if (m.parts?.some((p) => p.type === "image_url")) images = true;
    // A fence line holds ``` or ~~~: a prompt without either (most) skips the line-by-line regex (2.5 µs on a ~300-token prompt).
    if (m.content.includes("```") || m.content.includes("~~~")) fenceLines += countMatches(m.content, FENCE_LINE);
    if (m.role === "tool" || (m.tool_calls !== undefined && m.tool_calls.length > 0)) toolHistory = true;
    if (m.role === "user") {
      userTurns++;
      if (userText.length < HARDNESS_SAMPLE_CHARS) userText += (userText ? "\n" : "") + m.content.slice(0, HARDNESS_SAMPLE_CHARS - userText.length);
    }
  }
  const p = req.params ?? {};
  const toolsOffered = Array.isArray(p.tools) && p.tools.length > 0 && p.tool_choice !== "none";
  const format = p.response_format?.type;
  return {
    promptTokens: promptTokens ?? countMessageTokens(req.messages),
    maxCompletionTokens: req.max_tokens ?? DEFAULT_MAX_TOKENS,
    userTurns,
    // An unclosed fence still opens a code block.
    codeFences: Math.ceil(fenceLines / 2),
    script: dominantScript(userText.slice(0, SCRIPT_SAMPLE_CHARS)),
    needsTools: toolsOffered || toolHistory,
    needsJson: format === "json_object" || format === "json_schema",
    needsJsonSchema: format === "json_schema",
    needsVision: images,
    hardness: hardnessOf(userText),
    // Read only when long_question would lift the prompt: the pattern costs 1-2 µs a prompt (hold-out
    // prompts, loaded machine), a fifth of promptSignals' p50, and almost no request needs it.
    get smallTalk() {
      return SMALL_TALK.test(userText);
    },
    // Read only for a prompt taken for a class that fenced code turns into code, when it has no fence.
    get pastedCode() {
      return hasPastedCode(userText);
    },
    // Both read only for a prompt that would stay on the cheapest tier after every other rule.
    get softwareShare() {
      return techShare(userText);
    },
    get estimation() {
      return ESTIMATION.test(userText);
    },
  };
}

function countMatches(text: string, re: RegExp): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text) !== null) n++;
  return n;
}

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_LETTER = /[A-Za-z]/;

/** A Han character or Hangul syllable carries about what three alphabetic letters do. */
const SYLLABIC_WEIGHT = 3;

/** The scripts scriptOf tells apart, by index; NO_SCRIPT marks a character that says nothing. */
const SCRIPTS: readonly Script[] = ["latin", "greek", "cyrillic", "hebrew", "arabic", "devanagari", "thai", "hangul", "cjk", "other"];
const [LATIN, GREEK, CYRILLIC, HEBREW, ARABIC, DEVANAGARI, THAI, HANGUL, CJK, OTHER] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
const NO_SCRIPT = -1;

/**
 * Letters counted by Unicode block; code-unit ranges keep this to a few ns per character. Counted in a
 * typed array by script index, not a Map keyed by name: a Map update per letter was 1.2% of the
 * optimizer's samples (bun --cpu-prof, fresh ~300-token prompts, every stage on). Ties go to the script
 * seen first, as the Map's insertion order gave them.
 */
export function dominantScript(text: string): Script {
  // A text all ASCII, most prompts, can hold no letter but a Latin one: two native scans decide it,
  // where the loop below took 8.6-17 µs on a ~300-token workload prompt (3,000 prompts, load 3-5), the
  // two scans about 1. 83% of the workload's prompts are all ASCII.
  if (!NON_ASCII.test(text)) return ASCII_LETTER.test(text) ? "latin" : "none";
  const counts = new Int32Array(SCRIPTS.length);
  const firstSeen: number[] = [];
  // ASCII letters, most of most prompts, are counted apart and added at the end: the general step per
  // character took 11.6 µs on a ~300-token workload prompt (3,000 prompts, load 10).
  let asciiLetters = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) {
        if (asciiLetters === 0 && counts[LATIN] === 0) firstSeen.push(LATIN);
        asciiLetters++;
      }
      continue;
    }
    const s = scriptOf(c);
    if (s === NO_SCRIPT) continue;
    if (counts[s] === 0 && (s !== LATIN || asciiLetters === 0)) firstSeen.push(s);
    counts[s]! += s === CJK || s === HANGUL ? SYLLABIC_WEIGHT : 1;
  }
  counts[LATIN]! += asciiLetters;
  let best: Script = "none";
  let bestN = 0;
  for (const s of firstSeen) {
    if (counts[s]! > bestN) {
      best = SCRIPTS[s]!;
      bestN = counts[s]!;
    }
  }
  return best;
}

/** The index in SCRIPTS of the script a UTF-16 code unit belongs to, or NO_SCRIPT. */
function scriptOf(c: number): number {
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) return LATIN;
  if (c < 0xc0) return NO_SCRIPT;
  if (c <= 0x24f) return c === 0xd7 || c === 0xf7 ? NO_SCRIPT : LATIN;
  if (c >= 0x370 && c <= 0x3ff) return GREEK;
  if (c >= 0x400 && c <= 0x52f) return CYRILLIC;
  if (c >= 0x590 && c <= 0x5ff) return HEBREW;
  if ((c >= 0x600 && c <= 0x6ff) || (c >= 0x750 && c <= 0x77f)) return ARABIC;
  if (c >= 0x900 && c <= 0x97f) return DEVANAGARI;
  if (c >= 0xe00 && c <= 0xe7f) return THAI;
  if ((c >= 0x1100 && c <= 0x11ff) || (c >= 0xac00 && c <= 0xd7af)) return HANGUL;
  if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)) return CJK;
  if (c >= 0x1e00 && c <= 0x1eff) return LATIN;
  // Surrogates, punctuation, symbols and emoji say nothing about the language.
  if ((c >= 0x2000 && c <= 0x2bff) || (c >= 0xd800 && c <= 0xdfff) || (c >= 0x3000 && c <= 0x303f) || c >= 0xfe00) return NO_SCRIPT;
  return OTHER;
}
