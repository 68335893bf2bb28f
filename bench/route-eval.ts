/**
 * Routing evaluation: where each task class goes, what the workload costs against always calling the
 * baseline model, and how long a decision takes. Prints markdown tables.
 *
 *   bun bench/route-eval.ts
 *
 * Labelled prompts come from the public data in ../shared/data. Until the task classifier and its
 * held-out split land (models/task-classifier), the prompts are the benchmark sets whose own
 * categories give the class, and the prediction is the label itself ("oracle": the routing table
 * measured alone, an upper bound on what a real classifier reaches).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { Catalog, TIERS, type ModelInfo, type Tier } from "../src/catalog/catalog";
import { TASK_CLASSES, type TaskClass, type TaskPrediction } from "../src/ml/types";
import type { ChatMessage } from "../src/pipeline/messages";
import { decideRoute, loadCapabilities, promptSignals, type SignalSource } from "../src/pipeline/route";
import { countMessageTokens } from "../src/tokens/count";

/** Assumed completion length of every answer, priced at the model's output price. */
const COMPLETION_TOKENS = 350;
/** Timed rounds over all prompts, after one untimed warm-up round. */
const REPEATS = 20;

const DATA = resolve(import.meta.dir, "../../shared/data");

interface LabelledPrompt {
  source: string;
  task: TaskClass;
  messages: ChatMessage[];
}

/** A classifier reads only `messages`; the oracle reads the label. */
interface Predictor {
  name: string;
  predict(prompt: LabelledPrompt): TaskPrediction;
}

function jsonl<T>(...path: string[]): T[] {
  const file = resolve(DATA, ...path);
  const text = file.endsWith(".gz") ? gunzipSync(readFileSync(file)).toString("utf8") : readFileSync(file, "utf8");
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as T);
}

const ask = (content: string): ChatMessage[] => [{ role: "user", content }];

/** Benchmark sets whose own category names the task; categories that match no class are left out. */
function interimLabelledSet(): LabelledPrompt[] {
  const out: LabelledPrompt[] = [];
  const byCategory = (source: string, file: string, classOf: Record<string, TaskClass>) => {
    for (const q of jsonl<{ category: string; turns: string[] }>(source, file)) {
      const task = classOf[q.category];
      if (task && q.turns[0]) out.push({ source: `${source}/${q.category}`, task, messages: ask(q.turns[0]) });
    }
  };
  byCategory("mt-bench", "question.jsonl", {
    writing: "creative", roleplay: "chat", reasoning: "reasoning", math: "math",
    coding: "code", extraction: "extract", stem: "faq", humanities: "faq",
  });
  byCategory("vicuna-bench", "question.jsonl", {
    generic: "chat", knowledge: "faq", roleplay: "chat", "common-sense": "faq", fermi: "reasoning",
    counterfactual: "creative", writing: "creative", coding: "code", math: "math",
  });
  const arena: Record<string, TaskClass> = { coding: "code", math: "math", creative_writing: "creative" };
  for (const q of jsonl<{ subcategory: string; prompt: string }>("arena-hard", "v2.0-question.jsonl")) {
    const task = arena[q.subcategory];
    if (task) out.push({ source: `arena-hard-v2/${q.subcategory}`, task, messages: ask(q.prompt) });
  }
  for (const q of jsonl<{ prompt: string }>("humaneval", "HumanEval.jsonl.gz")) out.push({ source: "humaneval", task: "code", messages: ask(q.prompt) });
  // mbpp's own test split is task ids 11-510.
  for (const q of jsonl<{ task_id: number; text: string }>("mbpp", "mbpp.jsonl")) {
    if (q.task_id >= 11 && q.task_id <= 510) out.push({ source: "mbpp/test", task: "code", messages: ask(q.text) });
  }
  // Every 25th gsm8k question: enough to measure, without letting one set dominate the mix.
  jsonl<{ question: string }>("gsm8k", "train.jsonl").forEach((q, i) => {
    if (i % 25 === 0) out.push({ source: "gsm8k/every-25th", task: "math", messages: ask(q.question) });
  });
  return out;
}

/** The label as the prediction, fully confident, in the medium difficulty band. */
const oracle: Predictor = {
  name: "oracle (label as prediction, confidence 1, difficulty 0.5)",
  predict: (p) => {
    const probs = Object.fromEntries(TASK_CLASSES.map((c) => [c, c === p.task ? 1 : 0])) as Record<TaskClass, number>;
    return { task: p.task, probs, confidence: 1, difficulty: 0.5 };
  },
};

