import { describe, expect, test } from "bun:test";
import { OptimizeMemo } from "../../src/pipeline/optimize-memo";
import type { OptimizeInput, OptimizeResult } from "../../src/pipeline/optimize-types";

const input = (content: string, aggressiveness = 0.5): OptimizeInput => ({
  messages: [{ role: "user", content }],
  model: "auto",
  options: {
    compress: true,
    route: true,
    cache: true,
    cache_nondeterministic: false,
    score: true,
    mask_pii: false,
    max_aggressiveness: aggressiveness,
    skip_rules: [],
  },
  params: {},
  maxTokens: 1000,
  availableModels: ["gpt-4o-mini-2024-07-18"],
  wantEmbedding: true,
  countTokens: false,
  qualityFloor: 85,
});
const result = (content: string): OptimizeResult => ({
  messages: [{ role: "user", content }],
  compressionRatio: 0,
  rulesApplied: [],
  route: { ok: true, model: "gpt-4o-mini-2024-07-18", reason: "chat_default", tier: "cheapest", candidates: ["gpt-4o-mini-2024-07-18"] },
  pii: [],
  piiMasked: false,
  cacheText: content,
});

describe("optimizer memo", () => {
  test("equal inputs share a key; any change of text or option makes another", () => {
    const memo = new OptimizeMemo(10);
    expect(memo.keyOf(input("a"))).toBe(memo.keyOf(input("a")));
    expect(memo.keyOf(input("a"))).not.toBe(memo.keyOf(input("b")));
    expect(memo.keyOf(input("a"))).not.toBe(memo.keyOf(input("a", 0.6)));
    const turns = (...contents: string[]): OptimizeInput => ({ ...input(""), messages: contents.map((content) => ({ role: "user", content })) });
    expect(memo.keyOf(turns("ab", "c"))).not.toBe(memo.keyOf(turns("a", "bc")));
    expect(memo.keyOf(input("a"))).not.toBe(memo.keyOf({ ...input("a"), messages: [{ role: "system", content: "a" }] }));
    expect(memo.keyOf(input("a"))).not.toBe(memo.keyOf({ ...input("a"), messages: [{ role: "user", content: "a", name: "bob" }] }));
  });

  test("holds at most its capacity, least recently used out first", () => {
    const memo = new OptimizeMemo(2);
    const [ka, kb, kc] = ["a", "b", "c"].map((c) => memo.keyOf(input(c)));
    memo.set(ka!, result("a"));
    memo.set(kb!, result("b"));
    expect(memo.get(ka!)?.cacheText).toBe("a");
    memo.set(kc!, result("c"));
    expect(memo.size).toBe(2);
    expect(memo.get(kb!)).toBeUndefined();
    expect(memo.get(ka!)?.cacheText).toBe("a");
    expect(new OptimizeMemo(0).size).toBe(0);
  });
});
