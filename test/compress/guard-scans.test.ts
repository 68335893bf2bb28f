import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { eachMatch } from "../../src/text/each-match";
import { CODE_LINE, codeLineSpans, IDENTIFIER, identifierSpans } from "../../src/pipeline/compress/protect/spans";

/** The spans a global exec loop finds for `pattern`. */
function byPattern(text: string, pattern: RegExp) {
  const spans: { start: number; end: number }[] = [];
  eachMatch(text, pattern, (m) => void spans.push({ start: m.index, end: m.index + m[0].length }));
  return spans;
}

describe("guards that run their pattern only where a match can open", () => {
  test("identifierSpans finds IDENTIFIER's matches", () => {
    const unit = fc.constantFrom("a", "b", "Z", "Q", "1", "_", "-", ".", "@", "#", "$", " ", "\n", "é", "ſ", "\u212A", "😀", "'", ",");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 24 }), (t) => {
        expect(identifierSpans(t)).toEqual(byPattern(t, IDENTIFIER));
      }),
      { numRuns: 20000 },
    );
  });

  test("codeLineSpans finds CODE_LINE's matches", () => {
    const unit = fc.constantFrom(
      "def",
      "class",
      "from x import",
      "fn",
      "SELECT",
      "CREATE TABLE",
      "#include",
      "d",
      "x",
      "é",
      ";",
      "{",
      "}",
      "[",
      "]",
      ",",
      " ",
      "\t",
      "\n",
      "\n",
      "\r",
      "\u2028",
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 16 }), (t) => {
        expect(codeLineSpans(t)).toEqual(byPattern(t, CODE_LINE));
      }),
      { numRuns: 20000 },
    );
  });
});
