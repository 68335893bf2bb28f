import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, startGateway, type GatewayProcess } from "../support/gateway-process";
import { waitForKey, waitUntil } from "../support/wait";

let gw: GatewayProcess;
beforeAll(async () => {
  // This gateway warms its optimizer (the test helper turns that off) while the tests below call it.
  gw = await startGateway({ SVC_MAX_BODY_BYTES: "2048", SVC_OPTIMIZER_WARM_RUNS: "40" });
}, 60_000);
afterAll(async () => {
  await gw.stop();
}, 30_000);

const RID = /^svc_req_[0-9a-f]{32}$/;

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = (await res.json()) as { error: Record<string, string> };
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe("string");
  expect(body.error.type).toBeString();
  expect(body.error.request_id).toMatch(RID);
  expect(res.headers.get("x-request-id")).toBe(body.error.request_id ?? "");
  return body.error;
}

describe("http basics", () => {
  test("the optimizer's warm-up runs after the start, as many times as set, and logs it", async () => {
    const line = await waitUntil("the warm-up's log line", () => gw.logs().find((l) => l.includes('"optimizer warmed"')), { tries: 3000 });
    expect(JSON.parse(line)).toMatchObject({ level: "info", runs: 40, msg: "optimizer warmed" });
  });

  test("GET /health answers without a key, with the contract's fields", async () => {
    const res = await fetch(`${gw.url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(RID);
    const h = (await res.json()) as Record<string, any>;
    expect(h.status).toBe("ok");
    expect(h.version).toBeString();
    expect(h.uptime_s).toBeNumber();
    expect(Object.keys(h.checks).sort()).toEqual(["db", "providers", "workers"]);
    expect(h.checks.db.ok).toBe(true);
  });

  test("an unknown route is a 404 in the error shape", async () => {
    await expectError(await fetch(`${gw.url}/v1/nope`), 404, "NOT_FOUND");
  });

  test("a known route with the wrong method is a 405 naming the allowed methods", async () => {
    const res = await fetch(`${gw.url}/health`, { method: "DELETE" });
    const err = await expectError(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toBe("GET");
    expect(err.message).toContain("GET");
  });

  test("malformed JSON is a 400 VALIDATION_ERROR naming the body", async () => {
    const admin = await gw.cliKey();
    await waitForKey(gw.url, admin.key);
    const err = await expectError(await call(`${gw.url}/api/keys`, admin.key, { body: "{not json" }), 400, "VALIDATION_ERROR");
    expect(err.param).toBe("body");
  });

  test("a body over the limit is a 413 in the error shape, with and without content-length", async () => {
    const admin = await gw.cliKey();
    await waitForKey(gw.url, admin.key);
    const big = JSON.stringify({ name: "x".repeat(5000), app_id: "default" });
    await expectError(await call(`${gw.url}/api/keys`, admin.key, { body: big }), 413, "PAYLOAD_TOO_LARGE");
    const chunked = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode("x".repeat(1000)));
        c.close();
      },
    });
    const res = await fetch(`${gw.url}/api/keys`, { method: "POST", headers: { authorization: `Bearer ${admin.key}` }, body: chunked });
    await expectError(res, 413, "PAYLOAD_TOO_LARGE");
  });

  test("every log line is one JSON object, and request lines carry the request id", async () => {
    const res = await fetch(`${gw.url}/health`);
    const rid = res.headers.get("x-request-id")!;
    await waitUntil("the request's log line", () => gw.logs().some((l) => l.includes(rid)));
    const lines = gw.logs().filter((l) => l.trim());
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    const mine = lines.map((l) => JSON.parse(l)).find((o) => o.request_id === rid);
    expect(mine).toMatchObject({ method: "GET", path: "/health", status: 200, msg: "request" });
    const admin = await gw.cliKey();
    await waitForKey(gw.url, admin.key);
    const created = await call(`${gw.url}/api/keys`, admin.key, { body: { name: "logged", app_id: "default" } });
    const createdId = created.headers.get("x-request-id");
    const forRequest = await waitUntil("both log lines of the key's creation", () => {
      const msgs = gw
        .logs()
        .filter((l) => l.includes(createdId!))
        .map((l) => JSON.parse(l).msg);
      return msgs.includes("key created") && msgs.includes("request") && msgs;
    });
    expect(forRequest).toEqual(expect.arrayContaining(["key created", "request"]));
  });
});
