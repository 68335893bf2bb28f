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
import { sqliteOf } from "../../src/store/db";
import { startOpenAIMock } from "../mocks/openai-mock";

/**
 * /v1/embeddings is billable like a completion (issue 27): every call has a ledger row with its cost,
 * takes the key's quota (given back when it fails), and counts against a budget and an agent run.
 * In process (app.handle) in front of an OpenAI-format mock.
 */
const openai = startOpenAIMock({ apiKey: "sk-mock" });
let dir: string;
let services: Services;
let app: ReturnType<typeof buildApp>;
const admin = generateKey("live");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "embeddings-ledger-"));
  const env = {
    SVC_DATA_DIR: dir,
    SVC_WORKERS: "0",
    SVC_BOOTSTRAP_ADMIN_KEY: admin,
    SVC_TEST_KEY_DAILY_CALLS: "3",
    OPENAI_API_KEY: "sk-mock",
    OPENAI_BASE_URL: `${openai.url}/v1`,
    SVC_PROVIDER_RETRY_BASE_MS: "5",
    // The call's deadline (1 s) far under the per-attempt timeout; answers capped at 4 KiB.
    SVC_REQUEST_TIMEOUT_MS: "1000",
    SVC_PROVIDER_TIMEOUT_MS: "10000",
    SVC_UPSTREAM_MAX_BYTES: "4096",
  };
  services = await startServices(loadSettings(env), pino({ level: "silent" }), env);
  app = buildApp(services);
}, 60_000);

afterAll(async () => {
  await closeServices(services);
  openai.stop();
  rmSync(dir, { recursive: true, force: true });
});

const handle = (method: string, path: string, key: string, body?: unknown) =>
  app.handle(
    new Request(`http://svc.local${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
  );

interface Row {
  model: string | null;
  provider: string | null;
  prompt_tokens: number;
  cost_actual_usd: number;
  status: number;
  error_code: string | null;
  budget_id: string | null;
}

async function row(requestId: string): Promise<Row | undefined> {
  flushAll(services);
  await services.ledger.flush();
  return sqliteOf(services.store, "the test")
    .query("SELECT model, provider, prompt_tokens, cost_actual_usd, status, error_code, budget_id FROM usage_ledger WHERE request_id = ?")
    .get(requestId) as Row | undefined;
}

describe("/v1/embeddings in the ledger", () => {
  test("a forwarded call has a row with the provider's token count and the catalog's price", async () => {
    const res = await handle("POST", "/v1/embeddings", admin, { model: "text-embedding-3-small", input: ["one two three", "four five"] });
    expect(res.status).toBe(200);
    const r = await row(res.headers.get("x-request-id")!);
    // The mock counts words: 3 + 2; text-embedding-3-small is $0.02 per million input tokens.
    expect(r).toEqual({
      model: "text-embedding-3-small",
      provider: "openai",
      prompt_tokens: 5,
      cost_actual_usd: 5 * 0.02e-6,
      status: 200,
      error_code: null,
      budget_id: null,
    });
  });

  test("svc's own model has a row too, at no cost", async () => {
    const res = await handle("POST", "/v1/embeddings", admin, { model: "svc-embed-1", input: "How do I reset my password?" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { usage: { prompt_tokens: number } };
    const r = await row(res.headers.get("x-request-id")!);
    expect(r).toMatchObject({ model: "svc-embed-1", provider: "svc", prompt_tokens: body.usage.prompt_tokens, cost_actual_usd: 0, status: 200 });
    expect(r!.prompt_tokens).toBeGreaterThan(0);
  });

  test("an upstream failure has a failure row and gives the quota back", async () => {
    const created = (await (await handle("POST", "/api/keys", admin, { name: "t", app_id: "default", type: "test", scopes: ["complete"] })).json()) as {
      key: string;
    };
    openai.failNext(1, 400);
    const failed = await handle("POST", "/v1/embeddings", created.key, { model: "text-embedding-3-small", input: "x" });
    expect(failed.status).toBe(400);
    // Recorded as every failed call is: its status, nothing charged.
    expect(await row(failed.headers.get("x-request-id")!)).toMatchObject({ status: 400, error_code: "UPSTREAM_ERROR", cost_actual_usd: 0 });
    // The three calls a day of a test key: the failed one was given back, so three more succeed and the fourth is refused.
    for (let i = 0; i < 3; i++)
      expect((await handle("POST", "/v1/embeddings", created.key, { model: "text-embedding-3-small", input: `x${i}` })).status).toBe(200);
    const refused = await handle("POST", "/v1/embeddings", created.key, { model: "text-embedding-3-small", input: "y" });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).error.code).toBe("RATE_LIMITED");
  });

  test("a budget is charged the call's cost, and refuses it once spent", async () => {
    const budget = (await (await handle("POST", "/api/budgets", admin, { name: "emb", limit_usd: 0.00001, period: "total" })).json()) as { id: string };
    const first = await handle("POST", "/v1/embeddings", admin, {
      model: "text-embedding-3-small",
      input: "alpha beta",
      svc_options: { budget_id: budget.id },
    });
    expect(first.status).toBe(200);
    expect((await row(first.headers.get("x-request-id")!))!.budget_id).toBe(budget.id);
    // svc_options never reaches the provider.
    expect(openai.requests.at(-1)!.body).not.toHaveProperty("svc_options");
    const seen = (await (await handle("GET", `/api/budgets/${budget.id}`, admin)).json()) as { spent_usd: number };
    // Two tokens at $0.02 per million, rounded up to the budget's unit, a micro-dollar.
    expect(seen.spent_usd).toBe(0.000001);
    // About 1,200 tokens: $24e-6 at worst, more than the $9e-6 left.
    const over = await handle("POST", "/v1/embeddings", admin, {
      model: "text-embedding-3-small",
      input: Array.from({ length: 600 }, (_, i) => `word${i}`).join(" "),
      svc_options: { budget_id: budget.id },
    });
    expect(over.status).toBe(402);
  });

  test("an unknown svc_option is a 400 naming it", async () => {
    const res = await handle("POST", "/v1/embeddings", admin, { model: "svc-embed-1", input: "x", svc_options: { compress: true } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.param).toBe("svc_options.compress");
  });

  // Issue 23: an embeddings call is bounded as a completion is (it had only the per-attempt timeout and a fixed 32 MiB cap).
  test("a hung provider is a 504 at SVC_REQUEST_TIMEOUT_MS, with its row", async () => {
    openai.hang = true;
    try {
      const t0 = performance.now();
      const res = await handle("POST", "/v1/embeddings", admin, { model: "text-embedding-3-small", input: "x" });
      expect(performance.now() - t0).toBeLessThan(5_000);
      expect(res.status).toBe(504);
      expect(await row(res.headers.get("x-request-id")!)).toMatchObject({ status: 504, error_code: "UPSTREAM_TIMEOUT" });
    } finally {
      openai.hang = false;
    }
  });

  test("an answer past SVC_UPSTREAM_MAX_BYTES is a 502, with its row", async () => {
    const res = await handle("POST", "/v1/embeddings", admin, { model: "text-embedding-3-small", input: "x", dimensions: 2_000 });
    expect(res.status).toBe(502);
    expect(((await res.json()) as any).error.message).toContain("larger than 4096 bytes");
    expect(await row(res.headers.get("x-request-id")!)).toMatchObject({ status: 502, error_code: "UPSTREAM_ERROR" });
  });
});
