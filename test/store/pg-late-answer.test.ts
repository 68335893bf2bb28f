import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { StoreUnavailableError } from "../../src/store/busy";
import { PgCounters } from "../../src/store/pg-counters";
import { PgSpendStore } from "../../src/store/pg-spend-store";
import type { PostgresStore } from "../../src/store/db";
import { openPostgresStore } from "../../src/store/postgres";
import { freshDatabase } from "../support/pg-database";
import { requires } from "../support/services";
import { waitUntil } from "../support/wait";

/**
 * A call is refused (503) when PostgreSQL takes over 2 s to answer; the statement may still land after
 * that. What it took for the refused call (a counted call, a budget reservation) is given back when
 * it lands, so a slow store never leaves a refused call counted. The slowness is real: another
 * connection holds the row's lock for 3 s.
 */
const havePg = await requires("postgres");

describe.skipIf(!havePg)("a PostgreSQL answer that lands after its call was refused", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let store: PostgresStore;
  let locker: postgres.Sql;
  beforeAll(async () => {
    db = await freshDatabase("late");
    store = await openPostgresStore(db.url);
    locker = postgres(db.url, { max: 1, onnotice: () => undefined });
  }, 30_000);
  afterAll(async () => {
    await locker?.end({ timeout: 1 });
    await store?.close();
    await db?.drop();
  });

  /** Once nothing else runs on the database: the late statement and its undo are over. */
  async function settled(): Promise<void> {
    await waitUntil("the late statement and its undo done", async () => {
      const [row] = await locker<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`;
      return row!.n === 0;
    });
    await Bun.sleep(100);
  }

  /** Runs `during` while another transaction holds `lockSql`'s rows for 3 s: the error it ended with, or "answered". */
  async function whileLocked(lockSql: string, params: string[], during: () => Promise<unknown>): Promise<unknown> {
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = locker.begin(async (tx) => {
      await tx.unsafe(lockSql, params);
      locked();
      await Bun.sleep(3_000);
    });
    await isLocked;
    try {
      return await during().then(
        () => "answered",
        (e) => e,
      );
    } finally {
      await holder;
    }
  }

  test("a quota call counted late is subtracted again", async () => {
    const counters = new PgCounters(store.sql);
    expect(await counters.addWithin("k1", "m:2026-11", 5, 100)).toBe(5);
    const refused = await whileLocked("SELECT * FROM usage_counters WHERE key_id = $1 FOR UPDATE", ["k1"], () => counters.addWithin("k1", "m:2026-11", 3, 100));
    expect(refused).toBeInstanceOf(StoreUnavailableError);
    // The add lands once the lock is gone (5 + 3), and its undo brings the counter back to 5.
    await settled();
    expect(await counters.read("k1", "m:2026-11")).toBe(5);
  }, 30_000);

  test("a budget reservation made late is released again", async () => {
    const spend = new PgSpendStore(store.sql);
    await spend.createBudget({ id: "b1", app_id: "app", name: "b", limit_micros: 1_000_000, period: "total", created_at: 0 });
    await spend.reserveBudget({ requestId: "r0", kind: "budget", target: "b1", period: "", micros: 1 }, "node", 0);
    const refused = await whileLocked("SELECT * FROM budget_spend WHERE budget_id = $1 FOR UPDATE", ["b1"], () =>
      spend.reserveBudget({ requestId: "r1", kind: "budget", target: "b1", period: "", micros: 400_000 }, "node", 0),
    );
    expect(refused).toBeInstanceOf(StoreUnavailableError);
    await settled();
    expect(await store.sql`SELECT request_id FROM reservations WHERE request_id = 'r1'`).toHaveLength(0);
    expect(await spend.spend("b1", "")).toEqual({ spent_micros: 0, reserved_micros: 1 });
  }, 30_000);

  test("a budget and run reservation made together late are both released again", async () => {
    const spend = new PgSpendStore(store.sql);
    await spend.createBudget({ id: "b2", app_id: "app", name: "b", limit_micros: 1_000_000, period: "total", created_at: 0 });
    await spend.reserveBudget({ requestId: "j0", kind: "budget", target: "b2", period: "", micros: 1 }, "node", 0);
    await spend.putRun("app", "run2", 1_000_000, null, null, 0);
    const run = {
      r: { requestId: "j1", kind: "run" as const, target: "app\u001frun2", period: "", micros: 300_000 },
      appId: "app",
      id: "run2",
      defaultMaxMicros: 1e12,
    };
    const refused = await whileLocked("SELECT * FROM budget_spend WHERE budget_id = $1 FOR UPDATE", ["b2"], () =>
      spend.reserveBudget({ requestId: "j1", kind: "budget", target: "b2", period: "", micros: 300_000 }, "node", 0, run),
    );
    expect(refused).toBeInstanceOf(StoreUnavailableError);
    await settled();
    expect(await store.sql`SELECT request_id FROM reservations WHERE request_id = 'j1'`).toHaveLength(0);
    expect(await spend.spend("b2", "")).toEqual({ spent_micros: 0, reserved_micros: 1 });
    expect(await spend.run("app", "run2")).toMatchObject({ reserved_micros: 0, cost_micros: 0, status: "active" });
  }, 30_000);
});
