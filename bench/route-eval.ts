/**
 * Routing evaluation: where each task class goes, what the workload costs against always calling the
 * baseline model, and how long a decision takes. Prints markdown tables.
 *
 *   bun bench/route-eval.ts
 *
 * Prompts are the held-out ("dev") rows of the task classifier's own split (models/task-classifier/split.ts),
 * which the classifier never trained on. Two predictors route them: the shipped classifier (through
 * loadModels, as the gateway does), and an oracle that predicts the label with full confidence and the
 * split's difficulty proxy: the routing table measured alone, so the gap between the two is what
 * classification errors cost.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Catalog, TIERS, type ModelInfo, type Tier } from "../src/catalog/catalog";
import { DEFAULT_MODELS_DIR } from "../src/ml/load";
import { loadModels } from "../src/pipeline/models";
import { TASK_CLASSES, type TaskClass, type TaskPrediction } from "../src/ml/types";
import { decideRoute, loadCapabilities, promptSignals, type CapabilityTable, type SignalSource } from "../src/pipeline/route";
import { countMessageTokens } from "../src/tokens/count";
import { loadLabelledPrompts, type LabelledPrompt } from "../models/task-classifier/split";

/** Assumed completion length of every answer, priced at the model's output price. */
const COMPLETION_TOKENS = 350;
/** Timed rounds over all prompts, after one untimed warm-up round. */
const ROUNDS = 5;

interface Predictor {
  name: string;
  /** Reads only the text, except the oracle, which reads the label. */
  predict(prompt: LabelledPrompt): Promise<TaskPrediction>;
}

const oracle: Predictor = {
  name: "oracle",
  predict: async (p) => {
    const probs = Object.fromEntries(TASK_CLASSES.map((c) => [c, c === p.task ? 1 : 0])) as Record<TaskClass, number>;
    return { task: p.task, probs, confidence: 1, difficulty: p.difficulty };
  },
};

/** The classifier as the gateway runs it: embed once (the cache needs it too), then classify. */
interface ShippedClassifier extends Predictor {
  embed(text: string): Promise<Float32Array>;
  classify(text: string, embedding: Float32Array): Promise<TaskPrediction>;
}

/** Undefined while models/task-classifier holds no trained model. */
async function shippedClassifier(): Promise<ShippedClassifier | undefined> {
  if (!existsSync(join(DEFAULT_MODELS_DIR, "task-classifier", "model.onnx"))) return undefined;
  const models = await loadModels();
  return {
    name: "task classifier",
    predict: (p) => models.classify(p.text),
    embed: (text) => models.embed(text),
    classify: (text, e) => models.classify(text, e),
  };
}

const catalog = Catalog.load();
const capabilities = loadCapabilities();
/** The operator's knob between the two misrouting goals, swept to show the trade-off. */
const THRESHOLD_SWEEP = [0.5, 0.6, 0.7, 0.8, 0.9];

function request(prompt: LabelledPrompt): SignalSource {
  return { messages: [{ role: "user", content: prompt.text }], max_tokens: COMPLETION_TOKENS };
}

interface Outcome {
  prompt: LabelledPrompt;
  predicted: TaskClass;
  tier: Tier;
  baselineUsd: number;
  routedUsd: number;
}

function routeAll(prompts: LabelledPrompt[], predictions: TaskPrediction[], isAvailable: (m: ModelInfo) => boolean, table: CapabilityTable = capabilities): Outcome[] {
  return prompts.map((prompt, i) => {
    const req = request(prompt);
    const tokens = countMessageTokens(req.messages);
    const prediction = predictions[i]!;
    const d = decideRoute({ model: "auto", route: true, catalog, capabilities: table, isAvailable, signals: promptSignals(req, tokens), prediction });
    if (!d.ok) throw new Error(`no model for ${prompt.id}: ${d.message}`);
    return {
      prompt,
      predicted: prediction.task,
      tier: d.tier,
      baselineUsd: catalog.cost(catalog.baseline, tokens, COMPLETION_TOKENS),
      routedUsd: catalog.cost(d.model, tokens, COMPLETION_TOKENS),
    };
  });
}

