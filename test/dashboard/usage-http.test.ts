import { sqliteOf } from "../../src/store/db";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { loadSettings } from "../../src/config/config";
import { generateKey } from "../../src/auth/key-format";
import { closeServices, flushAll, startServices } from "../../src/gateway";
import { buildApp } from "../../src/http/app";
import type { Services } from "../../src/pipeline/services";
import { startOpenAIMock } from "../mocks/openai-mock";
import type { MockProvider } from "../mocks/mock-server";

/** GET /dashboard and the /api/usage it reads over the real app, real SQLite and an OpenAI wire-format mock. */
let dir: string;
let services: Services;
let app: ReturnType<typeof buildApp>;
let mock: MockProvider;
const admin = generateKey("live");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "dashboard-usage-"));
  mock = startOpenAIMock();
  const env = { SVC_DATA_DIR: dir, SVC_WORKERS: "0", SVC_BOOTSTRAP_ADMIN_KEY: admin, OPENAI_API_KEY: "sk-mock", OPENAI_BASE_URL: `${mock.url}/v1` };
  services = await startServices(loadSettings(env), pino({ level: "silent" }), env);
  app = buildApp(services);
}, 60_000);

afterAll(async () => {
  await closeServices(services);
  mock.stop();
  rmSync(dir, { recursive: true, force: true });
});

