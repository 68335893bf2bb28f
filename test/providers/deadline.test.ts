import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { Deadline } from "../../src/providers/shared/deadline";

// Bun's fake timers stand in for the clock: each test moves time by hand, so none depends on how
// fast a loaded machine runs it.
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe("Deadline", () => {
  test("aborts with a TimeoutError once the time passes without extend()", () => {
    const d = new Deadline(30);
    jest.advanceTimersByTime(29);
    expect(d.expired).toBe(false);
    expect(d.signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect(d.expired).toBe(true);
    expect(d.signal.aborted).toBe(true);
    expect((d.signal.reason as DOMException).name).toBe("TimeoutError");
  });

  test("extend() pushes the time back, by the whole time from the moment it is called", () => {
    const d = new Deadline(80);
    for (let i = 0; i < 4; i++) {
      jest.advanceTimersByTime(79);
      d.extend();
    }
    expect(d.signal.aborted).toBe(false);
    jest.advanceTimersByTime(79);
    expect(d.expired).toBe(false);
    jest.advanceTimersByTime(1);
    expect(d.expired).toBe(true);
    // Once expired, extend() brings nothing back.
    d.extend();
    expect(d.signal.aborted).toBe(true);
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

  test("after clear() neither the clock nor the caller aborts it", () => {
    const caller = new AbortController();
    const d = new Deadline(20, caller.signal);
    d.clear();
    caller.abort();
    jest.advanceTimersByTime(1_000);
    expect(d.signal.aborted).toBe(false);
    expect(d.expired).toBe(false);
  });

  test("watchers run once when it aborts, at once when it already has, and not after they stop watching", () => {
    const caller = new AbortController();
    const d = new Deadline(10_000, caller.signal);
    const seen: string[] = [];
    d.watch(() => seen.push("first"));
    const stop = d.watch(() => seen.push("stopped"));
    stop();
    caller.abort(new Error("client gone"));
    caller.abort(new Error("again"));
    d.watch(() => seen.push("late"));
    expect(seen).toEqual(["first", "late"]);
    expect(d.aborted).toBe(true);
    expect((d.reason as Error).message).toBe("client gone");
  });

  test("the clock running out runs the watchers, and a signal asked for afterwards is already aborted", () => {
    const d = new Deadline(20);
    let ran = 0;
    d.watch(() => ran++);
    jest.advanceTimersByTime(19);
    expect(ran).toBe(0);
    jest.advanceTimersByTime(1_000);
    expect(ran).toBe(1);
    expect(d.expired).toBe(true);
    expect((d.signal.reason as DOMException).name).toBe("TimeoutError");
  });
});
