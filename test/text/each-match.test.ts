import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { eachMatch } from "../../src/text/each-match";

const collect = (text: string, pattern: RegExp) => {
  const out: [number, string][] = [];
  eachMatch(text, pattern, (m) => out.push([m.index, m[0]]));
  return out;
};
const viaMatchAll = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m): [number, string] => [m.index, m[0]]);

describe("eachMatch", () => {
  // Patterns that can match empty, across surrogate pairs, with lookbehind: where an exec loop goes wrong.
  const patterns = [/a*/g, /(?:)/gu, /\p{L}*/gu, /(?<=a)b?/g, /\S+/g, /x|/giu, /[😀]?/gu];
  const text = fc.string({ unit: fc.constantFrom("a", "b", "x", "X", " ", "😀", "\ud800", "\udc00", "é"), maxLength: 12 });

  test("visits the matches matchAll gives, empty ones and astral characters included", () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...patterns), (t, p) => {
        expect(collect(t, p)).toEqual(viaMatchAll(t, p));
      }),
      { numRuns: 3000 },
    );
  });

  test("starts from the beginning whatever a previous use left in lastIndex", () => {
    const p = /b/g;
    p.lastIndex = 5;
    expect(collect("abcab", p)).toEqual([
      [1, "b"],
      [4, "b"],
    ]);
  });

  test("refuses a pattern without the g flag instead of looping on its first match", () => {
    expect(() => eachMatch("aaa", /a/, () => {})).toThrow(TypeError);
  });
});
