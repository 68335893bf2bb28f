/**
 * Measures the shipped model files and writes models/metrics.json (the figures in the model cards):
 * `bun models/evaluate.ts`. Loads the models exactly as the service does (src/pipeline/models.ts).
 */
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_MODELS_DIR } from "../src/ml/load";
import { loadModels, type Models } from "../src/pipeline/models";
import { TASK_CLASSES, type TaskClass } from "../src/ml/types";
import { evaluateEmbedding } from "./embedding/evaluate";
import { reliability } from "./task-classifier/calibrate";
import { loadLabelledPrompts, type LabelledPrompt } from "./task-classifier/split";

export async function evaluateAll(log: (line: string) => void): Promise<void> {
  const models = await loadModels();
  const embedding = await evaluateEmbedding(models.embedder);
  log(`embedding: STS-B dev Spearman ${embedding.stsbDevSpearman.toFixed(4)}`);
  for (const [file, m] of Object.entries(embedding.semeval2016)) log(`  SemEval 2016 ${file}: Spearman ${m.spearman.toFixed(4)} (${m.pairs} pairs)`);

  const rows = loadLabelledPrompts();
  const taskClassifier = {
    holdout: await classifierFigures(
      models,
      rows.filter((r) => r.split === "holdout"),
      "never-tuned hold-out (the project's own prompts)",
      log,
    ),
    dev: await classifierFigures(
      models,
      rows.filter((r) => r.split === "dev"),
      "dev (public corpora and the project's prompts)",
      log,
    ),
  };

  const sizes: Record<string, number> = {};
  for (const f of [
    "embedding/model.onnx",
    "embedding/features.json",
    "task-classifier/model.onnx",
    "task-classifier/config.json",
    "quality-score/calibration.json",
  ])
    sizes[f] = statSync(join(DEFAULT_MODELS_DIR, f)).size;
  const metrics = {
    embedding,
    taskClassifier,
    fileBytes: sizes,
  };
  writeFileSync(join(DEFAULT_MODELS_DIR, "metrics.json"), `${JSON.stringify(metrics, null, 2)}\n`);
}

/** Accuracy, per-class recall and precision, calibration error and difficulty error of the shipped classifier on `rows`. */
async function classifierFigures(models: Models, rows: LabelledPrompt[], name: string, log: (line: string) => void) {
  const perClass = {} as Record<TaskClass, { support: number; recall: number; precision: number }>;
  const predicted: TaskClass[] = [];
  const confidence: number[] = [];
  let difficultyError = 0;
  for (const r of rows) {
    const p = await models.classify(r.text);
    predicted.push(p.task);
    confidence.push(p.confidence);
    difficultyError += Math.abs(p.difficulty - r.difficulty);
  }
  for (const task of TASK_CLASSES) {
    const support = rows.filter((r) => r.task === task).length;
    const hits = rows.filter((r, i) => r.task === task && predicted[i] === task).length;
    const claimed = predicted.filter((p) => p === task).length;
    perClass[task] = { support, recall: support ? hits / support : 0, precision: claimed ? hits / claimed : 0 };
  }
  const correct = rows.map((r, i) => predicted[i] === r.task);
  const accuracy = correct.filter(Boolean).length / rows.length;
  const ece = reliability(confidence, correct).ece;
  log(
    `task classifier, ${name}: accuracy ${accuracy.toFixed(4)} on ${rows.length} rows, expected calibration error ${ece.toFixed(4)}, difficulty MAE ${(difficultyError / rows.length).toFixed(4)}`,
  );
  for (const task of TASK_CLASSES)
    log(`  ${task}: recall ${perClass[task].recall.toFixed(3)}, precision ${perClass[task].precision.toFixed(3)} (n=${perClass[task].support})`);
  return { rows: rows.length, accuracy, expectedCalibrationError: ece, perClass, difficultyMae: difficultyError / rows.length };
}

if (import.meta.main) await evaluateAll(console.log);
