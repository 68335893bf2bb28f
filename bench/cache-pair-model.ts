/**
 * A learned equivalence judgement for the semantic cache, tried in issue 24 (the fifth session, and again by the
 * cache12 helper of 2026-11-27 with outside-written FAQ data and the adversarial pair files) and not shipped: a
 * logistic regression that would turn a refusal of the verifier into a hit only where every difference the
 * verifier finds is one of content words (bench/lib/judge-pairs.ts softRefusal; never a number, operator,
 * negation, direction, quantifier, role, order or name), and only above a threshold above every negative it
 * trained on. Two feature sets: alignment (the cosine, how much of the prompts' information the shared and the
 * unmatched content words carry, the verifier's word-vector alignment, counts) and vector (the two prompts'
 * embeddings compared dimension by dimension, 513 values). This prints what each would serve at that threshold
 * on the data it trained on and on FAQ files it never saw, and where those files' repeats stand.
 *
 *   bun bench/cache-pair-model.ts [--test FILE]... [--show]
 *
 * Data (../shared/data and files written for the project only):
 * - train (and threshold): the FAQ files written by the cache helpers (every ordered pair of two questions of
 *   one file: two wordings of one intent the same, two intents or a unique question not), every --pairs file of
 *   bench/cache-eval.ts (bench/data/cache-*.json: their near misses are the hardest negatives there are),
 *   SemEval STS 2012-2015 and STS-B train and dev (>= 4.8 same, <= 3 not), and WordNet swaps and structural edits
 *   of the tune sources' prompts (bench/lib/cache-hard-negatives.ts TUNE_SOURCES, another seed than the bench's).
 * - test: FAQ files given with --test (default: bench/data/faq-dev12.json, an outside writer's), never trained
 *   on; the threshold is not chosen on them. Only totals are printed for them.
 * Result: bench/results/cache-pair-model.md.
 */
import { parseArgs } from "node:util";
import { basename } from "node:path";
import { loadModels } from "../src/pipeline/models";
import { ALIGNMENT_FEATURES, editNegatives, faqPairs, type JudgePair, type JudgeRow, judgeRows, pairFile, type Reach, stsPairs } from "./lib/judge-pairs";

const { values: args } = parseArgs({
  options: { test: { type: "string", multiple: true, default: ["bench/data/faq-dev12.json"] }, show: { type: "boolean", default: false } },
});

/** Written by the cache helpers of issue 24 and read while tuning the verifier. */
const TRAIN_FAQ = [
  "faq-replay",
  "faq-holdout",
  "faq-fresh",
  "faq-dev",
  "faq-dev2",
  "faq-dev3",
  "faq-dev4",
  "faq-dev5",
  "faq-dev6",
  "faq-dev9",
  "faq-frames-dev",
  "faq-check5",
];
const PAIR_FILES = [
  "cache-dev-pairs",
  "cache-dev-pairs2",
  "cache-frame-pairs",
  "cache-frame-pairs8",
  "cache-pairs-dev9",
  "cache-probe-s10",
  "cache-probe10",
  "cache-probe11",
  "cache-probe5",
  "cache-probe9",
];

const models = await loadModels();
const embed = (text: string) => models.embed(text);

const trainPairs: JudgePair[] = [...TRAIN_FAQ.flatMap(faqPairs), ...PAIR_FILES.flatMap(pairFile), ...stsPairs(), ...editNegatives(600, 24)];
const train = (await judgeRows(trainPairs, embed)).rows;
const tests = [];
for (const file of args.test!) {
  const name = basename(file, ".json");
  tests.push({ name, ...(await judgeRows(faqPairs(name), embed)) });
}

type Features = (r: JudgeRow) => Float32Array;

