import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { getTableColumns } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prepareLedgerInserts, writeBatch, type LedgerRow } from "../../src/accounting/ledger-sql";
import { listMigrations, migrate, openStore, type PostgresStore, type SqliteStore, type Store } from "../../src/store/db";
import { postgresWriter } from "../../src/accounting/ledger-writer";
import { openPostgresStore } from "../../src/store/postgres";
import { freshDatabase } from "../support/pg-database";
import { requires } from "../support/services";
import { usageLedger } from "../../src/store/schema";
import { BACKFILL_SQL, DAY_MS, OVERHEAD_EDGES_MS } from "../../src/store/usage-daily";
import { USAGE_GROUPS, UsageQuery, type UsageGroup } from "../../src/store/usage-query";

// The daily rollup against the ledger it sums: every report the rollup answers (whole days from it,
// partial days from the ledger) equals what the stored ledger rows alone give, through every write
// path (batches, refused rows, journal replay), and migration 0004 fills it from existing rows.

const DAY0 = Date.parse("2026-11-01T00:00:00Z");
const DAYS = 6;

function rows(n: number, seed: number, prefix = "r"): LedgerRow[] {
  let state = seed;
  const rand = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  // Overheads on and around the histogram's edges, under the first and past the last.
  const overheads = [0, 0.004, ...OVERHEAD_EDGES_MS.slice(0, 40), 0.3, 1.25, 2.5, 7.77, 463.4, 900, 2500];
  return Array.from({ length: n }, (_, i): LedgerRow => {
    const cacheHit = rand() < 0.25;
    const original = 10 + Math.floor(rand() * 500);
    const sent = cacheHit ? 0 : Math.floor(original * (0.4 + rand() * 0.6));
    const costOriginal = original * 2.5e-6;
    const costActual = cacheHit ? 0 : sent * 1.5e-7;
    const saved = costOriginal - costActual;
    return {
      requestId: `svc_req_${prefix}${seed}_${i}`,
      keyId: pick(["key_a", "key_b", "key_c"]),
      appId: pick(["app_1", "app_1", "app_2"]),
      model: pick(["gpt-4o-mini-2024-07-18", "claude-3-haiku-20240307", null]),
      modelRequested: "auto",
      provider: "openai",
      promptTokens: sent,
      completionTokens: 7,
      originalTokens: original,
      costOriginalUsd: costOriginal,
      costActualUsd: costActual,
      savedUsd: saved,
      cacheHit,
      status: pick([200, 200, 200, 429, 502]),
      errorCode: null,
      latencyMs: rand() * 800,
      overheadMs: pick(overheads),
      stream: false,
      budgetId: pick([null, "bud_1", "bud_2"]),
      agentRunId: pick([null, null, "run_1"]),
      createdAt: DAY0 + Math.floor(rand() * DAYS * DAY_MS),
      savedCompressionUsd: cacheHit ? 0 : saved / 2,
      savedRoutingUsd: cacheHit ? 0 : saved / 2,
      savedCacheUsd: cacheHit ? saved : 0,
      // Rows journaled before savings by source existed carry none.
      savedPromptCacheUsd: rand() < 0.1 ? null : 0,
      savedConversationUsd: null,
    };
  });
}

const GROUP_OF: Record<UsageGroup, (r: LedgerRow) => string | null> = {
  day: (r) => new Date(Math.floor(r.createdAt / DAY_MS) * DAY_MS).toISOString().slice(0, 10),
  key: (r) => r.keyId,
  model: (r) => r.model ?? null,
  budget: (r) => r.budgetId ?? null,
  agent_run: (r) => r.agentRunId ?? null,
};

/** The histogram's reading of a percentile: the upper edge of the bucket holding the rank's value, capped by the largest. */
function expectedPercentile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const v = sorted[Math.ceil(q * sorted.length) - 1]!;
  const edge = OVERHEAD_EDGES_MS.find((e) => v < e);
  return Math.min(edge ?? Infinity, Math.ceil(sorted.at(-1)! * 1000) / 1000);
}

