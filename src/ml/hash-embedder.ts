import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type * as ort from "onnxruntime-node";
import { HashFeaturizer, words, type FeatureBag, type HashFeatureParams } from "./features";
import { floatOutput, openSession } from "./onnx-session";
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
  private readonly inputs = new SparseInputPool();
  /**
   * The last few vectors, keyed by their text: one request may embed the same text more than once (the
   * cache and the classifier both read its last user message). Keyed by the text rather than by its
   * words joined, which took a string the size of the prompt per call to build and hash.
   */
  private readonly recent = new Map<string, Float32Array>();

  private constructor(
    private readonly session: ort.InferenceSession,
    config: HashEmbeddingConfig,
  ) {
    this.dimensions = config.dims;
    this.featurizer = new HashFeaturizer(config.features);
  }

  /** Words are cut at this length in the features; the classifier's word bag cuts them alike. */
  get maxWordLength(): number {
    return this.featurizer.params.maxWordLength;
  }

  /** Load `model.onnx` and `features.json` from a model directory (models/embedding). */
  static async load(dir: string): Promise<HashEmbedder> {
    const config = JSON.parse(await readFile(join(dir, "features.json"), "utf8")) as HashEmbeddingConfig;
    const session = await openSession(join(dir, "model.onnx"));
    return new HashEmbedder(session, config);
  }

  private words(text: string): readonly string[] {
    const tokens = words(text, this.featurizer.params.maxWordLength);
    return tokens.length > 0 ? tokens : words(EMPTY_TEXT, this.featurizer.params.maxWordLength);
  }

  private remember(key: string, vector: Float32Array): void {
    if (this.recent.size >= RECENT_LIMIT) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(key, vector);
  }

  /** The vector of `text`. Callers must not write to it: a recent vector is shared. */
  async embed(text: string): Promise<Float32Array> {
    return this.recent.get(text) ?? this.embedWords(this.words(text), text);
  }

  private async embedWords(tokens: readonly string[], key: string): Promise<Float32Array> {
    this.bag = this.featurizer.featurizeWords(tokens, this.bag);
    const { tensors, release } = this.inputs.take(this.bag);
    try {
      const out = floatOutput(await this.session.run(tensors), "embedding");
      const vector = out.length === this.dimensions ? out : out.slice(0, this.dimensions);
      this.remember(key, vector);
      return vector;
    } finally {
      release();
    }
  }
}
