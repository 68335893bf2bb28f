import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { openStore, type SqliteStore } from "../../src/store/db";
import { ResponseStore } from "../../src/pipeline/responses/store";
import { inputItems } from "../../src/pipeline/responses/input-items";
import { startOpenAIMock } from "../mocks/openai-mock";
import { call, startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { readSse, waitForKey } from "../completions/support";

/**
 * Stored responses live in the store (issue 27): a response one gateway process answered is continued,
 * read and deleted on another process on the same store, per app, within a TTL and size bounds.
 */
const dataDir = mkdtempSync(join(tmpdir(), "svc-convo-responses-"));
const openai = startOpenAIMock({ apiKey: "sk-mock" });
const env = { OPENAI_API_KEY: "sk-mock", OPENAI_BASE_URL: `${openai.url}/v1` };
let a: GatewayProcess;
let b: GatewayProcess;
let admin: KeyCreated;
let other: KeyCreated;

beforeAll(async () => {
  [a, b] = await Promise.all([startGateway(env, { dataDir }), startGateway(env, { dataDir })]);
  admin = await a.cliKey(["--admin", "--app", "app-a"]);
  other = await a.cliKey(["--admin", "--app", "app-b"]);
  for (const gw of [a, b]) for (const k of [admin, other]) await waitForKey(gw.url, k.key);
}, 90_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  openai.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const sentMessages = () => (openai.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages;

describe("stored responses across gateway processes", () => {
  test("a response answered by one process is continued on the other (previous_response_id), plain and streamed", async () => {
    const first = await new OpenAI({ baseURL: `${a.url}/v1`, apiKey: admin.key }).responses.create({ model: "gpt-4o-mini", input: "My name is Ada (store 1)" });
    const onB = new OpenAI({ baseURL: `${b.url}/v1`, apiKey: admin.key });
    const second = await onB.responses.create({ model: "gpt-4o-mini", previous_response_id: first.id, input: "What is my name? (store 2)" });
    expect(sentMessages().map((m) => m.content)).toEqual(["My name is Ada (store 1)", first.output_text, "What is my name? (store 2)"]);
    // Streamed on B, continued on A: the row is written before response.completed goes out.
    const events = await readSse(
      await call(`${b.url}/v1/responses`, admin.key, {
        body: { model: "gpt-4o-mini", previous_response_id: second.id, input: "And again? (store 3)", stream: true },
      }),
    );
    // Each frame is "event: <type>\ndata: <json>".
    const data = (f: string) => JSON.parse(f.includes("\ndata: ") ? f.slice(f.indexOf("\ndata: ") + 7) : f) as { type: string; response?: { id: string } };
    const completed = events.map(data).find((e) => e.type === "response.completed")!;
    await new OpenAI({ baseURL: `${a.url}/v1`, apiKey: admin.key }).responses.create({
      model: "gpt-4o-mini",
      previous_response_id: completed.response!.id,
      input: "Last one (store 4)",
    });
    expect(sentMessages()).toHaveLength(7);
    expect(sentMessages().at(-1)!.content).toBe("Last one (store 4)");
  });

  test("GET and DELETE /v1/responses/{id}, per app: another app's id is unknown", async () => {
    const r = await new OpenAI({ baseURL: `${a.url}/v1`, apiKey: admin.key }).responses.create({ model: "gpt-4o-mini", input: "keep me (store 5)" });
    const got = await new OpenAI({ baseURL: `${b.url}/v1`, apiKey: admin.key }).responses.retrieve(r.id);
    expect(got.id).toBe(r.id);
    expect(got.output_text).toBe(r.output_text);
    expect((await call(`${b.url}/v1/responses/${r.id}`, other.key)).status).toBe(404);
    const cont = await call(`${b.url}/v1/responses`, other.key, { body: { model: "gpt-4o-mini", previous_response_id: r.id, input: "x" } });
    expect(cont.status).toBe(400);
    expect((await call(`${b.url}/v1/responses/${r.id}`, other.key, { method: "DELETE" })).status).toBe(404);
    const del = await call(`${b.url}/v1/responses/${r.id}`, admin.key, { method: "DELETE" });
    expect(await del.json()).toEqual({ id: r.id, object: "response", deleted: true });
    expect((await call(`${a.url}/v1/responses/${r.id}`, admin.key)).status).toBe(404);
    const after = await call(`${a.url}/v1/responses`, admin.key, { body: { model: "gpt-4o-mini", previous_response_id: r.id, input: "x" } });
    expect(after.status).toBe(400);
  });

  test("store: false keeps nothing", async () => {
    const r = await new OpenAI({ baseURL: `${a.url}/v1`, apiKey: admin.key }).responses.create({
      model: "gpt-4o-mini",
      input: "forget me (store 6)",
      store: false,
    });
    expect((await call(`${b.url}/v1/responses/${r.id}`, admin.key)).status).toBe(404);
  });

  test("an item_reference to an output item stored by the other process", async () => {
    const r = await new OpenAI({ baseURL: `${a.url}/v1`, apiKey: admin.key }).responses.create({ model: "gpt-4o-mini", input: "say something (store 7)" });
    const itemId = r.output[0]!.id!;
    const res = await call(`${b.url}/v1/responses`, admin.key, {
      body: {
        model: "gpt-4o-mini",
        input: [
          { role: "user", content: "say something (store 7)" },
          { type: "item_reference", id: itemId },
          { role: "user", content: "more (store 8)" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(sentMessages()[1]).toMatchObject({ role: "assistant", content: r.output_text });
  });
});

describe("GET /v1/responses/{id}/input_items", () => {
  test("the openai client lists a continued response's inputs on the other process, newest first, page by page", async () => {
    const onA = new OpenAI({ baseURL: `${a.url}/v1`, apiKey: admin.key });
    const first = await onA.responses.create({ model: "gpt-4o-mini", input: "My name is Grace (items 1)" });
    const second = await onA.responses.create({ model: "gpt-4o-mini", previous_response_id: first.id, input: "What is my name? (items 2)" });
    const onB = new OpenAI({ baseURL: `${b.url}/v1`, apiKey: admin.key });
    const texts = (items: { content?: { text?: string }[] }[]) => items.map((i) => i.content?.[0]?.text);
    const page = await onB.responses.inputItems.list(second.id);
    expect(texts(page.data as never)).toEqual(["What is my name? (items 2)", first.output_text, "My name is Grace (items 1)"]);
    expect(page.data.map((i) => (i as { role: string }).role)).toEqual(["user", "assistant", "user"]);
    expect(page.has_more).toBe(false);
    // Pages of one, followed by the client's cursor (after=last_id), come back in the same order.
    const all: unknown[] = [];
    for await (const item of onB.responses.inputItems.list(second.id, { limit: 1, order: "asc" })) all.push(item);
    expect(texts(all as never)).toEqual(["My name is Grace (items 1)", first.output_text, "What is my name? (items 2)"]);
    const asc = (await (await call(`${b.url}/v1/responses/${second.id}/input_items?order=asc&limit=2`, admin.key)).json()) as {
      data: { id: string }[];
      has_more: boolean;
    };
    expect(asc.has_more).toBe(true);
    const before = (await (await call(`${b.url}/v1/responses/${second.id}/input_items?order=asc&before=${asc.data[1]!.id}`, admin.key)).json()) as {
      data: { id: string }[];
    };
    expect(before.data.map((i) => i.id)).toEqual([asc.data[0]!.id]);
  });

  test("another app's response is 404; a bad limit, order or cursor is 400", async () => {
    const r = await new OpenAI({ baseURL: `${a.url}/v1`, apiKey: admin.key }).responses.create({ model: "gpt-4o-mini", input: "mine (items 3)" });
    expect((await call(`${b.url}/v1/responses/${r.id}/input_items`, other.key)).status).toBe(404);
    for (const q of ["limit=0", "limit=101", "limit=x", "order=up", "after=msg_nope"]) {
      const res = await call(`${b.url}/v1/responses/${r.id}/input_items?${q}`, admin.key);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("VALIDATION_ERROR");
    }
  });

  test("tool calls and their results come back as function_call and function_call_output items", () => {
    const items = inputItems("resp_x", [
      { role: "user", content: [{ type: "text", text: "weather?" }] },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] },
      { role: "tool", tool_call_id: "call_1", content: "4 C" },
      { role: "assistant", content: "It is 4 C in Oslo." },
    ]);
    expect(items.map((i) => i.type)).toEqual(["message", "function_call", "function_call_output"]);
    expect(items[0]).toMatchObject({ role: "user", content: [{ type: "input_text", text: "weather?" }] });
    expect(items[1]).toMatchObject({ call_id: "call_1", name: "weather", arguments: '{"city":"Oslo"}' });
    expect(items[2]).toMatchObject({ call_id: "call_1", output: "4 C" });
    expect(new Set(items.map((i) => i.id)).size).toBe(3);
  });
});

describe("ResponseStore bounds", () => {
  let dir: string;
  let store: SqliteStore;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-convo-rstore-"));
    store = openStore(dir);
  });
  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const response = (id: string, text = "hi") => ({
    id,
    object: "response",
    output: [{ type: "message", id: `msg_${id}`, content: [{ type: "output_text", text }] }],
  });

  test("a response is found until its TTL, not after", async () => {
    const s = new ResponseStore(store.db, { ttlMs: 1000, maxPerApp: 100, maxBytes: 10_000 });
    await s.set("app", "resp_ttl", [{ role: "user", content: "q" }], response("resp_ttl"), 10_000);
    expect(await s.messages("app", "resp_ttl", 10_999)).toEqual([{ role: "user", content: "q" }]);
    expect((await s.items("app", ["msg_resp_ttl"], 10_999)).size).toBe(1);
    expect(await s.messages("app", "resp_ttl", 11_000)).toBeUndefined();
    expect(await s.response("app", "resp_ttl", 11_000)).toBeUndefined();
    expect((await s.items("app", ["msg_resp_ttl"], 11_000)).size).toBe(0);
    await s.trim("app", 11_001);
    expect(store.sqlite.query("SELECT count(*) AS n FROM stored_responses WHERE id = 'resp_ttl'").get()).toEqual({ n: 0 });
  });

  test("an app keeps at most maxPerApp responses, oldest out; other apps untouched", async () => {
    const s = new ResponseStore(store.db, { ttlMs: 1e9, maxPerApp: 3, maxBytes: 10_000 });
    await s.set("other", "resp_o", [], response("resp_o"), 1);
    for (let i = 0; i < 5; i++) await s.set("bounded", `resp_${i}`, [], response(`resp_${i}`), 100 + i);
    await s.trim("bounded", 200);
    const ids = store.sqlite.query("SELECT id FROM stored_responses WHERE app_id = 'bounded' ORDER BY id").all();
    expect(ids).toEqual([{ id: "resp_2" }, { id: "resp_3" }, { id: "resp_4" }]);
    expect(store.sqlite.query("SELECT count(*) AS n FROM stored_response_items WHERE app_id = 'bounded'").get()).toEqual({ n: 3 });
    expect(await s.response("other", "resp_o", 200)).toBeDefined();
  });

  test("a response over maxBytes is not stored", async () => {
    const s = new ResponseStore(store.db, { ttlMs: 1e9, maxPerApp: 100, maxBytes: 2000 });
    expect(await s.set("app", "resp_big", [{ role: "user", content: "x".repeat(3000) }], response("resp_big"), 1)).toBe(false);
    expect(await s.messages("app", "resp_big", 2)).toBeUndefined();
  });
});
