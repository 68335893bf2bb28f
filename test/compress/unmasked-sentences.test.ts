import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { mask, unmask, UnmaskedReader } from "../../src/pipeline/compress/protect/mask";
import { isRedundantWhenRepeated, letterHash, SentenceSet, sentenceKey, UnmaskedSentence } from "../../src/pipeline/compress/text/sentences";

/**
 * Short sentences over units where keys and hashes part ways if they can: case, spacing and closing
 * punctuation the key evens out, the two characters that lower-case into ASCII (U+0130 to "i̇", the
 * Kelvin sign to "k") next to what they become, a context-dependent lower-casing (final sigma),
 * letters outside ASCII and digits.
 */
const unit = fc.constantFrom(
  "a",
  "A",
  "i",
  "I",
  "\u0130",
  "\u0307",
  "k",
  "K",
  "\u212A",
  "1",
  "Σ",
  "σ",
  "ς",
  "é",
  "É",
  " ",
  "  ",
  "\t",
  "\n",
  ".",
  "!",
  "?",
  ",",
);
const sentence = fc.string({ unit, maxLength: 6 });
/** A sentence with nothing masked in it, as SentenceSet takes it. */
const plain = (s: string) => new UnmaskedSentence(new UnmaskedReader(s, []), 0, s.length);

describe("SentenceSet", () => {
  test("sentences with the same key have the same letterHash", () => {
    fc.assert(
      fc.property(sentence, sentence, (a, b) => {
        if (sentenceKey(a) === sentenceKey(b)) expect(letterHash(a)).toBe(letterHash(b));
      }),
      { numRuns: 20000 },
    );
    expect(letterHash("\u0130\u212A")).toBe(letterHash("i\u0307k"));
  });

  test("agrees with a Set of sentenceKeys", () => {
    fc.assert(
      fc.property(fc.array(sentence, { maxLength: 30 }), sentence, (sentences, probe) => {
        const set = new SentenceSet();
        const keys = new Set<string>();
        for (const s of sentences) {
          expect(set.add(plain(s))).toBe(keys.has(sentenceKey(s)));
          keys.add(sentenceKey(s));
        }
        expect(set.has(plain(probe))).toBe(keys.has(sentenceKey(probe)));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("UnmaskedSentence", () => {
  // Prompts whose masks have placeholders everywhere, ranges that cut through them (a damaged
  // placeholder reads as its characters), and reads that go back as well as forward.
  const piece = fc.constantFrom("The", " cat", " 42", " ran", " not", " here", ".", " `x y`", " NASA", "\n", " and", " https://a.b/c", "  ", "\u0130");
  const prompt = fc.array(piece, { maxLength: 16 }).map((p) => p.join(""));
  test("reads what the joined, unmasked text says", () => {
    fc.assert(
      fc.property(prompt, fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }), (text, ranges) => {
        const { masked, originals } = mask(text)!;
        const reader = new UnmaskedReader(masked, originals);
        for (const [a, b] of ranges) {
          const [from, to] = [a % (masked.length + 1), b % (masked.length + 1)].sort((x, y) => x - y) as [number, number];
          const joined = unmask(masked.slice(from, to), originals);
          const read = new UnmaskedSentence(reader, from, to);
          expect(read.length).toBe(joined.length);
          expect(read.hash).toBe(letterHash(joined));
          expect(read.redundant).toBe(isRedundantWhenRepeated(joined));
          expect(read.text).toBe(joined);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
