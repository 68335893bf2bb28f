import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, startGateway, type GatewayProcess } from "../support/gateway-process";
import type { HeapReport } from "../../src/http/routes/debug";
import { waitForKey } from "../support/wait";

let on: GatewayProcess;
let off: GatewayProcess;
beforeAll(async () => {
  [on, off] = await Promise.all([startGateway({ SVC_DEBUG_HEAP: "true" }), startGateway()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([on.stop(), off.stop()]);
}, 30_000);

describe("GET /debug/heap", () => {
  test("with SVC_DEBUG_HEAP, an admin key gets the heap after a full collection and the process's RSS", async () => {
    const admin = await on.cliKey(["--admin"]);
    await waitForKey(on.url, admin.key);
    const res = await call(`${on.url}/debug/heap`, admin.key);
    expect(res.status).toBe(200);
    const report = (await res.json()) as HeapReport;
    expect(Object.keys(report).sort()).toEqual(["gc_ms", "heap_bytes", "heap_objects", "rss_bytes"]);
    // A started gateway holds its routes, catalog and vocabularies: megabytes of live objects, all inside the RSS.
    expect(report.heap_bytes).toBeGreaterThan(1 << 20);
    expect(report.heap_objects).toBeGreaterThan(1000);
    expect(report.rss_bytes).toBeGreaterThan(report.heap_bytes);
    expect(report.gc_ms).toBeGreaterThan(0);
  });

  test("refuses keys without the admin scope and callers without a key", async () => {
    const plain = await on.cliKey([]);
    await waitForKey(on.url, plain.key);
    expect((await call(`${on.url}/debug/heap`, plain.key)).status).toBe(403);
    expect((await fetch(`${on.url}/debug/heap`)).status).toBe(401);
  });

  test("does not exist unless the operator turns it on", async () => {
    const admin = await off.cliKey(["--admin"]);
    await waitForKey(off.url, admin.key);
    const res = await call(`${off.url}/debug/heap`, admin.key);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });
});
