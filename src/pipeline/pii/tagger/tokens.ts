/** What lies between two tokens: decides features and whether neighbours may form one span. */
export enum Gap {
  Start = 0,
  Space = 1,
  Newline = 2,
  Comma = 3,
  Stop = 4,
  Other = 5,
}

/**
 * A word or number of a text, with what separates it from the one before. Its spelling is sliced
 * from the text on first use: in ordinary prose most words are only skipped (slicing every word was
 * a tenth of the tagger's time).
 */
export class Token {
  /** Filled on first use by the features (most tokens of ordinary prose never need them). */
  lower: string | undefined = undefined;
  code: number | undefined = undefined;
  hash: number | undefined = undefined;
  info: WordInfo | undefined = undefined;
  private spelled: string | undefined = undefined;

  constructor(
    /** The whole text the token is part of. */
    readonly source: string,
    readonly start: number,
    readonly end: number,
    readonly gap: Gap,
    /** Only ASCII letters and apostrophes: a word the lexicon's folded ASCII table can spell. */
    readonly plain: boolean,
    /** Only ASCII characters: lower-cased by folding A-Z alone, so its length stays. */
    readonly ascii: boolean,
    /** The character codes right before and right after the token (0 at the text's ends). */
    readonly before: number,
    readonly after: number,
  ) {}

  get text(): string {
    return (this.spelled ??= this.source.slice(this.start, this.end));
  }

  /** The code of its first character. */
  get first(): number {
    return this.source.charCodeAt(this.start);
  }
}

/** Per-word values the features combine; computed once per scored word and its neighbours. */
export interface WordInfo {
  word: number;
  shape: number;
  /** Case class (0 unseen, 1-4 l/u/s/x) times 2, plus 1 if the word is a known name. */
  cls: number;
  /** Case class with its frequency bucket. */
  clsFull: number;
  /** Gazetteer flags: 1 a country's word, 2 a company's. */
  flags: number;
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
    // Whether the word is plain is decided in the same scan (a second pass over its letters was 4% of the tagger's time).
    let plain = true;
    let ascii = true;
    for (;;) {
      while (i < n) {
        const c = text.charCodeAt(i);
        if (c < 128) {
          const l = c | 0x20;
          if (l >= 97 && l <= 122) i++;
          else if (c >= 48 && c <= 57) {
            plain = false;
            i++;
          } else break;
        } else if (NON_ASCII_WORD.test(text[i]!)) {
          plain = false;
          ascii = false;
          i++;
        } else break;
      }
      const c = text.charCodeAt(i);
      if (c === 45) plain = false;
      // An inner apostrophe or hyphen joins two runs of letters or digits.
      if (i + 1 < n && (c === 39 || c === 0x2019 || c === 45) && isWordChar(text, i + 1)) {
        if (c === 0x2019) plain = ascii = false;
        i++;
      } else break;
    }
    tokens.push(new Token(text, start, i, gap, plain, ascii, start > 0 ? text.charCodeAt(start - 1) : 0, i < n ? text.charCodeAt(i) : 0));
    gap = Gap.Space;
  }
  return tokens;
}
