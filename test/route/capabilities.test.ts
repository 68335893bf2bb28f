import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import bundled from "../../src/catalog/capabilities.json";
import { TASK_CLASSES } from "../../src/ml/types";
import { difficultyBand, loadCapabilities, parseCapabilities } from "../../src/pipeline/route";

const dir = mkdtempSync(join(tmpdir(), "svc-capabilities-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileWith(content: string): string {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, content);
  return path;
}

describe("the bundled capability table", () => {
  const table = loadCapabilities();

  test("sends simple work to the cheapest tier and code, math and reasoning to balanced", () => {
    for (const c of ["faq", "chat", "translate", "extract", "summarize"] as const) {
      expect(Object.values(table.classes[c])).toEqual(["cheapest", "cheapest", "cheapest"]);
    }
    expect(table.classes.creative.easy).toBe("cheapest");
    for (const c of ["code", "math"] as const) expect(Object.values(table.classes[c])).toEqual(["balanced", "balanced", "balanced"]);
    expect(table.classes.reasoning).toEqual({ easy: "balanced", medium: "balanced", hard: "most_capable" });
  });

  test("keeps most_capable for hard reasoning only", () => {
    const mostCapable = TASK_CLASSES.flatMap((c) =>
      Object.entries(table.classes[c])
        .filter(([, t]) => t === "most_capable")
        .map(([b]) => `${c}.${b}`),
    );
    expect(mostCapable).toEqual(["reasoning.hard"]);
  });

  test("bands difficulty at the file's boundaries", () => {
    expect(difficultyBand(table, 0)).toBe("easy");
    expect(difficultyBand(table, table.difficulty_bands.medium_from)).toBe("medium");
    expect(difficultyBand(table, table.difficulty_bands.hard_from)).toBe("hard");
    expect(difficultyBand(table, 1)).toBe("hard");
  });
});

describe("an operator's capability file", () => {
  test("is loaded from the configured path", () => {
    const edited = structuredClone(bundled);
    edited.classes.code.easy = "cheapest";
    expect(loadCapabilities(fileWith(JSON.stringify(edited))).classes.code.easy).toBe("cheapest");
  });

  test("with a mistyped tier stops with the field's name", () => {
    const edited = structuredClone(bundled) as { classes: { math: { hard: string } } };
    edited.classes.math.hard = "premium";
    expect(() => loadCapabilities(fileWith(JSON.stringify(edited)))).toThrow("classes.math.hard must be one of cheapest, balanced, most_capable");
  });

  test("copied before the deliberation signal existed still loads, with the shipped value", () => {
    const { deliberation_from: _d, ...older } = bundled.hard_prompt;
    expect(parseCapabilities({ ...bundled, hard_prompt: older }).hard_prompt.deliberation_from).toBe(1);
    expect(() => parseCapabilities({ ...bundled, hard_prompt: { ...older, deliberation_from: -1 } })).toThrow("hard_prompt.deliberation_from");
  });

  test("copied before the calculation signal existed still loads, with the shipped values", () => {
    const { calculation_from: _c, calculation_below_tokens: _b, ...older } = bundled.hard_prompt;
    const parsed = parseCapabilities({ ...bundled, hard_prompt: older }).hard_prompt;
    expect([parsed.calculation_from, parsed.calculation_below_tokens]).toEqual([1, 80]);
    expect(() => parseCapabilities({ ...bundled, hard_prompt: { ...older, calculation_below_tokens: 2.5 } })).toThrow("hard_prompt.calculation_below_tokens");
  });

  test("copied before long_question could spare small talk still loads, sparing it as shipped", () => {
    const { spare_small_talk: _s, ...older } = bundled.long_question;
    expect(parseCapabilities({ ...bundled, long_question: older }).long_question.spare_small_talk).toBe(true);
    expect(parseCapabilities({ ...bundled, long_question: { ...older, spare_small_talk: false } }).long_question.spare_small_talk).toBe(false);
    expect(() => parseCapabilities({ ...bundled, long_question: { ...older, spare_small_talk: "yes" } })).toThrow(
      "long_question.spare_small_talk must be true or false",
    );
  });

  test("copied before estimation and software_terms still loads, with the shipped values", () => {
    const { estimation: _e, ...older } = bundled.hard_prompt;
    const { software_terms: _s, ...olderTop } = bundled;
    const parsed = parseCapabilities({ ...olderTop, hard_prompt: older });
    expect(parsed.hard_prompt.estimation).toBe(true);
    expect(parsed.software_terms).toEqual(parseCapabilities(bundled).software_terms);
    expect(() => parseCapabilities({ ...bundled, hard_prompt: { ...older, estimation: 1 } })).toThrow("hard_prompt.estimation must be true or false");
    expect(() => parseCapabilities({ ...bundled, software_terms: { classes: ["gossip"], share_from: 0.3, tier_confidence_threshold: 0.85 } })).toThrow(
      "software_terms.classes[0]",
    );
    expect(() => parseCapabilities({ ...bundled, software_terms: { classes: [], share_from: 3, tier_confidence_threshold: 0.85 } })).toThrow(
      "software_terms.share_from",
    );
  });

  test("missing a class, or naming an unknown one, is refused", () => {
    const { faq: _faq, ...rest } = bundled.classes;
    expect(() => parseCapabilities({ ...bundled, classes: rest })).toThrow("classes.faq must be an object");
    expect(() => parseCapabilities({ ...bundled, classes: { ...bundled.classes, poetry: bundled.classes.chat } })).toThrow("classes.poetry must be one of");
  });

  test("out-of-range numbers and inverted bands are refused", () => {
    expect(() => parseCapabilities({ ...bundled, tier_confidence_threshold: 1.5 })).toThrow("tier_confidence_threshold must be a number from 0 to 1");
    expect(() => parseCapabilities({ ...bundled, difficulty_bands: { medium_from: 0.8, hard_from: 0.5 } })).toThrow("hard_from must not be below medium_from");
    expect(() => parseCapabilities({ ...bundled, code_fence_classes: ["sql"] })).toThrow("code_fence_classes[0]");
  });

  test("hard_prompt thresholds must be whole numbers, 0 or more, each named when wrong", () => {
    const hard = (over: Record<string, unknown>) => parseCapabilities({ ...bundled, hard_prompt: { ...bundled.hard_prompt, ...over } });
    expect(hard({ steps_from: 0 }).hard_prompt.steps_from).toBe(0);
    expect(() => hard({ constraints_from: -1 })).toThrow("hard_prompt.constraints_from must be a whole number");
    expect(() => hard({ requested_words_from: 2.5 })).toThrow("hard_prompt.requested_words_from");
    expect(() => hard({ context_tokens_from: "8000" })).toThrow("hard_prompt.context_tokens_from");
    const { hard_prompt: _, ...withoutHard } = bundled;
    expect(() => parseCapabilities(withoutHard)).toThrow("hard_prompt must be an object");
  });

  test("long_question needs task classes, a whole token count and a threshold from 0 to 1", () => {
    const long = (over: Record<string, unknown>) => parseCapabilities({ ...bundled, long_question: { ...bundled.long_question, ...over } });
    expect(long({ tokens_from: 0 }).long_question.tokens_from).toBe(0);
    expect(() => long({ classes: ["smalltalk"] })).toThrow("long_question.classes[0]");
    expect(() => long({ tokens_from: 2.5 })).toThrow("long_question.tokens_from");
    expect(() => long({ tier_confidence_threshold: 2 })).toThrow("long_question.tier_confidence_threshold must be a number from 0 to 1");
  });

  test("that is not JSON names the file", () => {
    const path = fileWith("{ not json");
    expect(() => loadCapabilities(path)).toThrow(path);
  });
});
