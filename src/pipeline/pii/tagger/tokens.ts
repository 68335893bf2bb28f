/** A word or number of a text, with what separates it from the one before. */
export interface Token {
  text: string;
  lower: string;
  start: number;
  end: number;
  /** The characters between the previous token (or the text's start) and this one, classified. */
  gap: Gap;
  /** The character right before the token and right after it ("" at the text's ends). */
  before: string;
  after: string;
}

/** What lies between two tokens: decides features and whether neighbours may form one span. */
export type Gap = "start" | "space" | "newline" | "comma" | "stop" | "other";

// Letters (any script, with combining marks) and digits, joined by an inner apostrophe or hyphen
// ("O'Neil", "Jean-Luc", "22-B"); punctuation and spaces are only gaps.
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’\-][\p{L}\p{M}\p{N}]+)*/gu;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    tokens.push({
      text: m[0],
      lower: m[0].toLowerCase(),
      start,
      end,
      gap: classifyGap(text, last, start, tokens.length === 0),
      before: start > 0 ? text[start - 1]! : "",
      after: end < text.length ? text[end]! : "",
    });
    last = end;
  }
  return tokens;
}

function classifyGap(text: string, from: number, to: number, first: boolean): Gap {
  if (first && from === to) return "start";
  let gap: Gap = first ? "start" : "space";
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return "newline";
    if (c === 46 || c === 33 || c === 63 || c === 58 || c === 59) gap = "stop"; // . ! ? : ;
    else if (c === 44 && gap !== "stop") gap = "comma";
    else if (c !== 32 && c !== 9 && gap === "space") gap = "other";
  }
  return gap;
}
