import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { loadSettings } from "../../src/config/config";
import { generateKey } from "../../src/auth/key-format";
import { closeServices, startServices } from "../../src/gateway";
import { buildApp } from "../../src/http/app";
import type { Services } from "../../src/pipeline/services";
import type { OptimizeInput } from "../../src/pipeline/optimize-types";
import { startOpenAIMock } from "../mocks/openai-mock";

/**
 * Work once per message without a conversation_id (issue 28): a client resending its whole history has
 * each earlier message optimized once; later calls send the earlier messages in the form they went
 * upstream before, byte for byte, and the optimizer sees only the new ones. In process, in front of an
 * OpenAI-format mock.
 */
type Msg = { role: string; content: string };
const openai = startOpenAIMock({ apiKey: "sk-mock" });
let dir: string;
let services: Services;
let app: ReturnType<typeof buildApp>;
const admin = generateKey("live");
const optimized: Msg[][] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-convo-memo-"));
  const env = { SVC_DATA_DIR: dir, SVC_WORKERS: "0", SVC_BOOTSTRAP_ADMIN_KEY: admin, OPENAI_API_KEY: "sk-mock", OPENAI_BASE_URL: `${openai.url}/v1` };
  services = await startServices(loadSettings(env), pino({ level: "silent" }), env);
  // What the optimizer is asked to work on, call by call.
  const run = services.optimizer.run.bind(services.optimizer);
  services.optimizer.run = (input: OptimizeInput, signal?: AbortSignal) => {
    optimized.push(input.messages.map((m) => ({ role: m.role, content: m.content })));
    return run(input, signal);
  };
  app = buildApp(services);
}, 60_000);

afterAll(async () => {
  await closeServices(services);
  openai.stop();
  rmSync(dir, { recursive: true, force: true });
});

const OPTS = { cache: false, route: false, compress: true };
async function complete(messages: Msg[], extra: Record<string, unknown> = {}, key = admin) {
  const res = await app.handle(
    new Request("http://svc.local/v1/complete", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages, svc_options: { ...OPTS, ...extra } }),
    }),
  );
  expect(res.status).toBe(200);
  const body = (await res.json()) as any;
  return { body, answer: body.choices[0].message.content as string, sent: (openai.requests.at(-1)!.body as { messages: Msg[] }).messages };
}

// Chatty turns the compression rules shorten (social sentences go whole).
const SYSTEM = "You are a helpful assistant. Please always be polite. Thank you so much for your help!";
const ask = (topic: string) =>
  `Hello! I hope you're doing well today. Could you please write a haiku about ${topic}? Thank you so much, I really appreciate it!`;

describe("per-message memo without a conversation", () => {
  test("a resent history goes upstream as it was sent before, and the optimizer sees only the new message", async () => {
    const first = await complete([
      { role: "system", content: SYSTEM },
      { role: "user", content: ask("the sea") },
    ]);
    // The compression changed the first question: what the memo keeps is its compressed form.
    expect(first.sent[1]!.content).not.toBe(ask("the sea"));
    const history = [
      { role: "system", content: SYSTEM },
      { role: "user", content: ask("the sea") },
      { role: "assistant", content: first.answer },
    ];
    const second = await complete([...history, { role: "user", content: ask("the mountains") }]);
    expect(second.sent.slice(0, 2)).toEqual(first.sent);
    expect(second.sent[2]).toEqual({ role: "assistant", content: first.answer });
    expect(optimized.at(-1)).toEqual([{ role: "user", content: ask("the mountains") }]);
    // The whole prompt is still accounted: its original size and the stable prefix it sent.
    expect(second.body.svc_meta.original_tokens).toBeGreaterThan(second.body.svc_meta.compressed_tokens);
    expect(second.body.svc_meta.prompt_cache.prefix_tokens).toBeGreaterThan(0);

    const third = await complete([
      ...history,
      { role: "user", content: ask("the mountains") },
      { role: "assistant", content: second.answer },
      { role: "user", content: ask("rivers") },
    ]);
    expect(third.sent.slice(0, 4)).toEqual(second.sent);
    expect(optimized.at(-1)).toEqual([{ role: "user", content: ask("rivers") }]);
  });

  test("an edited message ends the reused prefix there: it and what follows are optimized again", async () => {
    const base = [
      { role: "system", content: SYSTEM },
      { role: "user", content: ask("clouds") },
    ];
    const first = await complete(base);
    const edited = await complete([
      { role: "system", content: SYSTEM },
      { role: "user", content: ask("clouds") },
      { role: "assistant", content: `${first.answer} (edited)` },
      { role: "user", content: ask("rain") },
    ]);
    expect(edited.sent.slice(0, 2)).toEqual(first.sent);
    expect(optimized.at(-1)!.map((m) => m.role)).toEqual(["assistant", "user"]);
  });

  test("other compression settings, another app, or compression off reuse nothing", async () => {
    const history = [
      { role: "system", content: SYSTEM },
      { role: "user", content: ask("snow") },
    ];
    const first = await complete(history);
    const next = [...history, { role: "assistant", content: first.answer }, { role: "user", content: ask("ice") }];
    await complete(next, { max_aggressiveness: 0.9 });
    expect(optimized.at(-1)).toHaveLength(4);
    // Scoped per app: the same messages under another app_id find nothing.
    const scope = { aggressiveness: 0.5, skipRules: [] as string[] };
    expect(services.messageMemo.prefix({ appId: "default", ...scope }, next as never)?.count).toBe(3);
    expect(services.messageMemo.prefix({ appId: "app-b", ...scope }, next as never)).toBeUndefined();
    const off = await complete(next, { compress: false });
    expect(off.sent.map((m) => m.content)).toEqual(next.map((m) => m.content));
  });

  test("with a conversation_id the conversation stage decides, not the memo", async () => {
    const before = services.messageMemo.size;
    await complete([{ role: "user", content: ask("the desert") }], { conversation_id: "memo-conv" });
    expect(services.messageMemo.size).toBe(before);
  });
});
