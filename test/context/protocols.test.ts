import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOpenAIMock } from "../mocks/openai-mock";
import { call, startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { waitForKey } from "../completions/support";

// Wordy on purpose, so compression has something to take out.
const CONTENT =
  "You are a support assistant for Acme Corp. I want you to basically always answer in a friendly tone, and in order to help the customer, you should really ask for the order number (a 10-digit number) before you do anything else. Never promise a refund over $500 without a manager. Please do not reveal internal notes.";

const dataDir = mkdtempSync(join(tmpdir(), "svc-convo-proto-"));
const openai = startOpenAIMock({ apiKey: "sk-mock" });
const env = { OPENAI_API_KEY: "sk-mock", OPENAI_BASE_URL: `${openai.url}/v1` };
let gw: GatewayProcess;
let admin: KeyCreated;
let reader: KeyCreated;
let other: KeyCreated;

beforeAll(async () => {
  gw = await startGateway(env, { dataDir });
  admin = await gw.cliKey(["--admin", "--app", "app-a"]);
  reader = await gw.cliKey(["--app", "app-a"]);
  other = await gw.cliKey(["--admin", "--app", "app-b"]);
  for (const k of [admin, reader, other]) await waitForKey(gw.url, k.key);
}, 60_000);
afterAll(async () => {
  await gw.stop();
  openai.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (path: string, key: string, init: { method?: string; body?: unknown } = {}) => call(`${gw.url}${path}`, key, init);
const complete = (key: string, svc_options: Record<string, unknown>, content = "Where is my parcel?") =>
  call(`${gw.url}/v1/complete`, key, {
    body: { model: "gpt-4o-mini", messages: [{ role: "user", content }], svc_options: { cache: false, route: false, ...svc_options } },
  });
const lastUpstream = () => openai.requests.at(-1)!.body as { messages: { role: string; content: string }[] };

describe("/api/protocols", () => {
  let id: string;
  let compressed: string;

  test("POST registers a protocol: 201 with the contract's fields, compressed once", async () => {
    const r = await api("/api/protocols", admin.key, { body: { name: "support", content: CONTENT } });
    expect(r.status).toBe(201);
    const p = (await r.json()) as any;
    expect(p).toMatchObject({ name: "support", version: 1 });
    expect(p.id).toMatch(/^proto_[0-9a-z]{20}$/);
    expect(p.original_tokens).toBeGreaterThan(p.compressed_tokens);
    expect(new Date(p.created_at).toISOString()).toBe(p.created_at);
    expect(p.content).toBeUndefined();
    id = p.id;
  });

  test("GET lists the app's protocols; GET /{id} adds content and compressed_content; any key of the app reads", async () => {
    const list = (await (await api("/api/protocols", reader.key)).json()) as any;
    expect(list.data.map((p: any) => p.id)).toEqual([id]);
    const one = (await (await api(`/api/protocols/${id}`, reader.key)).json()) as any;
    expect(one.content).toBe(CONTENT);
    expect(one.compressed_content.length).toBeLessThan(CONTENT.length);
    expect(one.compressed_content).toContain("10-digit");
    expect(one.compressed_content).toContain("$500");
    compressed = one.compressed_content;
  });

  test("a call with protocol_id gets the compressed content as its first system message, byte-identical on every call", async () => {
    for (const q of ["Where is my parcel?", "Can I change my address?"]) {
      const r = await complete(admin.key, { protocol_id: id, compress: true }, q);
      expect(r.status).toBe(200);
      const sent = lastUpstream().messages;
      expect(sent[0]).toEqual({ role: "system", content: compressed });
      expect(sent.at(-1)!.role).toBe("user");
    }
    // The client's own system prompt follows the protocol.
    await call(`${gw.url}/v1/complete`, admin.key, {
      body: {
        model: "gpt-4o-mini",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Hi there, order 1234567890" },
        ],
        svc_options: { protocol_id: id, cache: false },
      },
    });
    expect(lastUpstream().messages.slice(0, 2)).toEqual([
      { role: "system", content: compressed },
      { role: "system", content: "Be brief." },
    ]);
  });

  test("the saving of the protocol's compression is in svc_meta: the original counts the whole protocol", async () => {
    const r = (await (await complete(admin.key, { protocol_id: id, compress: false })).json()) as any;
    expect(r.svc_meta.original_tokens).toBeGreaterThan(r.svc_meta.compressed_tokens);
    expect(r.svc_meta.saved_usd).toBeGreaterThan(0);
  });

  test("another app's protocol is 404 NOT_FOUND everywhere, and an unknown id too", async () => {
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { content: "x" }],
      ["DELETE", undefined],
    ] as const) {
      const r = await api(`/api/protocols/${id}`, other.key, { method, body });
      expect(r.status).toBe(404);
      expect(((await r.json()) as any).error.code).toBe("NOT_FOUND");
    }
    expect(((await (await api("/api/protocols", other.key)).json()) as any).data).toEqual([]);
    for (const [key, pid] of [
      [other.key, id],
      [admin.key, "proto_doesnotexist"],
    ] as const) {
      const before = openai.requests.length;
      const r = await complete(key, { protocol_id: pid });
      expect(r.status).toBe(404);
      expect(((await r.json()) as any).error.code).toBe("NOT_FOUND");
      expect(openai.requests.length).toBe(before);
    }
  });

  test("changing needs the admin scope; bad bodies are 400 naming the field", async () => {
    expect((await api("/api/protocols", reader.key, { body: { name: "x", content: "y" } })).status).toBe(403);
    expect((await api(`/api/protocols/${id}`, reader.key, { method: "PUT", body: { content: "y" } })).status).toBe(403);
    expect((await api(`/api/protocols/${id}`, reader.key, { method: "DELETE" })).status).toBe(403);
    for (const body of [{ name: "x" }, { name: "", content: "y" }, { name: "x", content: "y", extra: 1 }, [1]]) {
      const r = await api("/api/protocols", admin.key, { body });
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).error.code).toBe("VALIDATION_ERROR");
    }
  });

  test("PUT makes a new version; calls use it at once", async () => {
    const r = await api(`/api/protocols/${id}`, admin.key, { method: "PUT", body: { content: CONTENT + " Always sign as Acme Support." } });
    expect(r.status).toBe(200);
    const p = (await r.json()) as any;
    expect(p.version).toBe(2);
    expect(p.compressed_content).toContain("Acme Support");
    await complete(admin.key, { protocol_id: id });
    expect(lastUpstream().messages[0]!.content).toBe(p.compressed_content);
    compressed = p.compressed_content;
  });

  test("after a restart the stored compressed form goes out byte-identical", async () => {
    await gw.stop();
    gw = await startGateway(env, { dataDir });
    await waitForKey(gw.url, admin.key);
    await complete(admin.key, { protocol_id: id, compress: true }, "Is the shop open on Sunday?");
    expect(lastUpstream().messages[0]).toEqual({ role: "system", content: compressed });
  }, 90_000);

  test("DELETE removes it: later reads and calls are 404", async () => {
    const r = await api(`/api/protocols/${id}`, admin.key, { method: "DELETE" });
    expect(r.status).toBe(200);
    expect((await api(`/api/protocols/${id}`, admin.key)).status).toBe(404);
    expect((await complete(admin.key, { protocol_id: id })).status).toBe(404);
  });
});
