import { describe, expect, test } from "bun:test";
import { Deadline } from "../../src/providers/shared/deadline";

describe("Deadline", () => {
  test("aborts with a TimeoutError once the time passes without extend()", async () => {
    const d = new Deadline(30);
    await Bun.sleep(60);
    expect(d.expired).toBe(true);
    expect(d.signal.aborted).toBe(true);
    expect((d.signal.reason as DOMException).name).toBe("TimeoutError");
  });

  test("extend() pushes the time back", async () => {
    const d = new Deadline(80);
    for (let i = 0; i < 4; i++) {
      await Bun.sleep(40);
      d.extend();
    }
    expect(d.signal.aborted).toBe(false);
    d.clear();
  });

  test("the caller aborting aborts the deadline's signal with the caller's reason, and is not a timeout", () => {
    const caller = new AbortController();
    const d = new Deadline(10_000, caller.signal);
    caller.abort(new Error("client gone"));
    expect(d.signal.aborted).toBe(true);
    expect((d.signal.reason as Error).message).toBe("client gone");
    expect(d.expired).toBe(false);
  });

  test("a caller already aborted gives an aborted signal at once", () => {
    const caller = new AbortController();
    caller.abort();
    expect(new Deadline(10_000, caller.signal).signal.aborted).toBe(true);
  });

  test("after clear() neither the clock nor the caller aborts it", async () => {
    const caller = new AbortController();
    const d = new Deadline(20, caller.signal);
    d.clear();
    caller.abort();
    await Bun.sleep(40);
    expect(d.signal.aborted).toBe(false);
  });
});
