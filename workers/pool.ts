import Piscina from "piscina";
import { Packr } from "msgpackr";
import { ApiError } from "../src/http/errors";

// moreTypes: typed arrays (embeddings) survive the trip as typed arrays, not raw bytes.
const packr = new Packr({ moreTypes: true });
// msgpackr packs into a shared, reused buffer; a task's bytes must own their ArrayBuffer before they
// are moved to another thread (queued tasks would otherwise share, and detach, one buffer).
const pack = (v: unknown) => new Uint8Array(packr.pack(v));
const unpack = (b: Uint8Array) => packr.unpack(b);

export interface PoolOptions {
  /** Worker module; its default export takes and returns msgpackr-packed bytes (see packedTask). */
  filename: string;
  threads: number;
  queueLimit: number;
  taskTimeoutMs: number;
  /** Given to every worker as `workerData` (plain data). */
  workerData?: unknown;
}

/**
 * The worker-thread pool for CPU stages. One task per request; messages are msgpackr-packed and the
 * bytes moved, not copied. A full queue answers 503 OVERLOADED instead of growing; a task that runs
 * past its deadline is aborted, which makes piscina terminate that worker and start a fresh one; a
 * worker that crashes fails only its own task.
 */
export class WorkerPool<I, O> {
  private readonly pool: Piscina;
  private crashes = 0;
  /** Tasks running or waiting. Counted here because piscina's own maxQueue also lets tasks wait on busy workers. */
  private inFlight = 0;

  constructor(private readonly opts: PoolOptions) {
    this.pool = new Piscina({
      filename: opts.filename,
      minThreads: opts.threads,
      maxThreads: opts.threads,
      maxQueue: opts.queueLimit,
      concurrentTasksPerWorker: 1,
      // Tasks reach workers as messages only. With Atomics, each hand-off wakes a worker through
      // Atomics.notify, which cost the event loop 25-75 µs more CPU per task (a 5 ms task, measured
      // interleaved; the gateway shares its core with the workers under the benchmark's pinning).
      atomics: "disabled",
      idleTimeout: Number.MAX_SAFE_INTEGER,
      // Piscina's run-time histograms feed only its `utilization`, whose summary cost 0.56 ms per read
      // (one /health call); in_flight and completed say what an operator acts on.
      recordTiming: false,
      workerData: opts.workerData,
    });
    this.pool.on("error", () => this.crashes++);
  }

  /**
   * `signal` (the client going away) drops a task that has not started; a running task is left to
   * finish, because terminating a thread inside native code (onnxruntime) takes the process down.
   * Only the deadline terminates a running task.
   */
  async run(input: I, signal?: AbortSignal): Promise<O> {
    if (signal?.aborted) throw new DOMException("the client went away", "AbortError");
    if (this.inFlight >= this.opts.threads + this.opts.queueLimit) {
      throw new ApiError("OVERLOADED", "the gateway is at capacity; retry shortly", { retryAfterS: 1 });
    }
    this.inFlight++;
    try {
      return await this.dispatch(input, signal);
    } finally {
      this.inFlight--;
    }
  }

  private async dispatch(input: I, signal?: AbortSignal): Promise<O> {
    const bytes = pack(input);
    const timeout = AbortSignal.timeout(this.opts.taskTimeoutMs);
    try {
      const out = (await this.pool.run(Piscina.move(bytes as Uint8Array<ArrayBuffer>), { signal: timeout })) as Uint8Array;
      return unpack(out) as O;
    } catch (e) {
      throw this.toApiError(e as Error, timeout);
    }
  }

  private toApiError(e: Error, timeout: AbortSignal): Error {
    if (e.message === "Task queue is at limit") return new ApiError("OVERLOADED", "the gateway is at capacity; retry shortly", { retryAfterS: 1 });
    if (e.name === "AbortError" && timeout.aborted) {
      return new ApiError("INTERNAL_ERROR", `optimizer task exceeded ${this.opts.taskTimeoutMs} ms; its worker was replaced`);
    }
    if (e.name === "AbortError") return e;
    this.crashes++;
    return new ApiError("INTERNAL_ERROR", "optimizer worker failed; it was replaced");
  }

  /**
   * Waits until every worker has loaded what it needs: one `null` task per thread, which a worker
   * built with packedTask answers once its module (and the models it loads) is ready.
   */
  async warm(): Promise<void> {
    await Promise.all(Array.from({ length: this.opts.threads }, () => this.pool.run(Piscina.move(pack(null) as Uint8Array<ArrayBuffer>))));
  }

  stats() {
    return { threads: this.pool.threads.length, in_flight: this.inFlight, completed: this.pool.completed, crashes: this.crashes };
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

/**
 * Wraps a task function for a worker module: unpack the input, run, pack the output. `ready` is what
 * the worker loads at start; a `null` input (WorkerPool.warm) only waits for it.
 */
export function packedTask<I, O>(fn: (input: I) => Promise<O> | O, ready?: Promise<unknown>): (bytes: Uint8Array) => Promise<Uint8Array> {
  return async (bytes) => {
    await ready;
    const input = unpack(bytes) as I | null;
    if (input === null) return pack(null) as Uint8Array;
    const out = await fn(input);
    const packed = pack(out);
    return Piscina.move(packed as Uint8Array<ArrayBuffer>) as unknown as Uint8Array;
  };
}