interface Outcome {
  prompt: LabelledPrompt;
  tier: Tier;
  model: string;
  baselineUsd: number;
  routedUsd: number;
}

interface Timings {
  tokens: number[];
  signals: number[];
  classify: number[];
  decide: number[];
  total: number[];
}

/** Which providers are configured, for the what-if table: savings depend on what an operator has. */
const SCENARIOS: { name: string; isAvailable: (m: ModelInfo) => boolean }[] = [
  { name: "all three providers", isAvailable: () => true },
  { name: "provider B (OpenAI) only", isAvailable: (m) => m.provider === "openai" },
  { name: "provider A (Anthropic) only", isAvailable: (m) => m.provider === "anthropic" },
  { name: "provider C (Gemini) only", isAvailable: (m) => m.provider === "gemini" },
];

const catalog = Catalog.load();
const capabilities = loadCapabilities();

function request(prompt: LabelledPrompt): SignalSource {
  return { messages: prompt.messages, max_tokens: COMPLETION_TOKENS };
}

function routeAll(prompts: LabelledPrompt[], predictions: TaskPrediction[], isAvailable: (m: ModelInfo) => boolean): Outcome[] {
  return prompts.map((prompt, i) => {
    const tokens = countMessageTokens(prompt.messages);
    const signals = promptSignals(request(prompt), tokens);
    const d = decideRoute({ model: "auto", route: true, catalog, capabilities, isAvailable, signals, prediction: predictions[i] });
    if (!d.ok) throw new Error(`no model for a ${prompt.task} prompt from ${prompt.source}: ${d.message}`);
    return {
      prompt,
      tier: d.tier,
      model: d.model.id,
      baselineUsd: catalog.cost(catalog.baseline, tokens, COMPLETION_TOKENS),
      routedUsd: catalog.cost(d.model, tokens, COMPLETION_TOKENS),
    };
  });
}

/** Each stage timed REPEATS times per prompt, after a first untimed pass over all prompts warms the JIT. */
function timeAll(prompts: LabelledPrompt[], predictor: Predictor): Timings {
  const timings: Timings = { tokens: [], signals: [], classify: [], decide: [], total: [] };
  const isAvailable = () => true;
  for (let r = 0; r <= REPEATS; r++) {
    for (const prompt of prompts) {
      const req = request(prompt);
      const t0 = Bun.nanoseconds();
      const tokens = countMessageTokens(req.messages);
      const t1 = Bun.nanoseconds();
      const signals = promptSignals(req, tokens);
      const t2 = Bun.nanoseconds();
      const prediction = predictor.predict(prompt);
      const t3 = Bun.nanoseconds();
      decideRoute({ model: "auto", route: true, catalog, capabilities, isAvailable, signals, prediction });
      const t4 = Bun.nanoseconds();
      if (r === 0) continue;
      timings.tokens.push(t1 - t0);
      timings.signals.push(t2 - t1);
      timings.classify.push(t3 - t2);
      timings.decide.push(t4 - t3);
      timings.total.push(t4 - t1);
    }
  }
  return timings;
}

