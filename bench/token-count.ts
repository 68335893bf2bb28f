/**
 * `countTokens` per prompt, one source tree beside another, in one process: English prompts like the
 * benchmark's (`loadWorkload(300)` + `variedPrompt`), code (HumanEval and MBPP) and non-English prompts
 * (Arena-Hard prompts that are mostly non-ASCII: Chinese, Russian, Japanese). Each round times every
 * tree on every sample, alternating the trees' order; figures are medians over rounds, and the speed-up
 * is the median of the per-round ratios to the first tree. Memos are warmed first, as in a running
 * gateway. Prints markdown.
 *
 *   bun bench/token-count.ts [--rounds 15] [--tree name=/path ...]
 *
 * Without --tree this checkout is measured. To compare commits, give each its own tree:
 *   git archive <commit> | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   bun bench/token-count.ts --tree before=/tmp/old --tree after=.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { roundOrder } from "./lib/measure";
import { ROOT } from "./lib/processes";
import { median } from "./lib/stats";
import { loadWorkload, variedPrompt } from "./lib/workload";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { rounds: { type: "string", default: "15" }, tree: { type: "string", multiple: true, default: [] } },
});

type Family = "o200k" | "cl100k";
type Count = (text: string, family?: Family) => number;

const DATA = join(ROOT, "..", "shared", "data");
const jsonl = (file: string): Record<string, string>[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, string>);
const nonAsciiShare = (s: string) => Array.from(s).filter((c) => c.charCodeAt(0) > 127).length / s.length;

function samples(): Record<string, string[]> {
  const w = loadWorkload(300);
  const humaneval = gunzipSync(readFileSync(join(DATA, "humaneval", "HumanEval.jsonl.gz")))
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, string>);
  const arena = [...jsonl(join(DATA, "arena-hard", "v0.1-question.jsonl")), ...jsonl(join(DATA, "arena-hard", "v2.0-question.jsonl"))];
  return {
    English: Array.from({ length: 500 }, (_, i) => variedPrompt(w, i + 1)),
    code: [
      ...humaneval.map((j) => j.prompt! + j.canonical_solution!),
      ...jsonl(join(DATA, "mbpp", "mbpp.jsonl"))
        .slice(0, 300)
        .map((j) => `${j.text}\n${j.code}`),
    ],
    "non-English": arena.map((j) => j.prompt ?? "").filter((p) => p.length > 0 && nonAsciiShare(p) > 0.3),
  };
}

async function main(): Promise<void> {
  const trees = flags.tree.length > 0 ? flags.tree : ["this=."];
  const counters: { name: string; count: Count }[] = [];
  for (const t of trees) {
    const [name, path] = t.split("=") as [string, string | undefined];
    if (!path) throw new Error(`--tree wants name=/path, got '${t}'`);
    const mod = (await import(join(resolve(path), "src", "tokens", "count.ts"))) as { countTokens: Count };
    counters.push({ name, count: mod.countTokens });
  }
  const sets = samples();
  const families: Family[] = ["o200k", "cl100k"];
  const rounds = Number(flags.rounds);

  interface Cell {
    prompts: number;
    tokens: number;
    /** µs per prompt, per round, per tree. */
    us: number[][];
  }
  const cells = new Map<string, Cell>();
  for (const [sample, prompts] of Object.entries(sets))
    for (const family of families) {
      let tokens = 0;
      for (const p of prompts) tokens += counters[0]!.count(p, family);
      for (const c of counters) {
        let theirs = 0;
        for (let warm = 0; warm < 3; warm++) for (const p of prompts) theirs += c.count(p, family);
        if (theirs !== 3 * tokens) throw new Error(`${c.name} counts ${sample} (${family}) differently from ${counters[0]!.name}`);
      }
      cells.set(`${sample}|${family}`, { prompts: prompts.length, tokens, us: counters.map(() => []) });
    }

  for (let round = 0; round < rounds; round++) {
    const order = roundOrder(
      counters.map((_, i) => i),
      round,
    );
    for (const [key, cell] of cells) {
      const prompts = sets[key.split("|")[0]!]!;
      const family = key.split("|")[1] as Family;
      for (const i of order) {
        const count = counters[i]!.count;
        const t0 = performance.now();
        for (const p of prompts) count(p, family);
        cell.us[i]!.push(((performance.now() - t0) * 1000) / prompts.length);
      }
    }
  }

  console.log(`## countTokens, ${rounds} interleaved rounds, medians\n`);
  const ratioHead = counters.slice(1).map((c) => `${c.name} speed-up`);
  console.log(
    `| sample | family | prompts | tokens/prompt | ${counters.map((c) => `${c.name} µs/prompt | ${c.name} ns/token`).join(" | ")} | ${ratioHead.join(" | ")} |`,
  );
  console.log(`|---|---|---:|---:|${counters.map(() => "---:|---:").join("|")}|${ratioHead.map(() => "---:").join("|")}|`);
  for (const [key, cell] of cells) {
    const [sample, family] = key.split("|");
    const perToken = cell.tokens / cell.prompts;
    const figures = cell.us.map((us) => `${median(us).toFixed(1)} | ${((median(us) * 1000) / perToken).toFixed(0)}`);
    const ratios = cell.us.slice(1).map((us) => `${median(us.map((u, r) => cell.us[0]![r]! / u)).toFixed(2)}x`);
    console.log(`| ${sample} | ${family} | ${cell.prompts} | ${perToken.toFixed(0)} | ${figures.join(" | ")} | ${ratios.join(" | ")} |`);
  }
}

await main();
