import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { REQUEST_SYNONYM_GROUPS } from "./cache/request-synonyms";
import { SynonymTable } from "./cache/synonyms";
import { loadCalibration } from "./score/calibration";
import { QualityScorer, type QualityScore } from "./score/quality";
import { DEFAULT_MODELS_DIR, type LoadModelsOptions } from "../ml/load";
import { HashEmbedder } from "../ml/hash-embedder";
import { SentenceTransformerEmbedder } from "../ml/sentence-transformer";
import { TaskClassifier } from "../ml/task-classifier";
import type { Embedder, TaskPrediction } from "../ml/types";

// The model set joins ml/'s models with the pipeline's own calibrated scorer and the cache's synonym
// table, so it lives here: ml/ stays below the pipeline that uses it.

/**
 * The semantic cache verifier's synonym table with an operator's groups (SVC_CACHE_SYNONYMS_FILE)
 * added to the shipped ones (src/pipeline/cache/request-synonyms.ts), loaded once by the thread that
 * runs the cache. A general table of meanings would come from a lexical database (WordNet gave +1.7
 * points of natural paraphrases served, 39 against 36 of 177, in bench/cache-eval.ts) that is not
 * among the data svc trains and tunes on; the shipped groups are hand-written request words.
 */
export async function loadSynonyms(path: string): Promise<SynonymTable> {
  return new SynonymTable([...REQUEST_SYNONYM_GROUPS, ...SynonymTable.parseGroups(await readFile(path, "utf8"), path)]);
}

/** The three models, loaded once per thread. Every method is safe to call concurrently. */
export interface Models {
  /** The embedding behind `embed`. */
  readonly embedder: Embedder;
  embed(text: string): Promise<Float32Array>;
  /** The vector of each text, as `embed` gives it: the shipped embedding makes them in one run of its graph (HashEmbedder.embedBatch). */
  embedBatch(texts: readonly string[]): Promise<Float32Array[]>;
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
    embedBatch: (texts) => (external ? Promise.all(texts.map((t) => external.embed(t))) : own.embedBatch(texts)),
    classify: (text, embedding) => classifier.classify(text, embedding && embedding.length === own.dimensions && embedder === own ? embedding : undefined),
    quality: async (original, compressed) => scorer.score(original, compressed),
  };
}
