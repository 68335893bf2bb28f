import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { FoldedWordTable } from "../../src/text/word-table";
import { forEachProseWord, wordRanges } from "../../src/pipeline/compress/text/words";

/** Units that sit on the scanners' edges: blanks of every kind, apostrophes, letters outside ASCII, surrogates. */
const unit = fc.constantFrom(
  "a",
  "Z",
  "é",
  "ß",
  "Ω",
  "中",
  "𝐓",
  "😀",
  "1",
  "_",
  "'",
  "’",
  "-",
  ".",
  " ",
  "\t",
  "\n",
  "\u00a0",
  "\u2003",
  "\u3000",
  "\ufeff",
  "\ud800",
  "\udc00",
  "\uE000",
);
const text = fc.string({ unit, maxLength: 40 });

const regexRanges = (t: string, re: RegExp) => [...t.matchAll(re)].flatMap((m) => [m.index, m.index + m[0].length]);

describe("word scanning by character codes", () => {
  test("wordRanges reads the words /\\S+/g reads, in any slice of the text", () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (t, a, b) => {
        const [from, to] = [Math.min(a, b) % (t.length + 1), Math.max(a, b) % (t.length + 1)].sort((x, y) => x - y) as [number, number];
        const expected = regexRanges(t.slice(from, to), /\S+/g).map((o) => o + from);
        expect(wordRanges(t, from, to)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  test("forEachProseWord reads the words /\\p{L}+(?:['’]\\p{L}+)?/gu reads, astral letters and lone surrogates included", () => {
    fc.assert(
      fc.property(text, (t) => {
        const seen: number[] = [];
        forEachProseWord(t, 0, t.length, (start, end) => void seen.push(start, end));
        expect(seen).toEqual(regexRanges(t, /\p{L}+(?:['’]\p{L}+)?/gu));
      }),
      { numRuns: 2000 },
    );
    const words: string[] = [];
    forEachProseWord("Don’t stop rock'n'roll, 𝐓𝐡𝐞 café!", 0, 36, (s, e) => void words.push("Don’t stop rock'n'roll, 𝐓𝐡𝐞 café!".slice(s, e)));
    expect(words).toEqual(["Don’t", "stop", "rock'n", "roll", "𝐓𝐡𝐞", "café"]);
  });

  test("forEachProseWord in a slice reads what the regex reads in that slice", () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (t, a, b) => {
        const [from, to] = [a % (t.length + 1), b % (t.length + 1)].sort((x, y) => x - y) as [number, number];
        const seen: number[] = [];
        forEachProseWord(t, from, to, (start, end) => void seen.push(start, end));
        expect(seen).toEqual(regexRanges(t.slice(from, to), /\p{L}+(?:['’]\p{L}+)?/gu).map((o) => o + from));
      }),
      { numRuns: 2000 },
    );
  });

  test("forEachProseWord stops when the visitor says so", () => {
    let n = 0;
    forEachProseWord("one two three four", 0, 18, () => ++n < 2);
    expect(n).toBe(2);
  });
});

describe("FoldedWordTable", () => {
  const words = ["the", "don't", "key", "a", "i'm"];
  const table = new FoldedWordTable(words.map((w, i) => [w, i] as const));

  test("finds a word where it lies, ASCII case folded and ’ read as '", () => {
    const t = "THE Key, Don’t stop; I’M a";
    const at = (w: string) => t.indexOf(w);
    expect(table.value(table.find(t, at("THE"), at("THE") + 3))).toBe(0);
    expect(table.key(table.find(t, at("Key"), at("Key") + 3))).toBe("key");
    expect(table.key(table.find(t, at("Don’t"), at("Don’t") + 5))).toBe("don't");
    expect(table.key(table.find(t, at("I’M"), at("I’M") + 3))).toBe("i'm");
    expect(table.find(t, at("stop"), at("stop") + 4)).toBe(-1);
    // A prefix or an extension of a word is not the word.
    expect(table.find(t, at("THE"), at("THE") + 2)).toBe(-1);
    expect(table.find(t, at("Key"), at("Key") + 4)).toBe(-1);
  });

  test("a word outside ASCII is lower-cased as String.toLowerCase does", () => {
    // U+212A KELVIN SIGN lower-cases to an ASCII "k".
    const kelvin = "\u212Aey";
    expect(table.key(table.find(kelvin, 0, kelvin.length))).toBe("key");
    expect(table.find("thé", 0, 3)).toBe(-1);
  });

  test("agrees with a Map of lower-cased words on any text", () => {
    const byWord = new Map(words.map((w, i) => [w, i]));
    const piece = fc.string({ unit: fc.constantFrom("t", "h", "e", "T", "H", "E", "k", "K", "y", "a", "'", "’", "i", "m", "\u212A", "é"), maxLength: 6 });
    fc.assert(
      fc.property(piece, (p) => {
        expect(table.find(p, 0, p.length)).toBe(byWord.get(p.toLowerCase().replaceAll("’", "'")) ?? -1);
      }),
      { numRuns: 3000 },
    );
  });

  test("refuses keys it could never find", () => {
    expect(() => new FoldedWordTable([["Key", 1]])).toThrow(/lower-case ASCII/);
  });
});
