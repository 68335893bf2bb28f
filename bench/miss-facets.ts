/**
 * A semantic-cache miss on the event loop, in process, source trees side by side: the event loop's
 * optimizer (every stage on, as Optimizer.runsInline runs a lone request) and the cache lookup, which
 * is what the request waits for before it goes upstream, then the fill and the cache's background work
 * (vector indexing, the entry's facets), which follow the answer. The prompts are the distinct texts
 * of ../shared/data's prompt corpus of 200 to 1,000 characters, in a fixed shuffle, so the compressed
 * prompt stays within the semantic layer's 1,000 characters and has facets (the 300-token prompts of
 * bench/miss-trees.ts exceed it after compression: 0 of 300 had facets), and few find a neighbour
 * close enough to verify (bench/lib/workload's prompts, made of one pool of sentences, found one in
 * nearly every lookup). Each tree's calls for a prompt back to back in roundOrder; counts the prompts
 * whose lookup outcome or messages sent differ between trees.
 *
 *   bun bench/miss-facets.ts [--calls 1000] [--tree name=/path ...]
 *
 * Medians of wall µs; the cache of each tree fills as it goes (one entry per miss).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { OptimizeInput } from "../src/pipeline/optimize-types";
import { loadPromptCorpus } from "../models/data/corpus";
import { loadTrees, roundOrder } from "./lib/measure";
import { percentile } from "./lib/stats";
import { treeOptimizer } from "./lib/tree-optimizer";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { calls: { type: "string", default: "1000" }, tree: { type: "string", multiple: true, default: [] } },
});
const calls = Number(flags.calls);

interface Tree {
  name: string;
  /** One miss: the lookup's outcome, and the µs before going upstream and after the answer. */
  run(prompt: string): Promise<{ outcome: string; before: number; after: number }>;
  before: number[];
  after: number[];
  close(): void;
}

const ANSWER = {
  model: "gpt-4o-mini-2024-07-18",
  choices: [{ index: 0, message: { role: "assistant", content: "An answer." }, finish_reason: "stop" }],
  usage: { prompt_tokens: 150, completion_tokens: 3 },
};

async function loadTree(name: string, path: string): Promise<Tree> {
  const { at, settings, optimize, inputOf: optimizeInput } = await treeOptimizer(path, "/tmp/svc-bench-miss-facets");
  const { optimizerDeps } = await at("src/pipeline/optimizer-deps.ts");
  const { loadModels } = await at("src/pipeline/models.ts");
  const { modelOptionsOf } = await at("src/ml/load.ts");
  const { loadVocabularies } = await at("src/tokens/count.ts");
  const { SemanticCache } = await at("src/pipeline/cache/index.ts");
  const { openStore } = await at("src/store/db.ts");
  loadVocabularies(["o200k"]);
  const models = await loadModels(undefined, modelOptionsOf(settings));
  // The event loop's deps, as Optimizer.start makes them for the inline path.
  const deps = optimizerDeps(settings, models);
  const available = (deps.catalog.models as { id: string }[]).map((m) => m.id);
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-miss-facets-"));
  const store = openStore(dir);
  const cache = await SemanticCache.open({ store, embedder: models.embedder, config: {} });
  const inputOf = (prompt: string): OptimizeInput => ({ ...optimizeInput(prompt, available), wantEmbedding: true });
  const run = async (prompt: string) => {
    const t0 = performance.now();
    const opt = await optimize(inputOf(prompt), deps);
    const found = await cache.lookup({
      appId: "app_bench",
      model: opt.route.ok ? opt.route.model : "gpt-4o-mini-2024-07-18",
      messages: opt.messages,
      params: {},
      ...(opt.embedding && { embedding: opt.embedding }),
      ...(opt.cacheFacets && { facets: opt.cacheFacets }),
    });
    const t1 = performance.now();
    if (found.kind === "miss") found.fill.complete(structuredClone(ANSWER));
    await cache.indexed();
    const t2 = performance.now();
    const outcome = found.kind === "hit" ? `hit:${found.hit.matchedPrompt}` : found.kind;
    return { outcome: `${outcome}|${JSON.stringify(opt.messages)}`, before: (t1 - t0) * 1000, after: (t2 - t1) * 1000 };
  };
  return {
    name,
    run,
    before: [],
    after: [],
    close: () => {
      cache.flush();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const trees: Tree[] = await loadTrees(flags.tree, loadTree);
const corpus = [...new Set(loadPromptCorpus().map((p) => p.trim()))].filter((p) => p.length >= 200 && p.length <= 1000);
// A fixed shuffle (an LCG), so runs and trees see the same prompts in the same order.
let x = 1;
for (let i = corpus.length - 1; i > 0; i--) {
  x = (Math.imul(x, 1103515245) + 12345) >>> 0;
  const j = x % (i + 1);
  [corpus[i], corpus[j]] = [corpus[j]!, corpus[i]!];
}
const WARM_UP = 200;
if (corpus.length < WARM_UP + calls)
  throw new Error(`the corpus holds ${corpus.length} prompts of 200-1,000 characters; --calls at most ${corpus.length - WARM_UP}`);
for (let i = 0; i < WARM_UP; i++) for (const t of trees) await t.run(corpus[calls + i]!);
let differing = 0;
for (let i = 0; i < calls; i++) {
  const prompt = corpus[i]!;
  const outcomes = new Set<string>();
  for (const t of roundOrder(trees, i)) {
    const r = await t.run(prompt);
    t.before.push(r.before);
    t.after.push(r.after);
    outcomes.add(r.outcome);
  }
  if (outcomes.size > 1) differing++;
}
for (const t of trees) t.close();

console.log(`# A cache lookup on the event loop, ${calls} distinct prompts of 200-1,000 characters (../shared/data), trees interleaved: median µs\n`);
console.log("| tree | before upstream (optimize + lookup) | after the answer (fill + indexing) |");
console.log("|---|---|---|");
const first = trees[0]!;
const cell = (t: Tree, k: "before" | "after") => {
  const p50 = percentile(t[k], 50);
  return t === first ? p50.toFixed(0) : `${p50.toFixed(0)} (${(p50 / percentile(first[k], 50)).toFixed(2)}x)`;
};
for (const t of trees) console.log(`| ${t.name} | ${cell(t, "before")} | ${cell(t, "after")} |`);
console.log(`\nPrompts whose lookup outcome or messages differ between trees: ${differing} of ${calls}`);
