/**
 * Speed of the compression stage, source trees side by side: compressMessages per 1k tokens over the
 * corpora's prompts of 200+ tokens (the prompts bench/compress-eval.ts times), best of 3 runs per
 * prompt, every tree's runs of a prompt back to back in roundOrder, so a slow spell of the machine
 * hits all trees alike. Also checks that every tree compresses every prompt to the same bytes.
 *
 *   bun bench/compress-speed.ts [--level 1.0] [--tree name=/path ...]
 *
 * Without --tree it times this checkout alone. To compare commits, give each its own tree:
 *   git archive <commit> | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   bun bench/compress-speed.ts --tree old=/tmp/old --tree new=.
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import type { ChatMessage } from "../src/pipeline/messages";
import type { CompressOptions, CompressResult } from "../src/pipeline/compress";
import { countMessageTokens } from "../src/tokens/count";
import { arenaHard, awesomeChatgptPrompts, gsm8k, mtBench, selfInstruct } from "../models/word-stats/corpora";
import { roundOrder } from "./lib/measure";
import { percentile } from "./lib/stats";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { level: { type: "string", default: "1.0" }, tree: { type: "string", multiple: true, default: [] } },
});
/** The prompts and the per-prompt timing of bench/compress-eval.ts's speed table. */
const MIN_TOKENS = 200;
const TIMED_RUNS = 3;
const GSM8K_LIMIT = 1000;

type Compress = (messages: readonly ChatMessage[], opts: CompressOptions) => CompressResult;
interface Tree {
  name: string;
  compress: Compress;
  perThousand: number[];
}

const trees: Tree[] = [];
for (const spec of flags.tree.length > 0 ? flags.tree : ["this=."]) {
  const [name, path] = spec.split("=") as [string, string | undefined];
  if (!path) throw new Error(`--tree wants name=/path, got '${spec}'`);
  const module = (await import(resolve(path, "src/pipeline/compress/index.ts"))) as { compressMessages: Compress };
  trees.push({ name, compress: module.compressMessages, perThousand: [] });
}

// As compress-eval.ts sends them: each prompt a conversation of its turns, each mt-bench turn a prompt of its own.
const prompts = [...awesomeChatgptPrompts(), ...selfInstruct(), ...arenaHard(), ...gsm8k(GSM8K_LIMIT)]
  .map((p) => p.turns)
  .concat(mtBench().flatMap((p) => p.turns.map((turn) => [turn])))
  .map((turns): ChatMessage[] => turns.map((content) => ({ role: "user", content })))
  .filter((m) => countMessageTokens(m) >= MIN_TOKENS);
const opts: CompressOptions = { aggressiveness: Number(flags.level), skipRules: [] };

// Warm-up: the JIT and the token memos of every tree.
for (let i = 0; i < 2; i++) for (const m of prompts) for (const t of trees) t.compress(m, opts);

function bestOf(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < TIMED_RUNS; i++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

let differing = 0;
prompts.forEach((m, i) => {
  const tokens = countMessageTokens(m);
  for (const t of roundOrder(trees, i)) t.perThousand.push((bestOf(() => t.compress(m, opts)) / tokens) * 1000);
  const outputs = new Set(trees.map((t) => JSON.stringify(t.compress(m, opts))));
  if (outputs.size > 1) differing++;
});

console.log(`# compressMessages per 1k tokens, level ${opts.aggressiveness}, ${prompts.length} prompts of ${MIN_TOKENS}+ tokens, best of ${TIMED_RUNS}\n`);
const first = trees[0]!;
console.log(`| tree | p50 ms | p90 ms | p99 ms | p50 vs ${first.name} | p99 vs ${first.name} |`);
console.log("|---|---|---|---|---|---|");
for (const t of trees) {
  const [p50, p90, p99] = [50, 90, 99].map((q) => percentile(t.perThousand, q)) as [number, number, number];
  const ratio = (q: number) => (percentile(t.perThousand, q) / percentile(first.perThousand, q)).toFixed(2);
  console.log(`| ${t.name} | ${p50.toFixed(3)} | ${p90.toFixed(3)} | ${p99.toFixed(3)} | ${ratio(50)}x | ${ratio(99)}x |`);
}
if (trees.length > 1) console.log(`\nPrompts whose compressed output differs between trees: ${differing} of ${prompts.length}.`);
