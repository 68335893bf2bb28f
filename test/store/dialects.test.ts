import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc } from "drizzle-orm";
import { inlineWriter, postgresWriter, type LedgerWriter } from "../../src/accounting/ledger-writer";
import { KeyIndex } from "../../src/auth/key-index";
import { KeyRepository } from "../../src/auth/key-repository";
import { CacheWriter, loadLiveRows } from "../../src/pipeline/cache/persistence";
import { Conversations } from "../../src/pipeline/context/conversations";
import { Protocols } from "../../src/pipeline/context/protocols";
import { SqliteCounters, type Counters } from "../../src/store/counters";
import { listMigrations, openStore, type PostgresStore, type Store } from "../../src/store/db";
import { NodeHeartbeat } from "../../src/store/nodes";
import { PgCounters } from "../../src/store/pg-counters";
import { PgSpendStore } from "../../src/store/pg-spend-store";
import { migratePostgres, openPostgresStore, postgresClient } from "../../src/store/postgres";
import { usageLedger } from "../../src/store/schema";
import { RUN_SEP, SqliteSpendStore, type SpendStore } from "../../src/store/spend-store";
import type { ChatMessage } from "../../src/core/messages";
import { freshDatabase } from "../support/pg-database";
import { cacheRow, key, ledgerRow } from "./fixtures";
import { requires } from "../support/services";

// The store's users, run unchanged on both databases: what each one promises (limits that hold under
// concurrency, settles that happen once, a ledger that refuses a second row for a call) must hold on
// PostgreSQL as it does on SQLite. Each dialect gets a store of its own: a temporary SQLite file, a
// PostgreSQL database created for this file and dropped after it.

const havePg = await requires("postgres");

interface Backend {
  store: Store;
  counters: Counters;
  spend: SpendStore;
  ledger: LedgerWriter;
  close(): Promise<void>;
}

