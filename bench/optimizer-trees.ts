/**
 * The optimizer inline, source trees side by side: every stage on (compression with its quality
 * back-off, embedding, classification, routing) on a fresh ~300-token prompt per call, as
 * bench/optimizer-hop.ts's "every stage on, inline" row runs it, each tree's call for a prompt back to
 * back in roundOrder so a slow spell of the machine hits all trees alike. Also counts the prompts whose
 * result (messages sent, route, scores) differs between trees. Wall time is what a request waits; this
 * thread's CPU time (process.threadCpuUsage) is the work alone, which a loaded machine's waits for a core
 * do not inflate. That clock advances in scheduler ticks (4 ms here: 2,957 of 3,000 one-millisecond
 * loops read 0), so one call's reading is 0 or a tick and only the mean over all calls means anything;
 * its percentiles, shown before, read 0 for one tree and 555 µs for the other in the same run.
 *
 *   bun bench/optimizer-trees.ts [--calls 2000] [--cache] [--prompts workload|corpora] [--tree name=/path ...]
 *
 * --cache asks for the cache's vector too (`wantEmbedding`, as the gateway does when svc_options.cache is
 * on, its default), which the classifier's vector serves unless a courtesy, a question frame or a synonym
 * makes the cache's text differ. --prompts corpora takes the compression corpora's real prompts
 * (bench/lib/compression-corpora, in turn) instead of the workload's ~300-token ones, whose STS sentences
 * hardly ever make the two texts differ (1 of 3,300).
 *
 * Without --tree it times this checkout alone. To compare with another commit:
 *   git archive <commit> | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   bun bench/optimizer-trees.ts --tree old=/tmp/old --tree new=.
 */
import { parseArgs } from "node:util";
import type { OptimizeResult } from "../src/pipeline/optimize-types";
import { compressionCorpora } from "./lib/compression-corpora";
import { loadTrees, roundOrder } from "./lib/measure";
import { percentile } from "./lib/stats";
import { treeOptimizer } from "./lib/tree-optimizer";
import { loadWorkload, variedPrompt } from "./lib/workload";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    calls: { type: "string", default: "2000" },
    cache: { type: "boolean", default: false },
    prompts: { type: "string", default: "workload" },
    tree: { type: "string", multiple: true, default: [] },
  },
});
if (flags.prompts !== "workload" && flags.prompts !== "corpora") throw new Error(`--prompts is workload or corpora, got ${flags.prompts}`);
const calls = Number(flags.calls);

interface Tree {
  name: string;
  run(prompt: string): Promise<OptimizeResult>;
  us: number[];
  cpuUs: number[];
}

/** One tree's optimizer with its own deps, called as the gateway's inline path calls it. */
async function loadTree(name: string, path: string): Promise<Tree> {
  const { at, settings, optimize, inputOf } = await treeOptimizer(path, "/tmp/svc-bench-trees");
  const { loadOptimizerDeps } = await at("src/pipeline/optimizer-deps.ts");
  const deps = await loadOptimizerDeps(settings);
  const available = (deps.catalog.models as { id: string }[]).map((m) => m.id);
  return { name, run: (prompt) => optimize({ ...inputOf(prompt, available), wantEmbedding: flags.cache }, deps), us: [], cpuUs: [] };
}

const trees: Tree[] = await loadTrees(flags.tree, loadTree);

const workload = loadWorkload(300);
const corpora = flags.prompts === "corpora" ? compressionCorpora().flatMap((c) => c.prompts.flatMap((p) => p.turns)) : [];
/** Prompt `i`: the workload's, or the corpora's in turn (seeds past 1,000,000, the warm-up's, from their end). */
const promptOf = (i: number) =>
  corpora.length === 0 ? variedPrompt(workload, i) : corpora[i >= 1_000_000 ? corpora.length - 1 - ((i - 1_000_000) % corpora.length) : i % corpora.length]!;
// Warm-up: the JIT, the token memos and the models' scratch of every tree, on prompts not timed.
for (let i = 0; i < 300; i++) for (const t of trees) await t.run(promptOf(1_000_000 + i));

/**
 * What a call decides: a tree that decides otherwise is not the same optimizer made faster. The route's
 * keys sorted: a tree that fills the route in another order decides the same (2,000 of 2,000 "differed"
 * by key order alone after issue 23's sixth round filled it in place).
 */
const decision = (r: OptimizeResult) =>
  JSON.stringify([
    r.messages,
    JSON.stringify(r.route, Object.keys(r.route).sort()),
    r.qualityScore,
    r.compressedTokens,
    r.rulesApplied,
    r.embedding ? Array.from(r.embedding.slice(0, 8)) : null,
  ]);
let differing = 0;
for (let i = 0; i < calls; i++) {
  const prompt = promptOf(i);
  const decisions = new Set<string>();
  for (const t of roundOrder(trees, i)) {
    const cpu0 = process.threadCpuUsage();
    const t0 = performance.now();
    const r = await t.run(prompt);
    t.us.push((performance.now() - t0) * 1000);
    const cpu = process.threadCpuUsage(cpu0);
    t.cpuUs.push(cpu.user + cpu.system);
    decisions.add(decision(r));
  }
  if (decisions.size > 1) differing++;
}

const what = corpora.length === 0 ? "fresh ~300-token prompts (bench/lib/workload)" : "prompts of the compression corpora";
console.log(`# optimize() inline, every stage on${flags.cache ? ", the cache's vector too" : ""}, ${calls} ${what}, trees interleaved\n`);
const first = trees[0]!;
console.log(`| tree | wall p50 µs | p90 | p99 | p50 vs ${first.name} | p99 vs ${first.name} | thread CPU mean µs | CPU mean vs ${first.name} |`);
console.log("|---|---|---|---|---|---|---|---|");
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
for (const t of trees) {
  const q = (xs: number[], p: number) => percentile(xs, p);
  const ratio = (xs: number[], base: number[], p: number) => (q(xs, p) / q(base, p)).toFixed(2);
  console.log(
    `| ${t.name} | ${q(t.us, 50).toFixed(0)} | ${q(t.us, 90).toFixed(0)} | ${q(t.us, 99).toFixed(0)} | ${ratio(t.us, first.us, 50)}x | ${ratio(t.us, first.us, 99)}x | ${mean(t.cpuUs).toFixed(0)} | ${(mean(t.cpuUs) / mean(first.cpuUs)).toFixed(3)}x |`,
  );
}
if (trees.length > 1) console.log(`\nPrompts whose result differs between trees: ${differing} of ${calls}.`);
