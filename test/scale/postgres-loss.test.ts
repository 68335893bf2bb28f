import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { startOpenAIMock } from "../mocks/openai-mock";
import type { MockProvider } from "../mocks/mock-server";
import { call, startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { ownPostgresMissing, startOwnPostgres, type OwnPostgres } from "../support/postgres-server";
import { waitForKey, waitUntil } from "../support/wait";
import { OFF } from "../completions/support";
import { freePort } from "../support/free-port";

/**
 * A node that loses PostgreSQL: a PostgreSQL of this test's own (never the shared one) is shut down
 * immediately under it, as in a crash, and started again. The node refuses what it cannot make correct
 * (a test key's calls, counted in the store; a budgeted call) with 503 and Retry-After, keeps serving a
 * live key from the quota lease it holds (the answers' ledger rows wait in its journal), says so in
 * /health, and recovers by itself: once the store is back every answered call has its ledger row.
 */
if (ownPostgresMissing) console.log(`[skip] the PostgreSQL-loss test: ${ownPostgresMissing}`);

const PORT = freePort();
const dir = mkdtempSync(join(tmpdir(), "svc-pg-loss-"));
const body = (i: number, extra: Record<string, unknown> = {}) => ({
  model: "gpt-4o-2024-05-13",
  max_tokens: 9,
  messages: [{ role: "user", content: `alpha beta gamma z${i}` }],
  svc_options: { ...OFF, ...extra },
});

describe.skipIf(ownPostgresMissing !== undefined)("a node that loses PostgreSQL", () => {
  let pg: OwnPostgres;
  let openai: MockProvider;
  let gw: GatewayProcess;
  let admin: KeyCreated;
  let testKey: KeyCreated;
  beforeAll(async () => {
    pg = startOwnPostgres(PORT, dir);
    openai = startOpenAIMock({ apiKey: "sk-mock-openai" });
    gw = await startGateway({
      OPENAI_API_KEY: "sk-mock-openai",
      OPENAI_BASE_URL: `${openai.url}/v1`,
      SVC_DATABASE_URL: pg.url,
      SVC_SECRET: randomBytes(32).toString("hex"),
      SVC_WORKERS: "0",
    });
    admin = await gw.cliKey(["--admin"]);
    testKey = await gw.cliKey(["--type", "test"]);
    await waitForKey(gw.url, admin.key);
    await waitForKey(gw.url, testKey.key);
  }, 60_000);
  afterAll(async () => {
    await gw?.stop();
    openai?.stop();
    try {
      pg.crash();
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  });

  test("refuses what it cannot make correct with 503 and Retry-After, serves the rest, says so in /health, recovers with every row", async () => {
    const answered: string[] = [];
    const ok = async (r: Response) => {
      expect(r.status).toBe(200);
      answered.push(r.headers.get("x-request-id")!);
    };
    const budget = (await (await call(`${gw.url}/api/budgets`, admin.key, { body: { name: "b", limit_usd: 10, period: "total" } })).json()) as { id: string };
    await ok(await call(`${gw.url}/v1/complete`, testKey.key, { body: body(1) }));
    await ok(await call(`${gw.url}/v1/complete`, admin.key, { body: body(2, { budget_id: budget.id }) }));
    expect((await call(`${gw.url}/health`, undefined)).status).toBe(200);
    pg.crash();

    const refused = await waitUntil("a 503 once PostgreSQL is gone", async () => {
      const r = await call(`${gw.url}/v1/complete`, testKey.key, { body: body(3) });
      if (r.status === 200) answered.push(r.headers.get("x-request-id")!);
      return r.status === 503 ? r : undefined;
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as any).error).toMatchObject({ code: "STORE_UNAVAILABLE", request_id: expect.stringMatching(/^svc_req_/) });
    const budgeted = await call(`${gw.url}/v1/complete`, admin.key, { body: body(4, { budget_id: budget.id }) });
    expect(budgeted.status).toBe(503);
    expect(Number(budgeted.headers.get("retry-after"))).toBeGreaterThan(0);
    // A live key's calls come from the quota lease this node already holds: still exact, recorded in the journal.
    await ok(await call(`${gw.url}/v1/complete`, admin.key, { body: body(5) }));
    const health = await call(`${gw.url}/health`, undefined);
    expect(health.status).toBe(503);
    expect(((await health.json()) as any).checks.db.ok).toBe(false);

    pg.restart();
    await waitUntil("a 200 once PostgreSQL is back", async () => {
      const r = await call(`${gw.url}/v1/complete`, testKey.key, { body: body(6) });
      if (r.status === 200) answered.push(r.headers.get("x-request-id")!);
      return r.status === 200;
    });
    await waitUntil("/health ok again", async () => (await call(`${gw.url}/health`, undefined)).status === 200);
    await ok(await call(`${gw.url}/v1/complete`, admin.key, { body: body(7, { budget_id: budget.id }) }));
    // Every answered call, those answered while the store was away included, reaches the ledger.
    const sql = postgres(pg.url, { max: 1, onnotice: () => undefined });
    try {
      await waitUntil("every answered call in the ledger", async () => {
        const rows = await sql<{ request_id: string }[]>`SELECT request_id FROM usage_ledger`;
        const ids = new Set(rows.map((r) => r.request_id));
        return answered.every((id) => ids.has(id));
      });
    } finally {
      await sql.end();
    }
  }, 90_000);
});
