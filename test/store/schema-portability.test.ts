import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listMigrations, openStore } from "../../src/store/db";
import { migratePostgres } from "../../src/store/postgres";
import { RESERVE_BUDGET_SQL } from "../../src/store/spend-store";

const schema = `svc_test_${process.pid}_${Date.now()}`;
const sql = postgres({ host: "127.0.0.1", port: 5432, user: "postgres", database: "postgres", onnotice: () => {}, max: 1 });

beforeAll(async () => {
  await sql.unsafe(`CREATE SCHEMA ${schema}`);
  await sql.unsafe(`SET search_path TO ${schema}`);
});
afterAll(async () => {
  await sql.unsafe(`DROP SCHEMA ${schema} CASCADE`);
  await sql.end();
});

const TABLES = ["agent_runs", "api_keys", "budget_spend", "budgets", "cache_entries", "conversations", "protocols", "reservations", "schema_migrations", "usage_counters", "usage_ledger"];

describe("one schema on SQLite and PostgreSQL", () => {
  test("the migrations create the same tables and columns on both, and run once", async () => {
    const applied = await migratePostgres(sql);
    expect(applied).toEqual(listMigrations().map((m) => m.version));
    expect(await migratePostgres(sql)).toEqual([]);

    const pgCols = await sql<{ table_name: string; column_name: string }[]>`
      SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = ${schema} ORDER BY table_name, ordinal_position`;
    const store = openStore(mkdtempSync(join(tmpdir(), "svc-store-")));
    const sqliteCols: { table_name: string; column_name: string }[] = [];
    for (const t of store.sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all()) {
      for (const c of store.sqlite.query<{ name: string }, []>(`PRAGMA table_info(${t.name})`).all()) sqliteCols.push({ table_name: t.name, column_name: c.name });
    }
    store.close();
    expect([...new Set(pgCols.map((c) => c.table_name))].sort()).toEqual(TABLES);
    const key = (c: { table_name: string; column_name: string }) => `${c.table_name}.${c.column_name}`;
    expect(pgCols.map(key).sort()).toEqual(sqliteCols.map(key).sort());
  });

  test("the upsert the quota counters use works on PostgreSQL too", async () => {
    for (const n of [2, 3]) {
      await sql`INSERT INTO usage_counters (key_id, period, calls) VALUES ('key_a', 'd:2026-11-21', ${n})
                ON CONFLICT (key_id, period) DO UPDATE SET calls = usage_counters.calls + ${n}`;
    }
    const [row] = await sql<{ calls: string }[]>`SELECT calls FROM usage_counters WHERE key_id = 'key_a'`;
    expect(Number(row!.calls)).toBe(5);
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