interface Summary {
  present: TaskClass[];
  sampledSaving: number;
  balancedSaving: number;
  /** Share of code, math and reasoning prompts sent to the cheapest tier. */
  hardToCheap: number;
  /** Share of faq and chat prompts sent above the cheapest tier. */
  easyUp: number;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function summarize(outcomes: Outcome[]): Summary {
  const present = TASK_CLASSES.filter((c) => outcomes.some((o) => o.prompt.task === c));
  // Class-balanced: every present class weighs the same, whatever its count in the data.
  const perClass = present.map((c) => outcomes.filter((o) => o.prompt.task === c));
  const mean = (os: Outcome[], f: (o: Outcome) => number) => sum(os.map(f)) / os.length;
  const balancedBase = sum(perClass.map((os) => mean(os, (o) => o.baselineUsd)));
  const balancedRouted = sum(perClass.map((os) => mean(os, (o) => o.routedUsd)));
  const share = (classes: TaskClass[], pred: (o: Outcome) => boolean) => {
    const os = outcomes.filter((o) => classes.includes(o.prompt.task));
    return os.length === 0 ? NaN : os.filter(pred).length / os.length;
  };
  return {
    present,
    sampledSaving: 1 - sum(outcomes.map((o) => o.routedUsd)) / sum(outcomes.map((o) => o.baselineUsd)),
    balancedSaving: 1 - balancedRouted / balancedBase,
    hardToCheap: share(["code", "math", "reasoning"], (o) => o.tier === "cheapest"),
    easyUp: share(["faq", "chat"], (o) => o.tier !== "cheapest"),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const usd = (x: number) => `$${x.toFixed(4)}`;
const us = (ns: number) => `${(ns / 1000).toFixed(2)} µs`;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
}

const verdict = (ok: boolean) => (ok ? "met" : "**missed**");

function main(): void {
  const prompts = interimLabelledSet();
  const predictor = oracle;
  const predictions = prompts.map((p) => predictor.predict(p));
  const outcomes = routeAll(prompts, predictions, SCENARIOS[0]!.isAvailable);
  const s = summarize(outcomes);

  console.log(`# Routing evaluation\n`);
  console.log(`- prompts: ${prompts.length}; predictor: ${predictor.name}`);
  console.log(`- completion assumed ${COMPLETION_TOKENS} tokens per prompt; prompt tokens counted with o200k; all providers available unless a table says otherwise`);
  console.log(`- baseline: always ${catalog.baseline.id} ($${catalog.baseline.input_usd_per_mtok}/1M in, $${catalog.baseline.output_usd_per_mtok}/1M out)\n`);

  const sources = new Map<string, { task: TaskClass; n: number }>();
  for (const p of prompts) sources.set(p.source, { task: p.task, n: (sources.get(p.source)?.n ?? 0) + 1 });
  console.log(`## Labelled prompts\n`);
  console.log(table(["source", "class", "prompts"], [...sources].map(([src, { task, n }]) => [src, task, String(n)])));

  console.log(`\n## Share of each class routed to each tier\n`);
  console.log(
    table(
      ["class", "prompts", ...TIERS, "routed cost / baseline cost", "saved"],
      s.present.map((c) => {
        const os = outcomes.filter((o) => o.prompt.task === c);
        const base = sum(os.map((o) => o.baselineUsd));
        const routed = sum(os.map((o) => o.routedUsd));
        return [c, String(os.length), ...TIERS.map((t) => pct(os.filter((o) => o.tier === t).length / os.length)), `${usd(routed)} / ${usd(base)}`, pct(1 - routed / base)];
      }),
    ),
  );

  console.log(`\n## Goals (all providers available)\n`);
  console.log(
    table(
      ["goal", "measured", "target", "verdict"],
      [
        ["code, math, reasoning sent to the cheapest tier", pct(s.hardToCheap), "< 5%", verdict(s.hardToCheap < 0.05)],
        ["faq, chat sent above the cheapest tier", pct(s.easyUp), "< 10%", verdict(s.easyUp < 0.1)],
        [`saved against the baseline, class-balanced mix (${s.present.length} classes, equal prompt counts)`, pct(s.balancedSaving), "≥ 60%", verdict(s.balancedSaving >= 0.6)],
        ["saved against the baseline, prompts as sampled", pct(s.sampledSaving), "(no goal)", ""],
      ],
    ),
  );

  console.log(`\n## Savings by configured providers\n`);
  console.log(
    table(
      ["providers", "saved, class-balanced", "saved, as sampled", "code/math/reasoning → cheapest", "faq/chat → above cheapest"],
      SCENARIOS.map(({ name, isAvailable }) => {
        const r = summarize(routeAll(prompts, predictions, isAvailable));
        return [name, pct(r.balancedSaving), pct(r.sampledSaving), pct(r.hardToCheap), pct(r.easyUp)];
      }),
    ),
  );

  const timings = timeAll(prompts, predictor);
  const row = (name: string, xs: number[]) => [name, us(quantile(xs, 0.5)), us(quantile(xs, 0.99))];
  console.log(`\n## Decision time (${timings.decide.length} decisions: ${REPEATS} rounds over all prompts after an untimed warm-up round)\n`);
  console.log(
    table(
      ["stage", "p50", "p99"],
      [
        row("promptSignals (token count given)", timings.signals),
        row(`classification: ${predictor.name}`, timings.classify),
        row("decideRoute", timings.decide),
        row("**routing total** (signals + classification + decide)", timings.total),
        row("baseline in the same run: countMessageTokens of the prompt (o200k)", timings.tokens),
      ],
    ),
  );
  const p50 = quantile(timings.total, 0.5);
  console.log(`\nRouting total p50 is ${(p50 / quantile(timings.tokens, 0.5)).toFixed(2)}× the token count's p50; goal under 300 µs p50: ${verdict(p50 < 300_000)}.`);
}

main();
