import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database, type Statement } from "bun:sqlite";
import postgres from "postgres";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ledger } from "../../src/accounting/ledger";
import { inlineWriter } from "../../src/accounting/ledger-writer";
import { KeyRepository } from "../../src/auth/key-repository";
import { Plans } from "../../src/auth/plans";
import { Quota } from "../../src/auth/quota";
import { CacheWriter, loadLiveRows } from "../../src/pipeline/cache/persistence";
import { PlaceholderMap } from "../../src/pipeline/pii/placeholders";
import { ConversationMaps, deriveMappingKey } from "../../src/pipeline/pii/vault";
import { SqliteCounters } from "../../src/store/counters";
import { listMigrations, openStore, type SqliteStore } from "../../src/store/db";
import { migratePostgres } from "../../src/store/postgres";
import { RESERVE_BUDGET_SQL } from "../../src/store/spend-store";
import { USAGE_GROUPS, UsageQuery } from "../../src/store/usage-query";
import { getTableColumns } from "drizzle-orm";
import { usageLedger } from "../../src/store/schema";
import { cacheRow, key, ledgerRow } from "./fixtures";
import { PG_URL, requires } from "../support/services";
import { ResponseStore } from "../../src/pipeline/responses/store";
import { ConversationLeases } from "../../src/pipeline/context/lease";

// One schema on both databases, checked with the statements the code itself generates: the real
// KeyRepository, Quota, Ledger and cache writer run against SQLite with every statement recorded
// (drizzle's and the ledger's hand-built INSERT alike), then each recorded statement runs on
// PostgreSQL with the same parameters, each query must answer the same rows there, and every table
// must end up holding the same rows.

const havePg = await requires("postgres");
// Prefixed with the branch that added it, so parallel runs on one server never share a schema.
const schema = `tests_portability_${process.pid}_${Date.now()}`;
let sql: postgres.Sql;

