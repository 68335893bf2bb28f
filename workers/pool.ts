import Piscina from "piscina";
import { Packr } from "msgpackr";
import { WORKER_HANG_FACTOR } from "../src/config/config";
import { ApiError } from "../src/core/errors";

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
  /** A task still running this long is stuck and its worker is terminated; WORKER_HANG_FACTOR deadlines when left out. */
  hangMs?: number;
  /** Given to every worker as `workerData` (plain data). */
  workerData?: unknown;
}

/** A task waiting for a free worker. */
interface Waiting {
  start(): void;
  fail(e: Error): void;
}

const overloaded = (message = "the gateway is at capacity; retry shortly") => new ApiError("OVERLOADED", message, { retryAfterS: 1 });

/**
 * The worker-thread pool for CPU stages. One task per request; messages are msgpackr-packed and the
 * bytes moved, not copied. Tasks wait here, not in piscina, so every task piscina holds is running and
 * each phase has its own bound: a full queue answers 503 OVERLOADED instead of growing, and so does a
 * task that waited a whole deadline for a worker. A running task past its deadline fails at once, but
 * its worker is left to finish it: terminating a thread inside onnxruntime's native code aborts the
 * whole process ("terminate called after throwing an instance of 'Napi::Error'", reproduced with a
 * 50 ms deadline). Only a task still running at `hangMs` is cut, which replaces its worker. A worker
 * that crashes fails only its own task.
 */
export class WorkerPool<I, O> {
  private readonly pool: Piscina;
  private crashes = 0;
  /** Tasks on a worker now, at most `threads`. */
  private running = 0;
  /** Tasks waiting for a worker, oldest first. */
  private readonly waiting: Waiting[] = [];

  private readonly hangMs: number;

  constructor(private readonly opts: PoolOptions) {
    this.hangMs = opts.hangMs ?? opts.taskTimeoutMs * WORKER_HANG_FACTOR;
    this.pool = new Piscina({
      filename: opts.filename,
      minThreads: opts.threads,
      maxThreads: opts.threads,
      // Only a task handed over while a replaced worker starts ever waits inside piscina.
      maxQueue: opts.threads,
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
   * finish (see the class comment).
   */
  async run(input: I, signal?: AbortSignal): Promise<O> {
    if (signal?.aborted) throw new DOMException("the client went away", "AbortError");
    if (this.running + this.waiting.length >= this.opts.threads + this.opts.queueLimit) throw overloaded();
    // Packed before taking a worker: a value msgpackr cannot pack fails here, not holding a worker.
    const bytes = pack(input);
    await this.turn(signal);
    return unpack(await this.execute(bytes)) as O;
  }

  /** Resolves once a worker is free for the caller, who then holds it until `execute`'s task ends. */
  private turn(signal?: AbortSignal): Promise<void> {
    if (this.running < this.opts.threads) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
      };
      const entry: Waiting = {
        start: () => {
          settle();
          this.running++;
          resolve();
        },
        fail: (e) => {
          settle();
          reject(e);
        },
      };
      const onAbort = () => entry.fail(new DOMException("the client went away", "AbortError"));
      const timer = setTimeout(() => entry.fail(overloaded()), this.opts.taskTimeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** Runs the task on the worker `turn` reserved, and frees it for the next waiting task when the task ends. */
  private execute(bytes: Uint8Array): Promise<Uint8Array> {
    const ms = this.opts.taskTimeoutMs;
    const hang = new AbortController();
    const hangTimer = setTimeout(() => hang.abort(), this.hangMs);
    const task = (this.pool.run(Piscina.move(bytes as Uint8Array<ArrayBuffer>), { signal: hang.signal }) as Promise<Uint8Array>).finally(() => {
      clearTimeout(hangTimer);
      this.running--;
      this.waiting[0]?.start();
    });
    let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      deadlineTimer = setTimeout(() => reject(new ApiError("INTERNAL_ERROR", `optimizer task exceeded ${ms} ms`)), ms);
    });
    // Past the deadline nobody awaits the task; its failure, if any, is counted and dropped.
    return Promise.race([task.catch((e) => Promise.reject(this.toApiError(e as Error, hang.signal))), deadline]).finally(() => clearTimeout(deadlineTimer));
  }

  private toApiError(e: Error, hang: AbortSignal): Error {
    if (e.message === "Task queue is at limit") return overloaded();
    if (e.name === "AbortError" && hang.aborted) return new ApiError("INTERNAL_ERROR", `optimizer task ran past ${this.hangMs} ms; its worker was replaced`);
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

  /** Tasks waiting for a free worker. */
  queued(): number {
    return this.waiting.length;
  }

  stats() {
    return { threads: this.pool.threads.length, in_flight: this.running + this.waiting.length, completed: this.pool.completed, crashes: this.crashes };
  }

  close(): Promise<void> {
    for (const w of [...this.waiting]) w.fail(overloaded("the gateway is shutting down"));
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