/** What the stored ledger rows give for one app, range and grouping, computed here from the rows themselves. */
function expected(stored: LedgerRow[], appId: string, groupOf: (r: LedgerRow) => string | null, from: number, to: number) {
  const groups = new Map<string | null, LedgerRow[]>();
  for (const r of stored) {
    if (r.appId !== appId || r.createdAt < from || r.createdAt >= to) continue;
    const g = groupOf(r);
    groups.set(g, [...(groups.get(g) ?? []), r]);
  }
  const sum = (rs: LedgerRow[], f: (r: LedgerRow) => number) => rs.reduce((s, r) => s + f(r), 0);
  return [...groups.entries()]
    .sort(([a], [b]) => (a ?? "").localeCompare(b ?? ""))
    .map(([g, rs]) => {
      const answered = rs.filter((r) => r.status < 400).map((r) => r.overheadMs);
      return {
        group: g,
        calls: rs.length,
        errors: rs.filter((r) => r.status >= 400).length,
        original_tokens: sum(rs, (r) => r.originalTokens),
        sent_tokens: sum(rs, (r) => r.promptTokens),
        cached_tokens: sum(rs, (r) => (r.cacheHit ? r.originalTokens : 0)),
        cache_hits: rs.filter((r) => r.cacheHit).length,
        cost_actual_usd: sum(rs, (r) => r.costActualUsd),
        saved_prompt_cache_usd: sum(rs, (r) => r.savedPromptCacheUsd ?? 0),
        saved_cache_usd: sum(rs, (r) => r.savedCacheUsd ?? 0),
        avg_latency_ms: sum(rs, (r) => r.latencyMs) / rs.length,
        overhead_ms: { p50: expectedPercentile(answered, 0.5), p99: expectedPercentile(answered, 0.99) },
      };
    });
}

const RANGES: [number, number][] = [
  [DAY0, DAY0 + DAYS * DAY_MS], // whole days only
  [DAY0 + 3_600_123, DAY0 + 4 * DAY_MS + 77_777], // partial days at both ends
  [DAY0 + DAY_MS + 5, DAY0 + DAY_MS + 40_000_000], // inside one day
  [DAY0 - 10 * DAY_MS, DAY0 + 2 * DAY_MS - 1], // from before the first row
  [DAY0 + 2 * DAY_MS, DAY0 + 2 * DAY_MS], // empty
];

let dir: string;
let store: SqliteStore;
let stored: LedgerRow[];
// The same rows, written the same way (a batch with a row already stored, a replay), through the
// PostgreSQL writer into a database of this file's own: the reports must give the same figures there.
const havePg = await requires("postgres");
let pg: { store: PostgresStore; drop(): Promise<void> } | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "usage-daily-"));
  store = openStore(dir);
  const inserts = prepareLedgerInserts(store.sqlite);
  const a = rows(700, 1);
  const b = rows(300, 2);
  const c = rows(200, 3);
  inserts.all(a);
  // A batch with a row already stored: refused alone, the rest of the batch (and its sums) stored.
  expect(writeBatch(inserts, [...b, a[5]!])).toHaveLength(1);
  // A journal replay after a crash: rows already stored are skipped, and so are their sums.
  inserts.replay([...a.slice(0, 50), ...c]);
  stored = [...a, ...b, ...c];
  if (!havePg) return;
  const db = await freshDatabase("usage_daily");
  pg = { store: await openPostgresStore(db.url), drop: db.drop };
  const writer = postgresWriter(pg.store.sql);
  await writer.write(a);
  expect(await writer.write([...b, a[5]!])).toHaveLength(1);
  await writer.replay([...a.slice(0, 50), ...c]);
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  await pg?.store.close();
  await pg?.drop();
});

