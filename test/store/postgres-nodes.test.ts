import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { listMigrations } from "../../src/store/db";
import { startOpenAIMock } from "../mocks/openai-mock";
import { call, startGateway, type GatewayProcess } from "../support/gateway-process";
import { freshDatabase } from "../support/pg-database";
import { requires } from "../support/services";
import { waitForKey } from "../support/wait";

// Issue 32: gateway processes sharing one PostgreSQL database (SVC_DATABASE_URL), each with a data
// directory of its own as separate machines would have: they start together (the migrations are
// applied once, under an advisory lock), serve each other's keys, and hold a test key to its daily
// limit between them.

const havePg = await requires("postgres");
const OFF = { compress: false, route: false, cache: false, score: false };
const body = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Count to three." }], svc_options: OFF };

describe.skipIf(!havePg)("three gateway processes on one PostgreSQL database", () => {
  const openai = startOpenAIMock({ apiKey: "sk-mock-openai" });
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let nodes: GatewayProcess[] = [];
  let sql: postgres.Sql;

  beforeAll(async () => {
    db = await freshDatabase("nodes");
    sql = postgres(db.url, { max: 1, onnotice: () => undefined });
    const env = {
      OPENAI_API_KEY: "sk-mock-openai",
      OPENAI_BASE_URL: `${openai.url}/v1`,
      SVC_DATABASE_URL: db.url,
      SVC_SECRET: "a-secret-shared-by-every-node-of-this-test-0123456789",
      SVC_PROVIDER_RETRY_BASE_MS: "5",
    };
    // Started at once, on an empty database: without the lock two would race on CREATE TABLE.
    nodes = await Promise.all([0, 1, 2].map((i) => startGateway({ ...env, SVC_NODE_ID: `node-${i}` })));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    openai.stop();
    await sql?.end();
    await db?.drop();
  });

  test("the migrations were applied once, and every node writes a heartbeat", async () => {
    const applied = await sql<{ version: number }[]>`SELECT version::int AS version FROM schema_migrations ORDER BY version`;
    expect(applied.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
    const beats = await sql<{ owner: string }[]>`SELECT owner FROM nodes ORDER BY owner`;
    expect(beats.map((r) => r.owner.split("/")[0])).toEqual(["node-0", "node-1", "node-2"]);
    for (const n of nodes) {
      const health = (await (await fetch(`${n.url}/health`)).json()) as { checks: { db: { ok: boolean } } };
      expect(health.checks.db).toEqual({ ok: true });
    }
  });

  test("a key created through one node is served by the others; revoked through another, it is refused by all", async () => {
    const [a, b, c] = nodes as [GatewayProcess, GatewayProcess, GatewayProcess];
    const admin = await a.cliKey(["--admin"]);
    await waitForKey(a.url, admin.key);
    const res = await call(`${a.url}/api/keys`, admin.key, { body: { name: "made on a", app_id: admin.app_id } });
    expect(res.status).toBe(201);
    const made = (await res.json()) as { id: string; key: string };
    await Promise.all([waitForKey(b.url, made.key), waitForKey(c.url, made.key)]);
    expect((await call(`${c.url}/v1/complete`, made.key, { body })).status).toBe(200);
    expect((await call(`${b.url}/api/keys/${made.id}`, admin.key, { method: "DELETE" })).status).toBe(200);
    for (const n of nodes) {
      let status = 0;
      for (let i = 0; i < 100 && status !== 401; i++) {
        status = (await call(`${n.url}/v1/models`, made.key)).status;
        if (status !== 401) await Bun.sleep(50);
      }
      expect(status).toBe(401);
    }
  }, 60_000);

  test("150 calls at once on a 100-call test key, spread over the nodes: exactly 100 answered, each with its ledger row", async () => {
    const admin = await nodes[0]!.cliKey(["--type", "test"]);
    await Promise.all(nodes.map((n) => waitForKey(n.url, admin.key)));
    // waitForKey's calls are /v1/models, not completions: the key's 100 calls are all still there.
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => call(`${nodes[i % 3]!.url}/v1/complete`, admin.key, { body })));
    const answered: string[] = [];
    for (const r of results) if (r.status === 200) answered.push(((await r.json()) as { id: string }).id);
    expect(answered.length).toBe(100);
    expect(results.filter((r) => r.status === 429).length).toBe(50);
    // Rows reach PostgreSQL within a flush interval (200 ms in these processes).
    let stored = 0;
    for (let i = 0; i < 100 && stored < 100; i++) {
      stored = (await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM usage_ledger WHERE request_id IN ${sql(answered)}`)[0]!.n;
      if (stored < 100) await Bun.sleep(100);
    }
    expect(stored).toBe(100);
  }, 60_000);

  test("150 budgeted calls at once spread over the nodes, on a budget that fits 50: at most 50 answered, the spend exact and within the limit", async () => {
    // gpt-4o-2024-05-13 at $5 per million tokens both ways; the mock's answer to six words is 22 tokens: $0.00011 a call.
    const CALL_MICROS = 110;
    const limitUsd = (50 * CALL_MICROS + CALL_MICROS / 2) / 1e6;
    const admin = await nodes[0]!.cliKey(["--admin"]);
    await Promise.all(nodes.map((n) => waitForKey(n.url, admin.key)));
    const made = await call(`${nodes[1]!.url}/api/budgets`, admin.key, { body: { name: "team", limit_usd: limitUsd, period: "total" } });
    expect(made.status).toBe(201);
    const budget = (await made.json()) as { id: string };
    const before = openai.requests.length;
    const budgeted = (i: number) => ({
      model: "gpt-4o-2024-05-13",
      max_tokens: 9,
      messages: [{ role: "user", content: `alpha beta gamma delta epsilon z${i}` }],
      svc_options: { ...OFF, budget_id: budget.id },
    });
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => call(`${nodes[i % 3]!.url}/v1/complete`, admin.key, { body: budgeted(i) })));
    const ok = results.filter((r) => r.status === 200).length;
    expect(
      ok + results.filter((r) => r.status === 402).length,
      JSON.stringify(await Promise.all(results.filter((r) => r.status !== 200 && r.status !== 402).map((r) => r.text()))),
    ).toBe(150);
    expect(ok).toBeLessThanOrEqual(50);
    expect(ok).toBeGreaterThan(25);
    expect(openai.requests.length - before).toBe(ok);
    let view = { spent_usd: -1, reserved_usd: -1 };
    for (let i = 0; i < 100; i++) {
      view = (await (await call(`${nodes[2]!.url}/api/budgets/${budget.id}`, admin.key)).json()) as typeof view;
      if (view.reserved_usd === 0) break;
      await Bun.sleep(20);
    }
    expect(view.reserved_usd).toBe(0);
    expect(Math.round(view.spent_usd * 1e6)).toBe(ok * CALL_MICROS);
    expect(view.spent_usd).toBeLessThanOrEqual(limitUsd);
  }, 60_000);
});
