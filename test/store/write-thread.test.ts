import { describe, expect, test } from "bun:test";
import { startWriteThread } from "../../src/store/write-thread";

const ECHO = new URL("./threads/echo.worker.ts", import.meta.url).href;
/** Settles within `ms`, or says it did not: a request posted to a dead thread used to wait forever. */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([
    p.then(
      (v) => ({ settled: "resolved", v }),
      (e: Error) => ({ settled: "rejected", v: e.message }),
    ),
    Bun.sleep(ms).then(() => ({ settled: "no", v: undefined })),
  ]);

describe("a writer thread", () => {
  test("answers each request by its id", async () => {
    const thread = startWriteThread<{ n: number }>(ECHO, undefined, "echo writer");
    const replies = await Promise.all([1, 2, 3].map((n) => thread.send({ n })));
    expect(new Set(replies.map((r) => r.id)).size).toBe(3);
    thread.terminate();
  });

  test("that died fails the request it was running and every later one at once", async () => {
    const thread = startWriteThread<{ throw?: boolean }>(ECHO, undefined, "echo writer");
    expect(await within(thread.send({ throw: true }), 5_000)).toEqual({ settled: "rejected", v: expect.stringContaining("echo writer failed") });
    expect(await within(thread.send({}), 1_000)).toEqual({ settled: "rejected", v: expect.stringContaining("echo writer failed") });
  });

  test("that was stopped fails later requests at once", async () => {
    const thread = startWriteThread<object>(ECHO, undefined, "echo writer");
    await thread.send({});
    thread.terminate();
    expect(await within(thread.send({}), 1_000)).toEqual({ settled: "rejected", v: "echo writer stopped" });
  });
});
