import { describe, expect, test } from "bun:test";
import { Catalog } from "../../src/catalog/catalog";
import {
  DEFAULT_CALL_POLICY,
  completeWithFallback,
  streamWithFallback,
  UpstreamFailure,
  type CallPolicy,
  type UpstreamRequest,
} from "../../src/providers/call";
import { buildProviders } from "../../src/providers/registry";
import { ProviderError } from "../../src/providers/types";
import { startAnthropicMock } from "../mocks/anthropic-mock";
import { startGeminiMock } from "../mocks/gemini-mock";
import type { MockProvider } from "../mocks/mock-server";
import { startOpenAIMock } from "../mocks/openai-mock";
import { deadPort, KEY, mockForFile, thrown } from "./fixtures";

/** Every wire format goes through the same failures, over real HTTP, via the registry and call loop. */
const catalog = Catalog.load();
const mocks = {
  anthropic: mockForFile(startAnthropicMock({ apiKey: KEY })),
  openai: mockForFile(startOpenAIMock({ apiKey: KEY })),
  gemini: mockForFile(startGeminiMock({ apiKey: KEY })),
};

type Name = keyof typeof mocks;
const FORMATS: { name: Name; env: string; model: string; fallback: string; base: (m: MockProvider) => string }[] = [
  { name: "anthropic", env: "ANTHROPIC", model: "claude-3-haiku-20240307", fallback: "gpt-4o-mini-2024-07-18", base: (m) => m.url },
  { name: "openai", env: "OPENAI", model: "gpt-4o-mini-2024-07-18", fallback: "gemini-1.5-flash-002", base: (m) => `${m.url}/v1` },
  { name: "gemini", env: "GEMINI", model: "gemini-1.5-flash-002", fallback: "claude-3-haiku-20240307", base: (m) => m.url },
];

const POLICY: CallPolicy = { ...DEFAULT_CALL_POLICY, retries: 2, backoffBaseMs: 5, timeoutMs: 2_000, maxRetryAfterMs: 1_000 };

function registry(override: Partial<Record<Name, string>> = {}) {
  const env: Record<string, string> = {};
  for (const f of FORMATS) {
    env[`${f.env}_API_KEY`] = KEY;
    env[`${f.env}_BASE_URL`] = override[f.name] ?? f.base(mocks[f.name]);
  }
  return buildProviders(env, catalog);
}

function request(models: string[], signal = new AbortController().signal): UpstreamRequest {
  return {
    candidates: models.map((m) => catalog.resolve(m)),
    messages: [{ role: "user", content: "Name three rivers in Europe." }],
    max_tokens: 50,
    params: {},
    signal,
  };
}

async function until(check: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not reached in time");
    await Bun.sleep(5);
  }
}

