import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOpenAIMock } from "../mocks/openai-mock";
import type { MockProvider } from "../mocks/mock-server";
import { call, startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { requires } from "../support/services";
import { haveRedisServer, startOwnRedis, type OwnRedis } from "../support/redis-server";
import { waitForKey, waitUntil } from "../support/wait";
import { OFF } from "../completions/support";
import { freePort } from "../support/free-port";

/**
 * A node that loses Redis: a Redis of this test's own (never the shared one) is killed under it and
 * started again. The node keeps serving what it can serve correctly (calls from a quota lease it
 * already holds), refuses what needs Redis (a test key counted one call at a time) with 503 and
 * Retry-After, says so in /health, and recovers by itself; the restarted Redis, empty, is seeded
 * from the store with every call counted before.
 */
const haveRedis = (await requires("redis")) && haveRedisServer;
if (!haveRedisServer) console.log("[skip] the Redis-loss test needs redis-server on PATH to start a Redis of its own");

const PORT = freePort();
const dir = mkdtempSync(join(tmpdir(), "svc-redis-loss-"));

const body = (i: number, extra: Record<string, unknown> = {}) => ({
  model: "gpt-4o-2024-05-13",
  max_tokens: 9,
  messages: [{ role: "user", content: `alpha beta gamma z${i}` }],
  svc_options: { ...OFF, ...extra },
});
/** A call on an agent run: its counters are in Redis. */
const onRun = { agent_run_id: "loss-run" };

describe.skipIf(!haveRedis)("a node that loses Redis", () => {
  let openai: MockProvider;
  let gw: GatewayProcess;
  let admin: KeyCreated;
  let testKey: KeyCreated;
  let redisServer: OwnRedis;
  beforeAll(async () => {
    redisServer = startOwnRedis(PORT, dir);
    openai = startOpenAIMock({ apiKey: "sk-mock-openai" });
    gw = await startGateway({
      OPENAI_API_KEY: "sk-mock-openai",
      OPENAI_BASE_URL: `${openai.url}/v1`,
      SVC_REDIS_URL: `${redisServer.url}/8`,
      SVC_REDIS_PREFIX: "loss",
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
      redisServer.kill();
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  });

  test("refuses what it cannot make correct with 503 and Retry-After, serves the rest, says so in /health, recovers", async () => {
    expect((await call(`${gw.url}/v1/complete`, testKey.key, { body: body(1) })).status).toBe(200);
    expect((await call(`${gw.url}/v1/complete`, admin.key, { body: body(2) })).status).toBe(200);
    expect((await call(`${gw.url}/v1/complete`, admin.key, { body: body(20, onRun) })).status).toBe(200);
    expect((await call(`${gw.url}/health`, undefined)).status).toBe(200);
    // The counters reach the store at the next flush (200 ms here) before Redis goes.
    await Bun.sleep(500);
    redisServer.kill();

    const refused = await waitUntil("a 503 once Redis is gone", async () => {
      const r = await call(`${gw.url}/v1/complete`, testKey.key, { body: body(3) });
      return r.status === 503 ? r : undefined;
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const error = ((await refused.json()) as any).error;
    expect(error).toMatchObject({ code: "STORE_UNAVAILABLE", type: expect.any(String), request_id: expect.stringMatching(/^svc_req_/) });
    expect(error.message).toContain("redis");
    // A live key's calls come from the lease this node already took from Redis: still exact.
    expect((await call(`${gw.url}/v1/complete`, admin.key, { body: body(4) })).status).toBe(200);
    // An agent run's call cannot be counted where the other nodes see it: refused alike.
    const onRunRefused = await call(`${gw.url}/v1/complete`, admin.key, { body: body(21, onRun) });
    expect(onRunRefused.status).toBe(503);
    expect(((await onRunRefused.json()) as any).error).toMatchObject({ code: "STORE_UNAVAILABLE" });
    const health = await call(`${gw.url}/health`, undefined);
    expect(health.status).toBe(503);
    const checks = ((await health.json()) as any).checks;
    expect(checks.redis.ok).toBe(false);
    expect(checks.db.ok).toBe(true);

    redisServer.restart();
    await waitUntil("a 200 once Redis is back", async () => (await call(`${gw.url}/v1/complete`, testKey.key, { body: body(5) })).status === 200);
    expect((await call(`${gw.url}/health`, undefined)).status).toBe(200);
    // The new Redis started empty and was seeded from the store: the call before the loss still counts.
    const redis = new RedisClient(`redis://127.0.0.1:${PORT}/8`);
    try {
      const day = new Date().toISOString().slice(0, 10);
      expect(Number(await redis.get(`loss:ctr:${testKey.id}:d:${day}`))).toBe(2);
    } finally {
      redis.close();
    }
    // The run, written back before the loss, is seeded again from the store: its call before the loss counts.
    const run = await call(`${gw.url}/v1/complete`, admin.key, { body: body(22, onRun) });
    expect(((await run.json()) as any).svc_meta.agent_run).toMatchObject({ id: "loss-run", calls: 2 });
  }, 60_000);
});
