import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Quota, periodOf } from "../../src/auth/quota";
import type { KeyEntry } from "../../src/auth/key-record";
import { Plans } from "../../src/auth/plans";
import { ApiError } from "../../src/core/errors";
import { openStore, type Store } from "../../src/store/db";
import { SqliteCounters, StoreUnavailableError, type Counters } from "../../src/store/counters";

// Unit tests of the call limits on a real SQLite store. The time is the `now` each call passes, so a
// test stands on either side of a UTC day or month boundary without waiting for one.

const plans = new Plans({
  default_plan: "free",
  plans: [
    { id: "free", monthly_calls: 1000 },
    { id: "tiny", monthly_calls: 2 },
  ],
});
const key = (id: string, type: "test" | "live", plan = "free"): KeyEntry => ({
  id,
  name: id,
  appId: "a",
  type,
  prefix: "p",
  last4: "0000",
  hash: `h_${id}`,
  status: "active",
  scopes: ["complete"],
  plan,
  createdAt: 0,
  lastUsedAt: null,
  revokedAt: null,
  budgetId: null,
  runLimits: { maxCostMicros: null, maxCalls: null, maxRepeats: null },
});

const open: { store: Store; counters: SqliteCounters[]; dir: string }[] = [];
/** A fresh store and `n` gateway processes' counters on it (each its own connection). */
function freshCounters(n = 1): SqliteCounters[] {
  const dir = mkdtempSync(join(tmpdir(), "svc-quota-"));
  const store = openStore(dir);
  const counters = Array.from({ length: n }, () => new SqliteCounters(join(dir, "svc.db")));
  open.push({ store, counters, dir });
  return counters;
}
const quota = (limit: number) => new Quota(freshCounters()[0]!, plans, limit);
afterEach(() => {
  for (const { store, counters, dir } of open.splice(0)) {
    for (const c of counters) c.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const at = (iso: string) => Date.parse(iso);

async function refusal(p: unknown): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected the call to be refused");
}

describe("test keys: a number of calls per UTC day", () => {
  test("the limit holds until the UTC day ends and opens again at 00:00Z, in the same month", async () => {
    const q = quota(3);
    const k = key("key_t", "test");
    for (let i = 0; i < 3; i++) await q.consume(k, at("2026-11-21T23:59:59.000Z"));
    const e = await refusal(q.consume(k, at("2026-11-21T23:59:59.000Z")));
    expect(e.code).toBe("RATE_LIMITED");
    expect(e.status).toBe(429);
    expect(e.message).toContain("3 calls per UTC day");
    expect(e.message).toContain("2026-11-22T00:00:00.000Z");
    expect(e.extra.retryAfterS).toBe(1);
    expect((await refusal(q.consume(k, at("2026-11-21T23:59:59.999Z")))).extra.retryAfterS).toBeCloseTo(0.001, 9);
    for (let i = 0; i < 3; i++) await q.consume(k, at("2026-11-22T00:00:00.000Z"));
    expect((await refusal(q.consume(k, at("2026-11-22T00:00:00.000Z")))).code).toBe("RATE_LIMITED");
    expect(await q.used(k, "d:2026-11-21")).toBe(3);
    expect(await q.used(k, "d:2026-11-22")).toBe(3);
  });

  test("a day is a UTC day, not the machine's local one", async () => {
    // 23:30 at UTC-5 on the 21st is 04:30Z on the 22nd: the count belongs to the 22nd.
    const q = quota(1);
    const k = key("key_tz", "test");
    const t = await q.consume(k, at("2026-11-22T04:30:00-05:00"));
    expect(t).toEqual({ keyId: "key_tz", period: "d:2026-11-22" });
    expect(await q.used(k, "d:2026-11-22")).toBe(1);
    expect((await refusal(q.consume(k, at("2026-11-22T04:30:00-05:00")))).message).toContain("2026-11-23T00:00:00.000Z");
  });

  test("the daily limit is the number given, exactly (not a plan's monthly quota)", async () => {
    const q = quota(5);
    const k = key("key_five", "test", "tiny");
    for (let i = 0; i < 5; i++) await q.consume(k, at("2026-11-21T12:00:00Z"));
    expect((await refusal(q.consume(k, at("2026-11-21T12:00:00Z")))).code).toBe("RATE_LIMITED");
    expect(await q.used(k, "d:2026-11-21")).toBe(5);
  });

  test("150 racing calls on one key get exactly the limit", async () => {
    const q = quota(100);
    const k = key("key_race", "test");
    const results = await Promise.allSettled(Array.from({ length: 150 }, () => q.consume(k, at("2026-11-21T12:00:00Z"))));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(100);
    expect(await q.used(k, "d:2026-11-21")).toBe(100);
  });

  test("each key has its own count", async () => {
    const q = quota(1);
    await q.consume(key("key_a", "test"), at("2026-11-21T12:00:00Z"));
    await q.consume(key("key_b", "test"), at("2026-11-21T12:00:00Z"));
    expect((await refusal(q.consume(key("key_a", "test"), at("2026-11-21T12:00:00Z")))).code).toBe("RATE_LIMITED");
  });
});

describe("live keys: the plan's calls per UTC month", () => {
  test("the quota holds across a day boundary and opens on the first of the next month", async () => {
    const q = quota(100);
    const k = key("key_l", "live", "tiny");
    await q.consume(k, at("2026-11-29T23:59:59.500Z"));
    await q.consume(k, at("2026-11-30T00:00:00.000Z"));
    const e = await refusal(q.consume(k, at("2026-11-30T00:00:00.000Z")));
    expect(e.code).toBe("QUOTA_EXCEEDED");
    expect(e.message).toContain("plan 'tiny' allows 2 calls per month");
    expect(e.message).toContain("2026-12-01T00:00:00.000Z");
    // The reset is a day away; Retry-After is capped at 60 s so SDKs do not sleep until then (the message says when).
    expect(e.extra.retryAfterS).toBe(60);
    await q.consume(k, at("2026-12-01T00:00:00.000Z"));
    expect(await q.used(k, "m:2026-11")).toBe(2);
    expect(await q.used(k, "m:2026-12")).toBe(1);
  });

  test("December's quota resets on 1 January of the next year", async () => {
    const q = quota(100);
    const k = key("key_dec", "live", "tiny");
    await q.consume(k, at("2026-12-31T23:00:00Z"));
    await q.consume(k, at("2026-12-31T23:00:00Z"));
    const e = await refusal(q.consume(k, at("2026-12-31T23:00:00Z")));
    expect(e.message).toContain("2027-01-01T00:00:00.000Z");
    expect(e.extra.retryAfterS).toBe(60);
  });

  test("a plan the file does not list allows no calls", async () => {
    expect((await refusal(quota(100).consume(key("key_x", "live", "gone"), at("2026-11-21T12:00:00Z")))).code).toBe("QUOTA_EXCEEDED");
  });

  test("periods: a UTC day for test keys, a UTC month for live keys", () => {
    expect(periodOf(key("k", "test"), at("2026-02-28T23:59:59.999Z"))).toBe("d:2026-02-28");
    expect(periodOf(key("k", "test"), at("2026-03-01T00:00:00Z"))).toBe("d:2026-03-01");
    expect(periodOf(key("k", "live"), at("2026-02-28T23:59:59.999Z"))).toBe("m:2026-02");
    expect(periodOf(key("k", "live"), at("2026-03-01T00:00:00Z"))).toBe("m:2026-03");
  });
});

describe("refunds and processes sharing the store", () => {
  test("a refunded call gives its slot back, in the period it was taken from", async () => {
    const q = quota(2);
    const k = key("key_r", "test");
    const t = await q.consume(k, at("2026-11-21T23:59:59Z"));
    await q.consume(k, at("2026-11-21T23:59:59Z"));
    await q.consume(k, at("2026-11-22T00:00:01Z"));
    q.refund(t);
    q.flush();
    await q.consume(k, at("2026-11-21T23:59:59Z"));
    expect((await refusal(q.consume(k, at("2026-11-21T23:59:59Z")))).code).toBe("RATE_LIMITED");
    expect(await q.used(k, "d:2026-11-21")).toBe(2);
    expect(await q.used(k, "d:2026-11-22")).toBe(1);
  });

  test("two gateway processes on one store share one count", async () => {
    const [a, b] = freshCounters(2);
    const qa = new Quota(a!, plans, 3);
    const qb = new Quota(b!, plans, 3);
    const k = key("key_f", "test");
    await qa.consume(k, at("2026-11-21T10:00:00Z"));
    await qb.consume(k, at("2026-11-21T10:00:00Z"));
    await qa.consume(k, at("2026-11-21T10:00:00Z"));
    expect((await refusal(qb.consume(k, at("2026-11-21T10:00:00Z")))).code).toBe("RATE_LIMITED");
    expect(await qa.used(k, "d:2026-11-21")).toBe(3);
    expect(await qb.used(k, "d:2026-11-21")).toBe(3);
  });
});

/** Counters that fail as told: what a locked or broken store looks like to the quota. */
class FailingCounters implements Counters {
  readonly subtracted: [string, string, number][] = [];
  addError: Error | undefined;
  subtractFailures = 0;
  problem: string | undefined;
  async addWithin(): Promise<number | undefined> {
    if (this.addError) throw this.addError;
    return 1;
  }
  async subtract(name: string, period: string, by: number): Promise<void> {
    this.subtracted.push([name, period, by]);
    if (this.subtractFailures-- > 0) throw new StoreUnavailableError("the store stayed locked by another writer");
  }
  async read(): Promise<number> {
    return 0;
  }
  async close(): Promise<void> {}
}

describe("a store that cannot count", () => {
  test("a consume the store cannot take is 503 STORE_UNAVAILABLE with a short Retry-After, never counted as allowed", async () => {
    const counters = new FailingCounters();
    counters.addError = new StoreUnavailableError("the store stayed locked by another writer");
    const e = await refusal(new Quota(counters, plans, 5).consume(key("key_s", "test"), at("2026-11-21T12:00:00Z")));
    expect(e.code).toBe("STORE_UNAVAILABLE");
    expect(e.message).toBe("call limits cannot be checked now (the store stayed locked by another writer); retry shortly");
    expect(e.extra).toEqual({ retryAfterS: 2 });
  });

  test("any other failure is not dressed up as the store's", async () => {
    const counters = new FailingCounters();
    counters.addError = new TypeError("a bug");
    await expect(new Quota(counters, plans, 5).consume(key("key_s", "test"), at("2026-11-21T12:00:00Z"))).rejects.toThrow(TypeError);
  });

  test("a refund the store refused is owed and given back at the next flush, once", async () => {
    const counters = new FailingCounters();
    const q = new Quota(counters, plans, 5);
    q.flush();
    expect(counters.subtracted).toEqual([]); // nothing owed yet
    counters.subtractFailures = 1;
    q.refund({ keyId: "key_o", period: "d:2026-11-21" });
    await Bun.sleep(0);
    expect(counters.subtracted).toEqual([["key_o", "d:2026-11-21", 1]]);
    q.flush();
    await Bun.sleep(0);
    expect(counters.subtracted).toEqual([
      ["key_o", "d:2026-11-21", 1],
      ["key_o", "d:2026-11-21", 1],
    ]);
    q.flush(); // given back: not again
    await Bun.sleep(0);
    expect(counters.subtracted).toHaveLength(2);
  });
});
