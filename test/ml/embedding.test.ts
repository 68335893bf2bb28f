import { describe, expect, test } from "bun:test";
import { cosineOfUnit } from "../../src/ml/cosine";
import { shippedModels } from "./shipped-models";

function norm(v: Float32Array): number {
  return Math.sqrt(cosineOfUnit(v, v));
}

describe("shipped embedding model", () => {
  test("returns 256-d unit vectors, also for empty and symbol-only text", async () => {
    const m = await shippedModels();
    for (const text of ["How do I reset my password?", "", "!!! ???", "x".repeat(5000), "naïve café 東京 😀"]) {
      const v = await m.embed(text);
      expect(v.length).toBe(256);
      expect(norm(v)).toBeCloseTo(1, 4);
      expect(v.every(Number.isFinite)).toBe(true);
    }
  });

  test("is deterministic across calls, including concurrent ones", async () => {
    const m = await shippedModels();
    const text = "Write a Python function that reverses a linked list.";
    const first = await m.embed(text);
    const again = await Promise.all([m.embed(text), m.embed("something else entirely"), m.embed(text)]);
    expect(Array.from(again[0]!)).toEqual(Array.from(first));
    expect(Array.from(again[2]!)).toEqual(Array.from(first));
  });

  test("puts paraphrases closer than unrelated text", async () => {
    const m = await shippedModels();
    const cases: [string, string, string][] = [
      ["A man is playing a guitar.", "A man plays the guitar.", "The stock market fell sharply today."],
      ["How can I reset my password?", "How do I change my forgotten password?", "What is the capital of Australia?"],
      ["A woman is slicing an onion.", "Someone is cutting an onion.", "Two dogs are running in a field."],
      ["Write a function to sort a list in Python.", "Write a Python function that sorts a list.", "Compose a poem about the autumn sea."],
    ];
    for (const [a, paraphrase, unrelated] of cases) {
      const [va, vp, vu] = await Promise.all([m.embed(a), m.embed(paraphrase), m.embed(unrelated)]);
      expect(cosineOfUnit(va, vp)).toBeGreaterThan(cosineOfUnit(va, vu) + 0.2);
    }
  });
});
