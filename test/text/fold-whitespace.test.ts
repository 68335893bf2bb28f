import { describe, expect, test } from "bun:test";
import { foldWhitespace } from "../../src/text/fold-whitespace";

const reference = (text: string) => text.replace(/\s+/g, " ").trim();

describe("foldWhitespace", () => {
  test("folds every UTF-16 unit that /\\s/ matches, and no other", () => {
    for (let c = 0; c < 0x10000; c++) {
      const text = `a${String.fromCharCode(c)}${String.fromCharCode(c)}b`;
      expect(foldWhitespace(text)).toBe(reference(text));
    }
  });

  test("is the regex replace and trim on texts of words, runs of mixed space, and ends", () => {
    const pieces = ["word", "x", " ", "  ", "\n", "\t \r\n", "\u00a0", "\u3000", "\ufeff", "é", "😀"];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let k = 0; k < 2000; k++) {
      let text = "";
      for (let n = next() % 8; n >= 0; n--) text += pieces[next() % pieces.length];
      expect(foldWhitespace(text)).toBe(reference(text));
    }
  });

  test("returns the text itself when it has nothing to fold", () => {
    const text = "Write a haiku about the sea.";
    expect(foldWhitespace(text)).toBe(text);
    expect(foldWhitespace("")).toBe("");
  });
});
