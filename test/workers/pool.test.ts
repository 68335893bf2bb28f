import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { WorkerPool } from "../../workers/pool";
import { ApiError } from "../../src/http/errors";

type In = { op: "echo" | "crash" | "hang" | "exit"; value?: unknown; floats?: Float32Array };
type Out = { value: unknown; sum: number; thread: number };

const filename = join(import.meta.dir, "fixture.worker.ts");
let pool: WorkerPool<In, Out> | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const code = async (p: Promise<unknown>) => p.then(() => "ok", (e) => (e instanceof ApiError ? e.code : (e as Error).name));

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

  test("a stuck task is cut at its deadline, and its worker replaced", async () => {
    pool = new WorkerPool<In, Out>({ filename, threads: 1, queueLimit: 100, taskTimeoutMs: 300 });
    await pool.warm();
    const before = (await pool.run({ op: "echo" })).thread;
    expect(await code(pool.run({ op: "hang" }))).toBe("INTERNAL_ERROR");
    const after = await pool.run({ op: "echo", value: "alive" });
    expect(after.value).toBe("alive");
    expect(after.thread).not.toBe(before);
  });

  test("a full queue answers OVERLOADED instead of growing", async () => {
    pool = new WorkerPool<In, Out>({ filename, threads: 1, queueLimit: 2, taskTimeoutMs: 400 });
    await pool.warm();
    const results = await Promise.all([pool.run({ op: "hang" }), ...Array.from({ length: 6 }, () => pool!.run({ op: "echo" }))].map(code));
    expect(results.filter((r) => r === "OVERLOADED").length).toBeGreaterThanOrEqual(3);
  });
});
