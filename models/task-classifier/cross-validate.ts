/**
 * Chooses classifier settings without looking at the held-out rows: 5-fold cross-validation over the
 * split's train rows, reporting per-class recall and the two routing misroute shares (code/math/reasoning
 * sent to the cheapest tier, faq/chat sent above it) at several tier_confidence_threshold values, routed
 * by the real decideRoute and capability table.
 *
 *   bun models/task-classifier/cross-validate.ts ['{"hidden":128}']   (JSON overrides CLASSIFIER_CONFIG)
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
import { loadLabelledPrompts } from "./split";
import { predict, trainClassifier, type ClassifierTrainConfig } from "./train";

const FOLDS = 5;
const THRESHOLDS = [0.5, 0.6, 0.7, 0.8];

const config: ClassifierTrainConfig = { ...CLASSIFIER_CONFIG, ...(process.argv[2] ? JSON.parse(process.argv[2]) : {}) };
const rows = loadLabelledPrompts().filter((r) => r.split === "train");
const embedder = await HashEmbedder.load(join(PROJECT_ROOT, "models", "embedding"));
const data = await examples(rows, embedder, config);
const fold = new Rng(11).shuffle(rows.map((_, i) => i % FOLDS));

const predictions: TaskPrediction[] = new Array(rows.length);
for (let f = 0; f < FOLDS; f++) {
  const weights = trainClassifier(
    config,
    data.filter((_, i) => fold[i] !== f),
    () => {},
  );
  data.forEach((e, i) => {
    if (fold[i] !== f) return;
    const { probs, difficulty } = predict(weights, e.x, e.bag);
    predictions[i] = toPrediction(probs, difficulty);
  });
}

const catalog = Catalog.load();
const capabilities = loadCapabilities();
const signals = rows.map((r) => {
  const req = { messages: [{ role: "user" as const, content: r.text }], max_tokens: 350 };
  return promptSignals(req, countMessageTokens(req.messages));
});
const share = (classes: TaskClass[], hit: (i: number) => boolean) => {
  const idx = rows.map((_, i) => i).filter((i) => classes.includes(rows[i]!.task));
  return idx.filter(hit).length / idx.length;
};
const f3 = (x: number) => x.toFixed(3);

console.log(`config ${JSON.stringify(config)}; ${rows.length} train rows, ${FOLDS} folds`);
const accuracy = share([...TASK_CLASSES], (i) => predictions[i]!.task === rows[i]!.task);
console.log(`accuracy ${f3(accuracy)}; recall ${TASK_CLASSES.map((c) => `${c} ${f3(share([c], (i) => predictions[i]!.task === c))}`).join(", ")}`);
for (const th of THRESHOLDS) {
  const table = { ...capabilities, tier_confidence_threshold: th };
  const tiers = rows.map((_, i) => {
    const d = decideRoute({
      model: "auto",
      route: true,
      catalog,
      capabilities: table,
      isAvailable: () => true,
      signals: signals[i]!,
      prediction: predictions[i]!,
    });
    return d.ok ? d.tier : "none";
  });
  const hardToCheap = share(["code", "math", "reasoning"], (i) => tiers[i] === "cheapest");
  const easyUp = share(["faq", "chat"], (i) => tiers[i] !== "cheapest");
  console.log(`threshold ${th}: code/math/reasoning -> cheapest ${f3(hardToCheap)}, faq/chat -> above cheapest ${f3(easyUp)}`);
}
