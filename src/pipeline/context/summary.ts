/**
 * The extractive summary that stands for a conversation's older turns: no provider call, no model,
 * deterministic. From each summarized turn it keeps the sentences a later turn is most likely to lean
 * on: those naming someone or something (a capitalised word inside the sentence), carrying a number,
 * stating a decision or plan, or asking a real question (an open question; "How are you?" is not one). Sentences are copied,
 * never rewritten, so no fact is invented; a turn with none of these (small talk) leaves no line.
 */

/** One summarized turn: its role and its original text. */
export interface SummaryTurn {
  role: string;
  content: string;
}

// Tuned on topical-chat valid_freq (bun bench/conversation.ts reports on valid_rare): two sentences a
// turn and any name made the summary 65% of the turns it replaced; one sentence scoring 2 or more, 36%.
const MAX_SENTENCES_PER_TURN = 1;
const MIN_SALIENCE = 2;
const MAX_SENTENCE_CHARS = 160;
/** Shorter questions are small talk ("How are you doing?"), not open questions. */
const MIN_QUESTION_WORDS = 6;
/** A sentence whose content words were this share or more in the summary already adds nothing (an answer echoing its question). */
const REDUNDANT_SHARE = 0.7;

const DECISION =
  /\b(?:decided|decide to|agreed|will|won't|going to|plan to|planned|let's|chose|choose|chosen|must|need to|should|confirm\w*|deadline|settled on|instead)\b/i;
const NUMBER = /\d/;
// A capitalised word after the first of a sentence: a name, a place, a product ("I" and "I'm" aside).
const NAME = /\s(?!I\b|I'[a-z]+\b)[A-Z][\p{L}\p{N}'-]*/u;

function sentencesOf(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?])\s+(?=[^a-z])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function salience(s: string): number {
  let score = 0;
  if (s.endsWith("?") && s.split(" ").length >= MIN_QUESTION_WORDS) score += 3;
  if (NUMBER.test(s)) score += 2;
  if (DECISION.test(s)) score += 2;
  if (NAME.test(s)) score += 1;
  return score;
}

function clip(s: string): string {
  return s.length <= MAX_SENTENCE_CHARS ? s : s.slice(0, MAX_SENTENCE_CHARS - 1).trimEnd() + "…";
}

const contentWords = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? [];

/** The lines for `turns` (numbered from `firstTurn`, 1-based): appended to the summary, never rewritten. */
export function summaryLines(turns: readonly SummaryTurn[], firstTurn: number): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  const novel = (s: string) => {
    const words = contentWords(s);
    const old = words.filter((w) => seen.has(w)).length;
    return words.length > 0 && old / words.length < REDUNDANT_SHARE;
  };
  turns.forEach((t, i) => {
    const picked = sentencesOf(t.content)
      .map((s, at) => ({ s, at, score: salience(s) }))
      .filter((x) => x.score >= MIN_SALIENCE && novel(x.s))
      .sort((a, b) => b.score - a.score || a.at - b.at)
      .slice(0, MAX_SENTENCES_PER_TURN)
      .sort((a, b) => a.at - b.at);
    if (picked.length === 0) return;
    for (const p of picked) for (const w of contentWords(p.s)) seen.add(w);
    lines.push(`[${firstTurn + i}] ${t.role}: ${picked.map((p) => clip(p.s)).join(" ")}`);
  });
  return lines;
}

export const SUMMARY_HEADER = "Summary of the earlier part of this conversation (extracted sentences, turn numbers in brackets):";
/** When a model wrote the first line (model-summary.ts): what the lines are differs, so the header says so. */
export const MODEL_SUMMARY_HEADER = "Summary of the earlier part of this conversation (turn numbers in brackets):";
/** What tells a model's line ("[3-10] summary: ...") from an extractive one ("[3] user: ..."). */
export const MODEL_LINE_MARK = "summary: ";
const MODEL_LINE = new RegExp(`^\\[\\d+-\\d+\\] ${MODEL_LINE_MARK}`);

/** The summary message's text: the header and every line so far, or "" when nothing was worth keeping. */
export function summaryText(lines: readonly string[]): string {
  if (lines.length === 0) return "";
  return `${MODEL_LINE.test(lines[0]!) ? MODEL_SUMMARY_HEADER : SUMMARY_HEADER}\n${lines.join("\n")}`;
}
