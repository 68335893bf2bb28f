import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import * as ort from "onnxruntime-node";
import { wordBag } from "../../src/ml/features";
import { DEFAULT_MODELS_DIR } from "../../src/ml/load";
import { floatOutput, openSession } from "../../src/ml/onnx-session";
import { SparseInputPool } from "../../src/ml/sparse-input";
import { TEXT_FEATURE_COUNT, textFeatures } from "../../src/ml/text-features";

// OnnxSession runs the native binding synchronously, without the package's public InferenceSession
// (setImmediate, checks, re-wrapping): it must give what that API gives, to the bit, and fail as loudly.
describe("OnnxSession", () => {
  const path = join(DEFAULT_MODELS_DIR, "task-classifier", "model.onnx");

  test("gives the shipped classifier's outputs exactly as onnxruntime-node's public API does", async () => {
    const session = openSession(path);
    const reference = await ort.InferenceSession.create(path, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
    });
    expect([...session.inputNames].sort()).toEqual([...reference.inputNames].sort());
    expect([...session.outputNames].sort()).toEqual([...reference.outputNames].sort());
    const pool = new SparseInputPool();
    let seed = 11;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8;
    const words = "fix the bug in my python function translate this into french summarize the report solve 3x + 7 = 22 haha".split(" ");
    for (let t = 0; t < 40; t++) {
      const text = Array.from({ length: 1 + (next() % 200) }, () => words[next() % words.length]).join(" ");
      const embedding = Float32Array.from({ length: 256 }, () => (next() % 2001) / 1000 - 1);
      const feeds = {
        embedding: new ort.Tensor("float32", embedding, [1, 256]),
        features: new ort.Tensor("float32", textFeatures(text), [1, TEXT_FEATURE_COUNT]),
      };
      const bag = pool.take(wordBag(text, 8192, 24));
      const all = { ...feeds, word_ids: bag.tensors.ids, word_weights: bag.tensors.weights };
      const mine = session.run(all);
      const theirs = await reference.run(all);
      bag.release();
      for (const name of ["probs", "difficulty"]) expect(Array.from(floatOutput(mine, name))).toEqual(Array.from(floatOutput(theirs, name)));
    }
  });

  test("throws on a missing input and on a wrongly shaped one, and keeps working after", () => {
    const session = openSession(path);
    const features = new ort.Tensor("float32", new Float32Array(TEXT_FEATURE_COUNT), [1, TEXT_FEATURE_COUNT]);
    expect(() => session.run({ features })).toThrow("input 'embedding' is missing");
    const ok = {
      embedding: new ort.Tensor("float32", new Float32Array(256), [1, 256]),
      features,
      word_ids: new ort.Tensor("int32", new Int32Array(64), [64]),
      word_weights: new ort.Tensor("float32", new Float32Array(64), [1, 64]),
    };
    expect(() => session.run({ ...ok, embedding: new ort.Tensor("float32", new Float32Array(255), [1, 255]) })).toThrow();
    expect(floatOutput(session.run(ok), "probs").length).toBe(9);
  });

  test("fails to open a file that is not a model", () => {
    expect(() => openSession(join(DEFAULT_MODELS_DIR, "task-classifier", "config.json"))).toThrow();
  });
});