for (const dialect of ["sqlite", "postgres"] as const) {
  describe.skipIf(dialect === "postgres" && !havePg)(`usage_daily on ${dialect}`, () => {
    const storeOf = (): Store => (dialect === "sqlite" ? store : pg!.store);
    test("every grouping over ranges with partial days at either end, whole days only, and within one day equals the ledger rows' own sums", async () => {
      const query = new UsageQuery(storeOf());
      let compared = 0;
      for (const [from, to] of RANGES)
        for (const group of USAGE_GROUPS)
          for (const app of ["app_1", "app_2"]) {
            const page = await query.page(app, group, from, to, undefined, 1000);
            const want = expected(stored, app, GROUP_OF[group], from, to);
            expect(page.rows.map((r) => r.group)).toEqual(want.map((w) => w.group));
            for (const [i, w] of want.entries()) {
              const got = page.rows[i]!;
              const { cost_actual_usd, saved_prompt_cache_usd, saved_cache_usd, avg_latency_ms, overhead_ms: _, ...exact } = w;
              expect({ ...got, cost_actual_usd: 0, avg_latency_ms: 0 }).toMatchObject({ ...exact, cost_actual_usd: 0, avg_latency_ms: 0 });
              expect(got.cost_actual_usd).toBeCloseTo(cost_actual_usd, 9);
              expect(got.saved_by_source.prompt_cache).toBeCloseTo(saved_prompt_cache_usd, 9);
              expect(got.saved_by_source.cache).toBeCloseTo(saved_cache_usd, 9);
              expect(got.avg_latency_ms).toBeCloseTo(avg_latency_ms, 2);
              compared++;
            }
          }
      expect(compared).toBeGreaterThan(100);
    });

    test("the range's totals, overhead percentiles included, equal the ledger rows' own", async () => {
      const query = new UsageQuery(storeOf());
      for (const [from, to] of RANGES)
        for (const app of ["app_1", "app_2"]) {
          const [want] = expected(stored, app, () => null, from, to);
          const got = await query.totals(app, from, to);
          if (!want) {
            expect(got).toMatchObject({ calls: 0, cost_actual_usd: 0, overhead_ms: { p50: null, p99: null } });
            continue;
          }
          expect(got).toMatchObject({
            calls: want.calls,
            errors: want.errors,
            original_tokens: want.original_tokens,
            cached_tokens: want.cached_tokens,
            cache_hits: want.cache_hits,
          });
          expect(got.overhead_ms).toEqual(want.overhead_ms);
          expect(got.cost_actual_usd).toBeCloseTo(want.cost_actual_usd, 9);
        }
    });

    test("pages in group order", async () => {
      const query = new UsageQuery(storeOf());
      const from = DAY0 + 1234;
      const to = DAY0 + DAYS * DAY_MS - 1234;
      const all = await query.page("app_1", "day", from, to, undefined, 1000);
      const seen: (string | null)[] = [];
      let after: string | undefined;
      for (;;) {
        const p = await query.page("app_1", "day", from, to, after, 2);
        seen.push(...p.rows.map((r) => r.group));
        if (p.next === null) break;
        after = p.next;
      }
      expect(seen).toEqual(all.rows.map((r) => r.group));
    });

    test("filters by key, model ('' is no model) and budget", async () => {
      const query = new UsageQuery(storeOf());
      const from = DAY0 + 999;
      const to = DAY0 + 5 * DAY_MS + 999;
      const match = (r: LedgerRow, f: (r: LedgerRow) => boolean) => r.appId === "app_1" && r.createdAt >= from && r.createdAt < to && f(r);
      for (const [filter, f] of [
        [{ keyId: "key_b" }, (r: LedgerRow) => r.keyId === "key_b"],
        [{ model: "" }, (r: LedgerRow) => r.model === null],
        [{ model: "claude-3-haiku-20240307", budgetId: "bud_2" }, (r: LedgerRow) => r.model === "claude-3-haiku-20240307" && r.budgetId === "bud_2"],
      ] as const) {
        const p = await query.page("app_1", "key", from, to, undefined, 1000, filter);
        const want = stored.filter((r) => match(r, f));
        expect(p.rows.reduce((s, r) => s + r.calls, 0)).toBe(want.length);
        const totals = await query.totals("app_1", from, to, filter);
        expect(totals.calls).toBe(want.length);
        expect(totals.original_tokens).toBe(want.reduce((s, r) => s + r.originalTokens, 0));
      }
    });
  });
}

describe("usage_daily", () => {
  test("migration 0004 is the schema plus BACKFILL_SQL, and fills the rollup from stored rows as the writer would have", () => {
    const m = listMigrations().find((x) => x.version === 4)!;
    expect(m.name).toBe("usage_daily");
    expect(m.sql.endsWith(`${BACKFILL_SQL}\n`)).toBe(true);

    // The ledger as 0001-0003 left it, written without a rollup; then 0004.
    const old = new Database(":memory:", { strict: true });
    old.run("CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
    for (const x of listMigrations().filter((x) => x.version < 4)) {
      old.run(x.sql);
      old.run("INSERT INTO schema_migrations VALUES (?, ?, 0)", [x.version, x.name]);
    }
    const cols = Object.entries(getTableColumns(usageLedger));
    const insert = old.prepare(`INSERT INTO usage_ledger (${cols.map(([, c]) => c.name).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`);
    for (const r of stored)
      insert.run(
        ...(cols.map(([k]) => {
          const v = (r as Record<string, unknown>)[k];
          return typeof v === "boolean" ? Number(v) : (v ?? null);
        }) as never[]),
      );
    expect(migrate(old)[0]).toBe(4);
    const select = "SELECT * FROM usage_daily ORDER BY app_id, day, key_id, model, budget_id, agent_run_id";
    const round = (rs: Record<string, unknown>[]) =>
      rs.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "number" ? Math.round(v * 1e9) / 1e9 : v])));
    const backfilled = round(old.query(select).all() as Record<string, unknown>[]);
    expect(backfilled.length).toBeGreaterThan(100);
    expect(backfilled).toEqual(round(store.sqlite.query(select).all() as Record<string, unknown>[]));
    old.close();
  });
});
