import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { letterHash, SentenceSet, sentenceKey } from "../../src/pipeline/compress/text/sentences";

/**
 * Short sentences over units where keys and hashes part ways if they can: case, spacing and closing
 * punctuation the key evens out, the two characters that lower-case into ASCII (U+0130 to "i̇", the
 * Kelvin sign to "k") next to what they become, a context-dependent lower-casing (final sigma),
 * letters outside ASCII and digits.
 */
const unit = fc.constantFrom("a", "A", "i", "I", "\u0130", "\u0307", "k", "K", "\u212A", "1", "Σ", "σ", "ς", "é", "É", " ", "  ", "\t", "\n", ".", "!", "?", ",");
const sentence = fc.string({ unit, maxLength: 6 });

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
          expect(set.add(s)).toBe(keys.has(sentenceKey(s)));
          keys.add(sentenceKey(s));
        }
        expect(set.has(probe)).toBe(keys.has(sentenceKey(probe)));
      }),
      { numRuns: 3000 },
    );
  });
});
