/**
 * Where optimize() spends a fresh ~300-token prompt, stage by stage, source trees side by side: the
 * compression with its quality back-off (token counts, masking, rules, score), the embedding, the
 * classification and the routing, called in the order and on the texts optimize() gives them (so each
 * stage finds the memos the one before it left, as it does there), each tree's calls for a prompt back
 * to back in roundOrder. Prints the median of each stage and of their sum per tree, and their ratio to
 * the first tree's. Medians only: one call's reading on a shared machine is mostly its waits.
 *
 *   bun bench/optimizer-stages.ts [--calls 2000] [--tree name=/path ...]
 *
 * Without --tree it times this checkout alone; bench/optimizer-trees.ts times optimize() whole.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { ChatMessage } from "../src/core/messages";
import { loadTrees, roundOrder } from "./lib/measure";
import { percentile } from "./lib/stats";
import { loadWorkload, variedPrompt } from "./lib/workload";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { calls: { type: "string", default: "2000" }, tree: { type: "string", multiple: true, default: [] } },
});
const calls = Number(flags.calls);
const STAGES = ["compress", "embed", "classify", "route"] as const;
type Stage = (typeof STAGES)[number];

interface Tree {
  name: string;
  /** Runs the stages on one prompt, adding each one's µs to `us`. */
  run(prompt: string, record: boolean): Promise<void>;
  us: Record<Stage | "sum", number[]>;
}

async function loadTree(name: string, path: string): Promise<Tree> {
  const at = (file: string) => import(resolve(path, file));
  const { loadSettings } = await at("src/config/config.ts");
  const { compressWithQualityFloor } = await at("src/pipeline/compress/index.ts");
  const { loadOptimizerDeps } = await at("src/pipeline/optimizer-deps.ts");
  const { decideRoute, promptSignals } = await at("src/pipeline/route/index.ts");
  const { embeddingText, semanticPrompt } = await at("src/pipeline/cache/index.ts");
  const settings = loadSettings({ ...process.env, SVC_DATA_DIR: "/tmp/svc-bench-stages" });
  const deps = await loadOptimizerDeps(settings);
  const us = { compress: [], embed: [], classify: [], route: [], sum: [] } as Tree["us"];
  const run = async (prompt: string, record: boolean) => {
    const messages: ChatMessage[] = [{ role: "user", content: prompt }];
    const t0 = performance.now();
    // As optimize() calls it with the gateway's defaults (svc_options absent).
    const compressed = await compressWithQualityFloor(
      messages,
      { aggressiveness: 0.5, skipRules: [], qualityFloor: settings.qualityFloor },
      (a: string, b: string) => deps.models.quality(a, b),
    );
    const t1 = performance.now();
    const text = embeddingText(semanticPrompt(compressed.messages));
    const embedding = await deps.models.embed(text);
    const t2 = performance.now();
    const prediction = await deps.models.classify(text, embedding);
    const t3 = performance.now();
    decideRoute({
      model: "auto",
      route: true,
      prediction,
      signals: () => promptSignals({ messages: compressed.messages }, compressed.compressedTokens),
      catalog: deps.catalog,
      capabilities: deps.capabilities,
      isAvailable: () => true,
    });
    const t4 = performance.now();
    if (!record) return;
    us.compress.push((t1 - t0) * 1000);
    us.embed.push((t2 - t1) * 1000);
    us.classify.push((t3 - t2) * 1000);
    us.route.push((t4 - t3) * 1000);
    us.sum.push((t4 - t0) * 1000);
  };
  return { name, run, us };
}

const trees: Tree[] = await loadTrees(flags.tree, loadTree);

const workload = loadWorkload(300);
for (let i = 0; i < 300; i++) for (const t of trees) await t.run(variedPrompt(workload, 1_000_000 + i), false);
for (let i = 0; i < calls; i++) {
  const prompt = variedPrompt(workload, i);
  for (const t of roundOrder(trees, i)) await t.run(prompt, true);
}

console.log(`# optimize()'s stages, ${calls} fresh ~300-token prompts (bench/lib/workload), trees interleaved: median µs\n`);
const first = trees[0]!;
const columns = [...STAGES, "sum"] as const;
console.log(`| tree | ${columns.join(" | ")} |`);
console.log(`|---|${columns.map(() => "---").join("|")}|`);
for (const t of trees) {
  const cells = columns.map((c) => {
    const p50 = percentile(t.us[c], 50);
    return t === first ? p50.toFixed(0) : `${p50.toFixed(0)} (${(p50 / percentile(first.us[c], 50)).toFixed(2)}x)`;
  });
  console.log(`| ${t.name} | ${cells.join(" | ")} |`);
}
