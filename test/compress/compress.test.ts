import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { compressMessages, CompressOptionsError, RULE_NAMES, unknownRuleNames } from "../../src/pipeline/compress";
import type { ChatMessage } from "../../src/core/messages";
import { countMessageTokens } from "../../src/tokens/count";

const WORDY =
  "Hello there! I was wondering if you could possibly help me write a short story about a lighthouse keeper.   Basically, the story should be about the loneliness of the keeper, and the story should be set in the winter of the year.  \n\n\n\nThanks in advance!";

const all = { skipRules: [] as string[] };

describe("levels", () => {
  test("0.0 changes nothing but whitespace", () => {
    const out = compressMessages([{ role: "user", content: WORDY }], { aggressiveness: 0, ...all });
    expect(out.rulesApplied).toEqual(["whitespace"]);
    expect(out.messages[0]!.content.replace(/\s+/g, " ")).toBe(WORDY.replace(/\s+/g, " ").trim());
  });

  test("higher levels remove at least as much", () => {
    const ratios = [0, 0.25, 0.5, 1].map((a) => compressMessages([{ role: "user", content: WORDY }], { aggressiveness: a, ...all }).compressionRatio);
    for (let i = 1; i < ratios.length; i++) expect(ratios[i]!).toBeGreaterThanOrEqual(ratios[i - 1]!);
    expect(ratios[2]!).toBeGreaterThan(0.25);
  });

  test("the system prompt and the last user turn are compressed at the requested level, like history", () => {
    const long = Array.from({ length: 8 }, () => "The report is very important, and we will really read it in the spring.").join(" ");
    const messages: ChatMessage[] = [
      { role: "system", content: long },
      { role: "user", content: long },
    ];
    const out = compressMessages(messages, { aggressiveness: 0.5, ...all });
    // Hedges go from 0.5 in every message; `repeat` never edits either of these two. "very" before a
    // quality stays (text/intensifiers.ts).
    expect(out.messages[0]!.content).not.toContain("really");
    expect(out.messages[0]!.content).toContain("very important");
    expect(out.messages[1]!.content).toBe(out.messages[0]!.content);
  });
});

describe("result", () => {
  test("token counts, ratio and rules describe what was sent", () => {
    const messages: ChatMessage[] = [{ role: "user", content: WORDY }];
    const out = compressMessages(messages, { aggressiveness: 0.5, ...all });
    expect(out.originalTokens).toBe(countMessageTokens(messages));
    expect(out.compressedTokens).toBe(countMessageTokens(out.messages));
    expect(out.compressionRatio).toBeCloseTo((out.originalTokens - out.compressedTokens) / out.originalTokens, 10);
    expect(out.rulesApplied).toEqual(expect.arrayContaining(["pleasantries", "intent"]));
    for (const rule of out.rulesApplied) expect(RULE_NAMES).toContain(rule);
    expect(Object.keys(out.savedByRule).sort()).toEqual([...out.rulesApplied].sort());
    expect(out.messages[0]!.content).toStartWith("Write a short story about a lighthouse keeper.");
  });

  test("skip_rules turns rules off by name", () => {
    const out = compressMessages([{ role: "user", content: WORDY }], { aggressiveness: 0.5, skipRules: ["intent", "pleasantries"] });
    expect(out.rulesApplied).not.toContain("intent");
    expect(out.rulesApplied).not.toContain("pleasantries");
    expect(out.messages[0]!.content).toContain("I was wondering if you could possibly help me write");
  });

  test("tool messages and tool calls pass through untouched", () => {
    const toolCalls = [{ id: "call_1", type: "function" as const, function: { name: "lookup", arguments: '{ "q":  "the  weather" }' } }];
    const messages: ChatMessage[] = [
      { role: "user", content: WORDY },
      { role: "assistant", content: "", tool_calls: toolCalls },
      { role: "tool", tool_call_id: "call_1", content: "Basically   the weather is   really very nice.\n\n\n\n" },
      { role: "user", content: WORDY },
    ];
    const out = compressMessages(messages, { aggressiveness: 1, ...all });
    expect(out.messages[1]!.tool_calls).toEqual(toolCalls);
    expect(out.messages[2]).toEqual(messages[2]!);
    expect(out.messages[0]!.content.length).toBeLessThan(WORDY.length);
  });

  test("a prompt that cannot get shorter is sent as it came", () => {
    const messages: ChatMessage[] = [{ role: "user", content: "What is 2+2?" }];
    const out = compressMessages(messages, { aggressiveness: 1, ...all });
    expect(out.messages).toEqual(messages);
    expect(out.compressionRatio).toBe(0);
    expect(out.rulesApplied).toEqual([]);
  });

  test("terse prompts are left nearly alone even at 1.0", () => {
    const question = "Weng earns $12 an hour for babysitting. Yesterday, she just did 50 minutes of babysitting. How much did she earn?";
    const out = compressMessages([{ role: "user", content: question }], { aggressiveness: 1, ...all });
    expect(out.compressionRatio).toBeLessThan(0.1);
    for (const span of ["$12", "50 minutes", "How much did she earn?"]) expect(out.messages[0]!.content).toContain(span);
  });

  test("terse prompts lose under 3% of their tokens at every level", () => {
    const terse = [
      "A baker makes 24 loaves a day and sells them for $3 each. The oven breaks on the third day, so he bakes half as many. How much does he earn in the first three days?",
      "Write a function that returns the longest common prefix of a list of strings in Python.",
      "Summarize the plot of Hamlet in two sentences for a ten-year-old reader.",
    ];
    for (const level of [0.25, 0.5, 0.75, 1]) {
      for (const content of terse) expect(compressMessages([{ role: "user", content }], { aggressiveness: level, ...all }).compressionRatio).toBeLessThan(0.03);
    }
  });

  test("a verbose role-play prompt loses its scaffolding and keeps its rules", () => {
    const prompt =
      'I want you to act as a travel guide. I will write you my location and you will suggest a place to visit near my location. In some cases, I will also give you the type of places I will visit. You will also suggest me places of similar type that are close to my first location. Do not write explanations. I want you to only reply with the list of places. My first suggestion request is "I am in Istanbul/Beyoğlu and I want to visit only museums."';
    const out = compressMessages([{ role: "user", content: prompt }], { aggressiveness: 1, ...all });
    const sent = out.messages[0]!.content;
    expect(out.compressionRatio).toBeGreaterThan(0.1);
    expect(sent).toStartWith("Act as");
    for (const span of ["Do not write explanations", "only reply with", '"I am in Istanbul/Beyoğlu and I want to visit only museums."', "I will write you"])
      expect(sent).toContain(span);
  });

  test("a very long message is compressed in one pass with its protected spans intact", () => {
    const paragraph = (i: number) =>
      `${WORDY} Item ${i} costs $${i}.75 and ships on 2024-06-${10 + (i % 20)}. Do not exceed 3 pages. See https://example.org/spec/${i}.`;
    const long = Array.from({ length: 300 }, (_, i) => paragraph(i)).join("\n\n");
    const out = compressMessages([{ role: "user", content: long }], { aggressiveness: 1, ...all });
    const sent = out.messages[0]!.content;
    expect(out.compressionRatio).toBeGreaterThan(0.2);
    for (let i = 0; i < 300; i++) {
      for (const span of [`$${i}.75`, `2024-06-${10 + (i % 20)}`, `https://example.org/spec/${i}`]) expect(sent).toContain(span);
    }
    // The same sentence said 300 times is kept once: dedup, never a guard breach.
    expect(sent.split("Do not exceed 3 pages").length - 1).toBe(1);
    expect(out.rulesApplied).toContain("dedup");
  });
});

