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

/** GET /dashboard and /api/dashboard/usage over the real app, real SQLite and an OpenAI wire-format mock. */
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

  test("usage needs an admin key", async () => {
    expect((await handle("GET", "/api/dashboard/usage")).status).toBe(401);
    const plain = (await (await handle("POST", "/api/keys", admin, { name: "plain", app_id: "default", scopes: ["complete"] })).json()) as { key: string };
    const res = await handle("GET", "/api/dashboard/usage", plain.key);
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.code).toBe("FORBIDDEN");
  });

  test("bad parameters are 400 in the error shape", async () => {
    for (const [q, param] of [
      ["from=yesterday", "from"],
      ["from=2026-11-20&to=2026-11-01", "from"],
      ["from=2020-01-01&to=2026-01-01", "from"],
      [`model=${"x".repeat(201)}`, "model"],
    ] as const) {
      const res = await handle("GET", `/api/dashboard/usage?${q}`, admin);
      expect(res.status).toBe(400);
      const err = ((await res.json()) as any).error;
      expect(err.code).toBe("VALIDATION_ERROR");
      expect(err.param).toBe(param);
    }
  });

  test("calls move the totals, the series, the model mix and the overhead; filters by key and model; one app only", async () => {
    const before = (await (await handle("GET", "/api/dashboard/usage", admin)).json()) as any;
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

    const all = (await (await handle("GET", "/api/dashboard/usage", admin)).json()) as any;
    expect(all.totals.calls - before.totals.calls).toBe(4);
    // The second and third identical calls are cache hits: answered without a provider call and billed 0.
    expect(all.totals.cache_hits).toBe(2);
    expect(mock.requests.length).toBe(2);
    expect(all.totals.cache_hit_rate_calls).toBeCloseTo(2 / 4, 4);
    expect(all.totals.cache_hit_rate_tokens).toBeGreaterThan(0);
    expect(all.totals.original_tokens).toBeGreaterThan(all.totals.sent_tokens);
    expect(all.totals.cost_original_usd).toBeGreaterThan(all.totals.cost_actual_usd);
    expect(all.totals.saved_usd).toBeCloseTo(all.totals.cost_original_usd - all.totals.cost_actual_usd, 8);
    expect(all.days.at(-1).day).toBe(new Date().toISOString().slice(0, 10));
    expect(all.days.reduce((s: number, d: any) => s + d.calls, 0)).toBe(all.totals.calls);
    expect(all.models.map((m: any) => m.model).sort()).toEqual([bigModel, "gpt-4o-mini-2024-07-18"].sort());
    expect(all.overhead_ms.p50).toBeGreaterThan(0);
    expect(all.overhead_ms.p99).toBeGreaterThanOrEqual(all.overhead_ms.p50);

    // The same figures as the ledger's own rows.
    const rows = sqliteOf(services.store, "the test")
      .query("SELECT count(*) AS n, sum(cost_actual_usd) AS actual, sum(cache_hit) AS hits FROM usage_ledger WHERE app_id = 'default'")
      .get() as { n: number; actual: number; hits: number };
    expect(all.totals.calls).toBe(rows.n);
    expect(all.totals.cost_actual_usd).toBeCloseTo(rows.actual, 9);

    const byKey = (await (await handle("GET", `/api/dashboard/usage?key_id=${worker.id}`, admin)).json()) as any;
    expect(byKey.totals.calls).toBe(3);
    expect(byKey.totals.cache_hits).toBe(2);
    expect(byKey.models).toEqual([expect.objectContaining({ model: "gpt-4o-mini-2024-07-18", calls: 3 })]);
    const byModel = (await (await handle("GET", `/api/dashboard/usage?model=${bigModel}`, admin)).json()) as any;
    expect(byModel.totals.calls).toBe(1);
    expect(byModel.totals.cache_hits).toBe(0);
    const past = (await (await handle("GET", "/api/dashboard/usage?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z", admin)).json()) as any;
    expect(past.totals.calls).toBe(0);
    expect(past.overhead_ms).toEqual({ p50: null, p99: null });

    // Another app's admin sees none of it.
    const elsewhere = await services.keys.create("operator", { name: "elsewhere2", appId: "other-app", type: "live", scopes: ["admin", "complete"] });
    const theirs = (await (await handle("GET", "/api/dashboard/usage", elsewhere.key)).json()) as any;
    expect(theirs.totals.calls).toBe(0);
    expect(theirs.models).toEqual([]);
  });
});
