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

/**
 * The whole HTTP front end and pipeline in this process, through app.handle: real SQLite, the real
 * optimizer inline, the built-in simulated provider (no provider key configured). No spawned
 * process, so a failure points at the line that caused it.
 */
let dir: string;
let services: Services;
let app: ReturnType<typeof buildApp>;
const admin = generateKey("live");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "lifecycle-in-process-"));
  const settings = loadSettings({ SVC_DATA_DIR: dir, SVC_WORKERS: "0", SVC_BOOTSTRAP_ADMIN_KEY: admin, SVC_TEST_KEY_DAILY_CALLS: "2" });
  services = await startServices(settings, pino({ level: "silent" }), {});
  app = buildApp(services);
}, 60_000);

afterAll(async () => {
  await closeServices(services);
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

/** The call's ledger rows, once the writer thread has stored what was recorded. */
async function ledger(requestId: string) {
  flushAll(services);
  await services.ledger.flush();
  return sqliteOf(services.store, "the test")
    .query("SELECT status, error_code, cache_hit, stream, model FROM usage_ledger WHERE request_id = ?")
    .all(requestId) as {
    status: number;
    error_code: string | null;
    cache_hit: number;
    stream: number;
    model: string | null;
  }[];
}

describe("in process", () => {
  test("the 405 table comes from the app's own routes", async () => {
    for (const [method, path, allow] of [
      ["GET", "/v1/complete", "POST"],
      ["PUT", "/api/keys", "POST, GET"],
      ["POST", "/v1/models/gpt-4o-mini", "GET"],
      ["DELETE", "/health", "GET"],
    ] as const) {
      const res = await handle(method, path, admin);
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe(allow);
    }
    expect((await handle("GET", "/nowhere")).status).toBe(404);
  });

  test("the admin check guards /metrics", async () => {
    const created = (await (await handle("POST", "/api/keys", admin, { name: "plain", app_id: "default", type: "live", scopes: ["complete"] })).json()) as {
      key: string;
    };
    const res = await handle("GET", "/metrics", created.key);
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.code).toBe("FORBIDDEN");
    expect((await handle("GET", "/metrics", admin)).status).toBe(200);
  });

  test("a JSON answer, then the same prompt streamed from the cache, each written to the ledger once", async () => {
    const body = { model: "gpt-4o-mini", messages: [{ role: "user", content: "In-process: name three primary colours." }] };
    const first = await handle("POST", "/v1/complete", admin, body);
    expect(first.status).toBe(200);
    const json = (await first.json()) as any;
    expect(json.object).toBe("chat.completion");
    expect(json.svc_meta.cache_hit).toBe(false);
    expect(first.headers.get("x-request-id")).toBe(json.id);
    expect(await ledger(json.id)).toEqual([{ status: 200, error_code: null, cache_hit: 0, stream: 0, model: json.model }]);

    const again = await handle("POST", "/v1/chat/completions", admin, { ...body, stream: true });
    expect(again.headers.get("content-type")).toContain("text/event-stream");
    const text = await again.text();
    expect(text).toContain('"cache_hit":true');
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    expect(await ledger(again.headers.get("x-request-id")!)).toEqual([{ status: 200, error_code: null, cache_hit: 1, stream: 1, model: json.model }]);
  });

  test("a failed call gives its quota back; a refused one writes no row", async () => {
    const created = (await (await handle("POST", "/api/keys", admin, { name: "t", app_id: "default", type: "test" })).json()) as { key: string };
    const unknown = await handle("POST", "/v1/complete", created.key, { model: "no-such-model", messages: [{ role: "user", content: "hi" }] });
    expect(unknown.status).toBe(400);
    expect(await ledger(unknown.headers.get("x-request-id")!)).toEqual([{ status: 400, error_code: "MODEL_NOT_FOUND", cache_hit: 0, stream: 0, model: null }]);
    // Two calls a day: the failed one above was refunded, so both of these are served.
    for (const n of [1, 2])
      expect((await handle("POST", "/v1/complete", created.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: `call ${n}` }] })).status).toBe(
        200,
      );
    const refused = await handle("POST", "/v1/complete", created.key, { model: "gpt-4o-mini", messages: [{ role: "user", content: "call 3" }] });
    expect(refused.status).toBe(429);
    expect(await ledger(refused.headers.get("x-request-id")!)).toEqual([]);
  });
});
