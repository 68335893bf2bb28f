import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KeyEntry } from "../../src/auth/key-record";
import { Plans } from "../../src/auth/plans";
import { Quota } from "../../src/auth/quota";
import { SqliteCounters, type Counters } from "../../src/store/counters";
import { openStore } from "../../src/store/db";

// Quota leases: far from its limit a key's calls are taken from the store in small leases, so most calls
// cost no store write; near the limit every call is one atomic add, so processes sharing the store never
// give out more than the limit between them.

const plans = new Plans({
  default_plan: "big",
  plans: [
    { id: "big", monthly_calls: 10_000 },
    { id: "small", monthly_calls: 200 },
  ],
});
const key = (plan: string): KeyEntry => ({ id: `key_${plan}`, appId: "app", type: "live", plan, scopes: ["complete"] }) as unknown as KeyEntry;
const NOW = Date.parse("2026-11-21T12:00:00Z");

function counters(): { c: Counters; adds: () => number } {
  const store = openStore(mkdtempSync(join(tmpdir(), "svc-quota-lease-")));
  const real = new SqliteCounters(join(store.sqlite.filename));
  let adds = 0;
  const c: Counters = {
    addWithin: (...a) => {
      adds++;
      return real.addWithin(...a);
    },
    subtract: (...a) => real.subtract(...a),
    read: (...a) => real.read(...a),
    get problem() {
      return real.problem;
    },
    close: () => real.close(),
  };
  return { c, adds: () => adds };
}

describe("quota leases", () => {
  test("far from the limit, one store write serves a lease of 1/64 of what is left", async () => {
    const { c, adds } = counters();
    const q = new Quota(c, plans, 100);
    for (let i = 0; i < 156; i++) await q.consume(key("big"), NOW);
    expect(adds()).toBe(1);
    expect(await c.read("key_big", "m:2026-11")).toBe(156);
    expect(await q.used(key("big"), "m:2026-11")).toBe(156);
    await q.consume(key("big"), NOW);
    expect(adds()).toBe(2);
  });

  test("calls arriving at once share the lease one of them takes, rather than taking a lease each", async () => {
    const { c, adds } = counters();
    const q = new Quota(c, plans, 100);
    await Promise.all(Array.from({ length: 150 }, () => q.consume(key("big"), NOW)));
    expect(adds()).toBe(1);
    expect(await c.read("key_big", "m:2026-11")).toBe(156);
  });

  test("two processes on one store give out exactly the limit between them, never more", async () => {
    const { c } = counters();
    const a = new Quota(c, plans, 100);
    const b = new Quota(c, plans, 100);
    let served = 0;
    for (let round = 0; round < 300; round++) {
      for (const q of [a, b]) {
        try {
          await q.consume(key("small"), NOW);
          served++;
        } catch (e) {
          expect((e as { code: string }).code).toBe("QUOTA_EXCEEDED");
        }
      }
    }
    expect(served).toBe(200);
    expect(await c.read("key_small", "m:2026-11")).toBe(200);
  });

  test("a failed call goes back to the lease; an idle lease goes back to the store at a flush, and every lease at close", async () => {
    const { c } = counters();
    const q = new Quota(c, plans, 100, 1000);
    const t = await q.consume(key("big"), NOW);
    expect(await c.read("key_big", "m:2026-11")).toBe(156);
    q.refund(t);
    expect(await q.used(key("big"), "m:2026-11")).toBe(0);
    q.flush(NOW + 999);
    expect(await c.read("key_big", "m:2026-11")).toBe(156);
    q.flush(NOW + 1000);
    for (let i = 0; i < 50 && (await c.read("key_big", "m:2026-11")) !== 0; i++) await Bun.sleep(1);
    expect(await c.read("key_big", "m:2026-11")).toBe(0);
    await q.consume(key("big"), NOW);
    await q.close();
    expect(await c.read("key_big", "m:2026-11")).toBe(1);
  });
});
