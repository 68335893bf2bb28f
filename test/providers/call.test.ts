import { describe, expect, test } from "bun:test";
import { Catalog } from "../../src/catalog/catalog";
import { backoffDelay } from "../../src/providers/backoff";
import {
  DEFAULT_CALL_POLICY,
  completeWithFallback,
  streamWithFallback,
  UpstreamFailure,
  type CallPolicy,
  type UpstreamRequest,
} from "../../src/providers/call";
import { buildProviders } from "../../src/providers/registry";
import { parseRetryAfter } from "../../src/providers/shared/retry-after";
import { startAnthropicMock } from "../mocks/anthropic-mock";
import { startOpenAIMock } from "../mocks/openai-mock";
import { KEY, mockForFile, thrown } from "./fixtures";

const catalog = Catalog.load();
const openai = mockForFile(startOpenAIMock({ apiKey: KEY }));
const anthropic = mockForFile(startAnthropicMock({ apiKey: KEY }));

const POLICY: CallPolicy = { ...DEFAULT_CALL_POLICY, retries: 2, backoffBaseMs: 5, timeoutMs: 2_000, maxRetryAfterMs: 1_000 };
const HAIKU = "claude-3-haiku-20240307";
const MINI = "gpt-4o-mini-2024-07-18";

function env(): Record<string, string> {
  return { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: anthropic.url, OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${openai.url}/v1` };
}

function request(models: string[], over: Partial<UpstreamRequest> = {}): UpstreamRequest {
  return {
    candidates: models.map((m) => catalog.resolve(m)),
    messages: [{ role: "user", content: "Summarise the plot of Hamlet." }],
    max_tokens: 50,
    params: {},
    signal: new AbortController().signal,
    ...over,
  };
}

describe("retry and fallback policy", () => {
  test("retries at most `retries` times on the same model, then falls back", async () => {
    anthropic.failNext(3, 503);
    const res = await completeWithFallback(buildProviders(env(), catalog), request([HAIKU, MINI]), POLICY);
    expect(res.attempts.map((a) => `${a.model}:${a.status ?? a.outcome}`)).toEqual([`${HAIKU}:503`, `${HAIKU}:503`, `${HAIKU}:503`, `${MINI}:ok`]);
    expect(res.model.id).toBe(MINI);
    expect(res.fallback).toBe(true);
  });

  test("a non-retryable refusal is not retried, but the next candidate is tried", async () => {
    anthropic.failNext(1, 400);
    const res = await completeWithFallback(buildProviders(env(), catalog), request([HAIKU, MINI]), POLICY);
    expect(res.attempts.map((a) => a.status ?? a.outcome)).toEqual([400, "ok"]);
    expect(anthropic.requests).toHaveLength(1);
  });

  test("a Retry-After within the cap is waited out; one beyond it moves on to the next model at once", async () => {
    anthropic.failNext(1, 429, "0.2");
    const waited = await completeWithFallback(buildProviders(env(), catalog), request([HAIKU, MINI]), POLICY);
    expect(waited.model.id).toBe(HAIKU);
    expect(waited.upstreamMs).toBeGreaterThanOrEqual(200);

    anthropic.failNext(1, 429, "30");
    const moved = await completeWithFallback(buildProviders(env(), catalog), request([HAIKU, MINI]), POLICY);
    expect(moved.model.id).toBe(MINI);
    expect(moved.attempts.map((a) => a.status ?? a.outcome)).toEqual([429, "ok"]);
  });

  test("when every candidate fails the caller gets UPSTREAM_ERROR with the attempts", async () => {
    anthropic.failNext(3, 500);
    openai.failNext(3, 502);
    const err = await thrown(() => completeWithFallback(buildProviders(env(), catalog), request([HAIKU, MINI]), POLICY));
    expect(err).toBeInstanceOf(UpstreamFailure);
    expect(err).toMatchObject({ code: "UPSTREAM_ERROR", status: 502 });
    expect((err as UpstreamFailure).attempts).toHaveLength(6);
    expect(err.message).not.toContain(KEY);
  });

  test("no configured provider for any candidate is NO_PROVIDER, without a call", async () => {
    const reg = buildProviders({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${openai.url}/v1` }, catalog);
    const err = await thrown(() => completeWithFallback(reg, request([HAIKU, "gemini-1.5-flash-002"]), POLICY));
    expect(err).toMatchObject({ code: "NO_PROVIDER", status: 503 });
    expect(anthropic.requests).toHaveLength(0);
  });

  test("a request no candidate's wire format can express is a VALIDATION_ERROR; one that can takes over", async () => {
    const onlyAnthropic = buildProviders({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: anthropic.url }, catalog);
    const err = await thrown(() => completeWithFallback(onlyAnthropic, request([HAIKU], { params: { n: 2 } }), POLICY));
    expect(err).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    expect(err.message).toContain("n=2");
    const both = await completeWithFallback(buildProviders(env(), catalog), request([HAIKU, MINI], { params: { n: 2 } }), POLICY);
    expect(both.model.id).toBe(MINI);
    expect(both.response.choices).toHaveLength(2);
  });

  test("aborting during a backoff wait stops at once without another attempt", async () => {
    anthropic.failNext(1, 500);
    const client = new AbortController();
    const pending = completeWithFallback(buildProviders(env(), catalog), request([HAIKU, MINI], { signal: client.signal }), {
      ...POLICY,
      backoffBaseMs: 5_000,
    });
    while (anthropic.requests.length === 0) await Bun.sleep(5);
    await Bun.sleep(20);
    client.abort();
    expect(await thrown(() => pending)).toMatchObject({ kind: "aborted" });
    expect(anthropic.requests).toHaveLength(1);
    expect(openai.requests).toHaveLength(0);
  });

  test("upstreamMs counts the time spent waiting on the provider", async () => {
    openai.latencyMs = 60;
    const res = await completeWithFallback(buildProviders(env(), catalog), request([MINI]), POLICY);
    expect(res.upstreamMs).toBeGreaterThanOrEqual(60);
  });
});

