/**
 * What each compression rule's mayChange costs on a fresh ~300-token workload prompt (bench/lib/workload,
 * the prompts bench/run.ts sends), the figures behind MAY_CHANGE_ORDER in src/pipeline/compress/compress.ts:
 * the cheapest rules are asked first, so a prompt a cheap rule may change never pays for the dearer ones.
 * Each rule is timed alone, on a prompt no rule has read (the phrase scan that filler, preamble and intent
 * share is forgotten between prompts, as compressMessages forgets it), rules in roundOrder per prompt.
 * Medians, and how often each rule answers true.
 *
 *   bun bench/compress-may-change.ts [--prompts 3000] [--level 1.0]
 */
import { parseArgs } from "node:util";
import { RULES } from "../src/pipeline/compress/rules";
import { forgetPhraseScan } from "../src/pipeline/compress/text/phrase-patterns";
import { roundOrder } from "./lib/measure";
import { percentile } from "./lib/stats";
import { loadWorkload, variedPrompt } from "./lib/workload";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { prompts: { type: "string", default: "3000" }, level: { type: "string", default: "1.0" } },
});
const prompts = Number(flags.prompts);
// The workload prompt is a request's one user message, its last user turn: careful (compress/level.ts).
const ctx = { level: Number(flags.level), careful: true };
const workload = loadWorkload();
const times = new Map<string, number[]>(RULES.map((r) => [r.name, []]));
const trues = new Map<string, number>(RULES.map((r) => [r.name, 0]));

for (let i = 0; i < prompts; i++) {
  const prompt = variedPrompt(workload, 1_000_000 + i);
  for (const rule of roundOrder(RULES, i)) {
    forgetPhraseScan();
    const t0 = performance.now();
    const may = rule.mayChange(prompt, ctx);
    const t1 = performance.now();
    // The first tenth warms the JIT; it is not counted.
    if (i < prompts / 10) continue;
    times.get(rule.name)!.push((t1 - t0) * 1000);
    if (may) trues.set(rule.name, trues.get(rule.name)! + 1);
  }
}
forgetPhraseScan();

const counted = prompts - Math.ceil(prompts / 10);
console.log(`## mayChange per rule, µs p50 on a fresh ~300-token prompt (${counted} prompts, level ${ctx.level})\n`);
console.log("| rule | p50 µs | may change |\n|---|---|---|");
const rows = RULES.map((r) => ({ name: r.name, p50: percentile(times.get(r.name)!, 50), share: trues.get(r.name)! / counted }));
for (const row of rows.sort((a, b) => a.p50 - b.p50)) console.log(`| ${row.name} | ${row.p50.toFixed(2)} | ${(row.share * 100).toFixed(1)}% |`);