async function sqliteBackend(): Promise<Backend> {
  const dir = mkdtempSync(join(tmpdir(), "svc-dialects-"));
  const store = openStore(dir);
  const counters = new SqliteCounters(store.path);
  const spend = new SqliteSpendStore(store.path);
  return {
    store,
    counters,
    spend,
    ledger: inlineWriter(store),
    async close() {
      await counters.close();
      await spend.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresBackend(): Promise<Backend> {
  const db = await freshDatabase("dialects");
  const store = await openPostgresStore(db.url);
  return {
    store,
    counters: new PgCounters(store.sql),
    spend: new PgSpendStore(store.sql),
    ledger: postgresWriter(store.sql),
    async close() {
      await store.close();
      await db.drop();
    },
  };
}

const msg = (role: ChatMessage["role"], content: string): ChatMessage => ({ role, content });

for (const dialect of ["sqlite", "postgres"] as const) {
  describe.skipIf(dialect === "postgres" && !havePg)(`the store's users on ${dialect}`, () => {
    let b: Backend;
    beforeAll(async () => {
      b = dialect === "sqlite" ? await sqliteBackend() : await postgresBackend();
    });
    afterAll(async () => {
      await b?.close();
    });

    test("keys: changes numbered in commit order, even when made at once; revocations and last use reach an index", async () => {
      const repo = new KeyRepository(b.store);
      const index = new KeyIndex(repo);
      await Promise.all(Array.from({ length: 20 }, (_, i) => repo.insert(key(`key_k${i}`, "live", 1_000 + i, "app_d"))));
      await index.sync();
      expect(index.size).toBe(20);
      const seqs = (await repo.changedSince(0)).entries.length;
      expect(seqs).toBe(20);
      await repo.revoke("key_k3", 5_000);
      await index.sync();
      expect(index.get("key_k3")!.status).toBe("revoked");
      expect((await repo.listByApp("app_d")).map((k) => k.id)).toEqual(Array.from({ length: 20 }, (_, i) => `key_k${i}`));
      await repo.touchMany([
        { id: "key_k1", at: 9_000 },
        { id: "key_k2", at: 9_000 },
      ]);
      await repo.touchMany([{ id: "key_k1", at: 8_000 }]);
      expect((await repo.get("key_k1"))!.lastUsedAt).toBe(9_000);
      expect((await repo.get("key_k2"))!.scopes).toEqual(["complete"]);
    });

    test("counters: 150 adds racing for a limit of 100 get exactly 100; subtract gives back", async () => {
      const got = await Promise.all(Array.from({ length: 150 }, () => b.counters.addWithin("key_c", "d:2026-11-26", 1, 100)));
      expect(got.filter((n) => n !== undefined).length).toBe(100);
      expect(await b.counters.read("key_c", "d:2026-11-26")).toBe(100);
      await b.counters.subtract("key_c", "d:2026-11-26", 30);
      expect(await b.counters.read("key_c", "d:2026-11-26")).toBe(70);
      expect(await b.counters.addWithin("key_c", "d:2026-11-26", 31, 100)).toBeUndefined();
      expect(await b.counters.addWithin("key_c", "d:2026-11-26", 30, 100)).toBe(100);
    });

    test("budgets: 40 reservations racing for 10 places get exactly 10; a settle happens once; a dead owner's reservation is settled in full", async () => {
      const s = b.spend;
      await s.createBudget({ id: "bud_d", app_id: "app_d", name: "d", limit_micros: 100, period: "total", created_at: 1 });
      const held = await Promise.all(
        Array.from({ length: 40 }, (_, i) => s.reserveBudget({ requestId: `r${i}`, kind: "budget", target: "bud_d", period: "", micros: 10 }, "alive", 1)),
      );
      const won = held.flatMap((h, i) => (h ? [i] : []));
      expect(won.length).toBe(10);
      expect(await s.spend("bud_d", "")).toEqual({ spent_micros: 0, reserved_micros: 100 });
      // Two settles of one reservation at once (a failed call, and a sweep that took its node for dead): released once.
      await Promise.all([s.settleBudget(`r${won[0]}`, "bud_d", "", 0), s.settleBudget(`r${won[0]}`, "bud_d", "", 0)]);
      expect(await s.spend("bud_d", "")).toEqual({ spent_micros: 0, reserved_micros: 90 });
      for (const i of won.slice(1, 8)) await s.settleBudget(`r${i}`, "bud_d", "", 5);
      expect(await s.spend("bud_d", "")).toEqual({ spent_micros: 35, reserved_micros: 20 });
      // The two left are still in flight for a live owner; a reservation of an owner that is gone is settled
      // in full (no ledger row says what its call cost), and only that one.
      expect(await s.reserveBudget({ requestId: "r_gone", kind: "budget", target: "bud_d", period: "", micros: 10 }, "gone", 1)).toBeDefined();
      expect(await s.settleOrphans((owner) => owner === "gone", 2)).toBe(1);
      expect(await s.spend("bud_d", "")).toEqual({ spent_micros: 45, reserved_micros: 20 });
      expect((await s.budgets("app_d")).map((x) => x.id)).toEqual(["bud_d"]);
    });

    test("agent runs: calls racing past max_calls are admitted up to it and trip the run; a cost reservation past the limit is refused", async () => {
      const s = b.spend;
      const limits = { maxCalls: 5, maxRepeats: 100, maxCostMicros: 1_000 };
      const admitted = await Promise.all(Array.from({ length: 12 }, (_, i) => s.admitRun("app_d", "run_d", `h${i}`, limits, 1)));
      expect(admitted.filter((a) => a.ok).length).toBe(5);
      const run = (await s.run("app_d", "run_d"))!;
      expect([run.calls, run.status]).toEqual([5, "tripped"]);
      await s.putRun("app_d", "run_c", 100, null, null, 1);
      const target = `app_d${RUN_SEP}run_c`;
      const ok = await s.reserveRun({ requestId: "q1", kind: "run", target, period: "", micros: 60 }, "app_d", "run_c", 1_000, "alive", 1);
      expect(ok.ok).toBe(true);
      const refused = await s.reserveRun({ requestId: "q2", kind: "run", target, period: "", micros: 60 }, "app_d", "run_c", 1_000, "alive", 1);
      expect(refused.ok).toBe(false);
      const after = await s.settleRun("q1", "app_d", "run_c", 30, 7, 3, 2);
      expect(after && [after.cost_micros, after.reserved_micros, after.prompt_tokens]).toEqual([30, 0, 7]);
      // A turn's settles in one transaction: a run's with its reservation, a run's without, a budget's.
      await s.createBudget({ id: "bud_m", app_id: "app_d", name: "m", limit_micros: 1_000, period: "total", created_at: 1 });
      expect(await s.reserveBudget({ requestId: "q3", kind: "budget", target: "bud_m", period: "", micros: 100 }, "alive", 1)).toBeDefined();
      await s.putRun("app_d", "run_e", 1_000, null, null, 1);
      const runE = { requestId: "q3", kind: "run" as const, target: `app_d${RUN_SEP}run_e`, period: "", micros: 50 };
      expect((await s.reserveRun(runE, "app_d", "run_e", 1_000, "alive", 1)).ok).toBe(true);
      const onRun = { kind: "run" as const, appId: "app_d", promptTokens: 1, completionTokens: 1, now: 3 };
      await s.settleMany([
        { ...onRun, requestId: "q3", id: "run_e", reserved: true, costMicros: 20 },
        { ...onRun, requestId: "q4", id: "run_d", reserved: false, costMicros: 5 },
        { kind: "budget", requestId: "q3", budgetId: "bud_m", period: "", costMicros: 20 },
      ]);
      expect(await s.run("app_d", "run_e")).toMatchObject({ cost_micros: 20, reserved_micros: 0, prompt_tokens: 1 });
      expect(await s.run("app_d", "run_d")).toMatchObject({ cost_micros: 5, calls: 5 });
      expect(await s.spend("bud_m", "")).toEqual({ spent_micros: 20, reserved_micros: 0 });
      expect((await s.resetRun("app_d", "run_d", 3))!.status).toBe("active");
    });

    test("ledger: a batch is stored, a second row for a call is refused alone, a replay skips what is stored", async () => {
      const rows = Array.from({ length: 7 }, (_, i) => ledgerRow(i, "d"));
      expect(await b.ledger.write(rows)).toEqual([]);
      const rejected = await b.ledger.write([ledgerRow(7, "d"), { ...ledgerRow(3, "d"), status: 499 }]);
      expect(rejected.map((r) => r.requestId)).toEqual(["svc_req_d0003"]);
      await b.ledger.replay([ledgerRow(1, "d"), ledgerRow(8, "d")]);
      const stored = await b.store.db.select().from(usageLedger).orderBy(asc(usageLedger.requestId));
      expect(stored.map((r) => r.requestId)).toEqual(Array.from({ length: 9 }, (_, i) => ledgerRow(i, "d").requestId));
      expect(stored[3]).toMatchObject({ status: 200, cacheHit: true, stream: false, costActualUsd: 3 / 4e6, latencyMs: 3.125, conversationId: null });
      expect(stored[4]).toMatchObject({ status: 502, model: null, errorCode: "UPSTREAM_ERROR", cacheHit: false, stream: true });
    });

    test("conversations: turns stored and planned from; two nodes' calls on one conversation both kept", async () => {
      const settings = { turnsToKeep: 20, summaryStep: 8, maxTurns: 100, leaseMs: 60_000 };
      const a = new Conversations(b.store, settings);
      const other = new Conversations(b.store, settings);
      const pa = await a.plan("app_d", "c1", [msg("user", "from A")], undefined);
      const pb = await other.plan("app_d", "c1", [msg("user", "from B")], undefined);
      await Promise.all([
        a.record(pa, [], [msg("user", "from A")], msg("assistant", "answer A")),
        other.record(pb, [], [msg("user", "from B")], msg("assistant", "answer B")),
      ]);
      expect((await a.view("app_d", "c1")).turns).toBe(4);
      const next = await a.plan("app_d", "c1", [msg("user", "third")], undefined);
      expect(next.history.map((m) => m.content).sort()).toEqual(["answer A", "answer B", "from A", "from B"]);
      await a.delete("app_d", "c1");
      await expect(a.view("app_d", "c1")).rejects.toThrow("no conversation");
    });

    test("protocols: created, listed, versioned once per concurrent update, resolved, deleted", async () => {
      const p = new Protocols(b.store, async (content) => content.toUpperCase());
      const created = await p.create("app_d", "style", "be brief");
      expect((await p.list("app_d")).map((x) => x.id)).toEqual([created.id]);
      await Promise.all([p.update("app_d", created.id, "be brief now"), p.update("app_d", created.id, "be brief later")]);
      const resolved = await p.resolve("app_d", created.id);
      expect(resolved.version).toBe(3);
      expect(["BE BRIEF NOW", "BE BRIEF LATER"]).toContain(resolved.compressed);
      await p.delete("app_d", created.id);
      await expect(p.get("app_d", created.id)).rejects.toThrow("no protocol");
    });

    test("cache entries: upserts by (app, exact key), touches and deletes in order; the live rows load back within the limit", async () => {
      const w = new CacheWriter(b.store, 60_000, { warn: () => undefined });
      w.upsert(cacheRow("e1", "k1", 10_000, 1_000, "app_d"));
      w.upsert(cacheRow("e2", "k2", 10_000, 1_000, "app_d"));
      w.upsert(cacheRow("e3", "k3", 2_000, 1_000, "app_d"));
      w.upsert({ ...cacheRow("e2b", "k2", 10_000, 1_000, "app_d"), response: "replaced" });
      w.touch("e1", 3, 4_000);
      w.upsert(cacheRow("e4", "k4", 10_000, 1_000, "app_d"));
      w.delete("e4");
      await w.flush();
      const rows = await loadLiveRows(b.store, 5_000, 1);
      expect(rows.map((r) => [r.id, r.hits])).toEqual([["e1", 3]]);
      expect(await loadLiveRows(b.store, 5_000, 10)).toHaveLength(1);
    });
  });
}

describe.skipIf(!havePg)("nodes on PostgreSQL", () => {
  test("a node's reservations are settled by another once its heartbeat is 30 s old, never while it beats; at start a node settles its own former life's", async () => {
    const b = await postgresBackend();
    const store = b.store as PostgresStore;
    try {
      await b.spend.createBudget({ id: "bud_n", app_id: "app_d", name: "n", limit_micros: 1_000, period: "total", created_at: 1 });
      const hold = (requestId: string, owner: string) =>
        b.spend.reserveBudget({ requestId, kind: "budget", target: "bud_n", period: "", micros: 100 }, owner, 1);
      await hold("r_dead", "node-dead/7");
      await hold("r_live", "node-live/8");
      await hold("r_me", "node-me/9");
      const ms = "(extract(epoch from clock_timestamp()) * 1000)::bigint";
      await store.sql.unsafe(`INSERT INTO nodes (owner, started_at, heartbeat_at) VALUES ('node-dead/7', 0, ${ms} - 31000), ('node-live/8', 0, ${ms} - 1000)`);
      const settled: number[] = [];
      const me = new NodeHeartbeat(store.sql, "node-me/9", b.spend, (n) => settled.push(n));
      // The dead node's reservation and this owner's own (a restarted container keeps its name and pid).
      expect(await me.start()).toBe(2);
      expect(await b.spend.spend("bud_n", "")).toEqual({ spent_micros: 200, reserved_micros: 100 });
      expect((await store.sql<{ owner: string }[]>`SELECT owner FROM reservations`).map((r) => r.owner)).toEqual(["node-live/8"]);
      expect((await me.liveOwners()).has("node-me/9")).toBe(true);
    } finally {
      await b.close();
    }
  });
});

describe.skipIf(!havePg)("migrations on PostgreSQL", () => {
  test("three pools migrating one database at once apply each migration once", async () => {
    const db = await freshDatabase("migrate");
    const pools = [0, 1, 2].map(() => postgresClient(db.url, { max: 2 }));
    try {
      const applied = await Promise.all(pools.map((p) => migratePostgres(p)));
      expect(applied.flat().sort((a, b) => a - b)).toEqual(listMigrations().map((m) => m.version));
      const rows = await pools[0]!<{ n: number }[]>`SELECT count(*)::int AS n FROM schema_migrations`;
      expect(rows[0]!.n).toBe(listMigrations().length);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
      await db.drop();
    }
  });
});
