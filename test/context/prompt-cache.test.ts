import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import models from "../../src/catalog/models.json";
import { startOpenAIMock } from "../mocks/openai-mock";
import { startAnthropicMock } from "../mocks/anthropic-mock";
import { startGeminiMock } from "../mocks/gemini-mock";
import type { MockProvider } from "../mocks/mock-server";
import { call, startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { readSse, waitForKey } from "../completions/support";

// About 1,300 words of distinct, terse rules: long enough for every provider's prompt cache, and little for compression to take.
const LONG = Array.from({ length: 130 }, (_, i) => `Rule ${i + 1}: ticket class K${i * 7} goes to queue Q${i % 9} within ${i + 2} hours.`).join("\n");
const SHORT = "Answer in one sentence. Cite the ticket number.";

const openai = startOpenAIMock({ apiKey: "k" });
const anthropic = startAnthropicMock({ apiKey: "k" });
const gemini = startGeminiMock({ apiKey: "k" });
let gw: GatewayProcess;
let admin: KeyCreated;
let longId: string;
let shortId: string;

beforeAll(async () => {
  gw = await startGateway({
    OPENAI_API_KEY: "k",
    OPENAI_BASE_URL: `${openai.url}/v1`,
    ANTHROPIC_API_KEY: "k",
    ANTHROPIC_BASE_URL: anthropic.url,
    GEMINI_API_KEY: "k",
    GEMINI_BASE_URL: gemini.url,
  });
  admin = await gw.cliKey(["--admin"]);
  await waitForKey(gw.url, admin.key);
  const reg = async (content: string) =>
    ((await (await call(`${gw.url}/api/protocols`, admin.key, { body: { name: "p", content } })).json()) as any).id as string;
  longId = await reg(LONG);
  shortId = await reg(SHORT);
}, 60_000);
afterAll(async () => {
  await gw.stop();
  for (const m of [openai, anthropic, gemini]) m.stop();
});

const priceOf = (id: string) =>
  models.models.find((m) => m.id === id)! as {
    input_usd_per_mtok: number;
    output_usd_per_mtok: number;
    cached_input_usd_per_mtok?: number;
    cache_write_usd_per_mtok?: number;
  };

async function ask(model: string, conv: string, content: string, stream: boolean, protocol = longId) {
  const body = {
    model,
    stream,
    ...(stream && { stream_options: { include_usage: true } }),
    messages: [{ role: "user", content }],
    svc_options: { cache: false, route: false, compress: false, protocol_id: protocol, conversation_id: conv },
  };
  const r = await call(`${gw.url}/v1/complete`, admin.key, { body });
  expect(r.status).toBe(200);
  if (!stream) return (await r.json()) as any;
  const chunks = (await readSse(r)).slice(0, -1).map((f) => JSON.parse(f));
  return chunks.at(-1);
}

const CASES: [string, string, MockProvider][] = [
  ["OpenAI", "gpt-4o-mini-2024-07-18", openai],
  ["Anthropic", "claude-3-5-sonnet-20241022", anthropic],
  ["Gemini", "gemini-1.5-flash-002", gemini],
];

describe("costs with the provider's prompt cache", () => {
  for (const [name, model, mock] of CASES) {
    for (const stream of [false, true]) {
      test(`${name}, ${stream ? "streamed" : "plain"}: cost_actual_usd prices the reported cached (and written) tokens; the sources add up to saved_usd`, async () => {
        const conv = `pc-${name}-${stream}`;
        const turns = [];
        for (const q of ["Ticket 4411 is about billing, where does it go?", "And ticket 4412, a login problem?", "What about ticket 4413?"])
          turns.push(await ask(model, conv, q, stream));
        const last = turns.at(-1)!;
        const reply = mock.replies.at(-1)!;
        // The second and later turns start with what the one before sent: the provider read it from its cache.
        expect(reply.cachedTokens).toBeGreaterThan(1000);
        const p = priceOf(model);
        const uncached = reply.promptTokens - reply.cachedTokens - reply.cacheWriteTokens;
        const expected =
          (uncached * p.input_usd_per_mtok +
            reply.cachedTokens * (p.cached_input_usd_per_mtok ?? p.input_usd_per_mtok) +
            reply.cacheWriteTokens * (p.cache_write_usd_per_mtok ?? p.input_usd_per_mtok) +
            reply.completionTokens * p.output_usd_per_mtok) /
          1e6;
        expect(last.usage.prompt_tokens).toBe(reply.promptTokens);
        expect(last.usage.prompt_tokens_details).toEqual({ cached_tokens: reply.cachedTokens });
        expect(last.svc_meta.cost_actual_usd).toBeCloseTo(expected, 9);
        // At the full input price it would cost more: the discount is the prompt cache's saving.
        const full = (reply.promptTokens * p.input_usd_per_mtok + reply.completionTokens * p.output_usd_per_mtok) / 1e6;
        expect(last.svc_meta.saved_by_source.prompt_cache).toBeCloseTo(full - expected, 9);
        const s = last.svc_meta.saved_by_source;
        expect(s.compression + s.routing + s.cache + s.prompt_cache + s.conversation).toBeCloseTo(last.svc_meta.saved_usd, 9);
        expect(last.svc_meta.prompt_cache).toMatchObject({ below_minimum: name === "Gemini" });
      });
    }
  }

  test("Anthropic: breakpoints on the protocol/system block and on the last message; the first call writes, the next reads", async () => {
    const before = anthropic.requests.length;
    await ask("claude-3-5-sonnet-20241022", "pc-bp", "Ticket 9001, a refund request?", false);
    const first = anthropic.replies.at(-1)!;
    await ask("claude-3-5-sonnet-20241022", "pc-bp", "And ticket 9002?", false);
    const second = anthropic.replies.at(-1)!;
    const body = anthropic.requests[before + 1]!.body as any;
    expect(Array.isArray(body.system)).toBe(true);
    expect(body.system.at(-1).cache_control).toEqual({ type: "ephemeral" });
    expect(body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: "ephemeral" });
    const marks = JSON.stringify(body).match(/cache_control/g)!.length;
    expect(marks).toBeLessThanOrEqual(4);
    expect(first.cacheWriteTokens).toBeGreaterThan(0);
    expect(second.cachedTokens).toBeGreaterThanOrEqual(first.promptTokens - 7);
  });

  test("a call without a protocol or conversation is sent as before: no breakpoints", async () => {
    const before = anthropic.requests.length;
    await call(`${gw.url}/v1/complete`, admin.key, {
      body: {
        model: "claude-3-5-sonnet-20241022",
        messages: [
          { role: "system", content: SHORT },
          { role: "user", content: "hello" },
        ],
        svc_options: { cache: false },
      },
    });
    const body = anthropic.requests[before]!.body as any;
    expect(typeof body.system).toBe("string");
    expect(JSON.stringify(body)).not.toContain("cache_control");
  });

  test("svc_meta says when the stable prefix is below the provider's minimum for caching", async () => {
    const short = await ask("gpt-4o-mini-2024-07-18", "pc-short", "Ticket 1?", false, shortId);
    expect(short.svc_meta.prompt_cache).toMatchObject({ min_tokens: 1024, below_minimum: true });
    expect(short.svc_meta.prompt_cache.prefix_tokens).toBeLessThan(1024);
    const long = await ask("gpt-4o-mini-2024-07-18", "pc-long", "Ticket 1?", false);
    expect(long.svc_meta.prompt_cache).toMatchObject({ min_tokens: 1024, below_minimum: false });
    const haiku = await ask("claude-3-haiku-20240307", "pc-haiku", "Ticket 1?", false);
    expect(haiku.svc_meta.prompt_cache.min_tokens).toBe(2048);
  });
});
