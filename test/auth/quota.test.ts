import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Quota } from "../../src/auth/quota";
import type { KeyEntry } from "../../src/auth/key-record";
import { Plans } from "../../src/auth/plans";
import { ApiError } from "../../src/http/errors";
import { openStore, type Store } from "../../src/store/db";

// Unit tests of the call limits on a real SQLite store, with the clock injected so a test can stand on
// either side of a UTC day or month boundary without waiting for one.

const plans = new Plans({ default_plan: "free", plans: [{ id: "free", monthly_calls: 1000 }, { id: "tiny", monthly_calls: 2 }] });
const key = (id: string, type: "test" | "live", plan = "free"): KeyEntry => ({ id, name: id, appId: "a", type, prefix: "p", last4: "0000", hash: `h_${id}`, status: "active", scopes: ["complete"], plan, createdAt: 0, lastUsedAt: null, revokedAt: null });

const stores: { store: Store; dir: string }[] = [];
function freshStore(): Store {
  const dir = mkdtempSync(join(tmpdir(), "svc-quota-"));
  const store = openStore(dir);
  stores.push({ store, dir });
  return store;
}
afterEach(() => {
  for (const { store, dir } of stores.splice(0)) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A clock the test moves by hand. */
function manualClock(iso: string) {
  let now = Date.parse(iso);
  return { now: () => now, set: (to: string) => (now = Date.parse(to)) };
}

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected the call to be refused");
}

const counted = (store: Store) => store.sqlite.query<{ key_id: string; period: string; calls: number }, []>("SELECT key_id, period, calls FROM usage_counters ORDER BY key_id, period").all();

describe("test keys: a number of calls per UTC day", () => {
  test("the limit holds until the UTC day ends and opens again at 00:00Z, in the same month", () => {
    const clock = manualClock("2026-11-21T23:59:59.000Z");
    const q = new Quota(freshStore().db, plans, 3, clock.now);
    const k = key("key_t", "test");
    for (let i = 0; i < 3; i++) q.consume(k);
    const e = refusal(() => q.consume(k));
    expect(e.code).toBe("RATE_LIMITED");
    expect(e.status).toBe(429);
    expect(e.message).toContain("3 calls per UTC day");
    expect(e.message).toContain("2026-11-22T00:00:00.000Z");
    expect(e.extra.retryAfterS).toBe(1);
    clock.set("2026-11-21T23:59:59.999Z");
    expect(refusal(() => q.consume(k)).extra.retryAfterS).toBeCloseTo(0.001, 9);
    clock.set("2026-11-22T00:00:00.000Z");
    for (let i = 0; i < 3; i++) q.consume(k);
    expect(refusal(() => q.consume(k)).code).toBe("RATE_LIMITED");
    expect(q.used(k, "d:2026-11-21")).toBe(3);
    expect(q.used(k, "d:2026-11-22")).toBe(3);
  });

  test("a day is a UTC day, not the machine's local one", () => {
    // 23:30 at UTC-5 on the 21st is 04:30Z on the 22nd: the count belongs to the 22nd.
    const clock = manualClock("2026-11-22T04:30:00-05:00");
    const q = new Quota(freshStore().db, plans, 1, clock.now);
    const k = key("key_tz", "test");
    q.consume(k);
    expect(q.used(k, "d:2026-11-22")).toBe(1);
    expect(refusal(() => q.consume(k)).message).toContain("2026-11-23T00:00:00.000Z");
  });

  test("the explicit `now` argument is the clock when given", () => {
    const q = new Quota(freshStore().db, plans, 1, () => Date.parse("2026-01-01T00:00:00Z"));
    const k = key("key_now", "test");
    q.consume(k, Date.parse("2026-03-05T10:00:00Z"));
    expect(q.used(k, "d:2026-03-05")).toBe(1);
    expect(q.used(k, "d:2026-01-01")).toBe(0);
    q.consume(k);
    expect(q.used(k, "d:2026-01-01")).toBe(1);
  });

  test("the daily limit is the number given, exactly (not a plan's monthly quota)", () => {
    const q = new Quota(freshStore().db, plans, 5, manualClock("2026-11-21T12:00:00Z").now);
    const k = key("key_five", "test", "tiny");
    for (let i = 0; i < 5; i++) q.consume(k);
    expect(refusal(() => q.consume(k)).code).toBe("RATE_LIMITED");
    expect(q.used(k, "d:2026-11-21")).toBe(5);
  });

  test("each key has its own count", () => {
    const q = new Quota(freshStore().db, plans, 1, manualClock("2026-11-21T12:00:00Z").now);
    q.consume(key("key_a", "test"));
    q.consume(key("key_b", "test"));
    expect(refusal(() => q.consume(key("key_a", "test"))).code).toBe("RATE_LIMITED");
  });
});

describe("live keys: the plan's calls per UTC month", () => {
  test("the quota holds across a day boundary and opens on the first of the next month", () => {
    const clock = manualClock("2026-11-29T23:59:59.500Z");
    const q = new Quota(freshStore().db, plans, 100, clock.now);
    const k = key("key_l", "live", "tiny");
    q.consume(k);
    clock.set("2026-11-30T00:00:00.000Z");
    q.consume(k);
    const e = refusal(() => q.consume(k));
    expect(e.code).toBe("QUOTA_EXCEEDED");
    expect(e.message).toContain("plan 'tiny' allows 2 calls per month");
    expect(e.message).toContain("2026-12-01T00:00:00.000Z");
    expect(e.extra.retryAfterS).toBe(86_400);
    clock.set("2026-12-01T00:00:00.000Z");
    q.consume(k);
    expect(q.used(k, "m:2026-11")).toBe(2);
    expect(q.used(k, "m:2026-12")).toBe(1);
  });

  test("December's quota resets on 1 January of the next year", () => {
    const clock = manualClock("2026-12-31T23:00:00Z");
    const q = new Quota(freshStore().db, plans, 100, clock.now);
    const k = key("key_dec", "live", "tiny");
    q.consume(k);
    q.consume(k);
    const e = refusal(() => q.consume(k));
    expect(e.message).toContain("2027-01-01T00:00:00.000Z");
    expect(e.extra.retryAfterS).toBe(3600);
  });

  test("a plan the file does not list allows no calls", () => {
    const q = new Quota(freshStore().db, plans, 100, manualClock("2026-11-21T12:00:00Z").now);
    expect(refusal(() => q.consume(key("key_x", "live", "gone"))).code).toBe("QUOTA_EXCEEDED");
  });
});

describe("refunds and the store", () => {
  test("a refunded call gives its slot back, in the period it was taken from", () => {
    const clock = manualClock("2026-11-21T23:59:59Z");
    const q = new Quota(freshStore().db, plans, 2, clock.now);
    const k = key("key_r", "test");
    const t = q.consume(k);
    q.consume(k);
    clock.set("2026-11-22T00:00:01Z");
    q.refund(t);
    expect(q.used(k, "d:2026-11-21")).toBe(1);
    clock.set("2026-11-21T23:59:59Z");
    q.consume(k);
    expect(refusal(() => q.consume(k)).code).toBe("RATE_LIMITED");
  });

  test("a refund of an unknown ticket changes nothing", () => {
    const q = new Quota(freshStore().db, plans, 2, manualClock("2026-11-21T12:00:00Z").now);
    const k = key("key_u", "test");
    q.consume(k);
    q.refund({ slot: "key_other|d:2026-11-21" });
    expect(q.used(k, "d:2026-11-21")).toBe(1);
  });

  test("flush writes increments; a second gateway on the same store starts from the written count", () => {
    const store = freshStore();
    const clock = manualClock("2026-11-21T10:00:00Z");
    const q = new Quota(store.db, plans, 3, clock.now);
    const k = key("key_f", "test");
    const t = q.consume(k);
    q.consume(k);
    q.consume(k);
    q.refund(t);
    q.flush();
    expect(counted(store)).toEqual([{ key_id: "key_f", period: "d:2026-11-21", calls: 2 }]);
    q.flush(); // nothing pending: nothing added twice
    expect(counted(store)).toEqual([{ key_id: "key_f", period: "d:2026-11-21", calls: 2 }]);
    // Another node counted 1 more call of the same key in the same period: increments add up.
    const other = new Quota(store.db, plans, 3, clock.now);
    other.consume(k);
    expect(refusal(() => other.consume(k)).code).toBe("RATE_LIMITED");
    other.flush();
    q.consume(k); // q still believes 2 were used
    q.flush();
    expect(counted(store)).toEqual([{ key_id: "key_f", period: "d:2026-11-21", calls: 4 }]);
  });

  test("flush forgets finished periods (by the injected clock) and keeps the current one", () => {
    const store = freshStore();
    const clock = manualClock("2026-11-21T23:59:00Z");
    const q = new Quota(store.db, plans, 3, clock.now);
    const t = key("key_d", "test");
    const l = key("key_m", "live");
    q.consume(t);
    q.consume(l);
    q.flush();
    expect(q.used(t, "d:2026-11-21")).toBe(1);
    expect(q.used(l, "m:2026-11")).toBe(1);
    clock.set("2026-11-22T00:00:30Z");
    q.consume(t);
    q.flush();
    expect(q.used(t, "d:2026-11-21")).toBe(0);
    expect(q.used(t, "d:2026-11-22")).toBe(1);
    expect(q.used(l, "m:2026-11")).toBe(1);
    clock.set("2026-12-01T00:00:00Z");
    q.flush();
    expect(q.used(l, "m:2026-11")).toBe(1); // nothing was pending, so nothing was written: still kept
    q.consume(l);
    q.flush();
    expect(q.used(l, "m:2026-11")).toBe(0);
    expect(q.used(l, "m:2026-12")).toBe(1);
    expect(counted(store)).toEqual([
      { key_id: "key_d", period: "d:2026-11-21", calls: 1 },
      { key_id: "key_d", period: "d:2026-11-22", calls: 1 },
      { key_id: "key_m", period: "m:2026-11", calls: 1 },
      { key_id: "key_m", period: "m:2026-12", calls: 1 },
    ]);
  });
});