beforeAll(async () => {
  if (!havePg) return;
  // search_path set per connection: every statement below runs in this test's own schema.
  sql = postgres(PG_URL, { onnotice: () => {}, max: 1, connection: { search_path: schema } });
  await sql.unsafe(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  if (!havePg) return;
  await sql.unsafe(`DROP SCHEMA ${schema} CASCADE`);
  await sql.end();
});

const TABLES = [
  "agent_runs",
  "api_keys",
  "budget_spend",
  "budgets",
  "cache_entries",
  "conversation_leases",
  "conversations",
  "nodes",
  "pii_maps",
  "protocols",
  "reservations",
  "schema_migrations",
  "stored_response_items",
  "stored_responses",
  "usage_counters",
  "usage_daily",
  "usage_ledger",
];

interface Recorded {
  sql: string;
  params: unknown[];
  /** What SQLite answered, for statements that return rows (as arrays of column values). */
  rows?: unknown[][];
}

/**
 * Records every statement any connection prepares while `fn` runs (the counters keep a connection of
 * their own), with its parameters and, for statements that return rows, SQLite's answer.
 */
async function recordStatements(fn: () => Promise<void>): Promise<Recorded[]> {
  const log: Recorded[] = [];
  const proto = Database.prototype as unknown as { prepare: (text: string) => Statement };
  const prepare = proto.prepare;
  // bun:sqlite takes the bindings spread, as one array or as one object of names. The ledger writer hands
  // one array it fills again for the next row: copied here, or every row recorded would be the last.
  const params = (p: unknown[]) =>
    p.length === 1 && Array.isArray(p[0]) ? [...p[0]] : p.length === 1 && typeof p[0] === "object" && p[0] !== null ? Object.values(p[0]) : p;
  proto.prepare = function (this: Database, text: string) {
    const stmt = prepare.call(this, text);
    const run = stmt.run.bind(stmt);
    const values = stmt.values.bind(stmt);
    const all = stmt.all.bind(stmt);
    const get = stmt.get.bind(stmt);
    stmt.run = ((...p: never[]) => (log.push({ sql: text, params: params(p) }), run(...p))) as typeof stmt.run;
    stmt.values = ((...p: never[]) => {
      const rows = values(...p) as unknown[][];
      log.push({ sql: text, params: params(p), rows });
      return rows;
    }) as typeof stmt.values;
    stmt.all = ((...p: never[]) => {
      const rows = all(...p) as Record<string, unknown>[];
      log.push({ sql: text, params: params(p), rows: rows.map((r) => Object.values(r)) });
      return rows;
    }) as typeof stmt.all;
    stmt.get = ((...p: never[]) => {
      const row = get(...p) as Record<string, unknown> | null;
      log.push({ sql: text, params: params(p), rows: row ? [Object.values(row)] : [] });
      return row;
    }) as typeof stmt.get;
    return stmt;
  };
  try {
    await fn();
  } finally {
    proto.prepare = prepare;
  }
  return log;
}

/** SQLite's `?` and `?N` placeholders as PostgreSQL's `$n`. */
function toPostgres(text: string): string {
  let n = 0;
  return text.replace(/\?(\d+)?/g, (_, numbered: string | undefined) => `$${numbered ?? ++n}`);
}

/** BIGINT comes back from postgres.js as a string; compare values as numbers where they are numbers. */
const normalize = (rows: unknown[][]) => rows.map((r) => r.map((v) => (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v)));

/** Drives the real code paths that write the store, as a gateway does over a day. */
async function exercise(store: SqliteStore, dir: string): Promise<void> {
  const keys = new KeyRepository(store);
  await keys.insert(key("key_p1", "test", 1_790_000_000_000));
  await keys.insert(key("key_p2", "live", 1_790_000_000_100));
  await keys.insert(key("key_p3", "live", 1_790_000_000_200));
  await keys.revoke("key_p3", 1_790_000_001_000);
  await keys.touchMany([
    { id: "key_p1", at: 1_790_000_002_000 },
    { id: "key_p2", at: 1_790_000_003_000 },
  ]);
  await keys.touchMany([{ id: "key_p1", at: 1_790_000_001_500 }]); // older: last_used_at only moves forward
  await keys.get("key_p2");
  await keys.listByApp("app_p");
  await keys.changedSince(0);
  await keys.changedSince(2);

  const plans = new Plans({ default_plan: "free", plans: [{ id: "free", monthly_calls: 10 }] });
  const now = Date.parse("2026-11-21T12:00:00Z");
  const counters = new SqliteCounters(join(dir, "svc.db"));
  const quota = new Quota(counters, plans, 5);
  const test1 = (await keys.get("key_p1"))!;
  const live2 = (await keys.get("key_p2"))!;
  for (let i = 0; i < 3; i++) await quota.consume(test1, now);
  const refunded = await quota.consume(live2, now);
  await quota.consume(live2, now);
  quota.refund(refunded);
  await quota.used(test1, "d:2026-11-21");
  // Up to the limit and one past it: the upsert's conflict branch, then its refusing WHERE.
  await quota.consume(test1, now);
  await quota.consume(test1, now);
  await Promise.resolve(quota.consume(test1, now)).catch(() => undefined);
  await counters.close();

  const ledger = new Ledger(inlineWriter(store), undefined);
  for (let i = 0; i < 53; i++) ledger.record(ledgerRow(i)); // one 50-row statement and three single rows
  await ledger.flush();
  // The usage reports: the rollup's whole days and the ledger's partial ones, each grouping, a filter, a later page.
  const usage = new UsageQuery(store);
  const day = 86_400_000;
  const [from, to] = [1_790_000_000_000 - 2 * day - 1000, 1_790_000_000_000 + 2 * day];
  for (const group of USAGE_GROUPS) {
    const first = await usage.page("app_p", group, from, to, undefined, 1);
    if (first.next !== null) await usage.page("app_p", group, from, to, first.next, 1);
  }
  await usage.totals("app_p", from, to);
  const filter = { keyId: "key_p1", model: "", budgetId: "" };
  await usage.page("app_p", "model", 1_790_000_000_000, 1_790_000_000_040, undefined, 10, filter);
  await usage.totals("app_p", 1_790_000_000_000, 1_790_000_000_040, filter);

  const writer = new CacheWriter(store, 60_000, { warn: () => undefined });
  writer.upsert(cacheRow("ce_1", "k1", 1_790_000_900_000, 1_790_000_000_000));
  writer.upsert(cacheRow("ce_2", "k2", 1_790_000_900_000, 1_790_000_000_001));
  writer.upsert(cacheRow("ce_3", "k3", 1_790_000_000_500, 1_790_000_000_002));
  writer.touch("ce_1", 2, 1_790_000_005_000);
  writer.upsert({ ...cacheRow("ce_2b", "k2", 1_790_000_950_000, 1_790_000_000_003), response: "replaced" }); // same (app, exact key): updates
  writer.upsert(cacheRow("ce_4", "k4", 1_790_000_900_000, 1_790_000_000_004));
  writer.delete("ce_4");
  await writer.flush();
  // Start-up: expired rows go, then the least recently used past the limit.
  await loadLiveRows(store, 1_790_000_001_000, 1);

  // Stored Responses API responses: set, read, item lookup, the bounds' trim, delete.
  const responses = new ResponseStore(store.db, { ttlMs: 10_000, maxPerApp: 2, maxBytes: 100_000 });
  const t0 = 1_790_000_000_000;
  for (let i = 0; i < 4; i++) {
    const output = [{ type: "message", id: `msg_p${i}`, content: [{ type: "output_text", text: `a${i}` }] }];
    await responses.set("app_p", `resp_p${i}`, [{ role: "user", content: `q${i}` }], { id: `resp_p${i}`, output }, t0 + i);
  }
  await responses.messages("app_p", "resp_p1", t0 + 5);
  await responses.response("app_p", "resp_p2", t0 + 5);
  await responses.items("app_p", ["msg_p1", "msg_p9"], t0 + 5);
  await responses.trim("app_p", t0 + 5);
  await responses.delete("app_p", "resp_p3");

  // Conversation leases: taken, refused while held, taken over once expired, released by the holder only.
  const leases = new ConversationLeases(store, 1000);
  await leases.tryAcquire("app_p", "conv_1", "A", t0);
  await leases.tryAcquire("app_p", "conv_1", "B", t0 + 10);
  await leases.tryAcquire("app_p", "conv_1", "B", t0 + 2000);
  await leases.release("app_p", "conv_1", "A");
  await leases.tryAcquire("app_p", "conv_2", "A", t0);
  await leases.release("app_p", "conv_2", "A");

  // PII maps: insert, read, compare-and-set update, a write that lost the race, the expiry sweep, delete.
  let clock = 1_790_000_000_000;
  const maps = new ConversationMaps(store.db, deriveMappingKey("portability"), 60_000, () => clock);
  const email = PlaceholderMap.from([{ type: "EMAIL", n: 1, value: "a@example.com" }]);
  await maps.put("app_p", "conv_1", email);
  await maps.put("app_p", "conv_2", email);
  const read = (await maps.get("app_p", "conv_1"))!;
  read.placeholderFor("PHONE", "+44 20 7946 0958");
  await maps.put("app_p", "conv_1", read);
  clock += 120_000; // conv_1 and conv_2 expire; this write sweeps them
  await maps.put("app_p", "conv_3", email);
  await maps.delete("app_p", "conv_3");
  await maps.put("app_p", "conv_4", email);
}

describe.skipIf(!havePg)("one schema on SQLite and PostgreSQL", () => {
  test("the migrations create the same tables and columns on both, and run once", async () => {
    const applied = await migratePostgres(sql);
    expect(applied).toEqual(listMigrations().map((m) => m.version));
    expect(await migratePostgres(sql)).toEqual([]);

    const pgCols = await sql<{ table_name: string; column_name: string }[]>`
      SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = ${schema} ORDER BY table_name, ordinal_position`;
    const dir = mkdtempSync(join(tmpdir(), "svc-store-"));
    const store = openStore(dir);
    const sqliteCols: { table_name: string; column_name: string }[] = [];
    for (const t of store.sqlite
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all()) {
      for (const c of store.sqlite.query<{ name: string }, []>(`PRAGMA table_info(${t.name})`).all())
        sqliteCols.push({ table_name: t.name, column_name: c.name });
    }
    store.close();
    rmSync(dir, { recursive: true, force: true });
    expect([...new Set(pgCols.map((c) => c.table_name))].sort()).toEqual(TABLES);
    const key = (c: { table_name: string; column_name: string }) => `${c.table_name}.${c.column_name}`;
    expect(pgCols.map(key).sort()).toEqual(sqliteCols.map(key).sort());
  });

  test("every statement the keys, quotas, ledger and cache writer generate runs on PostgreSQL with the same answers and leaves the same rows", async () => {
    await migratePostgres(sql);
    const dir = mkdtempSync(join(tmpdir(), "svc-store-"));
    const store = openStore(dir);
    const log = await recordStatements(() => exercise(store, dir));
    // Transaction control is the driver's, not the schema's: PostgreSQL gets each statement on its own.
    const statements = log.filter((r) => !/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(r.sql));
    const kinds = new Set(statements.map((r) => r.sql.trim().split(/\s+/)[0]!.toLowerCase()));
    expect([...kinds].sort()).toEqual(["delete", "insert", "select", "update"]);
    expect(statements.some((r) => /on conflict/i.test(r.sql) && /usage_counters/i.test(r.sql))).toBe(true);
    expect(statements.some((r) => /on conflict/i.test(r.sql) && /cache_entries/.test(r.sql))).toBe(true);
    expect(statements.some((r) => /^INSERT INTO usage_ledger/.test(r.sql) && r.params.length === 50 * Object.keys(getTableColumns(usageLedger)).length)).toBe(
      true,
    );

    for (const r of statements) {
      let rows: unknown[][];
      try {
        rows = await sql.unsafe(toPostgres(r.sql), r.params as never[]).values();
      } catch (e) {
        throw new Error(`PostgreSQL refused a statement the code generates: ${(e as Error).message}\n${r.sql}\nparams: ${JSON.stringify(r.params)}`);
      }
      if (r.rows) expect({ sql: r.sql, rows: normalize(rows) }).toEqual({ sql: r.sql, rows: normalize(r.rows) });
    }

    for (const table of TABLES.filter((t) => t !== "schema_migrations")) {
      const select = `SELECT * FROM ${table} ORDER BY 1, 2`;
      const onPg = normalize(await sql.unsafe(select).values());
      const onSqlite = normalize(store.sqlite.query(select).values() as unknown[][]);
      expect({ table, rows: onPg }).toEqual({ table, rows: onSqlite });
    }
    // The scenario wrote what it meant to, so the comparison above compared something.
    const count = (t: string) => (store.sqlite.query(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    expect([count("api_keys"), count("usage_counters"), count("usage_ledger"), count("cache_entries"), count("pii_maps")]).toEqual([3, 2, 53, 1, 1]);
    expect(store.sqlite.query("SELECT calls FROM usage_counters WHERE key_id = 'key_p1'").get()).toEqual({ calls: 5 });
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the budget reservation's conditional upsert works on PostgreSQL too: it reserves within the limit and refuses past it", async () => {
    await sql`INSERT INTO budgets (id, app_id, name, limit_micros, period, created_at, updated_at) VALUES ('bud_pg', 'app', 'b', 100, 'total', 0, 0)`;
    const reserve = (micros: number) => sql.unsafe(RESERVE_BUDGET_SQL.replace(/\?(\d)/g, "$$$1"), ["bud_pg", "", micros]);
    expect((await reserve(60)).map((r) => Number(r.reserved_micros))).toEqual([60]);
    expect((await reserve(30)).map((r) => Number(r.reserved_micros))).toEqual([90]);
    expect(await reserve(20)).toHaveLength(0);
    expect(await reserve(101)).toHaveLength(0);
  });
});