describe("options", () => {
  test("unknown rule names are refused with the list of valid names", () => {
    expect(unknownRuleNames(["filler", "nope", 3])).toEqual(["nope", "3"]);
    expect(() => compressMessages([{ role: "user", content: "hi" }], { aggressiveness: 0.5, skipRules: ["nope"] })).toThrow(
      new CompressOptionsError(`skip_rules has unknown rule names: nope; valid names are: ${RULE_NAMES.join(", ")}`, "skip_rules"),
    );
  });

  test("aggressiveness outside 0..1 is refused", () => {
    for (const bad of [-0.1, 1.5, Number.NaN, Infinity]) {
      expect(() => compressMessages([{ role: "user", content: "hi" }], { aggressiveness: bad, skipRules: [] })).toThrow(CompressOptionsError);
    }
  });

  test("the seed's rule names exist", () => {
    for (const name of ["filler", "preamble", "intent"]) expect(RULE_NAMES).toContain(name);
  });
});

describe("determinism", () => {
  test("the same input and options give byte-identical output", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "You are terse. Always answer in valid JSON." },
      { role: "user", content: `${WORDY} Always answer in valid JSON.` },
      { role: "assistant", content: "{}" },
      { role: "user", content: WORDY },
    ];
    const first = JSON.stringify(compressMessages(messages, { aggressiveness: 0.7, ...all }));
    for (let i = 0; i < 5; i++) expect(JSON.stringify(compressMessages(messages, { aggressiveness: 0.7, ...all }))).toBe(first);
  });

  test("any text: output is deterministic, never longer in tokens, and keeps every number and negation", () => {
    const words = fc.constantFrom(
      "the",
      "a",
      "I",
      "was",
      "wondering",
      "if",
      "you",
      "could",
      "not",
      "never",
      "please",
      "write",
      "42",
      "3.14",
      "Paris",
      "basically",
      "```",
      "`x`",
      '"q"',
      "\n",
      "  ",
      ".",
      ",",
      "don't",
      "🎉",
      "über",
    );
    fc.assert(
      fc.property(fc.array(words, { maxLength: 200 }), fc.double({ min: 0, max: 1, noNaN: true }), (parts, level) => {
        const content = parts.join(" ");
        const a = compressMessages([{ role: "user", content }], { aggressiveness: level, skipRules: [] });
        const b = compressMessages([{ role: "user", content }], { aggressiveness: level, skipRules: [] });
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        expect(a.compressedTokens).toBeLessThanOrEqual(a.originalTokens);
        const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;
        const out = a.messages[0]!.content;
        for (const re of [/\b42\b/g, /3\.14/g, /\bnot\b/g, /\bnever\b/g, /don't/g, /🎉/g]) expect(count(out, re)).toBe(count(content, re));
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});
