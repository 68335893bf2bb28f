import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { compressMessages } from "../../src/pipeline/compress";
import { RULES } from "../../src/pipeline/compress/rules";
import { applyRule } from "./apply-rule";

/**
 * Pieces that set off a rule, pieces the guards protect, and the punctuation and blanks between them:
 * a text drawn from them is where a rule's mayChange (read on the unmasked text) could miss an edit
 * its apply (on the masked text) makes.
 */
const PIECES = [
  "Hi there!",
  "hello",
  "Thanks so much in advance!",
  ", thanks!",
  "I hope you are doing well.",
  "Sorry if this is a dumb question, but",
  "please",
  "Please",
  ", if you don't mind",
  "if you have a minute,",
  "I was wondering if you could",
  "Could you please",
  "help me",
  "write a haiku about the sea",
  "explain",
  "I have a quick question.",
  "So,",
  "basically",
  "My first request is",
  "my 3rd request is",
  "in order to",
  "due to the fact that",
  "really",
  "very",
  "every",
  "quite",
  "just",
  "also",
  "simply",
  "The cat sat on the mat with the dog",
  "The cat sat on the mat with the dog.",
  "the cat sat on the mat with the dog!",
  "U.S.",
  "e.g.",
  "3.5",
  "$56",
  "not",
  "never use tabs",
  "at least 200 words",
  '"quoted text here"',
  "`code`",
  "```\nx = 1\n```",
  "**bold**",
  '{"a": 1, "b": [1, 2]}',
  "John Smith",
  "NASA",
  "fooBar_baz",
  "https://example.com/a/b",
  "./src/index.ts",
  "5hello",
  "Thanks!!! 🙏",
  ":)",
  "Best regards,\nJohn",
  "Let me know, thanks!",
  "haha",
  '"',
  "'",
  ")",
  "]",
  "…",
  ".",
  "!",
  "?",
  ",",
  " ",
  "  ",
  "\t",
  "\n",
  "\n\n\n",
  "\r\n",
];
const pieces = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 14 });
/** Pieces spaced, and glued together (where a placeholder would stand right against a word). */
const texts = fc.oneof(
  pieces.map((parts) => parts.join(" ")),
  pieces.map((parts) => parts.join("")),
);

describe("CompressionRule.mayChange", () => {
  for (const rule of RULES) {
    test(`${rule.name}: true wherever the rule changes the message on its own`, () => {
      fc.assert(
        fc.property(texts, fc.constantFrom(0.25, 0.5, 1), fc.boolean(), (t, level, careful) => {
          if (level < rule.minLevel) return;
          const changed = applyRule(rule, t, { level, careful }).text !== t;
          if (changed) expect(rule.mayChange(t, { level, careful })).toBe(true);
        }),
        { numRuns: Number(process.env.MAY_CHANGE_RUNS ?? 1500) },
      );
    });
  }

  test("a message no rule may change comes back as it was, uncounted twice", () => {
    const prompt = "A man is playing a guitar. Two dogs run through a field.";
    expect(RULES.some((r) => r.mayChange(prompt, { level: 1, careful: true }))).toBe(false);
    const out = compressMessages([{ role: "user", content: prompt }], { aggressiveness: 1, skipRules: [] });
    expect(out.messages).toEqual([{ role: "user", content: prompt }]);
    expect(out.compressedTokens).toBe(out.originalTokens);
    expect(out.rulesApplied).toEqual([]);
  });

  test("dedup reads a repeated sentence through abbreviations, and not an abbreviation said twice as one", () => {
    const dedup = RULES.find((r) => r.name === "dedup")!;
    const ctx = { level: 1, careful: true };
    expect(dedup.mayChange("The U.S. economy grew fast this year. Then it slowed. The U.S. economy grew fast this year.", ctx)).toBe(true);
    expect(dedup.mayChange("The U.S. economy grew. Stocks in the U.S. fell sharply today.", ctx)).toBe(false);
  });
});
