/**
 * Trains every model the service ships, reproducibly from fixed seeds: `bun models/train.ts`
 * (or `bun models/train.ts embedding|classifier|social|quality` for one step; later steps read the files the
 * earlier ones wrote). Reads ../shared/data, writes the model files under models/, then measures them
 * (models/evaluate.ts). Never run by tests or at start-up.
 */
import { join } from "node:path";
import { PROJECT_ROOT } from "./data/paths";
import { buildEmbedding } from "./embedding/build";
import { evaluateAll } from "./evaluate";
import { buildQualityCalibration } from "./quality-score/build";
import { buildTaskClassifier } from "./task-classifier/build";
import { buildSocialSentenceModel } from "./social-sentence/train";

const started = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0)}s] ${line}`);
const step = process.argv[2];
const models = join(PROJECT_ROOT, "models");

if (!step || step === "embedding") buildEmbedding(join(models, "embedding"), log);
if (!step || step === "classifier") await buildTaskClassifier(join(models, "embedding"), join(models, "task-classifier"), log);
if (!step || step === "social") buildSocialSentenceModel(join(models, "social-sentence"), log);
if (!step || step === "quality") await buildQualityCalibration(join(models, "quality-score"), log);
await evaluateAll(log);
log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
