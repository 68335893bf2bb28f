/**
 * Chooses classifier settings without looking at the held-out rows: 5-fold cross-validation over every
 * row that is not hold-out (the corpora's train and dev rows and the project's train and dev prompts).
 * The out-of-fold probabilities get one temperature fitted on all of them (as build.ts fits one on the
 * dev rows), then are routed by the real decideRoute and capability table. It reports, for the
 * project's own prompts (what the goals are judged on) and for all rows: accuracy, per-class recall,
 * routing_reason accuracy and the two misroute shares (code/math/reasoning sent to the cheapest tier,
 * faq/chat sent above it) at several tier_confidence_threshold values, and the calibration error.
 *
 * With --dev it trains once on the train rows, fits the temperature on the dev rows and reports on the
 * dev rows, as build.ts would ship it: one training instead of five, for a quick look on a loaded machine.
 *
 *   bun models/task-classifier/cross-validate.ts [--dev] ['{"hidden":128}']   (JSON overrides CLASSIFIER_CONFIG)
 */
import { join } from "node:path";
import { PROJECT_ROOT } from "../data/paths";
import { Rng } from "../data/rng";
import { HashEmbedder } from "../../src/ml/hash-embedder";
import { toPrediction } from "../../src/ml/task-classifier";
import { TASK_CLASSES, type TaskClass, type TaskPrediction } from "../../src/ml/types";
import { Catalog } from "../../src/catalog/catalog";
import { decideRoute, loadCapabilities, promptSignals } from "../../src/pipeline/route";
import { countMessageTokens } from "../../src/tokens/count";
import { CLASSIFIER_CONFIG, examples } from "./build";
import { fitTemperature, reliability } from "./calibrate";
import { reasonIsRight } from "./routing-score";
import { loadLabelledPrompts, type LabelledPrompt } from "./split";
import { predict, trainClassifier, type ClassifierTrainConfig } from "./train";

const FOLDS = 5;
const THRESHOLDS = [0.6, 0.7, 0.75, 0.8, 0.85];

const devOnly = process.argv.includes("--dev");
const overrides = process.argv.slice(2).find((a) => a.startsWith("{"));
const config: ClassifierTrainConfig = { ...CLASSIFIER_CONFIG, ...(overrides ? JSON.parse(overrides) : {}) };
const all = loadLabelledPrompts().filter((r) => r.split !== "holdout");
const embedder = await HashEmbedder.load(join(PROJECT_ROOT, "models", "embedding"));
const allData = await examples(all, embedder, config);

/** Rows reported on, and their raw (not yet calibrated) class probabilities and difficulty, out of fold or on dev. */
const rows: LabelledPrompt[] = [];
const raw: Float64Array[] = [];
const difficulty: number[] = [];
if (devOnly) {
  const weights = trainClassifier(
    config,
    allData.filter((_, i) => all[i]!.split === "train"),
    () => {},
  );
  all.forEach((r, i) => {
    if (r.split !== "dev") return;
    const p = predict(weights, allData[i]!.x, allData[i]!.bag);
    rows.push(r);
    raw.push(p.probs);
    difficulty.push(p.difficulty);
  });
} else {
  const fold = new Rng(11).shuffle(all.map((_, i) => i % FOLDS));
  const byRow: { probs: Float64Array; difficulty: number }[] = new Array(all.length);
  for (let f = 0; f < FOLDS; f++) {
    const weights = trainClassifier(
      config,
      allData.filter((_, i) => fold[i] !== f),
      () => {},
    );
    allData.forEach((e, i) => {
      if (fold[i] === f) byRow[i] = predict(weights, e.x, e.bag);
    });
  }
  all.forEach((r, i) => {
    rows.push(r);
    raw.push(byRow[i]!.probs);
    difficulty.push(byRow[i]!.difficulty);
  });
}
const labels = rows.map((r) => TASK_CLASSES.indexOf(r.task));
const t = fitTemperature(raw, labels);
const predictions: TaskPrediction[] = raw.map((p, i) => {
  const scaled = Array.from(p, (x) => Math.log(x + 1e-12) / t);
  const max = Math.max(...scaled);
  const e = scaled.map((x) => Math.exp(x - max));
  const z = e.reduce((a, b) => a + b, 0);
  return toPrediction(
    e.map((x) => x / z),
    difficulty[i]!,
  );
});

const catalog = Catalog.load();
const capabilities = loadCapabilities();
const signals = rows.map((r) => {
  const req = { messages: [{ role: "user" as const, content: r.text }], max_tokens: 350 };
  return promptSignals(req, countMessageTokens(req.messages));
});
const f3 = (x: number) => x.toFixed(3);

console.log(
  `config ${JSON.stringify(config)}; ${devOnly ? `trained on the train rows, ${rows.length} dev rows` : `${rows.length} rows, ${FOLDS} folds`}; temperature ${f3(t)}`,
);
for (const [name, keep] of [
  ["project's prompts", (i: number) => rows[i]!.labelSource === "authored"],
  ["all rows", () => true],
] as const) {
  const idx = rows.map((_, i) => i).filter(keep);
  const share = (classes: readonly TaskClass[], hit: (i: number) => boolean) => {
    const of = idx.filter((i) => classes.includes(rows[i]!.task));
    return of.filter(hit).length / of.length;
  };
  const right = (i: number) => predictions[i]!.task === rows[i]!.task;
  const ece = reliability(
    idx.map((i) => predictions[i]!.confidence),
    idx.map(right),
  ).ece;
  console.log(`\n${name} (${idx.length}): accuracy ${f3(share(TASK_CLASSES, right))}, ECE ${f3(ece)}`);
  console.log(`  recall ${TASK_CLASSES.map((c) => `${c} ${f3(share([c], right))}`).join(", ")}`);
  for (const c of TASK_CLASSES) {
    const mistaken = TASK_CLASSES.filter((p) => p !== c)
      .map((p) => [p, idx.filter((i) => rows[i]!.task === c && predictions[i]!.task === p).length] as const)
      .filter(([, n]) => n > 0);
    if (mistaken.length > 0) console.log(`  ${c} taken for ${mistaken.map(([p, n]) => `${p} ${n}`).join(", ")}`);
  }
  for (const th of THRESHOLDS) {
    const table = { ...capabilities, tier_confidence_threshold: th };
    const routed = idx.map((i) => {
      const d = decideRoute({
        model: "auto",
        route: true,
        catalog,
        capabilities: table,
        isAvailable: () => true,
        signals: signals[i]!,
        prediction: predictions[i]!,
      });
      if (!d.ok) throw new Error(`no model for ${rows[i]!.id}`);
      return { i, tier: d.tier, reason: d.reason, task: d.task! };
    });
    const tierOf = new Map(routed.map((r) => [r.i, r.tier]));
    const reasons = routed.filter((r) => reasonIsRight(r.reason, r.task, rows[r.i]!.task)).length / routed.length;
    console.log(
      `  threshold ${th}: reason ${f3(reasons)}, code/math/reasoning -> cheapest ${f3(share(["code", "math", "reasoning"], (i) => tierOf.get(i) === "cheapest"))}, faq/chat -> above cheapest ${f3(share(["faq", "chat"], (i) => tierOf.get(i) !== "cheapest"))}`,
    );
  }
}