interface Summary {
  present: TaskClass[];
  sampledSaving: number;
  /** Every present class weighs the same, whatever its count in the data. */
  balancedSaving: number;
  /** Share of code, math and reasoning prompts sent to the cheapest tier. */
  hardToCheap: number;
  /** Share of faq and chat prompts sent above the cheapest tier. */
  easyUp: number;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function summarize(outcomes: Outcome[]): Summary {
  const present = TASK_CLASSES.filter((c) => outcomes.some((o) => o.prompt.task === c));
  const perClass = present.map((c) => outcomes.filter((o) => o.prompt.task === c));
  const mean = (os: Outcome[], f: (o: Outcome) => number) => sum(os.map(f)) / os.length;
  const share = (classes: TaskClass[], pred: (o: Outcome) => boolean) => {
    const os = outcomes.filter((o) => classes.includes(o.prompt.task));
    return os.length === 0 ? NaN : os.filter(pred).length / os.length;
  };
  return {
    present,
    sampledSaving: 1 - sum(outcomes.map((o) => o.routedUsd)) / sum(outcomes.map((o) => o.baselineUsd)),
    balancedSaving: 1 - sum(perClass.map((os) => mean(os, (o) => o.routedUsd))) / sum(perClass.map((os) => mean(os, (o) => o.baselineUsd))),
    hardToCheap: share(["code", "math", "reasoning"], (o) => o.tier === "cheapest"),
    easyUp: share(["faq", "chat"], (o) => o.tier !== "cheapest"),
  };
}

/** Which providers are configured: savings depend on what an operator has. */
const SCENARIOS: { name: string; isAvailable: (m: ModelInfo) => boolean }[] = [
  { name: "all three providers", isAvailable: () => true },
  { name: "provider B (OpenAI) only", isAvailable: (m) => m.provider === "openai" },
  { name: "provider A (Anthropic) only", isAvailable: (m) => m.provider === "anthropic" },
  { name: "provider C (Gemini) only", isAvailable: (m) => m.provider === "gemini" },
];

interface Timings {
  tokens: number[];
  signals: number[];
  embed: number[];
  classify: number[];
  decide: number[];
  total: number[];
}

/**
 * Each stage of a decision, ROUNDS times per prompt after an untimed warm-up round. The gateway embeds
 * the prompt for the cache anyway; routing total counts the embedding too, as a route-only call pays it.
 */
async function timeAll(prompts: LabelledPrompt[], classifier: ShippedClassifier | undefined): Promise<Timings> {
  const t: Timings = { tokens: [], signals: [], embed: [], classify: [], decide: [], total: [] };
  const isAvailable = () => true;
  for (let round = 0; round <= ROUNDS; round++) {
    for (const prompt of prompts) {
      const req = request(prompt);
      const t0 = Bun.nanoseconds();
      const tokens = countMessageTokens(req.messages);
      const t1 = Bun.nanoseconds();
      const signals = promptSignals(req, tokens);
      const t2 = Bun.nanoseconds();
      const embedding = classifier ? await classifier.embed(prompt.text) : undefined;
      const t3 = Bun.nanoseconds();
      const prediction = classifier && embedding ? await classifier.classify(prompt.text, embedding) : await oracle.predict(prompt);
      const t4 = Bun.nanoseconds();
      decideRoute({ model: "auto", route: true, catalog, capabilities, isAvailable, signals, prediction });
      const t5 = Bun.nanoseconds();
      if (round === 0) continue;
      t.tokens.push(t1 - t0);
      t.signals.push(t2 - t1);
      t.embed.push(t3 - t2);
      t.classify.push(t4 - t3);
      t.decide.push(t5 - t4);
      t.total.push(t5 - t1);
    }
  }
  return t;
}

const pct = (x: number) => (Number.isNaN(x) ? "n/a" : `${(100 * x).toFixed(1)}%`);
const usd = (x: number) => `$${x.toFixed(4)}`;
const us = (ns: number) => `${(ns / 1000).toFixed(1)} µs`;
const verdict = (ok: boolean) => (ok ? "met" : "**missed**");

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
}

function tierTable(outcomes: Outcome[], present: TaskClass[]): string {
  return table(
    ["class", "prompts", "classified as the label", ...TIERS, "routed / baseline cost", "saved"],
    present.map((c) => {
      const os = outcomes.filter((o) => o.prompt.task === c);
      const base = sum(os.map((o) => o.baselineUsd));
      const routed = sum(os.map((o) => o.routedUsd));
      const share = (f: (o: Outcome) => boolean) => pct(os.filter(f).length / os.length);
      return [c, String(os.length), share((o) => o.predicted === c), ...TIERS.map((t) => share((o) => o.tier === t)), `${usd(routed)} / ${usd(base)}`, pct(1 - routed / base)];
    }),
  );
}

