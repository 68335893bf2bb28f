/**
 * Whether this tree's optimizer gives what another checkout's gives, prompt by prompt: for a change
 * meant to make optimize() faster and nothing else. Each prompt goes through both trees' optimize()
 * with every stage on, as the gateway's inline path calls it (model "auto", the defaults), once with
 * the cache off and once on (the cache's vector and facets then made too), and through
 * both trees' models directly; compared are the messages sent, token counts, compression ratio, rules
 * applied, quality score, route (model, reason, tier, task, candidates), cache text and facets exactly,
 * and the cache vector, the class probabilities and the difficulty within 1e-6 (the largest difference
 * is printed). The prompts: the compression corpora (bench/lib/compression-corpora), bench/lib/workload's
 * ~300-token prompts, and every string of 20 characters or more in bench/data's chatty, adversarial,
 * FAQ and cache-pair files (the blind and hold-out files left out).
 *
 *   bun bench/optimizer-same.ts --baseline DIR [--workload 1000]   # exits 1 on any difference
 *
 * DIR: e.g. `git archive main | tar -x -C DIR && ln -s "$PWD/node_modules" DIR/node_modules`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { TaskPrediction } from "../src/ml/types";
import { lastUserText } from "../src/pipeline/optimize";
import type { OptimizeResult } from "../src/pipeline/optimize-types";
import { compressionCorpora } from "./lib/compression-corpora";
import { ROOT } from "./lib/processes";
import { treeOptimizer } from "./lib/tree-optimizer";
import { loadWorkload, variedPrompt } from "./lib/workload";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { baseline: { type: "string" }, workload: { type: "string", default: "1000" } },
});
if (!flags.baseline) throw new Error("usage: bun bench/optimizer-same.ts --baseline DIR [--workload N]");
const TOLERANCE = 1e-6;

interface Tree {
  /** With the cache on (`wantEmbedding`, as the gateway asks when svc_options.cache is on, its default) or off. */
  optimize(prompt: string, cache: boolean): Promise<OptimizeResult>;
  embed(text: string): Promise<Float32Array>;
  classify(text: string): Promise<TaskPrediction>;
}

async function loadTree(path: string, dataDir: string): Promise<Tree> {
  const { at, settings, optimize, inputOf } = await treeOptimizer(path, dataDir);
  const { loadOptimizerDeps } = await at("src/pipeline/optimizer-deps.ts");
  const deps = await loadOptimizerDeps(settings);
  const available = (deps.catalog.models as { id: string }[]).map((m) => m.id);
  return {
    optimize: (prompt, cache) => optimize({ ...inputOf(prompt, available), wantEmbedding: cache }, deps),
    embed: (text) => deps.models.embed(text),
    classify: (text) => deps.models.classify(text),
  };
}

/** Every string leaf of 20 characters or more, descriptions and notes about the file left out. */
function strings(value: unknown, key = ""): string[] {
  if (typeof value === "string") return value.length >= 20 && !["about", "description", "note", "notes"].includes(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => strings(v, key));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => strings(v, k));
  return [];
}

function prompts(workloadCount: number): string[] {
  const dir = join(ROOT, "bench", "data");
  const files = readdirSync(dir).filter((f) => f.endsWith(".json") && /^(chatty|compress|faq|cache)/.test(f) && !/blind|holdout/.test(f));
  const fromData = files.flatMap((f) => strings(JSON.parse(readFileSync(join(dir, f), "utf8"))));
  const fromCorpora = compressionCorpora().flatMap((c) => c.prompts.flatMap((p) => p.turns));
  const workload = loadWorkload(300);
  const fromWorkload = Array.from({ length: workloadCount }, (_, i) => variedPrompt(workload, i));
  return [...new Set([...fromCorpora, ...fromData, ...fromWorkload])];
}

/** The largest absolute difference between two vectors, Infinity when their lengths differ. */
function maxDiff(a: ArrayLike<number> | undefined, b: ArrayLike<number> | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : Infinity;
  if (a.length !== b.length) return Infinity;
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}

/** The fields of two results that differ, the vector left out (compared within the tolerance). */
function differingFields(a: OptimizeResult, b: OptimizeResult): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => k !== "embedding"));
  const field = (r: OptimizeResult, k: string) => JSON.stringify((r as unknown as Record<string, unknown>)[k]);
  return [...keys].filter((k) => field(a, k) !== field(b, k));
}
const probsOf = (p: TaskPrediction) => Object.values(p.probs).concat(p.difficulty);

const mine = await loadTree(".", "/tmp/svc-bench-same-mine");
const theirs = await loadTree(resolve(flags.baseline), "/tmp/svc-bench-same-theirs");
const all = prompts(Number(flags.workload));
let differing = 0;
let worstVector = 0;
let worstProbs = 0;
for (const prompt of all) {
  for (const cache of [false, true]) {
    const [a, b] = [await mine.optimize(prompt, cache), await theirs.optimize(prompt, cache)];
    const text = lastUserText(a.messages);
    const [pa, pb] = [await mine.classify(text), await theirs.classify(text)];
    const vector = Math.max(maxDiff(a.embedding, b.embedding), maxDiff(await mine.embed(text), await theirs.embed(text)));
    const probs = pa.task === pb.task ? maxDiff(probsOf(pa), probsOf(pb)) : Infinity;
    worstVector = Math.max(worstVector, vector);
    worstProbs = Math.max(worstProbs, probs);
    const fields = differingFields(a, b);
    if (fields.length > 0 || vector > TOLERANCE || probs > TOLERANCE) {
      if (differing++ < 5)
        console.log(
          `differs (cache ${cache ? "on" : "off"}): ${JSON.stringify(prompt.slice(0, 80))}: fields [${fields.join(", ")}], vector by ${vector}, probabilities by ${probs}`,
        );
    }
  }
}
console.log(
  `${all.length} prompts, each with the cache off and on: ${differing} results differ; largest difference of the cache vector ${worstVector}, of the class probabilities and difficulty ${worstProbs} (tolerance ${TOLERANCE}).`,
);
if (differing > 0) process.exit(1);
