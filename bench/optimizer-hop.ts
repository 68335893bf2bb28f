/**
 * The optimizer's worker hop, measured in one run: `bun bench/optimizer-hop.ts`. Prints markdown.
 *
 * - A request that needs no model (every stage off: token counts only), through the pool and inline on
 *   this thread. This is the measurement behind `inlineMaxChars`: such requests run on the event loop
 *   because the hop costs more than their work. Compression alone still runs where the models are (its
 *   quality back-off's scorer is one of them, though it embeds nothing since issue 25), so it is
 *   measured the same way to show the hop against that work.
 * - Every stage on (compression with its quality back-off, embedding, classification, routing) on a
 *   300-token prompt (the size issue 8 states for a miss): one task at a time through the pool and inline, p50 and p99.
 * - Pool throughput with 1 and 2 workers, 8 tasks in flight, a fresh prompt per task (the pool itself
 *   has no memo; the gateway's memo is bypassed here on purpose).
 * - The event loop while the workers are saturated: how late a 1 ms timer fires (p50, p99, max), next
 *   to the same timer with the pool idle. Model work on the event loop would show as lateness the size
 *   of a task (milliseconds at p50); on 2 cores, 2 busy workers also compete with it for a core.
 * - The gateway's Optimizer, which runs a short model task on the event loop while no other is in
 *   flight and sends the rest to its pool: one call at a time (every call inline), and 8 in flight with
 *   2 workers, where the timer shows how much model work it kept on the event loop.
 */
import { availableParallelism } from "node:os";
import { loadSettings } from "../src/config/config";
import { parseCompletionRequest } from "../src/http/validate/completion-request";
import { optimizeInputOf } from "../src/pipeline/analyze";
import { RULE_NAMES } from "../src/pipeline/compress";
import { optimize } from "../src/pipeline/optimize";
import type { OptimizeInput, OptimizeResult } from "../src/pipeline/optimize-types";
import { loadModels } from "../src/pipeline/models";
import { Optimizer } from "../src/pipeline/optimizer";
import { loadOptimizerDeps } from "../src/pipeline/optimizer-deps";
import { WorkerPool } from "../workers/pool";
import { loadWorkload, RELAY_OPTIONS, variedPrompt } from "./lib/workload";

const settings = loadSettings({ ...process.env, SVC_DATA_DIR: "/tmp/svc-bench-hop" });
const deps = await loadOptimizerDeps(settings);
const availableModels = deps.catalog.models.map((m) => m.id);
const WORKER = new URL("../workers/optimize.worker.ts", import.meta.url).href;
const workload = loadWorkload(300);
const iterations = Number(process.env.BENCH_ITERATIONS ?? 400);

function inputOf(prompt: string, svcOptions: Record<string, unknown>): OptimizeInput {
  const req = parseCompletionRequest({ model: "auto", messages: [{ role: "user", content: prompt }], svc_options: svcOptions }, RULE_NAMES);
  return optimizeInputOf(req, availableModels, settings.qualityFloor);
}

function quantiles(us: number[]): { p50: number; p99: number; max: number } {
  const s = [...us].sort((a, b) => a - b);
  return { p50: s[Math.floor(s.length * 0.5)]!, p99: s[Math.floor(s.length * 0.99)]!, max: s[s.length - 1]! };
}

/**
 * One call at a time, the ways of making it in turn call by call (each round starting with the next
 * way), so a slow spell of a loaded machine hits all alike. `way(i)` gets a call number of its own, so
 * no way meets a prompt another one has just read (the thread's token and word memos would favour it).
 */
async function interleaved(ways: readonly ((i: number) => Promise<OptimizeResult>)[], n: number): Promise<{ p50: number; p99: number }[]> {
  const m = ways.length;
  for (let i = 0; i < Math.min(50, n); i++) for (let j = 0; j < m; j++) await ways[j]!((n + i) * m + j);
  const us = ways.map(() => [] as number[]);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < m; k++) {
      const j = (i + k) % m;
      const t0 = performance.now();
      await ways[j]!(i * m + j);
      us[j]!.push((performance.now() - t0) * 1000);
    }
  }
  return us.map(quantiles);
}

function openPool(threads: number): WorkerPool<OptimizeInput, OptimizeResult> {
  return new WorkerPool<OptimizeInput, OptimizeResult>({ filename: WORKER, threads, queueLimit: 1024, taskTimeoutMs: 30_000, workerData: settings });
}

/** A 1 ms interval timer on the event loop; `stop` ends it and says how late (µs) it fired. */
function latenessProbe(): { stop(): ReturnType<typeof quantiles> } {
  const lateness: number[] = [];
  let expected = performance.now() + 1;
  const timer = setInterval(() => {
    const now = performance.now();
    lateness.push(Math.max(0, (now - expected) * 1000));
    expected = now + 1;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      return quantiles(lateness);
    },
  };
}