async function main(): Promise<void> {
  const prompts = loadLabelledPrompts().filter((p) => p.split === "dev");
  const classifier = await shippedClassifier();
  const predictors = classifier ? [classifier, oracle] : [oracle];
  const primary = predictors[0]!;
  const predictions = new Map<Predictor, TaskPrediction[]>();
  for (const p of predictors) predictions.set(p, await Promise.all(prompts.map((x) => p.predict(x))));
  const outcomes = new Map(predictors.map((p) => [p, routeAll(prompts, predictions.get(p)!, SCENARIOS[0]!.isAvailable)]));
  const summaries = new Map(predictors.map((p) => [p, summarize(outcomes.get(p)!)]));

  console.log(`# Routing evaluation\n`);
  console.log(`- ${prompts.length} held-out prompts (split "dev" of models/task-classifier/split.ts)`);
  console.log(`- ${classifier ? "classifier: models/task-classifier through loadModels()" : "**no trained classifier in models/task-classifier: oracle only**"}; oracle: the label, confidence 1, the split's difficulty proxy`);
  console.log(`- completion assumed ${COMPLETION_TOKENS} tokens per prompt; prompt tokens counted with o200k; all providers available unless said otherwise`);
  console.log(`- baseline: always ${catalog.baseline.id} ($${catalog.baseline.input_usd_per_mtok}/1M in, $${catalog.baseline.output_usd_per_mtok}/1M out)\n`);

  const sources = new Map<string, Map<TaskClass, number>>();
  for (const p of prompts) {
    const key = `${p.dataset} (${p.labelSource})`;
    const m = sources.get(key) ?? new Map<TaskClass, number>();
    m.set(p.task, (m.get(p.task) ?? 0) + 1);
    sources.set(key, m);
  }
  console.log(`## Held-out prompts\n`);
  console.log(table(["dataset (label source)", "prompts per class"], [...sources].map(([k, m]) => [k, [...m].map(([c, n]) => `${c} ${n}`).join(", ")])));

  for (const p of predictors) {
    console.log(`\n## Share of each class routed to each tier: ${p.name}\n`);
    console.log(tierTable(outcomes.get(p)!, summaries.get(p)!.present));
  }

  const goal = (name: string, target: string, value: (s: Summary) => number, ok?: (x: number) => boolean) => [
    name,
    target,
    ...predictors.map((p) => {
      const x = value(summaries.get(p)!);
      return ok ? `${pct(x)} ${verdict(ok(x))}` : pct(x);
    }),
  ];
  console.log(`\n## Goals (all providers available)\n`);
  console.log(
    table(
      ["goal", "target", ...predictors.map((p) => p.name)],
      [
        goal("code, math, reasoning sent to the cheapest tier", "< 5%", (s) => s.hardToCheap, (x) => x < 0.05),
        goal("faq, chat sent above the cheapest tier", "< 10%", (s) => s.easyUp, (x) => x < 0.1),
        goal(`saved against the baseline, class-balanced mix (${summaries.get(primary)!.present.length} classes, equal prompt counts)`, "≥ 60%", (s) => s.balancedSaving, (x) => x >= 0.6),
        goal("saved against the baseline, prompts as held out", "(none)", (s) => s.sampledSaving),
      ],
    ),
  );

  console.log(`\n## Savings by configured providers: ${primary.name}\n`);
  console.log(
    table(
      ["providers", "saved, class-balanced", "saved, as held out", "code/math/reasoning → cheapest", "faq/chat → above cheapest"],
      SCENARIOS.map(({ name, isAvailable }) => {
        const r = summarize(routeAll(prompts, predictions.get(primary)!, isAvailable));
        return [name, pct(r.balancedSaving), pct(r.sampledSaving), pct(r.hardToCheap), pct(r.easyUp)];
      }),
    ),
  );

  console.log(`\n## tier_confidence_threshold: ${primary.name} (bundled value ${capabilities.tier_confidence_threshold})\n`);
  console.log(
    table(
      ["threshold", "code/math/reasoning → cheapest", "faq/chat → above cheapest", "saved, class-balanced"],
      THRESHOLD_SWEEP.map((th) => {
        const r = summarize(routeAll(prompts, predictions.get(primary)!, SCENARIOS[0]!.isAvailable, { ...capabilities, tier_confidence_threshold: th }));
        return [String(th), pct(r.hardToCheap), pct(r.easyUp), pct(r.balancedSaving)];
      }),
    ),
  );

  const t = await timeAll(prompts, classifier);
  const row = (name: string, xs: number[]) => [name, us(quantile(xs, 0.5)), us(quantile(xs, 0.99))];
  const how = classifier ? "" : ", **without classification: no trained classifier**";
  console.log(`\n## Decision time (${t.total.length} decisions: ${ROUNDS} rounds over the held-out prompts after a warm-up round, inline on one thread${how})\n`);
  console.log(
    table(
      ["stage", "p50", "p99"],
      [
        row("promptSignals (token count given)", t.signals),
        ...(classifier ? [row("embed (shipped embedding; the cache computes it anyway)", t.embed), row("classify (embedding given)", t.classify)] : []),
        row("decideRoute", t.decide),
        row(`**routing total** (signals${classifier ? " + embed + classify" : ""} + decide)`, t.total),
        row("baseline in the same run: countMessageTokens of the prompt (o200k)", t.tokens),
      ],
    ),
  );
  const p50 = quantile(t.total, 0.5);
  console.log(`\nRouting total p50 is ${(p50 / quantile(t.tokens, 0.5)).toFixed(2)}× the token count's p50; goal under 300 µs p50: ${verdict(p50 < 300_000)}.`);
}

await main();
