/**
 * Routing rules against leave-one-source-out predictions: routes the predictions written by
 * bench/route-loso-dump.ts (each corpus predicted by a classifier that never saw it) and the shipped
 * classifier's predictions on the written sets through the real decideRoute, with the bundled capability
 * table or one changed by JSON overrides, and prints per set reasons right, code/math/reasoning sent to
 * the cheapest tier and faq/chat sent above it, and the leave-one-source-out mean and worst. A rule or
 * threshold is chosen here without training again (issue 26: on prompts of a corpus the model never saw,
 * not on one split of the corpora it learned from).
 *
 *   bun bench/route-loso-dump.ts /tmp/loso.json      # ~5 min on 2 busy cores
 *   bun bench/route-rules.ts /tmp/loso.json ['{"tier_confidence_threshold": 0.65}'] [--folds] [--bands]
 *
 * --bands: of the left-out prompts whose predicted class the table puts on the cheapest tier, the share
 * that are code, math or reasoning (each class weighing the same, as in a class-balanced hold-out), by
 * the cheapest-tier confidence and by length (long_question's tokens_from): what a threshold there
 * trades. tier_confidence_threshold 0.7 lifts where that share is above about 0.3.
 */
import { Catalog } from "../src/catalog/catalog";
import { toPrediction } from "../src/ml/task-classifier";
import { TASK_CLASSES, type TaskClass } from "../src/ml/types";
import { loadModels } from "../src/pipeline/models";
import { decideRoute, difficultyBand, loadCapabilities, parseCapabilities, promptSignals, tierConfidence } from "../src/pipeline/route";
import { countMessageTokens } from "../src/tokens/count";
import { reasonIsRight } from "../models/task-classifier/routing-score";
import { type LabelledPrompt, loadLabelledPrompts, writtenDevSets } from "../models/task-classifier/split";

const [losoFile, overrides] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
if (!losoFile) throw new Error("usage: bun bench/route-rules.ts LOSO.json ['<capability overrides as JSON>'] [--folds]");
const catalog = Catalog.load();
const hardClass = (c: TaskClass) => c === "code" || c === "math" || c === "reasoning";
const easyClass = (c: TaskClass) => c === "faq" || c === "chat";
const bundled = loadCapabilities();
const over = JSON.parse(overrides ?? "{}");
const table = parseCapabilities({
  ...bundled,
  ...over,
  hard_prompt: { ...bundled.hard_prompt, ...over.hard_prompt },
  long_question: { ...bundled.long_question, ...over.long_question },
  software_terms: { ...bundled.software_terms, ...over.software_terms },
});

interface Routed {
  label: TaskClass;
  tier: string;
  right: boolean;
  /** The cheapest-tier confidence when the predicted class is a cheapest-tier one, else undefined. */
  cheapConfidence?: number;
  predictedFaqChat: boolean;
  tokens: number;
}

function route(text: string, label: TaskClass, probs: ArrayLike<number>, difficulty: number): Routed {
  const req = { messages: [{ role: "user" as const, content: text }], max_tokens: 350 };
  const signals = promptSignals(req, countMessageTokens(req.messages));
  const prediction = toPrediction(probs, difficulty);
  const d = decideRoute({ model: "auto", route: true, catalog, capabilities: table, isAvailable: () => true, signals, prediction });
  if (!d.ok) throw new Error(d.message);
  const band = difficultyBand(table, prediction.difficulty);
  const cheap = table.classes[prediction.task][band] === "cheapest";
  return {
    label,
    tier: d.tier!,
    right: reasonIsRight(d.reason, d.task!, label),
    cheapConfidence: cheap ? tierConfidence(table, band, prediction, "cheapest") : undefined,
    predictedFaqChat: easyClass(prediction.task),
    tokens: signals.promptTokens,
  };
}

