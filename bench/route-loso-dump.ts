/**
 * Leave-one-source-out predictions, written to a file so that routing rules can be swept on them
 * without training again: for each source, a classifier trained (6 epochs, as bench/route-eval.ts's
 * leave-one-source-out part) on every other source predicts that source's rows. The hold-out rows are
 * in no fold. A rule or threshold chosen on these predictions is chosen on prompts of a corpus the
 * model never saw, not on one split of the corpora it learned from (issue 26).
 *
 *   bun bench/route-loso-dump.ts OUT.json [--loso-sources=a,b] [--seeds=7,11,13] [--train-without=a,b]
 *
 * --seeds: each fold's model is that many trainings averaged, as the shipped graph is (CLASSIFIER_SEEDS
 * by default). --train-without: sources no fold trains on (a fold still predicts them when asked by
 * --loso-sources): with the written sets' sources, the figures of the data before they were added.
 */
import { join } from "node:path";
import { HashEmbedder } from "../src/ml/hash-embedder";
import { DEFAULT_MODELS_DIR } from "../src/ml/load";
import { CLASSIFIER_CONFIG, CLASSIFIER_SEEDS, examples, trainSeeds } from "../models/task-classifier/build";
import { loadLabelledPrompts } from "../models/task-classifier/split";
import { predict } from "../models/task-classifier/train";

const LOSO_EPOCHS = 6;
const out = process.argv[2];
if (!out || out.startsWith("--")) throw new Error("usage: bun bench/route-loso-dump.ts OUT.json [--loso-sources=a,b] [--seeds=7,11] [--train-without=a,b]");
const list = (flag: string) =>
  process.argv
    .find((a) => a.startsWith(`${flag}=`))
    ?.slice(flag.length + 1)
    .split(",");
const only = list("--loso-sources");
const without = list("--train-without") ?? [];
const seeds = list("--seeds")?.map(Number) ?? CLASSIFIER_SEEDS;
const config = { ...CLASSIFIER_CONFIG, epochs: LOSO_EPOCHS };

const rows = loadLabelledPrompts().filter((r) => r.split !== "holdout");
const embedder = await HashEmbedder.load(join(DEFAULT_MODELS_DIR, "embedding"));
const data = await examples(rows, embedder, CLASSIFIER_CONFIG);
const result: { id: string; dataset: string; probs: number[]; difficulty: number }[] = [];
for (const source of [...new Set(rows.map((r) => r.dataset))].filter((s) => !only || only.includes(s))) {
  const trainIdx = rows.map((_, i) => i).filter((i) => rows[i]!.dataset !== source && !without.includes(rows[i]!.dataset));
  const testIdx = rows.map((_, i) => i).filter((i) => rows[i]!.dataset === source);
  const weights = trainSeeds(
    config,
    seeds,
    trainIdx.map((i) => data[i]!),
    () => {},
  );
  for (const i of testIdx) {
    const { probs, difficulty } = predict(weights, data[i]!.x, data[i]!.bag);
    result.push({ id: rows[i]!.id, dataset: source, probs: [...probs], difficulty });
  }
  console.error(`${new Date().toISOString()} ${source}: ${testIdx.length} rows`);
  await Bun.write(out, JSON.stringify(result));
}
