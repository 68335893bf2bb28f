/**
 * Measures the shipped model files and writes models/metrics.json (the figures in the model cards):
 * `bun models/evaluate.ts`. Loads the models exactly as the service does (src/pipeline/models.ts).
 */
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_MODELS_DIR } from "../src/ml/load";
import { loadModels } from "../src/pipeline/models";
import { TASK_CLASSES, type TaskClass } from "../src/ml/types";
import { evaluateEmbedding } from "./embedding/evaluate";
import { loadLabelledPrompts } from "./task-classifier/split";

export async function evaluateAll(log: (line: string) => void): Promise<void> {
  const models = await loadModels();
  const embedding = await evaluateEmbedding(models.embedder);
  log(`embedding: STS-B dev Spearman ${embedding.stsbDevSpearman.toFixed(4)}`);
  for (const [file, m] of Object.entries(embedding.semeval2016)) log(`  SemEval 2016 ${file}: Spearman ${m.spearman.toFixed(4)} (${m.pairs} pairs)`);

  const dev = loadLabelledPrompts().filter((r) => r.split === "dev");
  const perClass = {} as Record<TaskClass, { support: number; recall: number; precision: number }>;
  const predicted: TaskClass[] = [];
  let difficultyError = 0;
  for (const r of dev) {
    const p = await models.classify(r.text);
    predicted.push(p.task);
    difficultyError += Math.abs(p.difficulty - r.difficulty);
  }
  for (const task of TASK_CLASSES) {
    const support = dev.filter((r) => r.task === task).length;
    const hits = dev.filter((r, i) => r.task === task && predicted[i] === task).length;
    const claimed = predicted.filter((p) => p === task).length;
    perClass[task] = { support, recall: support ? hits / support : 0, precision: claimed ? hits / claimed : 0 };
  }
  const accuracy = dev.filter((r, i) => predicted[i] === r.task).length / dev.length;
  const realRows = dev.map((r, i) => ({ r, ok: predicted[i] === r.task })).filter((x) => x.r.labelSource !== "synthetic_template");
  const realAccuracy = realRows.filter((x) => x.ok).length / realRows.length;
  log(`task classifier: held-out accuracy ${accuracy.toFixed(4)} (${dev.length} rows; ${realAccuracy.toFixed(4)} on the ${realRows.length} non-synthetic rows), difficulty MAE ${(difficultyError / dev.length).toFixed(4)}`);
  for (const task of TASK_CLASSES) log(`  ${task}: recall ${perClass[task].recall.toFixed(3)}, precision ${perClass[task].precision.toFixed(3)} (n=${perClass[task].support})`);

  const sizes: Record<string, number> = {};
  for (const f of ["embedding/model.onnx", "embedding/features.json", "task-classifier/model.onnx", "task-classifier/config.json", "quality-score/calibration.json"]) sizes[f] = statSync(join(DEFAULT_MODELS_DIR, f)).size;
  const metrics = {
    embedding,
    taskClassifier: { heldOutRows: dev.length, accuracy, nonSyntheticAccuracy: realAccuracy, perClass, difficultyMae: difficultyError / dev.length },
    fileBytes: sizes,
  };
  writeFileSync(join(DEFAULT_MODELS_DIR, "metrics.json"), `${JSON.stringify(metrics, null, 2)}\n`);
}

if (import.meta.main) await evaluateAll(console.log);
