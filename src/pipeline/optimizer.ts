import type { Settings } from "../config/config";
import { WorkerPool } from "../../workers/pool";
import type { OptimizeInput, OptimizeResult } from "./optimize-types";
import { optimize, needsModels, type OptimizerDeps } from "./optimize";
import { optimizerDeps, ruleDeps } from "./optimizer-deps";
import { OptimizeMemo } from "./optimize-memo";
import type { Models } from "./models";

const OPTIMIZE_WORKER = new URL("../../workers/optimize.worker.ts", import.meta.url).href;

type OptimizerSettings = Pick<
  Settings,
  "modelsFile" | "capabilitiesFile" | "inlineMaxChars" | "inlineModelMaxChars" | "optimizeMemoEntries" | "workers" | "workerQueueLimit" | "workerTaskTimeoutMs"
>;

function promptChars(input: OptimizeInput): number {
  let n = 0;
  for (const m of input.messages) n += m.content.length;
  return n;
}

/**
 * The CPU stages (compression, scoring, embedding, classification, routing) behind one call: short
 * rule-only requests on the event loop, model work remembered in a memo, else in a worker pool (each
 * worker loads the models once), or with `workers: 0` the same code inline. A short request that needs
 * the models also runs on the event loop when no other optimizer task is in flight (see `runsInline`).
 */
export class Optimizer {
  private readonly eventLoopDeps: OptimizerDeps;
  private readonly memo: OptimizeMemo;
  /** Model tasks started and not finished, here or in the pool. */
  private inFlight = 0;
  private closed = false;

  private constructor(
    private readonly settings: OptimizerSettings,
    private readonly pool: WorkerPool<OptimizeInput, OptimizeResult> | undefined,
    private readonly inlineDeps: OptimizerDeps | undefined,
  ) {
    this.eventLoopDeps = ruleDeps(settings);
    this.memo = new OptimizeMemo(settings.optimizeMemoEntries);
  }

  /**
   * `models` are the event loop's: every model task runs on them with settings.workers 0, short ones
   * while the optimizer is idle otherwise. With workers a pool is started and warmed.
   */
  static async start(settings: Settings, models: Models | undefined): Promise<Optimizer> {
    const inline = models && optimizerDeps(settings, models);
    if (settings.workers === 0) {
      if (!inline) throw new Error("Optimizer.start: with workers 0 every model task runs on the event loop, which needs the models");
      return new Optimizer(settings, undefined, inline);
    }
    const pool = new WorkerPool<OptimizeInput, OptimizeResult>({
      filename: OPTIMIZE_WORKER,
      threads: settings.workers,
      queueLimit: settings.workerQueueLimit,
      taskTimeoutMs: settings.workerTaskTimeoutMs,
      workerData: settings,
    });
    await pool.warm();
    return new Optimizer(settings, pool, inline);
  }

  /**
   * Runs the CPU stages. A request that needs no model and is short costs less than the hop to a
   * worker (`bun bench/optimizer-hop.ts` measures both), so it runs here on the event loop.
   */
  run(input: OptimizeInput, signal?: AbortSignal): Promise<OptimizeResult> {
    if (!needsModels(input) && promptChars(input) <= this.settings.inlineMaxChars) return optimize(input, this.eventLoopDeps);
    return this.runWithModels(input, signal);
  }

  /** Model work: remembered for repeats (the stages are deterministic), else in a worker or inline (see runsInline). */
  private async runWithModels(input: OptimizeInput, signal?: AbortSignal): Promise<OptimizeResult> {
    const key = this.memo.enabled ? this.memo.keyOf(input) : undefined;
    const known = key === undefined ? undefined : this.memo.get(key);
    if (known) return known;
    const inline = this.runsInline(input);
    this.inFlight++;
    let result: OptimizeResult;
    try {
      // The client's signal only keeps a queued task from starting (see WorkerPool.run).
      result = inline ? await optimize(input, inline) : await this.pool!.run(input, signal);
    } finally {
      this.inFlight--;
    }
    if (key !== undefined) this.memo.set(key, result);
    return result;
  }

  /**
   * The event loop's models when this model task runs there: always without a pool; with one, when the
   * prompt is short (inlineModelMaxChars) and no other model task is in flight. The hop to a worker
   * and back is latency a lone request waits for (bun bench/optimizer-hop.ts, interleaved, load 13:
   * every stage on 1,055 µs p50 inline, 1,645 through a worker; bun bench/miss-trees.ts: a miss added
   * 0.81x main's time over the bare proxy), and an idle optimizer's event loop has nothing the task would
   * hold up but I/O callbacks, for at most one task's time (a 2,000-character prompt: about 1 ms).
   * Under load the pool is busy, so tasks go to the workers (1 of 238 ran inline at 8 in flight) and
   * the event loop stays free (bun bench/optimizer-hop.ts's timer-lateness table).
   */
  private runsInline(input: OptimizeInput): OptimizerDeps | undefined {
    if (!this.pool) return this.inlineDeps;
    const max = this.settings.inlineModelMaxChars;
    return max > 0 && this.inFlight === 0 && promptChars(input) <= max ? this.inlineDeps : undefined;
  }

  /**
   * Runs the event loop's optimizer `runs` times on the inputs `inputOf` gives, one at a time, each
   * after the I/O waiting and none while a model task is in flight, until the optimizer closes. Under
   * load the model tasks go to the workers, which warm themselves on them, so the event loop's copy
   * of the stages, which serves a lone request, stays cold until lone requests warm it: after a start
   * and 4 s of load at 8 connections, blocks of 50 lone misses took 2.0-2.3 ms over the bare proxy,
   * ~0.9 ms only after about 500 (`bun bench/miss-blocks.ts`). Resolves with the runs made; a no-op
   * without the event loop's models.
   */
  async warm(runs: number, inputOf: (run: number) => OptimizeInput): Promise<number> {
    const deps = this.inlineDeps;
    if (!deps) return 0;
    let done = 0;
    while (done < runs && !this.closed) {
      // After the I/O callbacks, so a request that arrives waits for at most one run; while requests
      // hold model tasks, a look every 50 ms.
      if (this.inFlight > 0) await Bun.sleep(50);
      else await new Promise((resolve) => setImmediate(resolve));
      if (this.inFlight > 0 || this.closed) continue;
      await optimize(inputOf(done), deps);
      done++;
    }
    return done;
  }

  /** Tasks waiting for a free worker (none inline). */
  queueDepth(): number {
    return this.pool?.queued() ?? 0;
  }

  health(): { ok: boolean; detail: string } {
    return this.pool ? { ok: true, detail: JSON.stringify(this.pool.stats()) } : { ok: true, detail: "inline" };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.close();
  }
}
