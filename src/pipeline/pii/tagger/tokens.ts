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
 * A word or number of a text, with what separates it from the one before: made on first use by
 * Tokens.at (most words of ordinary prose are only skipped). Its spelling is sliced from the text on
 * first use too (slicing every word was a tenth of the tagger's time).
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
  ) {}

  get text(): string {
    return (this.spelled ??= this.source.slice(this.start, this.end));
  }

  /** The code of its first character. */
  get first(): number {
    return this.source.charCodeAt(this.start);
  }

  /** The character codes right before and right after the token (0 at the text's ends). */
  get before(): number {
    return this.start > 0 ? this.source.charCodeAt(this.start - 1) : 0;
  }

  get after(): number {
    return this.end < this.source.length ? this.source.charCodeAt(this.end) : 0;
  }
}

const PLAIN = 1;
const ASCII = 2;

/**
 * The tokens of a text, as offsets in typed arrays: a Token object is made only for the words the
 * tagger reads (a capitalised word or a number and its neighbours). Making one for every word was a
 * third of the tagger's time on ordinary prose, most of it for lower-case words it only skips.
 */
export class Tokens {
  readonly length: number;
  private readonly made: (Token | undefined)[];

  constructor(
    readonly source: string,
    length: number,
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    private readonly gaps: Uint8Array,
    private readonly kinds: Uint8Array,
  ) {
    this.length = length;
    this.made = new Array(length);
  }

  at(i: number): Token {
    return (this.made[i] ??= new Token(
      this.source,
      this.starts[i]!,
      this.ends[i]!,
      this.gaps[i]!,
      (this.kinds[i]! & PLAIN) !== 0,
      (this.kinds[i]! & ASCII) !== 0,
    ));
  }

  gap(i: number): Gap {
    return this.gaps[i]!;
  }

  /** The code of token i's first character. */
  first(i: number): number {
    return this.source.charCodeAt(this.starts[i]!);
  }

  *[Symbol.iterator](): IterableIterator<Token> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
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
export function tokenize(text: string): Tokens {
  const n = text.length;
  // A word takes at least one character and a gap: no text has more than n/2 + 1 tokens.
  const room = (n >> 1) + 1;
  const starts = new Int32Array(room);
  const ends = new Int32Array(room);
  const gaps = new Uint8Array(room);
  const kinds = new Uint8Array(room);
  let count = 0;
  let gap = Gap.Start;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    // ASCII tested in line: a call per space and punctuation mark was a tenth of the tokenizer's time.
    if (c < 128 ? !((c >= 48 && c <= 57) || ((c | 0x20) >= 97 && (c | 0x20) <= 122)) : !NON_ASCII_WORD.test(text[i]!)) {
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
    starts[count] = start;
    ends[count] = i;
    gaps[count] = gap;
    kinds[count] = (plain ? PLAIN : 0) | (ascii ? ASCII : 0);
    count++;
    gap = Gap.Space;
  }
  return new Tokens(text, count, starts, ends, gaps, kinds);
}
