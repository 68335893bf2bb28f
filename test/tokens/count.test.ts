import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { countTokens as libraryO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as libraryCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens, countMessageTokens, MAX_BPE_CHARS } from "../../src/tokens/count";
import { asciiHeavy, shaped } from "./arbitraries";
import { corpora, haveData } from "./corpora";

/** The library's own count, with special-token markers taken as plain text (what we bill). */
const ordinary = { disallowedSpecial: new Set<string>() };
const library = { o200k: (t: string) => libraryO200k(t, ordinary), cl100k: (t: string) => libraryCl100k(t, ordinary) } as const;

/** Text that exercises every branch of the pre-tokenizers: case runs, contractions, digits, marks, line breaks, emoji, scripts. */
const pieces = fc.constantFrom(
  " ",
  "  ",
  "\n",
  "\r\n",
  "\n\n",
  "\t",
  "Hello",
  "hello",
  "HELLO",
  "HeLLo",
  "don't",
  "I'M",
  "they're",
  "12345",
  "3.14",
  "€",
  "—",
  "...",
  "?!",
  "```",
  '{"a": 1}',
  "naïve",
  "e\u0301",
  "日本語",
  "Привет",
  "مرحبا",
  "👍🏽",
  "🚀",
  "<|endoftext|>",
  "/usr/bin",
);
const text = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.array(pieces, { maxLength: 60 }).map((p) => p.join("")),
);

describe("token counting", () => {
  for (const family of ["o200k", "cl100k"] as const) {
    test(`${family}: equals the library's count on any text, repeated or not`, () => {
      fc.assert(
        fc.property(text, (t) => {
          const expected = library[family](t);
          // The second call reads the remembered pieces; both must agree with the library.
          expect(countTokens(t, family)).toBe(expected);
          expect(countTokens(t, family)).toBe(expected);
        }),
        { numRuns: 400 },
      );
    });
  }

  for (const family of ["o200k", "cl100k"] as const) {
    test(`${family}: equals the library's count on ASCII-heavy and word-shaped text`, () => {
      fc.assert(
        fc.property(fc.oneof(asciiHeavy, shaped), (t) => {
          expect(countTokens(t, family)).toBe(library[family](t));
        }),
        { numRuns: 3000 },
      );
    });

    test.skipIf(!haveData)(`${family}: equals the library's count on real prompts (../shared/data)`, () => {
      for (const [name, texts] of Object.entries(corpora())) {
        const ours = texts.map((t) => countTokens(t, family));
        expect({ name, counts: ours }).toEqual({ name, counts: texts.map(library[family]) });
      }
    });
  }

  test("a prompt quoting a special token is counted as plain text instead of failing", () => {
    const t = "What does <|endoftext|> mean in GPT training data?";
    expect(() => libraryO200k(t)).toThrow();
    expect(countTokens(t)).toBe(library.o200k(t));
    expect(countTokens(t)).toBeGreaterThan(countTokens("What does mean in GPT training data?"));
  });

  test("long pieces (a base64 blob, a run of spaces) are counted exactly", () => {
    const blob = "QUJD".repeat(500);
    const spaces = " ".repeat(300) + "x";
    expect(countTokens(blob)).toBe(library.o200k(blob));
    expect(countTokens(spaces)).toBe(library.o200k(spaces));
  });

  test("a piece longer than MAX_BPE_CHARS is counted in chunks, within a few tokens per chunk of the library", () => {
    // One pre-tokenizer piece each: a letter run, a punctuation run, a whitespace run, an emoji run.
    const unit = fc.constantFrom("ab", "ACGT", "[", "=-", " ", "é", "😀", "xyzq", "{}", "\t ");
    fc.assert(
      fc.property(unit, fc.integer({ min: MAX_BPE_CHARS + 1, max: 3 * MAX_BPE_CHARS }), (u, length) => {
        const piece = u.repeat(Math.ceil(length / u.length));
        const boundaries = Math.ceil(piece.length / MAX_BPE_CHARS) - 1;
        expect(Math.abs(countTokens(piece) - library.o200k(piece))).toBeLessThanOrEqual(2 * boundaries);
      }),
      { numRuns: 25 },
    );
  });

  test("a megabyte in one piece is counted (the library alone takes minutes on it)", () => {
    // "abab" is one o200k token: the library gives 1,500 for 6,000 characters of it.
    expect(countTokens("ab".repeat(500_000))).toBe(250_000);
    expect(countTokens("x" + " ".repeat(1_000_000) + "y")).toBeGreaterThan(0);
  });

  test("chat framing adds three tokens per message and three for the reply", () => {
    const messages = [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Name a prime." },
    ];
    expect(countMessageTokens(messages)).toBe(3 + 3 + library.o200k("Be brief.") + 3 + library.o200k("Name a prime."));
  });
});