/** How late a 1 ms interval timer fires over `seconds` with nothing else running. */
async function timerLateness(seconds: number) {
  const probe = latenessProbe();
  await Bun.sleep(seconds * 1000);
  return probe.stop();
}

/** Tasks per second with `inFlight` tasks outstanding for `seconds`, and how late a 1 ms timer fired meanwhile. */
async function saturate(pool: { run(input: OptimizeInput): Promise<OptimizeResult> }, inFlight: number, seconds: number, make: (i: number) => OptimizeInput) {
  let next = 0;
  let done = 0;
  const probe = latenessProbe();
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        await pool.run(make(next++));
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  return { perSecond: done / elapsed, lateness: probe.stop() };
}

const COMPRESS_ONLY = { compress: true, route: false, cache: false, score: false };
const fresh = (i: number) => variedPrompt(workload, i);

const rows: string[] = ["| case | where | p50 µs | p99 µs |", "|---|---|---:|---:|"];
const pool1 = openPool(1);
await pool1.warm();
// The gateway's own Optimizer (2 workers, the event loop's models, no memo: every prompt is fresh anyway).
const optimizer = await Optimizer.start(
  loadSettings({ ...process.env, SVC_DATA_DIR: "/tmp/svc-bench-hop", SVC_WORKERS: "2", SVC_OPTIMIZE_MEMO_ENTRIES: "0" }),
  await loadModels(),
);
const cases = [
  ["every stage off: token counts only (no model)", RELAY_OPTIONS],
  ["compression with its quality back-off (quality model)", COMPRESS_ONLY],
  ["every stage on, 300-token prompt", {}],
] as const;
for (const [c, [name, options]] of cases.entries()) {
  // Prompts of a case's own: a case after another would meet prompts the thread's memos know.
  const make = (i: number) => inputOf(fresh(c * 10_000_000 + i), options);
  const ways = [(i: number) => optimize(make(i), deps), (i: number) => pool1.run(make(i))];
  if (c === cases.length - 1) ways.push((i) => optimizer.run(make(i)));
  const [inline, pooled, viaOptimizer] = await interleaved(ways, iterations);
  rows.push(`| ${name} | inline (event loop) | ${inline!.p50.toFixed(0)} | ${inline!.p99.toFixed(0)} |`);
  rows.push(`| ${name} | worker (hop + work) | ${pooled!.p50.toFixed(0)} | ${pooled!.p99.toFixed(0)} |`);
  if (viaOptimizer)
    rows.push(`| ${name} | Optimizer.run (event loop while idle, else worker) | ${viaOptimizer.p50.toFixed(0)} | ${viaOptimizer.p99.toFixed(0)} |`);
}

const throughput: string[] = ["| workers | tasks in flight | tasks/s | timer lateness p50 µs | p99 µs | max µs |", "|---:|---:|---:|---:|---:|---:|"];
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const idle = await timerLateness(seconds);
throughput.push(`| (pool idle) | 0 | 0 | ${idle.p50.toFixed(0)} | ${idle.p99.toFixed(0)} | ${idle.max.toFixed(0)} |`);
const everyStage = (i: number) => inputOf(fresh(100_000 + i), {});
throughput.push(await throughputRow(pool1, "1"));
await pool1.close();
const pool2 = openPool(2);
await pool2.warm();
throughput.push(await throughputRow(pool2, "2"));
await pool2.close();

throughput.push(await throughputRow(optimizer, "2 + event loop while idle (Optimizer.run)"));
await optimizer.close();

async function throughputRow(pool: { run(input: OptimizeInput): Promise<OptimizeResult> }, workers: string): Promise<string> {
  await saturate(pool, 8, 1, everyStage);
  const r = await saturate(pool, 8, seconds, everyStage);
  return `| ${workers} | 8 | ${r.perSecond.toFixed(0)} | ${r.lateness.p50.toFixed(0)} | ${r.lateness.p99.toFixed(0)} | ${r.lateness.max.toFixed(0)} |`;
}

console.log(
  [
    "# Optimizer: inline or worker, and the pool under load",
    "",
    `${availableParallelism()} cores; ${iterations} calls per latency row (after 50 warm-up calls), a fresh 300-token prompt per call, the rows of one case interleaved call by call; throughput over ${seconds} s per row.`,
    "",
    ...rows,
    "",
    "Every stage on means compression with the quality back-off, the embedding, the task classifier and routing: one worker task.",
    "",
    ...throughput,
    "",
    "Timer lateness: a 1 ms interval on the event loop while the workers are saturated; model work on the event loop would show as lateness the size of a task.",
  ].join("\n"),
);
