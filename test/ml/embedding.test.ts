import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cosineOfUnit } from "../../src/ml/cosine";
import { HashFeaturizer } from "../../src/ml/features";
import { HashEmbedder, type HashEmbeddingConfig } from "../../src/ml/hash-embedder";
import { DEFAULT_MODELS_DIR } from "../../src/ml/load";
import { floatOutput, openSession } from "../../src/ml/onnx-session";
import { SparseInputPool } from "../../src/ml/sparse-input";
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

  test("gives the vector the graph gives the featurizer's bag in its own order, to the bit", async () => {
    // The embedder hands the graph its bag sorted by bucket (faster to gather); the graph's output must
    // not depend on the order. Texts of every size, so bags of many padded sizes and up to thousands of ids.
    const dir = join(DEFAULT_MODELS_DIR, "embedding");
    const config = (await Bun.file(join(dir, "features.json")).json()) as HashEmbeddingConfig;
    const featurizer = new HashFeaturizer(config.features);
    const session = openSession(join(dir, "model.onnx"));
    const pool = new SparseInputPool();
    const embedder = await HashEmbedder.load(dir);
    const words = "the quick brown fox jumps over a lazy dog while Kubernetes pods restart 42 times naïve café 東京 x9 don't".split(" ");
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8;
    for (let t = 0; t < 60; t++) {
      const text = Array.from(
        { length: 1 + (next() % (t < 30 ? 40 : 900)) },
        () => `${words[next() % words.length]}${next() % 3 === 0 ? next() % 1000 : ""}`,
      ).join(" ");
      const { tensors, release } = pool.take(featurizer.featurize(text));
      const inOrder = Array.from(floatOutput(session.run(tensors), "embedding"));
      release();
      expect(Array.from(await embedder.embed(text))).toEqual(inOrder);
    }
  });

  test("embeds a batch of texts as it embeds each alone, to the bit, in one run", async () => {
    // optimize() embeds the cache's and the classifier's texts of a prompt together (HashEmbedder.pool):
    // the graph normalises each row by its own maximum, so a row's quantization and sum must not depend
    // on the rows beside it. Pairs that share most words (as those two texts do), share none, repeat a
    // text, or hold an empty one; a fresh embedder for each side, so no vector comes from the other's memo.
    const dir = join(DEFAULT_MODELS_DIR, "embedding");
    const words = "how do I reset my password please thanks the quick brown fox 42 naïve café 東京 kubernetes pod restart".split(" ");
    let seed = 3;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8;
    const text = (n: number) => Array.from({ length: n }, () => words[next() % words.length]).join(" ");
    const batches: string[][] = [
      ["", "x"],
      ["same text", "same text"],
      ["Hi! How do I reset my password?", "how reset password"],
    ];
    for (let t = 0; t < 40; t++) {
      const a = text(1 + (next() % (t < 20 ? 30 : 600)));
      batches.push(t % 3 === 0 ? [a, text(1 + (next() % 50))] : [a, `${a} ${text(1 + (next() % 5))}`], [a, text(3), text(200)]);
    }
    const batched = await HashEmbedder.load(dir);
    const single = await HashEmbedder.load(dir);
    let runs = 0;
    const run = (batched as unknown as { session: { run: (f: unknown) => unknown } }).session;
    const original = run.run.bind(run);
    run.run = (f) => {
      runs++;
      return original(f);
    };
    for (const batch of batches) {
      const before = runs;
      const vectors = await batched.embedBatch(batch);
      expect(runs - before).toBeLessThanOrEqual(1);
      for (const [i, t] of batch.entries()) expect(Array.from(vectors[i]!)).toEqual(Array.from(await single.embed(t)));
    }
  });
});