const handle = (method: string, path: string, key?: string, body?: unknown) =>
  app.handle(
    new Request(`http://svc.local${path}`, {
      method,
      headers: { ...(key && { authorization: `Bearer ${key}` }), "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
  );

async function settle() {
  flushAll(services);
  await services.ledger.flush();
}

const chatty =
  "Hi there! I hope you are doing well. I was wondering if you could possibly help me write a short poem about the sea. Thanks so much in advance!";

describe("dashboard", () => {
  test("the page and its bundled script are served without a key; the page allows only its own scripts", async () => {
    const page = await handle("GET", "/dashboard");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain('src="/dashboard/app.js"');
    expect(html).not.toMatch(/https?:\/\//);
    const js = await handle("GET", "/dashboard/app.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("javascript");
    const code = await js.text();
    // uPlot is inside the bundle, not loaded from anywhere.
    expect(code).toContain(".uplot");
    expect(code).not.toMatch(/(src|href)=["']https?:/);
  });

  test("bad parameters are 400 in the error shape", async () => {
    for (const [q, param] of [
      ["from=yesterday", "from"],
      ["from=2026-11-20&to=2026-11-01", "from"],
      [`model=${"x".repeat(201)}`, "model"],
      [`key_id=${"x".repeat(201)}`, "key_id"],
      [`cursor=${Buffer.from("g:not a day").toString("base64url")}`, "cursor"],
      [`cursor=${Buffer.from("2026-11-20").toString("base64url")}`, "cursor"],
    ] as const) {
      const res = await handle("GET", `/api/usage?${q}`, admin);
      expect(res.status).toBe(400);
      const err = ((await res.json()) as any).error;
      expect(err.code).toBe("VALIDATION_ERROR");
      expect(err.param).toBe(param);
    }
  });

  test("calls move the totals, the series, the model mix and the overhead; filters by key and model; one app only", async () => {
    const usage = async (q: string, key = admin) =>
      (await (await handle("GET", `/api/usage?${q}${q.includes("limit=") ? "" : "&limit=1000"}`, key)).json()) as any;
    const before = await usage("group_by=day");
    const worker = (await (await handle("POST", "/api/keys", admin, { name: "worker", app_id: "default", scopes: ["complete"] })).json()) as {
      id: string;
      key: string;
    };
    for (let i = 0; i < 3; i++) {
      const res = await handle("POST", "/v1/chat/completions", worker.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: chatty }] });
      expect(res.status).toBe(200);
    }
    const other = (await (await handle("POST", "/api/keys", admin, { name: "other", app_id: "default", scopes: ["complete"] })).json()) as {
      id: string;
      key: string;
    };
    const big = await handle("POST", "/v1/chat/completions", other.key, {
      model: "gpt-4o",
      messages: [{ role: "user", content: "Explain a monad in one sentence." }],
    });
    expect(big.status).toBe(200);
    // The catalog's current snapshot behind the alias.
    const bigModel = ((await big.json()) as { model: string }).model;
    await settle();

    const all = await usage("group_by=day");
    const t = all.totals;
    expect(t.calls - before.totals.calls).toBe(4);
    // The second and third identical calls are cache hits: answered without a provider call and billed 0.
    expect(t.cache_hits).toBe(2);
    expect(mock.requests.length).toBe(2);
    expect(t.cached_tokens).toBeGreaterThan(0);
    expect(t.original_tokens).toBeGreaterThan(t.sent_tokens);
    expect(t.cost_original_usd).toBeGreaterThan(t.cost_actual_usd);
    expect(t.saved_usd).toBeCloseTo(t.cost_original_usd - t.cost_actual_usd, 8);
    expect(Object.values(t.saved_by_source as Record<string, number>).reduce((a, b) => a + b, 0)).toBeCloseTo(t.saved_usd, 9);
    expect(t.saved_by_source.cache).toBeGreaterThan(0);
    expect(all.rows.at(-1).group).toBe(new Date().toISOString().slice(0, 10));
    expect(all.rows.reduce((s: number, d: any) => s + d.calls, 0)).toBe(t.calls);
    const models = await usage("group_by=model");
    const bare = await usage("group_by=model&totals=false");
    expect(bare.rows).toEqual(models.rows);
    expect(bare).not.toHaveProperty("totals");
    expect(models.rows.map((m: any) => m.group).sort()).toEqual([bigModel, "gpt-4o-mini-2024-07-18"].sort());
    expect(models.totals).toEqual(t);
    expect(t.overhead_ms.p50).toBeGreaterThan(0);
    expect(t.overhead_ms.p99).toBeGreaterThanOrEqual(t.overhead_ms.p50);

    // The same figures as the ledger's own rows.
    const rows = sqliteOf(services.store, "the test")
      .query("SELECT count(*) AS n, sum(cost_actual_usd) AS actual, sum(cache_hit) AS hits, max(overhead_ms) AS oh FROM usage_ledger WHERE app_id = 'default'")
      .get() as { n: number; actual: number; hits: number; oh: number };
    expect(t.calls).toBe(rows.n);
    expect(t.cost_actual_usd).toBeCloseTo(rows.actual, 9);
    // p99 of five calls is the largest, to the microsecond above.
    expect(t.overhead_ms.p99).toBe(Math.ceil(rows.oh * 1000) / 1000);

    const byKey = await usage(`group_by=model&key_id=${worker.id}`);
    expect(byKey.totals.calls).toBe(3);
    expect(byKey.totals.cache_hits).toBe(2);
    expect(byKey.rows).toEqual([expect.objectContaining({ group: "gpt-4o-mini-2024-07-18", calls: 3 })]);
    const byModel = await usage(`group_by=day&model=${bigModel}`);
    expect(byModel.totals.calls).toBe(1);
    expect(byModel.totals.cache_hits).toBe(0);
    const past = await usage("group_by=day&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z");
    expect(past.totals.calls).toBe(0);
    expect(past.rows).toEqual([]);
    expect(past.totals.overhead_ms).toEqual({ p50: null, p99: null });

    // Pages of one key each: the cursor goes on from the last key, and every page carries the range's totals.
    const p1 = await usage("group_by=key&limit=1");
    expect(p1.next_cursor).toBeString();
    const p2 = await usage(`group_by=key&limit=1&cursor=${p1.next_cursor}`);
    expect(p2.rows[0].group > p1.rows[0].group).toBe(true);
    expect(p2.totals).toEqual(t);

    // Another app's admin sees none of it.
    const elsewhere = await services.keys.create("operator", { name: "elsewhere2", appId: "other-app", type: "live", scopes: ["admin", "complete"] });
    const theirs = await usage("group_by=model", elsewhere.key);
    expect(theirs.totals.calls).toBe(0);
    expect(theirs.rows).toEqual([]);
  });
});
