/** What lies between two tokens: decides features and whether neighbours may form one span. */
export enum Gap {
  Start = 0,
  Space = 1,
  Newline = 2,
  Comma = 3,
  Stop = 4,
  Other = 5,
}

/** A word or number of a text, with what separates it from the one before. */
export interface Token {
  text: string;
  start: number;
  end: number;
  gap: Gap;
  /** The character codes right before and right after the token (0 at the text's ends). */
  before: number;
  after: number;
  /** Filled on first use by the features (most tokens of ordinary prose never need them). */
  /** Only ASCII letters and apostrophes: a word the lexicon's folded ASCII table can spell. */
  plain: boolean;
  lower?: string;
  code?: number;
  info?: WordInfo;
}

/** Per-word values the features combine; computed once per scored word and its neighbours. */
export interface WordInfo {
  word: number;
  shape: number;
  /** Case class (0 unseen, 1-4 l/u/s/x) times 2, plus 1 if the word is a known name. */
  cls: number;
  /** Case class with its frequency bucket. */
  clsFull: number;
  suffix3: number;
  suffix2: number;
}

const NON_ASCII_WORD = /[\p{L}\p{M}\p{N}]/u;

function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return NON_ASCII_WORD.test(text[i]!);
}

/**
 * Words: letters (any script, with combining marks) and digits, joined by an inner apostrophe or
 * hyphen ("O'Neil", "Jean-Luc", "22-B"); punctuation and spaces are only gaps. A character loop, not
 * a /\p{L}+/u regex: the regex took 0.5-1 µs a word, most of what the tagger then cost.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let gap = Gap.Start;
  let plain = true;
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (!isWordChar(text, i)) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) gap = Gap.Newline;
      else if (gap !== Gap.Newline) {
        if (c === 46 || c === 33 || c === 63 || c === 58 || c === 59)
          gap = Gap.Stop; // . ! ? : ;
        else if (c === 44 && gap !== Gap.Stop) gap = Gap.Comma;
        else if (c !== 32 && c !== 9 && gap === Gap.Space) gap = Gap.Other;
      }
      i++;
      continue;
    }
    const start = i;
    i++;
    for (;;) {
      while (i < n && isWordChar(text, i)) i++;
      const c = text.charCodeAt(i);
      if (c === 45) plain = false;
      // An inner apostrophe or hyphen joins two runs of letters or digits.
      if (i + 1 < n && (c === 39 || c === 0x2019 || c === 45) && isWordChar(text, i + 1)) i += 2;
      else break;
    }
    for (let j = start; j < i && plain; j++) {
      const c = text.charCodeAt(j) | 0x20;
      if (!(c >= 97 && c <= 122) && c !== 39) plain = false;
    }
    tokens.push({
      text: text.slice(start, i),
      start,
      end: i,
      gap,
      plain,
      before: start > 0 ? text.charCodeAt(start - 1) : 0,
      after: i < n ? text.charCodeAt(i) : 0,
    });
    gap = Gap.Space;
    plain = true;
  }
  return tokens;
}