function summary(rs: Routed[]) {
  const hard = rs.filter((r) => hardClass(r.label));
  const easy = rs.filter((r) => easyClass(r.label));
  return {
    n: rs.length,
    reason: rs.filter((r) => r.right).length / rs.length,
    hardDown: hard.filter((r) => r.tier === "cheapest").length,
    hard: hard.length,
    easyUp: easy.filter((r) => r.tier !== "cheapest").length,
    easy: easy.length,
  };
}
const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)}% (${n}/${d})`);

const models = await loadModels();
const sets: Record<string, LabelledPrompt[]> = {
  ...writtenDevSets(),
  "old hold-out": loadLabelledPrompts().filter((p) => p.split === "holdout"),
};
console.log("| set | prompts | reasons right | code/math/reasoning → cheapest | faq/chat → above cheapest |\n|---|---|---|---|---|");
for (const [name, prompts] of Object.entries(sets)) {
  if (prompts.length === 0) continue; // a set the training read (round-12 dev with SVC_ROUTE_ROUND13=1)
  const rs: Routed[] = [];
  for (const p of prompts) {
    const pr = await models.classify(p.text);
    rs.push(
      route(
        p.text,
        p.task,
        TASK_CLASSES.map((c) => pr.probs[c]),
        pr.difficulty,
      ),
    );
  }
  const s = summary(rs);
  console.log(`| ${name} | ${s.n} | ${(100 * s.reason).toFixed(1)}% | ${pct(s.hardDown, s.hard)} | ${pct(s.easyUp, s.easy)} |`);
}

const rows = new Map(loadLabelledPrompts().map((r) => [r.id, r]));
const loso: { id: string; dataset: string; probs: number[]; difficulty: number }[] = JSON.parse(await Bun.file(losoFile).text());
const folds = new Map<string, Routed[]>();
for (const l of loso) {
  const row = rows.get(l.id);
  if (!row) throw new Error(`${l.id} is no longer a labelled row: dump the predictions again`);
  const list = folds.get(l.dataset) ?? [];
  list.push(route(row.text, row.task, l.probs, l.difficulty));
  folds.set(l.dataset, list);
}
const fs = [...folds].map(([source, rs]) => ({ source, s: summary(rs) }));
if (process.argv.includes("--folds")) {
  console.log("\n| left out | prompts | reasons right | code/math/reasoning → cheapest | faq/chat → above cheapest |\n|---|---|---|---|---|");
  for (const { source, s } of fs)
    console.log(`| ${source} | ${s.n} | ${(100 * s.reason).toFixed(1)}% | ${pct(s.hardDown, s.hard)} | ${pct(s.easyUp, s.easy)} |`);
}
const hardFolds = fs.filter((f) => f.s.hard > 0).map((f) => ({ source: f.source, x: f.s.hardDown / f.s.hard }));
const easyFolds = fs.filter((f) => f.s.easy > 0).map((f) => ({ source: f.source, x: f.s.easyUp / f.s.easy }));
const mean = (xs: { x: number }[]) => (100 * xs.reduce((a, b) => a + b.x, 0)) / xs.length;
const worst = (xs: { source: string; x: number }[]) => xs.reduce((a, b) => (b.x > a.x ? b : a));
const wh = worst(hardFolds);
const we = worst(easyFolds);
console.log(
  `\nLeave one source out (${fs.length} folds, ${losoFile}): code/math/reasoning → cheapest mean ${mean(hardFolds).toFixed(1)}%, worst ${(100 * wh.x).toFixed(1)}% (${wh.source}); faq/chat → above cheapest mean ${mean(easyFolds).toFixed(1)}%, worst ${(100 * we.x).toFixed(1)}% (${we.source}); reasons right mean ${mean(fs.map((f) => ({ x: f.s.reason }))).toFixed(1)}%`,
);

if (process.argv.includes("--bands")) {
  const all = [...folds.values()].flat();
  const perClass = new Map<TaskClass, number>();
  for (const r of all) perClass.set(r.label, (perClass.get(r.label) ?? 0) + 1);
  const edges = [0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.000001];
  console.log(`\n| predicted | length | cheapest-tier confidence | prompts | of them code/math/reasoning | share, class-balanced |\n|---|---|---|---|---|---|`);
  for (const faqChat of [true, false])
    for (const long of [false, true])
      for (let b = 0; b < edges.length - 1; b++) {
        const inBand = all.filter(
          (r) =>
            r.cheapConfidence !== undefined &&
            r.predictedFaqChat === faqChat &&
            r.tokens >= table.long_question.tokens_from === long &&
            r.cheapConfidence >= edges[b]! &&
            r.cheapConfidence < edges[b + 1]!,
        );
        if (inBand.length === 0) continue;
        const w = (r: Routed) => 1 / perClass.get(r.label)!;
        const hardW = inBand.filter((r) => hardClass(r.label)).reduce((a, r) => a + w(r), 0);
        const allW = inBand.reduce((a, r) => a + w(r), 0);
        console.log(
          `| ${faqChat ? "faq, chat" : "other cheapest-tier"} | ${long ? `≥ ${table.long_question.tokens_from} tokens` : `< ${table.long_question.tokens_from} tokens`} | ${edges[b]!.toFixed(2)}-${Math.min(1, edges[b + 1]!).toFixed(2)} | ${inBand.length} | ${inBand.filter((r) => hardClass(r.label)).length} | ${(hardW / allW).toFixed(2)} |`,
        );
      }
}
