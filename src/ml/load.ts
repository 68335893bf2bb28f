import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HashEmbedder } from "./hash-embedder";
import { SentenceTransformerEmbedder } from "./sentence-transformer";
import type { Embedder } from "./types";
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
