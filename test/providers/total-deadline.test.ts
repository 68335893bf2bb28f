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
import { startOpenAIMock } from "../mocks/openai-mock";
import { startAnthropicMock } from "../mocks/anthropic-mock";
import { KEY, mockForFile, thrown } from "./fixtures";

// Issue 23, items 6 and 9: one deadline per call over every attempt and the whole of a stream, and a
// cap on the size of an answer. The per-attempt timeout (2 s here) is far above the call's deadline.
const catalog = Catalog.load();
const openai = mockForFile(startOpenAIMock({ apiKey: KEY }));
const anthropic = mockForFile(startAnthropicMock({ apiKey: KEY }));
const registry = () =>
  buildProviders({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${openai.url}/v1`, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: anthropic.url }, catalog);
const POLICY: CallPolicy = { ...DEFAULT_CALL_POLICY, retries: 2, backoffBaseMs: 5, timeoutMs: 2_000, maxRetryAfterMs: 1_000, totalMs: 300 };

function request(models: string[]): UpstreamRequest {
  return {
    candidates: models.map((m) => catalog.resolve(m)),
    messages: [{ role: "user", content: "Name three rivers in Europe please, with their lengths." }],
    max_tokens: 50,
    params: {},
    signal: new AbortController().signal,
  };
}

describe("the call's one deadline", () => {
  test("a hung provider gets one attempt, not a retry or a fallback after the deadline", async () => {
    openai.hang = true;
    anthropic.hang = true;
    const e = await thrown(() => completeWithFallback(registry(), request(["gpt-4o-mini", "claude-3-haiku"]), POLICY));
    expect(e).toBeInstanceOf(UpstreamFailure);
    expect((e as UpstreamFailure).code).toBe("UPSTREAM_TIMEOUT");
    expect(e.message).toContain("deadline of 300 ms");
    // Before: 3 attempts of 2 s on each of the two models.
    expect(openai.requests.length + anthropic.requests.length).toBe(1);
  });

  test("a stream that trickles is ended at the deadline with UPSTREAM_TIMEOUT", async () => {
    openai.chunkDelayMs = 100;
    const r = await streamWithFallback(registry(), request(["gpt-4o-mini"]), POLICY);
    let events = 0;
    const e = await thrown(async () => {
      for await (const _ of r.events) events++;
    });
    expect((e as UpstreamFailure).code).toBe("UPSTREAM_TIMEOUT");
    // The mock had more to send: the stream was cut, not finished.
    expect(openai.requests[0]!.finishedAt).toBeUndefined();
    expect(events).toBeGreaterThan(0);
  });
});

describe("the answer's size cap", () => {
  test("a JSON answer past the cap is a 502, not memory", async () => {
    const e = await thrown(() => completeWithFallback(registry(), request(["gpt-4o-mini"]), { ...POLICY, totalMs: 5_000, maxAnswerBytes: 100 }));
    expect((e as UpstreamFailure).code).toBe("UPSTREAM_ERROR");
    expect(e.message).toContain("larger than 100 bytes");
  });

  test("a stream past the cap ends with an error", async () => {
    const r = await streamWithFallback(registry(), request(["gpt-4o-mini"]), { ...POLICY, totalMs: 5_000, maxAnswerBytes: 400 });
    const e = await thrown(async () => {
      for await (const _ of r.events);
    });
    expect((e as UpstreamFailure).code).toBe("UPSTREAM_ERROR");
    expect(e.message).toContain("larger than 400 bytes");
  });
});
