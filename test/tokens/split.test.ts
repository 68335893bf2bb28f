import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { CL100K_SPLIT, O200K_SPLIT, UNDECIDED, classify, pieceEnd, type Splitter } from "../../src/tokens/split";
import { ascii, asciiHeavy, shaped } from "./arbitraries";
import { corpora, haveData } from "./corpora";

const FAMILIES = {
  o200k: { split: O200K_SPLIT, regex: O200K_TOKEN_SPLIT_REGEX },
  cl100k: { split: CL100K_SPLIT, regex: CL100K_TOKEN_SPLIT_REGEX },
} as const;

/** The library's own pieces: its global split regex, run over the whole text. */
const regexPieces = (text: string, regex: RegExp): string[] => Array.from(text.matchAll(regex), (m) => m[0]);

/** Our pieces, and how many of them the scanner left to the regex. */
function ourPieces(text: string, split: Splitter): { pieces: string[]; deferred: number } {
  const classes = classify(text);
  const pieces: string[] = [];
  let deferred = 0;
  for (let p = 0; p < text.length; ) {
    if (split.scan(text, classes, p) === UNDECIDED) deferred++;
    const q = pieceEnd(split, text, classes, p);
    pieces.push(text.slice(p, q));
    p = q;
  }
  return { pieces, deferred };
}

function expectSamePieces(text: string): void {
  for (const { split, regex } of Object.values(FAMILIES)) expect(ourPieces(text, split).pieces).toEqual(regexPieces(text, regex));
}

describe("pre-tokenizer split", () => {
  test("ASCII-heavy text with the non-ASCII characters that could fool the scanner: the regex's pieces", () => {
    fc.assert(fc.property(asciiHeavy, expectSamePieces), { numRuns: 5000 });
  });

  test("words, contractions, digit runs and whitespace runs before words, breaks and the end: the regex's pieces", () => {
    fc.assert(fc.property(shaped, expectSamePieces), { numRuns: 5000 });
  });

  test("ASCII text is split by the scanner alone, never by the regex", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          ascii,
          shaped.filter((t) => /^[\x00-\x7f]*$/.test(t)),
        ),
        (t) => {
          for (const { split, regex } of Object.values(FAMILIES)) {
            const ours = ourPieces(t, split);
            expect(ours.pieces).toEqual(regexPieces(t, regex));
            expect(ours.deferred).toBe(0);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  test("edges: contractions, digit groups, whitespace before words, breaks, symbols and the end", () => {
    const cases = [
      "don't DON'T they're THEY'RE I've I'M we'll WE'LL he'd 'sup 'llama 'l ' 's'",
      "x'sy ’s it’s dog's'",
      "1 12 123 1234 12345678901 1²3 12٣ 123٣ ½",
      "a  b   c\t\td \n e \r\n f\n\n\ng  \n  h\u00a0i \u00a0j",
      "end   ",
      "end\n\n  ",
      "  \n",
      "...Hello ...\n//x .\n/y (foo) ,bar\n\n",
      "HTTPServer camelCase ABCdef XMLHttpRequest ǅemal éCOLE naïve e\u0301",
      "\x00\x1c\x1fabc\x7f",
      "",
      " ",
      "'",
      "\n",
    ];
    for (const t of cases) expectSamePieces(t);
  });

  test.skipIf(!haveData)("real prompts (../shared/data): the regex's pieces", () => {
    for (const texts of Object.values(corpora())) for (const t of texts) expectSamePieces(t);
  });
});
