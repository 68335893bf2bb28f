import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as ort from "onnxruntime-node";
import { wordBag } from "./features";
import { floatOutput, type OnnxSession, openSession } from "./onnx-session";
import { SparseInputPool } from "./sparse-input";
import { TEXT_FEATURE_COUNT, TEXT_FEATURE_NAMES, textFeatures } from "./text-features";
import { TASK_CLASSES, type Embedder, type TaskClass, type TaskPrediction } from "./types";

/** models/task-classifier/config.json: the contract between the trained graph and this runtime. */
export interface TaskClassifierConfig {
  classes: TaskClass[];
  featureNames: string[];
  dims: number;
  /** The word bag input: hash buckets and the length at which words are cut. */
  wordBag: { buckets: number; maxWordLength: number };
}

interface Scratch {
  embedding: Float32Array;
  features: Float32Array;
  feeds: { embedding: ort.Tensor; features: ort.Tensor };
}

/** Routing's task classifier: softmax over TASK_CLASSES plus a 0..1 difficulty, from embedding, text features and word bag. */
export class TaskClassifier {
  private readonly free: Scratch[] = [];
  private readonly words = new SparseInputPool();

  private constructor(
    private readonly session: OnnxSession,
    private readonly embedder: Embedder,
    private readonly config: TaskClassifierConfig,
  ) {}

  /** Load `model.onnx` and `config.json` from a model directory (models/task-classifier); checks they match this runtime. */
  static async load(dir: string, embedder: Embedder): Promise<TaskClassifier> {
    const config = JSON.parse(await readFile(join(dir, "config.json"), "utf8")) as TaskClassifierConfig;
    if (config.classes.join() !== TASK_CLASSES.join()) throw new Error(`task classifier classes ${config.classes.join()} differ from TASK_CLASSES`);
    if (config.featureNames.join() !== TEXT_FEATURE_NAMES.join()) throw new Error("task classifier was trained on other text features; retrain it");
    if (config.dims !== embedder.dimensions) throw new Error(`task classifier expects ${config.dims}-d embeddings, embedder gives ${embedder.dimensions}`);
    if (!config.wordBag) throw new Error("task classifier config has no word bag (a model from before the word bag); retrain it");
    return new TaskClassifier(openSession(join(dir, "model.onnx")), embedder, config);
  }

  private takeScratch(): Scratch {
    const reused = this.free.pop();
    if (reused) return reused;
    const embedding = new Float32Array(this.config.dims);
    const features = new Float32Array(TEXT_FEATURE_COUNT);
    return {
      embedding,
      features,
      feeds: { embedding: new ort.Tensor("float32", embedding, [1, this.config.dims]), features: new ort.Tensor("float32", features, [1, TEXT_FEATURE_COUNT]) },
    };
  }

  /** Classify `text`; pass its embedding when the caller already has it (the cache computes one anyway). */
  async classify(text: string, embedding?: Float32Array): Promise<TaskPrediction> {
    const vector = embedding ?? (await this.embedder.embed(text));
    if (vector.length !== this.config.dims) throw new Error(`embedding has ${vector.length} dimensions, expected ${this.config.dims}`);
    const scratch = this.takeScratch();
    const { buckets, maxWordLength } = this.config.wordBag;
    const words = this.words.take(wordBag(text, buckets, maxWordLength));
    try {
      scratch.embedding.set(vector);
      textFeatures(text, scratch.features);
      const result = this.session.run({ ...scratch.feeds, word_ids: words.tensors.ids, word_weights: words.tensors.weights });
      return toPrediction(floatOutput(result, "probs"), floatOutput(result, "difficulty")[0]!);
    } finally {
      this.free.push(scratch);
      words.release();
    }
  }
}

/** A prediction from class probabilities in TASK_CLASSES order: the first most probable class wins. */
export function toPrediction(p: ArrayLike<number>, difficulty: number): TaskPrediction {
  const probs = {} as Record<TaskClass, number>;
  let best = 0;
  for (let k = 0; k < TASK_CLASSES.length; k++) {
    probs[TASK_CLASSES[k]!] = p[k]!;
    if (p[k]! > p[best]!) best = k;
  }
  return { task: TASK_CLASSES[best]!, probs, confidence: p[best]!, difficulty };
}
