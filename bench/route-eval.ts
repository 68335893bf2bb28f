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
import { Catalog, TIERS, type Tier } from "../src/catalog/catalog";
import { TASK_CLASSES, type TaskClass, type TaskPrediction } from "../src/ml/types";
import type { ChatMessage } from "../src/pipeline/messages";
import { decideRoute, loadCapabilities, promptSignals, type RouteInput } from "../src/pipeline/route";
import { countMessageTokens } from "../src/tokens/count";

/** Assumed completion length of every answer, priced at the model's output price. */
const COMPLETION_TOKENS = 350;
/** Timed repetitions of each stage per prompt, after the untimed pass that records its outcome. */
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

function evaluate(prompts: LabelledPrompt[], predictor: Predictor): { outcomes: Outcome[]; timings: Timings } {
  const catalog = Catalog.load();
  const capabilities = loadCapabilities();
  const base: Omit<RouteInput, "signals" | "prediction"> = { model: "auto", route: true, catalog, capabilities, isAvailable: () => true };
  const outcomes: Outcome[] = [];
  const timings: Timings = { tokens: [], signals: [], classify: [], decide: [], total: [] };
  for (const prompt of prompts) {
    const req = { messages: prompt.messages, max_tokens: COMPLETION_TOKENS };
    const tokens = countMessageTokens(req.messages);
    const signals = promptSignals(req, tokens);
    const prediction = predictor.predict(prompt);
    const d = decideRoute({ ...base, signals, prediction });
    if (!d.ok) throw new Error(`no model for a ${prompt.task} prompt from ${prompt.source}: ${d.message}`);
    outcomes.push({
      prompt,
      tier: d.tier,
      model: d.model.id,
      baselineUsd: catalog.cost(catalog.baseline, tokens, COMPLETION_TOKENS),
      routedUsd: catalog.cost(d.model, tokens, COMPLETION_TOKENS),
    });
    for (let r = 0; r < REPEATS; r++) {
      const t0 = Bun.nanoseconds();
      countMessageTokens(req.messages);
      const t1 = Bun.nanoseconds();
      const s = promptSignals(req, tokens);
      const t2 = Bun.nanoseconds();
      const pred = predictor.predict(prompt);
      const t3 = Bun.nanoseconds();
      decideRoute({ ...base, signals: s, prediction: pred });
      const t4 = Bun.nanoseconds();
      timings.tokens.push(t1 - t0);
      timings.signals.push(t2 - t1);
      timings.classify.push(t3 - t2);
      timings.decide.push(t4 - t3);
      timings.total.push(t4 - t1);
    }
  }
  return { outcomes, timings };
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

function report(prompts: LabelledPrompt[], predictor: Predictor, outcomes: Outcome[], timings: Timings): void {
  const catalog = Catalog.load();
  console.log(`# Routing evaluation\n`);
  console.log(`- prompts: ${prompts.length}; predictor: ${predictor.name}`);
  console.log(`- all providers available; completion assumed ${COMPLETION_TOKENS} tokens per prompt; prompt tokens counted with o200k`);
  console.log(`- baseline: always ${catalog.baseline.id} ($${catalog.baseline.input_usd_per_mtok}/1M in, $${catalog.baseline.output_usd_per_mtok}/1M out)\n`);

  const sources = new Map<string, { task: TaskClass; n: number }>();
  for (const p of prompts) sources.set(p.source, { task: p.task, n: (sources.get(p.source)?.n ?? 0) + 1 });
  console.log(`## Labelled prompts\n`);
  console.log(table(["source", "class", "prompts"], [...sources].map(([s, { task, n }]) => [s, task, String(n)])));

  const byClass = (c: TaskClass) => outcomes.filter((o) => o.prompt.task === c);
  const present = TASK_CLASSES.filter((c) => byClass(c).length > 0);
  console.log(`\n## Share of each class routed to each tier\n`);
  console.log(
    table(
      ["class", "prompts", ...TIERS, "cost vs baseline", "saved"],
      present.map((c) => {
        const os = byClass(c);
        const base = os.reduce((a, o) => a + o.baselineUsd, 0);
        const routed = os.reduce((a, o) => a + o.routedUsd, 0);
        return [c, String(os.length), ...TIERS.map((t) => pct(os.filter((o) => o.tier === t).length / os.length)), `${usd(routed)} / ${usd(base)}`, pct(1 - routed / base)];
      }),
    ),
  );

  // Class-balanced: every present class weighs the same, whatever its count in the data.
  const classSaving = present.map((c) => {
    const os = byClass(c);
    return { base: os.reduce((a, o) => a + o.baselineUsd, 0) / os.length, routed: os.reduce((a, o) => a + o.routedUsd, 0) / os.length };
  });
  const balancedBase = classSaving.reduce((a, s) => a + s.base, 0);
  const balancedRouted = classSaving.reduce((a, s) => a + s.routed, 0);
  const sampledBase = outcomes.reduce((a, o) => a + o.baselineUsd, 0);
  const sampledRouted = outcomes.reduce((a, o) => a + o.routedUsd, 0);
  console.log(`\n## Workload cost\n`);
  console.log(
    table(
      ["workload", "baseline", "routed", "saved"],
      [
        ["as sampled", usd(sampledBase), usd(sampledRouted), pct(1 - sampledRouted / sampledBase)],
        [`class-balanced (${present.length} classes, equal prompt counts)`, usd(balancedBase), usd(balancedRouted), pct(1 - balancedRouted / balancedBase)],
      ],
    ),
  );

  const share = (classes: TaskClass[], pred: (o: Outcome) => boolean) => {
    const os = outcomes.filter((o) => classes.includes(o.prompt.task));
    return os.length === 0 ? NaN : os.filter(pred).length / os.length;
  };
  const hardToCheap = share(["code", "math", "reasoning"], (o) => o.tier === "cheapest");
  const easyUp = share(["faq", "chat"], (o) => o.tier !== "cheapest");
  const saving = 1 - balancedRouted / balancedBase;
  const verdict = (ok: boolean) => (ok ? "met" : "**missed**");
  console.log(`\n## Goals\n`);
  console.log(
    table(
      ["goal", "measured", "target", "verdict"],
      [
        ["code, math, reasoning sent to the cheapest tier", pct(hardToCheap), "< 5%", verdict(hardToCheap < 0.05)],
        ["faq, chat sent above the cheapest tier", pct(easyUp), "< 10%", verdict(easyUp < 0.1)],
        ["saved against the baseline, class-balanced mix", pct(saving), "≥ 60%", verdict(saving >= 0.6)],
      ],
    ),
  );

  const row = (name: string, xs: number[]) => [name, us(quantile(xs, 0.5)), us(quantile(xs, 0.99))];
  console.log(`\n## Decision time (${timings.decide.length} decisions: ${REPEATS} timed per prompt after its untimed first pass)\n`);
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
  console.log(`\nDecision-time goal: under 300 µs p50 with classification: ${verdict(quantile(timings.total, 0.5) < 300_000)}.`);
}

const prompts = interimLabelledSet();
const predictor = oracle;
const { outcomes, timings } = evaluate(prompts, predictor);
report(prompts, predictor, outcomes, timings);
