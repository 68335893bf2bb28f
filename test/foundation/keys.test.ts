import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { waitUntil } from "../support/wait";
import { call, runCli, startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { generateKey } from "../../src/auth/key-format";

let gw: GatewayProcess;
let adminA: KeyCreated;
let adminB: KeyCreated;

beforeAll(async () => {
  gw = await startGateway({ SVC_SECRET: "test-secret-0123456789abcdefghijklmnopqrstuvwxyz" });
  adminA = await gw.cliKey(["--admin", "--app", "app-a"]);
  adminB = await gw.cliKey(["--admin", "--app", "app-b"]);
  await waitUntil("admin B's key to be usable", async () => (await call(`${gw.url}/api/keys`, adminB.key)).status === 200);
}, 60_000);
afterAll(async () => {
  await gw.stop();
}, 30_000);

describe("API keys", () => {
  test("a created key has the contract's format and record, and its value is shown once", async () => {
    const res = await call(`${gw.url}/api/keys`, adminA.key, { body: { name: "svc-one", app_id: "app-a" } });
    expect(res.status).toBe(201);
    const k = (await res.json()) as KeyCreated & Record<string, unknown>;
    expect(k.key).toMatch(/^svc_live_[0-9A-Za-z]{38}$/);
    expect(k.id).toMatch(/^key_[0-9a-z]+$/);
    expect(k).toMatchObject({ name: "svc-one", app_id: "app-a", type: "live", status: "active", prefix: k.key.slice(0, 12), last4: k.key.slice(-4) });
    for (const f of ["scopes", "plan", "created_at", "last_used_at", "revoked_at"]) expect(k).toHaveProperty(f);
    const list = await (await call(`${gw.url}/api/keys`, adminA.key)).text();
    expect(list).toContain(k.id);
    expect(list).not.toContain(k.key);
    expect(list).not.toContain(k.key.slice(12, -4));
    const used = await call(`${gw.url}/api/keys`, k.key);
    expect(used.status).toBe(403);
  });

  test("no header is UNAUTHORIZED; a malformed, mistyped or unknown key is INVALID_KEY", async () => {
    const codes = async (auth?: string) => {
      const res = await fetch(`${gw.url}/api/keys`, { headers: auth ? { authorization: auth } : {} });
      return [res.status, ((await res.json()) as any).error.code];
    };
    expect(await codes()).toEqual([401, "UNAUTHORIZED"]);
    expect(await codes("Basic abc")).toEqual([401, "UNAUTHORIZED"]);
    expect(await codes("Bearer nonsense")).toEqual([401, "INVALID_KEY"]);
    const typo = adminA.key.slice(0, 20) + (adminA.key[20] === "a" ? "b" : "a") + adminA.key.slice(21);
    expect(await codes(`Bearer ${typo}`)).toEqual([401, "INVALID_KEY"]);
    expect(await codes(`Bearer ${generateKey("live")}`)).toEqual([401, "INVALID_KEY"]);
  });

  test("a revoked key is refused on the very next call", async () => {
    const k = (await (
      await call(`${gw.url}/api/keys`, adminA.key, { body: { name: "victim", app_id: "app-a", scopes: ["admin", "complete"] } })
    ).json()) as KeyCreated;
    expect((await call(`${gw.url}/api/keys`, k.key)).status).toBe(200);
    const del = await call(`${gw.url}/api/keys/${k.id}`, adminA.key, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(((await del.json()) as any).status).toBe("revoked");
    const next = await call(`${gw.url}/api/keys`, k.key);
    expect(next.status).toBe(401);
    expect(((await next.json()) as any).error.code).toBe("KEY_REVOKED");
  });

  test("a key of one app_id cannot see, create in or revoke another's keys", async () => {
    const b = (await (await call(`${gw.url}/api/keys`, adminB.key, { body: { name: "b-key", app_id: "app-b" } })).json()) as KeyCreated;
    const listA = (await (await call(`${gw.url}/api/keys`, adminA.key)).json()) as { data: { id: string; app_id: string }[] };
    expect(listA.data.every((k) => k.app_id === "app-a")).toBe(true);
    expect(listA.data.map((k) => k.id)).not.toContain(b.id);
    const del = await call(`${gw.url}/api/keys/${b.id}`, adminA.key, { method: "DELETE" });
    expect(del.status).toBe(403);
    expect(((await del.json()) as any).error.code).toBe("FORBIDDEN");
    const create = await call(`${gw.url}/api/keys`, adminA.key, { body: { name: "sneaky", app_id: "app-b" } });
    expect(create.status).toBe(403);
    expect((await call(`${gw.url}/api/keys/key_doesnotexist`, adminA.key, { method: "DELETE" })).status).toBe(404);
    expect((await call(`${gw.url}/api/keys`, b.key)).status).toBe(403);
  });

  test("a test key can only create test keys", async () => {
    const t = (await (
      await call(`${gw.url}/api/keys`, adminA.key, { body: { name: "t-admin", app_id: "app-a", type: "test", scopes: ["admin", "complete"] } })
    ).json()) as KeyCreated;
    expect(t.key).toStartWith("svc_test_");
    const live = await call(`${gw.url}/api/keys`, t.key, { body: { name: "x", app_id: "app-a", type: "live" } });
    expect(live.status).toBe(403);
    const test_ = await call(`${gw.url}/api/keys`, t.key, { body: { name: "x", app_id: "app-a", type: "test" } });
    expect(test_.status).toBe(201);
  });

  test("create validates its body and names the field", async () => {
    const res = await call(`${gw.url}/api/keys`, adminA.key, { body: { app_id: "app-a" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error).toMatchObject({ code: "VALIDATION_ERROR", param: "name" });
    const bad = await call(`${gw.url}/api/keys`, adminA.key, { body: { name: "x", app_id: "app-a", scopes: ["root"] } });
    expect(((await bad.json()) as any).error.param).toBe("scopes");
  });

  test("keys created and revoked by the CLI take effect in the running server without a restart (its key sync)", async () => {
    const k = await gw.cliKey(["--admin", "--app", "app-a"]);
    await waitUntil("the new key to be accepted", async () => (await call(`${gw.url}/api/keys`, k.key)).status === 200);
    const r = await runCli(["keys", "revoke", k.id, "--json"], gw.env);
    expect(r.code).toBe(0);
    await waitUntil("the revoked key to be refused", async () => (await call(`${gw.url}/api/keys`, k.key)).status === 401);
    const body = (await (await call(`${gw.url}/api/keys`, k.key)).json()) as any;
    expect(body.error.code).toBe("KEY_REVOKED");
  });

  test("the CLI lists without values and prints the value only at creation", async () => {
    const r = await runCli(["keys", "list", "--app", "app-a", "--json"], gw.env);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(list.length).toBeGreaterThan(2);
    expect(r.stdout).not.toContain(adminA.key);
    for (const k of list) expect(k).not.toHaveProperty("key");
    const human = await runCli(["keys", "create", "--app", "app-a"], gw.env);
    expect(human.stdout).toMatch(/key:\s+svc_live_/);
  });

  test("last_used_at is recorded and reaches the store without a restart", async () => {
    // The store keeps whole seconds: the use is stamped between the second before the call and now.
    const before = Math.floor(Date.now() / 1000) * 1000;
    await call(`${gw.url}/api/keys`, adminA.key);
    const usedAt = await waitUntil("last_used_at to reach the store", async () => {
      const r = await runCli(["keys", "list", "--app", "app-a", "--json"], gw.env);
      const me = (JSON.parse(r.stdout) as { id: string; last_used_at: string | null }[]).find((k) => k.id === adminA.id)!;
      return me.last_used_at !== null && Date.parse(me.last_used_at) >= before ? Date.parse(me.last_used_at) : undefined;
    });
    expect(usedAt).toBeLessThanOrEqual(Date.now());
  });

  test("the server secret and key values never appear in the logs", async () => {
    // Log lines are written in batches, in order: once this request's line is out, every earlier one is.
    const rid = (await fetch(`${gw.url}/health`)).headers.get("x-request-id")!;
    await waitUntil("the last request's log line", () => gw.logs().some((l) => l.includes(rid)));
    const logs = gw.logs().join("\n");
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain("test-secret-0123456789");
    expect(logs).not.toContain(adminA.key);
    expect(logs).not.toContain(adminB.key);
    expect(logs).not.toMatch(/svc_(live|test)_[0-9A-Za-z]{38}/);
  });
});
