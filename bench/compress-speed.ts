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
import type { ChatMessage } from "../src/core/messages";
import type { CompressOptions, CompressResult } from "../src/pipeline/compress";
import { countMessageTokens } from "../src/tokens/count";
import { roundOrder } from "./lib/measure";
import { percentile } from "./lib/stats";
import { asConversation, bestOf, compressionCorpora, SPEED_MIN_TOKENS, TIMED_RUNS } from "./lib/compression-corpora";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { level: { type: "string", default: "1.0" }, tree: { type: "string", multiple: true, default: [] } },
});
const level = Number(flags.level);
if (!(level >= 0 && level <= 1)) throw new Error(`--level wants a number from 0 to 1, got '${flags.level}'`);

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

const prompts = compressionCorpora()
  .flatMap((c) => c.prompts.map(asConversation))
  .filter((m) => countMessageTokens(m) >= SPEED_MIN_TOKENS);
const opts: CompressOptions = { aggressiveness: level, skipRules: [] };

// Warm-up: the JIT and the token memos of every tree.
for (let i = 0; i < 2; i++) for (const m of prompts) for (const t of trees) t.compress(m, opts);

let differing = 0;
prompts.forEach((m, i) => {
  const tokens = countMessageTokens(m);
  for (const t of roundOrder(trees, i)) t.perThousand.push((bestOf(() => t.compress(m, opts)) / tokens) * 1000);
  const outputs = new Set(trees.map((t) => JSON.stringify(t.compress(m, opts))));
  if (outputs.size > 1) differing++;
});

console.log(
  `# compressMessages per 1k tokens, level ${opts.aggressiveness}, ${prompts.length} prompts of ${SPEED_MIN_TOKENS}+ tokens, best of ${TIMED_RUNS}\n`,
);
const first = trees[0]!;
console.log(`| tree | p50 ms | p90 ms | p99 ms | p50 vs ${first.name} | p99 vs ${first.name} |`);
console.log("|---|---|---|---|---|---|");
for (const t of trees) {
  const [p50, p90, p99] = [50, 90, 99].map((q) => percentile(t.perThousand, q)) as [number, number, number];
  const ratio = (q: number) => (percentile(t.perThousand, q) / percentile(first.perThousand, q)).toFixed(2);
  console.log(`| ${t.name} | ${p50.toFixed(3)} | ${p90.toFixed(3)} | ${p99.toFixed(3)} | ${ratio(50)}x | ${ratio(99)}x |`);
}
if (trees.length > 1) console.log(`\nPrompts whose compressed output differs between trees: ${differing} of ${prompts.length}.`);
// A faster tree that compresses differently is not the same stage made faster.
if (differing > 0) process.exitCode = 1;
