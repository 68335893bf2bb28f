import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SynonymTable } from "../pipeline/cache/synonyms";
import { loadCalibration } from "../pipeline/score/calibration";
import { QualityScorer, type QualityScore } from "../pipeline/score/quality";
import { HashEmbedder } from "./hash-embedder";
import { SentenceTransformerEmbedder } from "./sentence-transformer";
import { TaskClassifier } from "./task-classifier";
import type { Embedder, TaskPrediction } from "./types";
import type { Settings } from "../config/config";

/** The shipped model files: `models/` at the project root, found from this file, not from the cwd. */
export const DEFAULT_MODELS_DIR = fileURLToPath(new URL("../../models", import.meta.url));

export interface LoadModelsOptions {
  /**
   * A sentence-transformers ONNX export (model.onnx + tokenizer.json or vocab.txt) to use for `embed`
   * (semantic cache, similarity) instead of the shipped embedding. The classifier and the quality score
   * keep the shipped embedding: they were trained and calibrated on its vectors.
   */
  sentenceTransformerDir?: string;
}

/** The operator's choice of embedding, from the settings. */
export function modelOptionsOf(settings: Pick<Settings, "embeddingModelDir">): LoadModelsOptions {
  return settings.embeddingModelDir ? { sentenceTransformerDir: settings.embeddingModelDir } : {};
}

/** Only the embedding behind `Models.embed`: what a thread that runs no other model needs. */
export function loadEmbedder(options: LoadModelsOptions = {}, dir: string = DEFAULT_MODELS_DIR): Promise<Embedder> {
  return options.sentenceTransformerDir ? SentenceTransformerEmbedder.load(options.sentenceTransformerDir) : HashEmbedder.load(join(dir, "embedding"));
}

/** The semantic cache verifier's synonym table (models/synonyms, built from WordNet), loaded once by the thread that runs the cache. */
export async function loadSynonyms(dir: string = DEFAULT_MODELS_DIR): Promise<SynonymTable> {
  const path = join(dir, "synonyms", "synonyms.json");
  return SynonymTable.parse(await readFile(path, "utf8"), path);
}

/** The three models, loaded once per thread. Every method is safe to call concurrently. */
export interface Models {
  /** The embedding behind `embed`. */
  readonly embedder: Embedder;
  embed(text: string): Promise<Float32Array>;
  /** `embedding` is reused when it comes from the shipped embedding model (same width), else recomputed. */
  classify(text: string, embedding?: Float32Array): Promise<TaskPrediction>;
  quality(original: string, compressed: string): Promise<QualityScore>;
}

export async function loadModels(dir: string = DEFAULT_MODELS_DIR, options: LoadModelsOptions = {}): Promise<Models> {
  const own = await HashEmbedder.load(join(dir, "embedding"));
  const [classifier, calibration, external] = await Promise.all([
    TaskClassifier.load(join(dir, "task-classifier"), own),
    loadCalibration(join(dir, "quality-score", "calibration.json")),
    options.sentenceTransformerDir ? SentenceTransformerEmbedder.load(options.sentenceTransformerDir) : undefined,
  ]);
  const embedder: Embedder = external ?? own;
  const scorer = new QualityScorer(calibration);
  return {
    embedder,
    embed: (text) => embedder.embed(text),
    classify: (text, embedding) => classifier.classify(text, embedding && embedding.length === own.dimensions && embedder === own ? embedding : undefined),
    quality: async (original, compressed) => scorer.score(original, compressed),
  };
}
