import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as ort from "onnxruntime-node";
import { HashFeaturizer, type FeatureBag, type HashFeatureParams } from "./features";
import { floatOutput, openSession } from "./onnx-session";
import type { Embedder } from "./types";

/** models/embedding/features.json: what the runtime needs besides the ONNX graph. */
export interface HashEmbeddingConfig {
  dims: number;
  features: HashFeatureParams;
}

/**
 * Feature counts are padded up to a few fixed sizes (four per power of two, at least 64) so that input
 * tensors are allocated once per size, not per call, while padding wastes at most a quarter of the work.
 */
function paddedSize(n: number): number {
  if (n <= 64) return 64;
  const step = 2 ** (Math.floor(Math.log2(n)) - 2);
  return Math.ceil(n / step) * step;
}

interface Scratch {
  ids: Int32Array;
  weights: Float32Array;
  feeds: { ids: ort.Tensor; weights: ort.Tensor };
}

/** Text with no word at all still gets a deterministic unit vector: the one of this marker word. */
const EMPTY_TEXT = "<empty>";

/**
 * The project's own embedding model: hashed word and character n-gram features (TypeScript), pooled by a
 * learned EmbeddingBag and L2-normalized (ONNX). Safe for concurrent calls: each in-flight call takes
 * its own scratch tensors from a free list.
 */
export class HashEmbedder implements Embedder {
  readonly dimensions: number;
  private readonly featurizer: HashFeaturizer;
  private bag: FeatureBag = { ids: new Int32Array(256), weights: new Float32Array(256), length: 0 };
  private readonly free = new Map<number, Scratch[]>();

  private constructor(
    private readonly session: ort.InferenceSession,
    config: HashEmbeddingConfig,
  ) {
    this.dimensions = config.dims;
    this.featurizer = new HashFeaturizer(config.features);
  }

  /** Load `model.onnx` and `features.json` from a model directory (models/embedding). */
  static async load(dir: string): Promise<HashEmbedder> {
    const config = JSON.parse(await readFile(join(dir, "features.json"), "utf8")) as HashEmbeddingConfig;
    const session = await openSession(join(dir, "model.onnx"));
    return new HashEmbedder(session, config);
  }

  private takeScratch(size: number): Scratch {
    const list = this.free.get(size);
    const reused = list?.pop();
    if (reused) return reused;
    const ids = new Int32Array(size);
    const weights = new Float32Array(size);
    return { ids, weights, feeds: { ids: new ort.Tensor("int32", ids, [size]), weights: new ort.Tensor("float32", weights, [1, size]) } };
  }

  private giveBack(size: number, scratch: Scratch): void {
    const list = this.free.get(size);
    if (list) list.push(scratch);
    else this.free.set(size, [scratch]);
  }

  async embed(text: string): Promise<Float32Array> {
    this.bag = this.featurizer.featurize(text, this.bag);
    if (this.bag.length === 0) this.bag = this.featurizer.featurize(EMPTY_TEXT, this.bag);
    const n = this.bag.length;
    const size = paddedSize(n);
    const scratch = this.takeScratch(size);
    scratch.ids.set(this.bag.ids.subarray(0, n));
    scratch.weights.set(this.bag.weights.subarray(0, n));
    // Padding rows point at bucket 0 with weight 0, so they add nothing to the pooled sum.
    scratch.ids.fill(0, n);
    scratch.weights.fill(0, n);
    try {
      const out = floatOutput(await this.session.run(scratch.feeds), "embedding");
      return out.length === this.dimensions ? out : out.slice(0, this.dimensions);
    } finally {
      this.giveBack(size, scratch);
    }
  }
}
