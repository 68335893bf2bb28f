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

/** One call at a time; `make` gets the call number so every call can have its own prompt. */
async function sequential(call: (i: number) => Promise<OptimizeResult>, n: number): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < Math.min(50, n); i++) await call(n + i);
  const us: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call(i);
    us.push((performance.now() - t0) * 1000);
  }
  return quantiles(us);
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
for (const [name, options] of [
  ["every stage off: token counts only (no model)", RELAY_OPTIONS],
  ["compression with its quality back-off (quality model)", COMPRESS_ONLY],
  ["every stage on, 300-token prompt", {}],
] as const) {
  const make = (i: number) => inputOf(fresh(i), options);
  const inline = await sequential((i) => optimize(make(i), deps), iterations);
  const pooled = await sequential((i) => pool1.run(make(i)), iterations);
  rows.push(`| ${name} | inline (event loop) | ${inline.p50.toFixed(0)} | ${inline.p99.toFixed(0)} |`);
  rows.push(`| ${name} | worker (hop + work) | ${pooled.p50.toFixed(0)} | ${pooled.p99.toFixed(0)} |`);
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

// The gateway's own Optimizer (2 workers, the event loop's models, no memo: every prompt is fresh anyway).
const optimizer = await Optimizer.start(
  loadSettings({ ...process.env, SVC_DATA_DIR: "/tmp/svc-bench-hop", SVC_WORKERS: "2", SVC_OPTIMIZE_MEMO_ENTRIES: "0" }),
  await loadModels(),
);
const viaOptimizer = await sequential((i) => optimizer.run(inputOf(fresh(200_000 + i), {})), iterations);
rows.push(
  `| every stage on, 300-token prompt | Optimizer.run (event loop while idle, else worker) | ${viaOptimizer.p50.toFixed(0)} | ${viaOptimizer.p99.toFixed(0)} |`,
);
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
    `${availableParallelism()} cores; ${iterations} calls per latency row (after 50 warm-up calls), a fresh 300-token prompt per call; throughput over ${seconds} s per row.`,
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
