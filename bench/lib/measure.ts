import { timeRequests, type ClientTarget } from "./client";
import { median, percentile } from "./stats";
import { runWrk, type LoadSpec, type WrkResult, type WrkRun } from "./wrk";

/** What wrk needs besides the target: its binary, a scratch folder and the sentences for fresh prompts. */
export interface WrkContext {
  wrk: string;
  workDir: string;
  sentences: { file: string; perPrompt: number };
}

/** Each `--tree name=/path` spec loaded by `load`, in order; this checkout alone ("this=.") when there is none. */
export async function loadTrees<T>(specs: readonly string[], load: (name: string, path: string) => Promise<T>): Promise<T[]> {
  const trees: T[] = [];
  for (const spec of specs.length > 0 ? specs : ["this=."]) {
    const [name, path] = spec.split("=") as [string, string | undefined];
    if (!path) throw new Error(`--tree wants name=/path, got '${spec}'`);
    trees.push(await load(name, path));
  }
  return trees;
}

/**
 * The order of `items` in round `round` (0-based), from a balanced Latin square (Williams' design:
 * offsets 0, 1, n-1, 2, n-2... shifted by the round): over n rounds every target runs once in every
 * position, and with an even number of targets right after each other target once. A fixed order would
 * always hand one target whatever the one before it leaves behind (a mock collecting its garbage, a
 * gateway still draining queued work); a plain rotation would too, as it keeps every neighbour.
 */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  const n = items.length;
  let low = 1;
  let high = n - 1;
  return items.map((_, i) => {
    const offset = i === 0 ? 0 : i % 2 ? low++ : high--;
    return items[(offset + round) % n]!;
  });
}

/**
 * Load on every target in turn with nothing recorded: a fresh gateway's JIT needs thousands of
 * requests before a request's cost settles, and steady state is what a production gateway runs in.
 */
export async function warmUp(ctx: WrkContext, targets: readonly LoadSpec[], run: WrkRun): Promise<void> {
  for (const spec of targets) await runWrk(ctx.wrk, spec, run, ctx.workDir, ctx.sentences);
}

/**
 * Runs wrk against every target in turn, `rounds` times over, in `roundOrder`, so a burst of machine
 * noise lands on all targets alike rather than on whichever ran during it.
 */
export async function interleavedWrk<K extends string>(
  ctx: WrkContext,
  targets: Record<K, LoadSpec>,
  rounds: number,
  run: (name: K) => WrkRun,
): Promise<Record<K, WrkResult[]>> {
  const names = Object.keys(targets) as K[];
  const out = Object.fromEntries(names.map((n) => [n, [] as WrkResult[]])) as Record<K, WrkResult[]>;
  for (let r = 0; r < rounds; r++) {
    for (const name of roundOrder(names, r)) out[name].push(await runWrk(ctx.wrk, targets[name], run(name), ctx.workDir, ctx.sentences));
  }
  return out;
}

/** Medians over rounds of throughput and of each round's latency percentiles (µs). */
export interface WrkSummary {
  rps: number;
  p50Us: number;
  p99Us: number;
  errors: number;
  cacheHits?: number;
  responses?: number;
  errorSample?: string;
}

export function summarizeWrk(results: WrkResult[]): WrkSummary {
  const s: WrkSummary = {
    rps: median(results.map((r) => r.rps)),
    p50Us: median(results.map((r) => r.latencyUs.p50)),
    p99Us: median(results.map((r) => r.latencyUs.p99)),
    errors: results.reduce((a, r) => a + r.errors, 0),
  };
  if (results.some((r) => r.cacheHits !== undefined)) {
    s.cacheHits = results.reduce((a, r) => a + (r.cacheHits ?? 0), 0);
    s.responses = results.reduce((a, r) => a + (r.responses ?? 0), 0);
    const sample = results.find((r) => r.errorSample)?.errorSample;
    if (sample) s.errorSample = sample;
  }
  return s;
}

/** Concurrency-1 latency, interleaved the same way: `perRound` requests per target per round. */
export async function interleavedLatency<K extends string>(
  targets: Record<K, ClientTarget>,
  rounds: number,
  perRound: number,
  warmup: number,
): Promise<Record<K, number[][]>> {
  const names = Object.keys(targets) as K[];
  for (const name of names) await timeRequests(targets[name], warmup, 1_000_000_000);
  const out = Object.fromEntries(names.map((n) => [n, [] as number[][]])) as Record<K, number[][]>;
  for (let r = 0; r < rounds; r++) {
    for (const name of roundOrder(names, r)) out[name].push(await timeRequests(targets[name], perRound, r * perRound));
  }
  return out;
}

export interface LatencySummary {
  /** Median over rounds of each round's p50, ms. */
  p50: number;
  /** p99 of all samples pooled, ms (a round is too short for a stable p99 of its own). */
  p99: number;
  samples: number;
}

export function summarizeLatency(rounds: number[][]): LatencySummary {
  const all = rounds.flat();
  return { p50: median(rounds.map((r) => percentile(r, 50))), p99: percentile(all, 99), samples: all.length };
}
