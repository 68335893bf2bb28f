import { expect, test } from "bun:test";
import { join } from "node:path";
import { loadFaq, loadFaqFile, replayFaq } from "../../bench/lib/faq-replay";
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

// The support-frame dev corpus (bench/data/faq-frames-dev.json, issue 24, session 6 of 2026-11-27: problem
// statements, wishes, "I can't find how to", "Can I" in fifteen more domains, 60 near misses asked once):
// no question gets another intent's answer.
test("support-frame FAQ replay: no wrong hit", async () => {
  const models = await loadModels();
  const result = await replayFaq(
    loadFaqFile(join(import.meta.dir, "..", "..", "bench", "data", "faq-frames-dev.json")),
    models.embedder,
    undefined,
    new Rng(1),
  );
  expect(result.wrongPairs).toEqual([]);
  expect(result.repeats).toBe(176);
  // This order serves 111 with the frames and 90 without them (main f1a5ce1): the floor catches losing them.
  expect(result.served).toBeGreaterThanOrEqual(100);
});
