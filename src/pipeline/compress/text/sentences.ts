/** A sentence of one line: its text (with closing punctuation) and the spaces after it, as offsets. */
export interface Sentence {
  start: number;
  /** End of the sentence text, before the spaces that follow it. */
  end: number;
  /** End including the trailing spaces (never a newline): removing [start, next) removes it cleanly. */
  next: number;
  /** True when the sentence is the whole of its line. */
  wholeLine: boolean;
}

/** Sentences never cross a line break: lines are structure (lists, verse, data) the prompt may rely on. */
const SENTENCE = /[^\n.!?]*(?:[.!?]+["'”’)\]]*|(?=\n)|$)[ \t]*/g;

export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let atLineStart = true;
  for (const m of text.matchAll(SENTENCE)) {
    if (m[0].length === 0) {
      atLineStart = true;
      continue;
    }
    const start = m.index;
    const next = start + m[0].length;
    const end = start + m[0].trimEnd().length;
    const wholeLine = atLineStart && (next === text.length || text[next] === "\n");
    atLineStart = false;
    if (end > start && m[0].trim() !== "") out.push({ start, end, next, wholeLine });
  }
  return out;
}

/** What two sentences are compared by: case, spacing and closing punctuation do not matter. */
export function sentenceKey(sentence: string): string {
  return sentence.toLowerCase().replace(/\s+/g, " ").replace(/[\s.!?]+$/, "").trim();
}
