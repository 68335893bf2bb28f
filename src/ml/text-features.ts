/**
 * Cheap surface features of a prompt that the embedding blurs: code fences and symbols, digits and
 * operators, length, question form, and the few instruction verbs that name a task outright. The task
 * classifier reads them next to the embedding; training and runtime share this function.
 */
export const TEXT_FEATURE_NAMES = [
  "code_fence",
  "code_keyword",
  "symbol_ratio",
  "digit_ratio",
  "math_operator_ratio",
  "log_chars",
  "log_lines",
  "question_mark",
  "question_opening",
  "translate_verb",
  "summarize_verb",
  "extract_verb",
  "roleplay_opening",
  "creative_noun",
  "reasoning_cue",
  "math_cue",
] as const;

export const TEXT_FEATURE_COUNT = TEXT_FEATURE_NAMES.length;

const CODE_KEYWORD = /\b(def|function|class|import|return|const|let|var|public|static|void|#include|SELECT|printf|console\.log|=>)\b|[{};]\s*$/m;
const QUESTION_OPENING = /^\s*(what|who|whom|whose|when|where|which|why|how|is|are|can|could|does|do|did|should|will|would)\b/i;
const TRANSLATE = /\btranslat(e|ion|ing)\b|\b(in|into|to) (french|german|spanish|italian|japanese|chinese|english|portuguese|russian|korean|arabic)\b/i;
const SUMMARIZE = /\bsummar(y|ize|ise|izing)\b|\btl;?dr\b|\bcondense\b|\bkey points\b/i;
const EXTRACT = /\bextract\b|\bpull out\b|\bparse\b|\b(list|identify|find) (all|every|the)\b.*\b(mentioned|from|in the)\b/i;
const ROLEPLAY = /\b(act as|i want you to act|you are a|pretend (to be|you are)|role-?play)\b/i;
const CREATIVE = /\b(poem|story|stories|lyrics|song|novel|haiku|essay|screenplay|blog post|slogan|fiction)\b/i;
const REASONING = /\b(step by step|explain why|riddle|puzzle|logic|deduce|what if|would happen|estimate how many|prove that)\b/i;
const MATH = /\b(solve|equation|integral|derivative|probability|how many|how much|calculate|sum of|percent|theorem)\b/i;

/** Share of characters in `text` that `isMember` accepts, by char code (a regex per character costs 10x more). */
function ratio(text: string, isMember: (c: number) => boolean): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) if (isMember(text.charCodeAt(i))) n++;
  return n / text.length;
}

const SYMBOLS = new Set("{}()[];=<>_|\\&$#@".split("").map((c) => c.charCodeAt(0)));
const OPERATORS = new Set("+-*/^=%".split("").map((c) => c.charCodeAt(0)));
const isSymbol = (c: number) => SYMBOLS.has(c);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isOperator = (c: number) => OPERATORS.has(c);

/** Features written into `out` (length TEXT_FEATURE_COUNT), each scaled to roughly 0..1. */
export function textFeatures(text: string, out: Float32Array = new Float32Array(TEXT_FEATURE_COUNT)): Float32Array {
  // Regex flags scan the whole text; ratios look at a bounded head, enough to tell code or math from prose.
  const head = text.length > 4000 ? text.slice(0, 4000) : text;
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  out[0] = text.includes("```") ? 1 : 0;
  out[1] = CODE_KEYWORD.test(head) ? 1 : 0;
  out[2] = Math.min(1, ratio(head, isSymbol) * 10);
  out[3] = Math.min(1, ratio(head, isDigit) * 10);
  out[4] = Math.min(1, ratio(head, isOperator) * 20);
  out[5] = Math.log1p(text.length) / 10;
  out[6] = Math.log1p(lines) / 5;
  out[7] = text.includes("?") ? 1 : 0;
  out[8] = QUESTION_OPENING.test(text) ? 1 : 0;
  out[9] = TRANSLATE.test(head) ? 1 : 0;
  out[10] = SUMMARIZE.test(head) ? 1 : 0;
  out[11] = EXTRACT.test(head) ? 1 : 0;
  out[12] = ROLEPLAY.test(head) ? 1 : 0;
  out[13] = CREATIVE.test(head) ? 1 : 0;
  out[14] = REASONING.test(head) ? 1 : 0;
  out[15] = MATH.test(head) ? 1 : 0;
  return out;
}