describe("stream timeouts bound silence, not length", () => {
  test("a stream that keeps flowing past the timeout is not cut", async () => {
    openai.chunkDelayMs = 40;
    const res = await streamWithFallback(buildProviders(env(), catalog), request([MINI]), { ...POLICY, timeoutMs: 150 });
    const events = await Array.fromAsync(res.events);
    expect(events.length).toBeGreaterThan(8);
    expect(openai.requests[0]!.finishedAt).toBeNumber();
  });

  test("a stream that goes silent after it started fails with UPSTREAM_TIMEOUT", async () => {
    openai.chunkDelayMs = 1_000;
    const res = await streamWithFallback(buildProviders(env(), catalog), request([MINI, HAIKU]), { ...POLICY, timeoutMs: 150 });
    const err = await thrown(() => Array.fromAsync(res.events));
    expect(err).toMatchObject({ code: "UPSTREAM_TIMEOUT", status: 504 });
    expect(anthropic.requests).toHaveLength(0);
  });
});

describe("health", () => {
  test("a provider failing repeatedly is benched for the cool-down, tried last meanwhile, and comes back after", async () => {
    let now = 1_000_000;
    const reg = buildProviders(env(), catalog, { health: { failureThreshold: 3, cooldownMs: 10_000 }, now: () => now });
    const haiku = catalog.resolve(HAIKU);
    anthropic.failNext(3, 500);
    await completeWithFallback(reg, request([HAIKU, MINI]), POLICY);
    expect(reg.isAvailable(haiku)).toBe(false);
    expect(reg.status().find((s) => s.name === "anthropic")).toMatchObject({ healthy: false, consecutive_failures: 3 });

    const meanwhile = await completeWithFallback(reg, request([HAIKU, MINI]), POLICY);
    expect(meanwhile.model.id).toBe(MINI);
    expect(anthropic.requests).toHaveLength(3);

    now += 10_001;
    expect(reg.isAvailable(haiku)).toBe(true);
    const after = await completeWithFallback(reg, request([HAIKU, MINI]), POLICY);
    expect(after.model.id).toBe(HAIKU);
    expect(reg.status().find((s) => s.name === "anthropic")).toMatchObject({ healthy: true, consecutive_failures: 0 });
  });

  test("a client's bad request does not count against the provider", async () => {
    const reg = buildProviders(env(), catalog, { health: { failureThreshold: 1, cooldownMs: 10_000 } });
    anthropic.failNext(1, 400);
    await completeWithFallback(reg, request([HAIKU, MINI]), POLICY);
    expect(reg.isAvailable(catalog.resolve(HAIKU))).toBe(true);
  });
});

describe("backoff and Retry-After", () => {
  test("backoff doubles per retry within ±50 % jitter and never undercuts Retry-After", () => {
    expect(backoffDelay(0, 100, undefined, 5_000, () => 0)).toBe(50);
    expect(backoffDelay(2, 100, undefined, 5_000, () => 1)).toBe(600);
    expect(backoffDelay(0, 100, 2_000, 5_000, () => 0.5)).toBe(2_000);
    expect(backoffDelay(0, 100, 6_000, 5_000)).toBeUndefined();
  });

  test("Retry-After is read as seconds, as an HTTP date, or from retry-after-ms", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter(new Headers({ "retry-after": "3" }), now)).toBe(3_000);
    expect(parseRetryAfter(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:05 GMT" }), now)).toBe(5_000);
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "250", "retry-after": "1" }), now)).toBe(250);
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
  });
});
