/**
 * Speed of PII detection and masking (maskMessages: every detector, the tagger, placeholders), in µs
 * per 1k o200k tokens, p50 and p99 over two workloads (bench/lib/pii-workloads.ts):
 *   prompts   the corpora's user prompts of 200+ tokens (ordinary text, little PII)
 *   pii-dense presidio-synth-pii texts joined into ~1k-token messages (PII in every sentence)
 * Each message is timed best of 3 (bench/lib/compression-corpora.ts). A floor in the same run: one
 * regex pass over the same text that does nothing (/\p{L}+/gu counted), to read the figures against.
 *
 *   bun bench/pii-speed.ts
 *   bun bench/pii-speed.ts --tree main=DIR --tree new=.   # source trees side by side, message by message in the
 *                                           # same run, each message's trees timed in roundOrder (bench/lib/measure.ts),
 *                                           # with each tree's median per-message time ratio to the first tree
 *                                           # (snapshot a commit: git archive <commit> | tar -x -C DIR, and link node_modules)
 *   bun bench/pii-speed.ts --baseline DIR   # the same as --tree baseline=DIR --tree this=.
 *   bun bench/pii-speed.ts --workload pii-dense   # one workload only
 *   bun bench/pii-speed.ts --runs 10        # each message best of 10 instead of 3: on a loaded machine, fewer of the
 *                                           # runs slowed by other processes and the first, cache-cold run count
 */
import { join, resolve } from "node:path";
import type { ChatMessage } from "../src/core/messages";
import { countTokens } from "../src/tokens/count";
import { bestOf as bestOfRuns, TIMED_RUNS } from "./lib/compression-corpora";
import { roundOrder } from "./lib/measure";
import { piiWorkloads } from "./lib/pii-workloads";
import { percentile } from "./lib/stats";

const only = process.argv.includes("--workload") ? process.argv[process.argv.indexOf("--workload") + 1] : undefined;
const workloads = piiWorkloads().filter(([name]) => only === undefined || name === only);

const WORD = /\p{L}+/gu;
const floor = (text: string) => {
  let n = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text) !== null) n++;
  return n;
};

type Mask = (messages: readonly ChatMessage[]) => boolean;
const args = process.argv.slice(2);
const valuesOf = (flag: string) => args.flatMap((a, i) => (a === flag && i + 1 < args.length ? [args[i + 1]!] : []));
const runs = args.includes("--runs") ? Number(args[args.indexOf("--runs") + 1]) : TIMED_RUNS;
if (!(Number.isInteger(runs) && runs >= 1)) throw new Error("--runs wants a whole number of runs, 1 or more");
const bestOf = (run: () => unknown) => bestOfRuns(run, runs);

interface Tree {
  name: string;
  mask: Mask;
  us: number[];
  ratios: number[];
}

/** One source tree's maskMessages, each call with a fresh placeholder map. */
async function loadTree(name: string, dir: string): Promise<Tree> {
  const { maskMessages } = await import(join(resolve(dir), "src/pipeline/pii/mask.ts"));
  const { PlaceholderMap } = await import(join(resolve(dir), "src/pipeline/pii/placeholders.ts"));
  return { name, mask: (messages) => maskMessages(messages, new PlaceholderMap()).masked, us: [], ratios: [] };
}

const specs = [...valuesOf("--baseline").flatMap((dir) => [`baseline=${dir}`, "this=."]), ...valuesOf("--tree")];
const trees: Tree[] = [];
for (const spec of specs.length > 0 ? specs : ["this=."]) {
  const [name, dir] = spec.split("=") as [string, string | undefined];
  if (!dir) throw new Error(`--tree wants name=/path, got '${spec}'`);
  trees.push(await loadTree(name, dir));
}

// Warm-up: JIT, the tagger's tables and libphonenumber's metadata load on first use.
for (const [, texts] of workloads) for (const t of texts.slice(0, 200)) for (const tree of trees) tree.mask([{ role: "user", content: t }]);

const others = trees.slice(1);
console.log(
  `workload   messages  tokens(median) | ${trees.map((t) => `${t.name} µs/1k tok p50   p99`).join(" | ")} | floor µs/1k p50 | messages masked${others.map((t) => ` | ${t.name}/${trees[0]!.name} (median per message)`).join("")}`,
);
for (const [name, texts] of workloads) {
  for (const tree of trees) {
    tree.us = [];
    tree.ratios = [];
  }
  const floors: number[] = [];
  let masked = 0;
  for (const [m, text] of texts.entries()) {
    const k = countTokens(text) / 1000;
    const messages: ChatMessage[] = [{ role: "user", content: text }];
    // Each message's trees back to back, in an order that turns from message to message, so a slow spell
    // of the machine or the cache state one tree leaves for the next lands on all trees alike (timed in
    // one fixed order, two copies of the same tree read 1.06x apart).
    const took = new Map<Tree, number>();
    for (const tree of roundOrder(trees, m)) {
      let hit = false;
      took.set(
        tree,
        bestOf(() => (hit = tree.mask(messages))),
      );
      if (tree === trees[trees.length - 1] && hit) masked++;
    }
    for (const tree of trees) {
      tree.us.push((took.get(tree)! * 1000) / k);
      tree.ratios.push(took.get(tree)! / took.get(trees[0]!)!);
    }
    floors.push((bestOf(() => floor(text)) * 1000) / k);
  }
  const tokens = texts.map((t) => countTokens(t)).sort((a, b) => a - b)[texts.length >> 1];
  const timed = trees
    .map(
      (t) =>
        `${percentile(t.us, 50)
          .toFixed(1)
          .padStart(14 + t.name.length)} ${percentile(t.us, 99).toFixed(1).padStart(5)}`,
    )
    .join(" | ");
  const ratios = others
    .map(
      (t) =>
        ` | ${percentile(t.ratios, 50)
          .toFixed(3)
          .padStart(23 + t.name.length + trees[0]!.name.length)}`,
    )
    .join("");
  console.log(
    `${name.padEnd(10)} ${String(texts.length).padStart(8)}  ${String(tokens).padStart(14)} | ${timed} | ${percentile(floors, 50).toFixed(1).padStart(15)} | ${String(masked).padStart(15)}${ratios}`,
  );
}