/** L2-regularised logistic regression on standardised features by full-batch gradient descent, both classes weighted equally. */
function fit(rows: readonly JudgeRow[], features: Features): (r: JudgeRow) => number {
  const xs = rows.map(features);
  const d = xs[0]!.length;
  const mean = new Float64Array(d);
  const sd = new Float64Array(d);
  for (const x of xs) for (let i = 0; i < d; i++) mean[i]! += x[i]! / xs.length;
  for (const x of xs) for (let i = 0; i < d; i++) sd[i]! += (x[i]! - mean[i]!) ** 2 / xs.length;
  for (let i = 0; i < d; i++) sd[i] = Math.sqrt(sd[i]!) + 1e-6;
  const z = xs.map((x) => Float64Array.from(x, (v, i) => (v - mean[i]!) / sd[i]!));
  const positives = rows.filter((r) => r.same).length;
  const weight = (r: JudgeRow) => (r.same ? rows.length / (2 * positives) : rows.length / (2 * (rows.length - positives)));
  const w = new Float64Array(d);
  let b = 0;
  for (let epoch = 0; epoch < 500; epoch++) {
    const gw = new Float64Array(d);
    let gb = 0;
    for (let n = 0; n < z.length; n++) {
      let s = b;
      for (let i = 0; i < d; i++) s += w[i]! * z[n]![i]!;
      const err = (1 / (1 + Math.exp(-s)) - (rows[n]!.same ? 1 : 0)) * weight(rows[n]!);
      for (let i = 0; i < d; i++) gw[i]! += err * z[n]![i]!;
      gb += err;
    }
    for (let i = 0; i < d; i++) w[i] = w[i]! - 0.3 * (gw[i]! / z.length + 1e-3 * w[i]!);
    b -= (0.3 * gb) / z.length;
  }
  return (r) => {
    const x = features(r);
    let s = b;
    for (let i = 0; i < d; i++) s += (w[i]! * (x[i]! - mean[i]!)) / sd[i]!;
    return 1 / (1 + Math.exp(-s));
  };
}

const pct = (n: number, of: number) => `${of === 0 ? "0.0" : ((100 * n) / of).toFixed(1)}%`;

console.log(`# Learned equivalence judgement (not shipped): \`bun bench/cache-pair-model.ts\`\n`);
console.log(`train: ${train.length} soft refusals at cosine >= 0.50 (${train.filter((r) => r.same).length} the same request)\n`);

for (const [name, features] of [
  [`alignment (${ALIGNMENT_FEATURES.join(", ")})`, (r: JudgeRow) => r.alignment],
  ["vector (products and absolute differences of the two embeddings, cosine)", (r: JudgeRow) => r.vector],
] as const) {
  const p = fit(train, features);
  // The lowest threshold above every negative it trained on: 0 false hits on every tuning set by construction.
  const threshold = Math.max(...train.filter((r) => !r.same).map(p)) + 1e-6;
  console.log(`## Features: ${name}; threshold ${threshold.toFixed(6)}\n`);
  console.log(`| data | same accepted | false hits |`);
  console.log(`|---|---|---|`);
  const sources = new Map<string, JudgeRow[]>();
  for (const r of train) {
    const key =
      r.source.startsWith("semeval") || r.source.startsWith("stsb")
        ? "STS (SemEval 2012-2015, STS-B train and dev)"
        : r.source.startsWith("edit")
          ? "edits of tune prompts"
          : r.source;
    sources.set(key, [...(sources.get(key) ?? []), r]);
  }
  const line = (label: string, rows: readonly JudgeRow[]) =>
    console.log(
      `| ${label} | ${rows.filter((r) => r.same && p(r) >= threshold).length} of ${rows.filter((r) => r.same).length} | ${rows.filter((r) => !r.same && p(r) >= threshold).length} of ${rows.filter((r) => !r.same).length} |`,
    );
  for (const [key, rows] of [...sources].sort()) line(`train: ${key}`, rows);
  for (const t of tests) line(`test: ${t.name} (never trained on)`, t.rows);
  // The positives closest to the threshold and the negatives that set it: what the features cannot tell apart.
  if (args.show) {
    const ranked = [...train].sort((x, y) => p(y) - p(x)).slice(0, 40);
    for (const r of ranked) console.log(`- ${r.same ? "same" : "DIFF"} ${p(r).toFixed(4)} ${r.source}: ${JSON.stringify(r.a)} / ${JSON.stringify(r.b)}`);
  }
  console.log("");
}

console.log(`## Where the test files' repeats stand (every ordered pair of two wordings of one intent)\n`);
console.log(
  `| file | pairs | below the 0.50 cosine | served by the verifier | refused for content words only (the judgement's reach) | refused for structure |`,
);
console.log(`|---|---|---|---|---|---|`);
for (const t of tests) {
  const r: Reach = t.reach;
  const all = r.below + r.served + r.soft + r.structural;
  console.log(`| ${t.name} | ${all} | ${r.below} (${pct(r.below, all)}) | ${r.served} | ${r.soft} (${pct(r.soft, all)}) | ${r.structural} |`);
}
