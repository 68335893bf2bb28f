import { sqliteOf } from "../../src/store/db";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { loadSettings } from "../../src/config/config";
import { closeServices, startServices } from "../../src/gateway";
import { buildApp } from "../../src/http/app";
import type { Services } from "../../src/pipeline/services";
import { SEED_APP, SEED_MODELS, seedLedger, type SeedTotals } from "../../bench/lib/ledger-seed";

/**
 * Each dashboard view's data (/api/usage) answers correctly on a million ledger rows (their timing is
 * bench/dashboard-1m.ts's figure, not a test's).
 */
let dir: string;
let services: Services;
let app: ReturnType<typeof buildApp>;
let admin: string;
let seeded: SeedTotals;
const now = Date.now();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "dashboard-1m-"));
  const env = { SVC_DATA_DIR: dir, SVC_WORKERS: "0" };
  services = await startServices(loadSettings(env), pino({ level: "silent" }), env);
  app = buildApp(services);
  admin = (await services.keys.create("operator", { name: "admin", appId: SEED_APP, type: "live", scopes: ["admin", "complete"] })).key;
  seeded = seedLedger(sqliteOf(services.store, "the test"), 1_000_000, now);
}, 240_000);

afterAll(async () => {
  await closeServices(services);
  rmSync(dir, { recursive: true, force: true });
});

const get = async (path: string) => {
  const res = await app.handle(new Request(`http://svc.local${path}`, { headers: { authorization: `Bearer ${admin}` } }));
  expect(res.status).toBe(200);
  return (await res.json()) as any;
};

const DAY = 86_400_000;
const day = (q: string) => get(`/api/usage?group_by=day&limit=1000&${q}`);
const model = (q: string) => get(`/api/usage?group_by=model&limit=1000&${q}`);

test("usage over 90 days of a million rows: the seeded app's totals, days, model mix and overhead", async () => {
  const u = await day(`from=${now - 91 * DAY}&to=${now}`);
  expect(u.totals.calls).toBe(seeded.calls);
  expect(u.totals.cache_hits).toBe(seeded.cacheHits);
  expect(u.totals.original_tokens).toBe(seeded.originalTokens);
  expect(u.totals.sent_tokens).toBe(seeded.sentTokens);
  expect(u.totals.cost_actual_usd).toBeCloseTo(seeded.costActualUsd, 6);
  expect(u.rows.length).toBeGreaterThanOrEqual(90);
  expect(u.rows.reduce((s: number, r: any) => s + r.calls, 0)).toBe(seeded.calls);
  const m = await model(`from=${now - 91 * DAY}&to=${now}`);
  expect(m.rows.map((r: any) => [r.group, r.calls]).sort()).toEqual(SEED_MODELS.map((x) => [x, seeded.byModel.get(x)]).sort());
  // Overhead is uniform on [0, 5) ms: the median 2.5 and p99 4.95, each read as its bucket's upper edge (at most 19% above).
  expect(u.totals.overhead_ms.p50).toBeGreaterThanOrEqual(2.5);
  expect(u.totals.overhead_ms.p50).toBeLessThan(2.5 * 1.19);
  expect(u.totals.overhead_ms.p99).toBeGreaterThanOrEqual(4.95);
  expect(u.totals.overhead_ms.p99).toBeLessThanOrEqual(5);
}, 60_000);

test("filters on a million rows: one key, one model, the last 30 days", async () => {
  const byKey = await day(`from=${now - 91 * DAY}&to=${now}&key_id=key_seed7`);
  expect(byKey.totals.calls).toBe(seeded.byKey.get("key_seed7"));
  const byModel = await day(`from=${now - 91 * DAY}&to=${now}&model=${SEED_MODELS[2]}`);
  expect(byModel.totals.calls).toBe(seeded.byModel.get(SEED_MODELS[2]!));
  const month = await day(`to=${now}`);
  expect(month.totals.calls).toBeGreaterThan(seeded.calls * 0.3);
  expect(month.totals.calls).toBeLessThan(seeded.calls * 0.37);
  expect(month.rows.length).toBeLessThanOrEqual(31);
  const keys = await get("/api/keys");
  expect(keys.data.length).toBe(1);
}, 60_000);

test("a range with partial days at both ends answers what the ledger rows alone give", async () => {
  const from = now - 40 * DAY - 12_345_678;
  const to = now - 3 * DAY - 7_654_321;
  const u = await get(`/api/usage?group_by=key&limit=1000&from=${from}&to=${to}`);
  const ledger = sqliteOf(services.store, "the test")
    .query(
      "SELECT count(*) AS calls, sum(original_tokens) AS original, sum(cache_hit) AS hits FROM usage_ledger WHERE app_id = ?1 AND created_at >= ?2 AND created_at < ?3",
    )
    .get(SEED_APP, from, to) as { calls: number; original: number; hits: number };
  expect([u.totals.calls, u.totals.original_tokens, u.totals.cache_hits]).toEqual([ledger.calls, ledger.original, ledger.hits]);
}, 60_000);
