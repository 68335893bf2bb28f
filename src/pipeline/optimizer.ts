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
  "modelsFile" | "capabilitiesFile" | "inlineMaxChars" | "optimizeMemoEntries" | "workers" | "workerQueueLimit" | "workerTaskTimeoutMs"
>;

function promptChars(input: OptimizeInput): number {
  let n = 0;
  for (const m of input.messages) n += m.content.length;
  return n;
}

/**
 * The CPU stages (compression, scoring, embedding, classification, routing) behind one call: short
 * rule-only requests on the event loop, model work remembered in a memo, else in a worker pool (each
 * worker loads the models once), or with `workers: 0` the same code inline.
 */
export class Optimizer {
  private readonly eventLoopDeps: OptimizerDeps;
  private readonly memo: OptimizeMemo;

  private constructor(
    private readonly settings: OptimizerSettings,
    private readonly pool: WorkerPool<OptimizeInput, OptimizeResult> | undefined,
    private readonly inlineDeps: OptimizerDeps | undefined,
  ) {
    this.eventLoopDeps = ruleDeps(settings);
    this.memo = new OptimizeMemo(settings.optimizeMemoEntries);
  }

  /** `models` are the inline path's (settings.workers 0); without them a pool is started and warmed. */
  static async start(settings: Settings, models: Models | undefined): Promise<Optimizer> {
    if (models) return new Optimizer(settings, undefined, optimizerDeps(settings, models));
    const pool = new WorkerPool<OptimizeInput, OptimizeResult>({
      filename: OPTIMIZE_WORKER,
      threads: settings.workers,
      queueLimit: settings.workerQueueLimit,
      taskTimeoutMs: settings.workerTaskTimeoutMs,
      workerData: settings,
    });
    await pool.warm();
    return new Optimizer(settings, pool, undefined);
  }

  /**
   * Runs the CPU stages. A request that needs no model and is short costs less than the hop to a
   * worker (`bun bench/optimizer-hop.ts` measures both), so it runs here on the event loop.
   */
  run(input: OptimizeInput, signal?: AbortSignal): Promise<OptimizeResult> {
    if (!needsModels(input) && promptChars(input) <= this.settings.inlineMaxChars) return optimize(input, this.eventLoopDeps);
    return this.runWithModels(input, signal);
  }

  /** Model work: remembered for repeats (the stages are deterministic), else in a worker (or inline with workers: 0). */
  private async runWithModels(input: OptimizeInput, signal?: AbortSignal): Promise<OptimizeResult> {
    const key = this.memo.enabled ? this.memo.keyOf(input) : undefined;
    const known = key === undefined ? undefined : this.memo.get(key);
    if (known) return known;
    // The client's signal only keeps a queued task from starting (see WorkerPool.run).
    const result = this.inlineDeps ? await optimize(input, this.inlineDeps) : await this.pool!.run(input, signal);
    if (key !== undefined) this.memo.set(key, result);
    return result;
  }

  /** Tasks waiting for a free worker (none inline). */
  queueDepth(): number {
    return this.pool?.queued() ?? 0;
  }

  health(): { ok: boolean; detail: string } {
    return this.pool ? { ok: true, detail: JSON.stringify(this.pool.stats()) } : { ok: true, detail: "inline" };
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}
