import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { WorkerPool } from "../../workers/pool";
import { ApiError } from "../../src/core/errors";

type In = { op: "echo" | "crash" | "hang" | "exit"; value?: unknown; floats?: Float32Array };
type Out = { value: unknown; sum: number; thread: number };

const filename = join(import.meta.dir, "fixture.worker.ts");
let pool: WorkerPool<In, Out> | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const code = async (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e) => (e instanceof ApiError ? e.code : (e as Error).name),
  );
const message = async (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e) => (e as Error).message,
  );

describe("worker pool", () => {
  test("round-trips structured data through msgpackr, typed arrays included", async () => {
    pool = new WorkerPool<In, Out>({ filename, threads: 2, queueLimit: 100, taskTimeoutMs: 5000 });
    const out = await pool.run({ op: "echo", value: { a: [1, "x", null], n: 2.5 }, floats: new Float32Array([1, 2, 3.5]) });
    expect(out.value).toEqual({ a: [1, "x", null], n: 2.5 });
    expect(out.sum).toBe(6.5);
  });

  test("many concurrent tasks, queued behind busy workers, all come back intact", async () => {
    pool = new WorkerPool<In, Out>({ filename, threads: 2, queueLimit: 1000, taskTimeoutMs: 10_000 });
    const outs = await Promise.all(Array.from({ length: 300 }, (_, i) => pool!.run({ op: "echo", value: { i, text: "x".repeat(i) } })));
    outs.forEach((o, i) => expect(o.value).toEqual({ i, text: "x".repeat(i) }));
  });

  test("a crashing task fails alone and the pool keeps serving", async () => {
    pool = new WorkerPool<In, Out>({ filename, threads: 1, queueLimit: 100, taskTimeoutMs: 5000 });
    expect(await code(pool.run({ op: "crash" }))).toBe("INTERNAL_ERROR");
    expect(await code(pool.run({ op: "exit" }))).toBe("INTERNAL_ERROR");
    expect((await pool.run({ op: "echo", value: 1 })).value).toBe(1);
  });

  test("a task past its deadline fails at once; its worker is cut only when the task is still stuck at hangMs, and then replaced", async () => {
    pool = new WorkerPool<In, Out>({ filename, threads: 1, queueLimit: 100, taskTimeoutMs: 300, hangMs: 5000 });
    await pool.warm();
    const before = (await pool.run({ op: "echo" })).thread;
    // Answered at the deadline, not kept until the stuck worker was cut: the deadline's error, not the hang's.
    expect(await message(pool.run({ op: "hang" }))).toBe("optimizer task exceeded 300 ms");
    // The worker is still busy with it: a task that waits a whole deadline for one is refused, never started.
    expect(await code(pool.run({ op: "echo" }))).toBe("OVERLOADED");
    expect(pool.stats().in_flight).toBe(1);
    // Once the stuck task is cut at hangMs (far from the deadline, so a stalled machine cannot blur the two)
    // a new worker answers; until then each try is refused after a deadline.
    let after: Out | undefined;
    for (let i = 0; i < 40 && !after; i++) after = await pool.run({ op: "echo", value: "alive" }).catch(() => undefined);
    expect(after?.value).toBe("alive");
    expect(after?.thread).not.toBe(before);
  });

  test("the client going away drops its task while it waits for a worker", async () => {
    pool = new WorkerPool<In, Out>({ filename, threads: 1, queueLimit: 100, taskTimeoutMs: 2000, hangMs: 2500 });
    await pool.warm();
    const stuck = code(pool.run({ op: "hang" }));
    const client = new AbortController();
    const waiting = code(pool.run({ op: "echo" }, client.signal));
    expect(pool.stats().in_flight).toBe(2);
    client.abort();
    expect(await waiting).toBe("AbortError");
    expect(pool.stats().in_flight).toBe(1);
    expect(await stuck).toBe("INTERNAL_ERROR");
  });

  // In a process of its own: before the fix, a deadline landing while a worker ran onnxruntime aborted
  // the whole process ("terminate called after throwing an instance of 'Napi::Error'", exit 134).
  test("deadlines that fall while the real optimizer workers run model code fail those tasks, not the process", async () => {
    for (const deadlineMs of [10, 50]) {
      const proc = Bun.spawn([process.execPath, join(import.meta.dir, "deadlines-in-native-code.ts"), String(deadlineMs)], { stdout: "pipe", stderr: "pipe" });
      const [out, err, exit] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(err).not.toContain("terminate called");
      expect(exit).toBe(0);
      const outcomes = JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, number>;
      expect(outcomes.ok).toBeGreaterThan(0);
      if (deadlineMs === 10) expect(outcomes.INTERNAL_ERROR).toBeGreaterThan(0);
    }
  }, 60_000);

  test("a full queue answers OVERLOADED instead of growing", async () => {
    pool = new WorkerPool<In, Out>({ filename, threads: 1, queueLimit: 2, taskTimeoutMs: 400 });
    await pool.warm();
    const pending = [pool.run({ op: "hang" }), ...Array.from({ length: 6 }, () => pool!.run({ op: "echo" }))].map(code);
    // One task runs and two wait: the queue holds queueLimit tasks, never more.
    expect(pool.stats().in_flight).toBe(3);
    // The four past the queue are refused at once, the two queued ones after waiting a deadline for the stuck worker.
    expect(await Promise.all(pending)).toEqual(["INTERNAL_ERROR", "OVERLOADED", "OVERLOADED", "OVERLOADED", "OVERLOADED", "OVERLOADED", "OVERLOADED"]);
  });
});
