import { describe, expect, test } from "bun:test";
import { editedPairs, promptsBySource, splitPrompts, structuralEdits } from "../../bench/lib/cache-hard-negatives";
import { Rng } from "../../models/data/rng";
import { compareFacets, DEFAULT_CACHE_CONFIG, extractFacets } from "../../src/pipeline/cache";
import { requires } from "../support/services";

// Printed when skipped, and required where CI says ../shared is there (SVC_TEST_REQUIRE).
const haveShared = await requires("shared");

/**
 * Real prompts with two arguments swapped, a relation reversed or changed, an operator or a bracket
 * changed: every word stays, the request changes. The tune sources only (the verifier was written
 * against them); bun bench/cache-eval.ts reports the test sources.
 */
describe.skipIf(!haveShared)("hard negatives from real prompts (../shared/data)", () => {
  test("the verifier refuses every structural edit of the tune sources' prompts, even with every word substitution allowed", () => {
    const rng = new Rng(11);
    const prompts = splitPrompts(promptsBySource(DEFAULT_CACHE_CONFIG.semanticMaxChars), "tune");
    const pairs = editedPairs(prompts, structuralEdits(rng), 300, rng);
    expect(pairs.length).toBeGreaterThanOrEqual(1000);
    const kinds = new Set(pairs.map((p) => p.kind));
    expect(kinds.size).toBe(Object.keys(structuralEdits(rng)).length);
    const served = pairs.filter((p) => compareFacets(extractFacets(p.a), extractFacets(p.b), { vectors: new Map(), minSimilarity: -Infinity }).equivalent);
    expect(served.map((p) => `${p.kind}: ${p.a} => ${p.b}`)).toEqual([]);
  });
});
