import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { wordBag } from "../../src/ml/features";
import { HashEmbedder } from "../../src/ml/hash-embedder";
import type { TaskClassifierConfig } from "../../src/ml/task-classifier";
import { TEXT_FEATURE_COUNT, TEXT_FEATURE_NAMES, textFeatures } from "../../src/ml/text-features";
import { TASK_CLASSES } from "../../src/ml/types";
import { classifierGraph } from "./export";
import { loadLabelledPrompts, type LabelledPrompt } from "./split";
import { trainClassifier, type ClassifierTrainConfig, type Example } from "./train";

export const CLASSIFIER_CONFIG: ClassifierTrainConfig = { seed: 7, hidden: 128, wordBuckets: 8192, wordDropout: 0.5, epochs: 30, batchSize: 64, learningRate: 0.002, l2: 1e-4, classWeightPower: 0.5, classBoost: { code: 2, math: 1.3 } };

export async function examples(rows: readonly LabelledPrompt[], embedder: HashEmbedder, wordBuckets: number): Promise<Example[]> {
  const out: Example[] = [];
  for (const r of rows) {
    const x = new Float32Array(embedder.dimensions + TEXT_FEATURE_COUNT);
    x.set(await embedder.embed(r.text));
    x.set(textFeatures(r.text), embedder.dimensions);
    out.push({ x, bag: wordBag(r.text, wordBuckets, embedder.maxWordLength), task: r.task, difficulty: r.difficulty });
  }
  return out;
}

/** Train on the split's train rows with the shipped embedding model (models/evaluate.ts reports on the held-out rows). */
export async function buildTaskClassifier(embeddingDir: string, outDir: string, log: (line: string) => void): Promise<void> {
  const embedder = await HashEmbedder.load(embeddingDir);
  const rows = loadLabelledPrompts();
  const train = await examples(rows.filter((r) => r.split === "train"), embedder, CLASSIFIER_CONFIG.wordBuckets);
  log(`task classifier: ${train.length} train rows, ${rows.length - train.length} held out`);
  const weights = trainClassifier(CLASSIFIER_CONFIG, train, log);

  writeFileSync(join(outDir, "model.onnx"), classifierGraph(weights, embedder.dimensions, TEXT_FEATURE_COUNT));
  const config: TaskClassifierConfig = {
    classes: [...TASK_CLASSES],
    featureNames: [...TEXT_FEATURE_NAMES],
    dims: embedder.dimensions,
    wordBag: { buckets: CLASSIFIER_CONFIG.wordBuckets, maxWordLength: embedder.maxWordLength },
  };
  writeFileSync(join(outDir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
}
