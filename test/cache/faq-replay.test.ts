import { expect, test } from "bun:test";
import { loadFaq, replayFaq } from "../../bench/lib/faq-replay";
import { Rng } from "../../models/data/rng";
import { loadModels } from "../../src/pipeline/models";

// The hand-written FAQ traffic (bench/data/faq-replay.json) through a real cache with the shipped
// embedding (and no synonym table: none ships): no question gets another intent's answer, and repeats are served.
test("FAQ replay: no wrong hit, and repeats are served", async () => {
  const models = await loadModels();
  const result = await replayFaq(loadFaq(), models.embedder, undefined, new Rng(1));
  expect(result.wrongPairs).toEqual([]);
  expect(result.repeats).toBe(200);
  // bun bench/cache-eval.ts gives the figure over five orders; this floor catches a cache that stops serving.
  expect(result.served).toBeGreaterThanOrEqual(20);
});

// The hold-out corpus (bench/data/faq-holdout.json, other domains, never tuned on): no question gets
// another intent's answer. Its share of repeats served is a figure of bench/cache-eval.ts, not a goal to tune to.
test("FAQ hold-out replay: no wrong hit", async () => {
  const models = await loadModels();
  const result = await replayFaq(loadFaq("faq-holdout"), models.embedder, undefined, new Rng(1));
  expect(result.wrongPairs).toEqual([]);
  expect(result.repeats).toBe(123);
});

// The second hold-out (bench/data/faq-fresh.json, ten more domains, measured once by bench/cache-eval.ts
// before anything was changed for it): no question gets another intent's answer.
test("second FAQ hold-out replay: no wrong hit", async () => {
  const models = await loadModels();
  const result = await replayFaq(loadFaq("faq-fresh"), models.embedder, undefined, new Rng(1));
  expect(result.wrongPairs).toEqual([]);
  expect(result.repeats).toBe(138);
});
