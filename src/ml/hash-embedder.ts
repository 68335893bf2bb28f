import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { HashFeaturizer, type HashFeatureParams, splitWords, type WordSplit } from "./features";
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
  /**
   * pool's scratch: per row of a run, a weight per bucket; a presence bit per bucket of any row; the
   * buckets a row's text adds (HashFeaturizer.addWords).
   */
  private readonly weightOf: Float32Array[] = [];
  private readonly present: Int32Array;
  private readonly touched: Int32Array;
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
    this.present = new Int32Array(Math.ceil(config.features.buckets / 32));
    this.touched = new Int32Array(config.features.buckets);
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

  private split(text: string): WordSplit {
    const split = splitWords(text, this.featurizer.params.maxWordLength);
    return split.count > 0 ? split : splitWords(EMPTY_TEXT, this.featurizer.params.maxWordLength);
  }

  private remember(key: string, vector: Float32Array): void {
    if (this.recent.size >= RECENT_LIMIT) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(key, vector);
  }

  /** Row `r`'s weight per bucket, all zero between calls (pool reads each weight back and clears it). */
  private rowWeights(r: number): Float32Array {
    while (this.weightOf.length <= r) this.weightOf.push(new Float32Array(this.featurizer.params.buckets));
    return this.weightOf[r]!;
  }

  /**
   * The vectors of `texts` (distinct, none of them recent) from one run of the graph: each text's bag
   * is one row of weights over the union of the bags' ids, the ids in bucket order.
   *
   * Bucket order: the graph gathers the table's rows in the order of the ids, and in bucket order it
   * reads the 8 MB table front to back, which took its run from 77 to 49 µs p50 on the bags of 2,500
   * fresh ~300-token prompts (interleaved, load 10). The vector is the same to the bit (no vector of
   * those prompts differed): the graph's output depends on the pairs, not their order. The row scales
   * are gathered and multiplied pair by pair, their maximum and the 8-bit quantization are order-free,
   * and the pooling (MatMulInteger) sums integers exactly, in any order. A bag's ids are distinct
   * (HashFeaturizer merges duplicates), so one weight per bucket holds a row; the buckets come out of a
   * bitmap of the ids, lowest bit first.
   *
   * Several rows: the graph divides each row by its own maximum before the 8-bit quantization, whose
   * range is then 0..1 whatever the rows (models/embedding/export.ts), and an id a row lacks weighs 0
   * there, which adds 0 to its integer sum: each text gets the vector it gets alone, to the bit
   * (test/ml/embedding.test.ts). The optimizer embeds two texts of one prompt, the classifier's and the
   * cache's, whenever they differ (a courtesy, a question frame or a synonym; 37-81% of the prompts of
   * each compression corpus and of bench/data's chatty and FAQ files with the cache on): they share
   * most ids, and their two runs, whose gather of the table's rows is most of their time, become one.
   */
  private pool(texts: readonly string[]): Float32Array[] {
    const present = this.present;
    const touched = this.touched;
    let n = 0;
    for (let r = 0; r < texts.length; r++) {
      // The bag accumulates in the row's weights, where the input tensors are read from, not in the
      // featurizer's scratch, copied out as a bag and scattered back here: two passes over its ~2,100
      // ids on a ~300-token prompt. Each weight is the same sum, added in the same order.
      const found = this.featurizer.addWords(this.split(texts[r]!), this.rowWeights(r), touched, false);
      for (let i = 0; i < found; i++) {
        const id = touched[i]!;
        const bit = 1 << (id & 31);
        if ((present[id >>> 5]! & bit) === 0) {
          present[id >>> 5]! |= bit;
          n++;
        }
      }
    }
    const rows = texts.length;
    const weightOf = this.weightOf;
    // One row, most calls, reads its weights without the loop over rows.
    const only = rows === 1 ? weightOf[0]! : undefined;
    const { tensors, release } = this.inputs.takeRows(n, rows, (ids, weights, size) => {
      let k = 0;
      for (let word = 0; word < present.length && k < n; word++) {
        let bits = present[word]!;
        if (bits === 0) continue;
        present[word] = 0;
        while (bits !== 0) {
          const id = (word << 5) | (31 - Math.clz32(bits & -bits));
          ids[k] = id;
          if (only) {
            weights[k] = only[id]!;
            only[id] = 0;
          } else
            for (let r = 0; r < rows; r++) {
              const row = weightOf[r]!;
              weights[r * size + k] = row[id]!;
              row[id] = 0;
            }
          k++;
          bits &= bits - 1;
        }
      }
    });
    try {
      const out = floatOutput(this.session.run(tensors), "embedding");
      const dims = this.dimensions;
      return texts.map((_, r) => (rows === 1 && out.length === dims ? out : out.slice(r * dims, (r + 1) * dims)));
    } finally {
      release();
    }
  }

  /** The vector of `text`. Callers must not write to it: a recent vector is shared. */
  async embed(text: string): Promise<Float32Array> {
    return this.recent.get(text) ?? this.embedFresh([text])[0]!;
  }

  /** The vector of each of `texts`, those not recent from one run of the graph (see pool). Callers must not write to them. */
  async embedBatch(texts: readonly string[]): Promise<Float32Array[]> {
    const known = texts.map((t) => this.recent.get(t));
    const fresh = [...new Set(texts.filter((_, i) => known[i] === undefined))];
    const made = new Map(fresh.length > 0 ? this.embedFresh(fresh).map((v, i) => [fresh[i]!, v] as const) : []);
    return texts.map((t, i) => known[i] ?? made.get(t)!);
  }

  private embedFresh(texts: readonly string[]): Float32Array[] {
    const vectors = this.pool(texts);
    vectors.forEach((v, i) => this.remember(texts[i]!, v));
    return vectors;
  }
}
