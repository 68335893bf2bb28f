import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { HashFeaturizer, words, type FeatureBag, type HashFeatureParams } from "./features";
import { floatOutput, type OnnxSession, openSession } from "./onnx-session";
import { SparseInputPool } from "./sparse-input";
import type { Embedder } from "./types";

/** models/embedding/features.json: what the runtime needs besides the ONNX graph. */
export interface HashEmbeddingConfig {
  dims: number;
  features: HashFeatureParams;
}

/** Text with no word at all still gets a deterministic unit vector: the one of this marker word. */
const EMPTY_TEXT = "<empty>";
/** How many recent vectors are remembered (see `recent`). */
const RECENT_LIMIT = 8;

/**
 * The project's own embedding model: hashed word and character n-gram features (TypeScript), pooled by a
 * learned EmbeddingBag and L2-normalized (ONNX). Safe for concurrent calls: each in-flight call takes
 * its own scratch tensors from a free list.
 */
export class HashEmbedder implements Embedder {
  readonly dimensions: number;
  private readonly featurizer: HashFeaturizer;
  private bag: FeatureBag = { ids: new Int32Array(256), weights: new Float32Array(256), length: 0 };
  /** The bag in bucket order (see inBucketOrder), and its scratch: a weight and a presence bit per bucket. */
  private sorted: FeatureBag = { ids: new Int32Array(256), weights: new Float32Array(256), length: 0 };
  private readonly weightOf: Float32Array;
  private readonly present: Int32Array;
  private readonly inputs = new SparseInputPool();
  /**
   * The last few vectors, keyed by their text: one request may embed the same text more than once (the
   * cache and the classifier both read its last user message). Keyed by the text rather than by its
   * words joined, which took a string the size of the prompt per call to build and hash.
   */
  private readonly recent = new Map<string, Float32Array>();

  private constructor(
    private readonly session: OnnxSession,
    config: HashEmbeddingConfig,
  ) {
    this.dimensions = config.dims;
    this.featurizer = new HashFeaturizer(config.features);
    this.weightOf = new Float32Array(config.features.buckets);
    this.present = new Int32Array(Math.ceil(config.features.buckets / 32));
  }

  /** Words are cut at this length in the features; the classifier's word bag cuts them alike. */
  get maxWordLength(): number {
    return this.featurizer.params.maxWordLength;
  }

  /** Load `model.onnx` and `features.json` from a model directory (models/embedding). */
  static async load(dir: string): Promise<HashEmbedder> {
    const config = JSON.parse(await readFile(join(dir, "features.json"), "utf8")) as HashEmbeddingConfig;
    return new HashEmbedder(openSession(join(dir, "model.onnx")), config);
  }

  private words(text: string): readonly string[] {
    const tokens = words(text, this.featurizer.params.maxWordLength);
    return tokens.length > 0 ? tokens : words(EMPTY_TEXT, this.featurizer.params.maxWordLength);
  }

  private remember(key: string, vector: Float32Array): void {
    if (this.recent.size >= RECENT_LIMIT) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(key, vector);
  }

  /**
   * `bag`'s pairs sorted by bucket, in `sorted`: the graph gathers the table's rows in the order of the
   * ids, and in bucket order it reads the 8 MB table front to back, which took its run from 77 to 49 µs
   * p50 on the bags of 2,500 fresh ~300-token prompts (interleaved, load 10). The vector is the same to
   * the bit (no vector of those prompts differed): the graph's output depends on the pairs, not their
   * order. The row scales are gathered and multiplied pair by pair, their maximum and the 8-bit
   * quantization are order-free, and the pooling (MatMulInteger) sums integers exactly, in any order.
   * A bag's ids are distinct (HashFeaturizer merges duplicates), so one weight per bucket holds it; the
   * buckets come out of a bitmap of the ids, lowest bit first.
   */
  private inBucketOrder(bag: FeatureBag): FeatureBag {
    const { weightOf, present } = this;
    const n = bag.length;
    for (let i = 0; i < n; i++) {
      const id = bag.ids[i]!;
      weightOf[id] = bag.weights[i]!;
      present[id >>> 5]! |= 1 << (id & 31);
    }
    if (this.sorted.ids.length < n) this.sorted = { ids: new Int32Array(bag.ids.length), weights: new Float32Array(bag.ids.length), length: 0 };
    const { ids, weights } = this.sorted;
    let k = 0;
    for (let word = 0; word < present.length && k < n; word++) {
      let bits = present[word]!;
      if (bits === 0) continue;
      present[word] = 0;
      while (bits !== 0) {
        const id = (word << 5) | (31 - Math.clz32(bits & -bits));
        ids[k] = id;
        weights[k++] = weightOf[id]!;
        bits &= bits - 1;
      }
    }
    this.sorted.length = n;
    return this.sorted;
  }

  /** The vector of `text`. Callers must not write to it: a recent vector is shared. */
  async embed(text: string): Promise<Float32Array> {
    return this.recent.get(text) ?? this.embedWords(this.words(text), text);
  }

  private async embedWords(tokens: readonly string[], key: string): Promise<Float32Array> {
    this.bag = this.featurizer.featurizeWords(tokens, this.bag);
    const { tensors, release } = this.inputs.take(this.inBucketOrder(this.bag));
    try {
      const out = floatOutput(this.session.run(tensors), "embedding");
      const vector = out.length === this.dimensions ? out : out.slice(0, this.dimensions);
      this.remember(key, vector);
      return vector;
    } finally {
      release();
    }
  }
}