describe.each(FORMATS)("$name over HTTP", (f) => {
  const mock = mocks[f.name];

  test("plain call: answer, served model and attempts", async () => {
    const res = await completeWithFallback(registry(), request([f.model]), POLICY);
    expect(res.model.id).toBe(f.model);
    expect(res.fallback).toBe(false);
    expect(res.response.choices[0]!.message.content).toBe(mock.replies[0]!.text);
    expect(res.attempts).toMatchObject([{ model: f.model, provider: f.name, outcome: "ok" }]);
  });

  test.each([false, true])("a 500 then a success is retried on the same model (stream: %p)", async (stream) => {
    mock.failNext(1, 500);
    const reg = registry();
    const text = stream
      ? (await Array.fromAsync((await streamWithFallback(reg, request([f.model]), POLICY)).events))
          .map((e) => (e.kind === "delta" ? (e.delta.delta.content ?? "") : ""))
          .join("")
      : (await completeWithFallback(reg, request([f.model]), POLICY)).response.choices[0]!.message.content;
    expect(text).toBe(mock.replies[0]!.text);
    expect(mock.requests).toHaveLength(2);
  });

  test.each([false, true])("a dead provider (connection refused) falls back to the next candidate (stream: %p)", async (stream) => {
    const reg = registry({ [f.name]: `http://127.0.0.1:${deadPort()}` });
    const res = stream
      ? await streamWithFallback(reg, request([f.model, f.fallback]), POLICY)
      : await completeWithFallback(reg, request([f.model, f.fallback]), POLICY);
    expect(res.model.id).toBe(f.fallback);
    expect(res.fallback).toBe(true);
    expect(res.attempts.map((a) => a.outcome)).toEqual(["connection", "connection", "connection", "ok"]);
    expect(res.attempts[0]!.error).toContain("refused the connection");
    if ("events" in res) await Array.fromAsync(res.events);
  });

  test.each([false, true])("a provider that never answers times out and the upstream request is closed (stream: %p)", async (stream) => {
    mock.hang = true;
    const policy = { ...POLICY, retries: 0, timeoutMs: 150 };
    const reg = registry();
    const err = await thrown(() => (stream ? streamWithFallback(reg, request([f.model]), policy) : completeWithFallback(reg, request([f.model]), policy)));
    expect(err).toBeInstanceOf(UpstreamFailure);
    expect(err).toMatchObject({ code: "UPSTREAM_TIMEOUT", status: 504 });
    expect((err as UpstreamFailure).attempts).toMatchObject([{ outcome: "timeout" }]);
    await until(() => mock.requests[0]?.aborted === true);
  });

  test("a stream cut in the middle ends in an error after the chunks already received, without a retry", async () => {
    mock.cutAfterChunks = 4;
    const res = await streamWithFallback(registry(), request([f.model, f.fallback]), POLICY);
    const received: string[] = [];
    const err = await thrown(async () => {
      for await (const e of res.events) if (e.kind === "delta" && e.delta.delta.content) received.push(e.delta.delta.content);
    });
    expect(received.length).toBeGreaterThan(0);
    expect(mock.replies[0]!.text.startsWith(received.join(""))).toBe(true);
    expect(err).toBeInstanceOf(UpstreamFailure);
    expect(err.message).toContain("stream broke after it had started");
    expect(mock.requests).toHaveLength(1);
    expect(mocks[FORMATS.find((o) => o.model === f.fallback)!.name].requests).toHaveLength(0);
  });

  test("a slow stream hands over its first chunk before the provider has finished", async () => {
    mock.chunkDelayMs = 30;
    const res = await streamWithFallback(registry(), request([f.model]), POLICY);
    const iterator = res.events[Symbol.asyncIterator]();
    await iterator.next();
    expect(mock.requests[0]!.finishedAt).toBeUndefined();
    while (!(await iterator.next()).done);
    expect(mock.requests[0]!.finishedAt).toBeNumber();
  });

  test("the consumer aborting closes the upstream stream and stops everything", async () => {
    mock.chunkDelayMs = 30;
    const client = new AbortController();
    const res = await streamWithFallback(registry(), request([f.model, f.fallback], client.signal), POLICY);
    const iterator = res.events[Symbol.asyncIterator]();
    await iterator.next();
    client.abort();
    const err = await thrown(async () => {
      while (!(await iterator.next()).done);
    });
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: "aborted" });
    await until(() => mock.requests[0]?.aborted === true);
    expect(mock.requests).toHaveLength(1);
  });

  test("the client aborting a plain call that is waiting aborts the upstream request, with no retry", async () => {
    mock.hang = true;
    const client = new AbortController();
    const pending = completeWithFallback(registry(), request([f.model, f.fallback], client.signal), POLICY);
    await until(() => mock.requests.length === 1);
    client.abort();
    expect(await thrown(() => pending)).toMatchObject({ kind: "aborted" });
    await until(() => mock.requests[0]?.aborted === true);
    expect(mock.requests).toHaveLength(1);
  });

  test("sequential calls reuse one keep-alive connection", async () => {
    const reg = registry();
    await completeWithFallback(reg, request([f.model]), POLICY);
    await completeWithFallback(reg, request([f.model]), POLICY);
    expect(mock.requests).toHaveLength(2);
    expect(mock.requests[1]!.remotePort).toBe(mock.requests[0]!.remotePort);
  });
});
