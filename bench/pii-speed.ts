/**
 * Speed of PII detection and masking (maskMessages: every detector, the tagger, placeholders), in µs
 * per 1k o200k tokens, p50 and p99 over two workloads (bench/lib/pii-workloads.ts):
 *   prompts   the corpora's user prompts of 200+ tokens (ordinary text, little PII)
 *   pii-dense presidio-synth-pii texts joined into ~1k-token messages (PII in every sentence)
 * Each message is timed best of 3 (bench/lib/compression-corpora.ts). A floor in the same run: one
 * regex pass over the same text that does nothing (/\p{L}+/gu counted), to read the figures against.
 *
 *   bun bench/pii-speed.ts
 *   bun bench/pii-speed.ts --baseline DIR   # also another checkout's masking (git worktree add DIR main), message by
 *                                           # message in the same run, with the median per-message time ratio
 *   bun bench/pii-speed.ts --runs 10        # each message best of 10 instead of 3: on a loaded machine, fewer of the
 *                                           # runs slowed by other processes and the first, cache-cold run count
 */
import { join, resolve } from "node:path";
import type { ChatMessage } from "../src/core/messages";
import { maskMessages } from "../src/pipeline/pii/mask";
import { PlaceholderMap } from "../src/pipeline/pii/placeholders";
import { countTokens } from "../src/tokens/count";
import { bestOf as bestOfRuns, TIMED_RUNS } from "./lib/compression-corpora";
import { piiWorkloads } from "./lib/pii-workloads";
import { percentile } from "./lib/stats";

const workloads = piiWorkloads();

const WORD = /\p{L}+/gu;
const floor = (text: string) => {
  let n = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text) !== null) n++;
  return n;
};

type Mask = (messages: readonly ChatMessage[]) => boolean;
const mask: Mask = (messages) => maskMessages(messages, new PlaceholderMap()).masked;
const args = process.argv.slice(2);
const baselineDir = args.includes("--baseline") ? resolve(args[args.indexOf("--baseline") + 1]!) : undefined;
const runs = args.includes("--runs") ? Number(args[args.indexOf("--runs") + 1]) : TIMED_RUNS;
if (!(Number.isInteger(runs) && runs >= 1)) throw new Error("--runs wants a whole number of runs, 1 or more");
const bestOf = (run: () => unknown) => bestOfRuns(run, runs);
let baseline: Mask | undefined;
if (baselineDir) {
  const other = await import(join(baselineDir, "src/pipeline/pii/mask.ts"));
  const OtherMap = (await import(join(baselineDir, "src/pipeline/pii/placeholders.ts"))).PlaceholderMap;
  baseline = (messages) => other.maskMessages(messages, new OtherMap()).masked;
}

// Warm-up: JIT, the tagger's tables and libphonenumber's metadata load on first use.
for (const [, texts] of workloads)
  for (const t of texts.slice(0, 200)) {
    mask([{ role: "user", content: t }]);
    baseline?.([{ role: "user", content: t }]);
  }

console.log(
  `workload   messages  tokens(median) | mask µs/1k tok p50   p99 | floor µs/1k p50 | messages masked${baseline ? " | baseline p50   p99 | ratio (median per message)" : ""}`,
);
for (const [name, texts] of workloads) {
  const ours: number[] = [];
  const floors: number[] = [];
  const theirs: number[] = [];
  const ratios: number[] = [];
  let masked = 0;
  for (const text of texts) {
    const k = countTokens(text) / 1000;
    const messages: ChatMessage[] = [{ role: "user", content: text }];
    let hit = false;
    ours.push((bestOf(() => (hit = mask(messages))) * 1000) / k);
    floors.push((bestOf(() => floor(text)) * 1000) / k);
    if (baseline) {
      theirs.push((bestOf(() => baseline(messages)) * 1000) / k);
      ratios.push(ours.at(-1)! / theirs.at(-1)!);
    }
    if (hit) masked++;
  }
  const tokens = texts.map((t) => countTokens(t)).sort((a, b) => a - b)[texts.length >> 1];
  const other = baseline
    ? ` | ${percentile(theirs, 50).toFixed(1).padStart(12)} ${percentile(theirs, 99).toFixed(1).padStart(5)} | ${percentile(ratios, 50).toFixed(3)}`
    : "";
  console.log(
    `${name.padEnd(10)} ${String(texts.length).padStart(8)}  ${String(tokens).padStart(14)} | ${percentile(ours, 50).toFixed(1).padStart(18)} ${percentile(ours, 99).toFixed(1).padStart(5)} | ${percentile(floors, 50).toFixed(1).padStart(15)} | ${String(masked).padStart(15)}${other}`,
  );
}
