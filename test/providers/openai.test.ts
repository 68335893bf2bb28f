import { describe, expect, test } from "bun:test";
import { OpenAIProvider } from "../../src/providers/openai/provider";
import { createOpenAICompatibleProvider } from "../../src/providers/openai-compatible/provider";
import { ProviderError } from "../../src/providers/types";
import { startOpenAIMock } from "../mocks/openai-mock";
import { collect, KEY, mockForFile, providerRequest, thrown, WEATHER_TOOL } from "./fixtures";

const mock = mockForFile(startOpenAIMock({ apiKey: KEY }));
const provider = new OpenAIProvider({ name: "openai", baseUrl: `${mock.url}/v1`, apiKey: KEY });

describe("OpenAI adapter", () => {
  test("sends the request as Chat Completions with Bearer auth and every pass-through parameter", async () => {
    const params = {
      temperature: 0.3,
      top_p: 0.9,
      stop: ["\n\n"],
      n: 2,
      user: "u-1",
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      tools: [WEATHER_TOOL],
      tool_choice: "auto",
      response_format: { type: "json_object" },
    };
    const res = await provider.complete(providerRequest("gpt-4o-mini-2024-07-18", { params }));
    const seen = mock.requests.at(-1)!;
    expect(seen.path).toBe("/v1/chat/completions");
    expect(seen.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen.body).toEqual({
      ...params,
      model: "gpt-4o-mini-2024-07-18",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "What is the capital of France?" },
      ],
      max_tokens: 64,
      stream: false,
    });
    expect(res.choices).toHaveLength(2);
    expect(res.choices[0]!.message.content).toBe(mock.replies.at(-1)!.text);
    expect(res.choices[0]!.message.content).toContain("What is the capital of France?");
  });

  test("maps the answer, usage and finish reason", async () => {
    mock.stopReason = "length";
    const res = await provider.complete(providerRequest("gpt-4o-mini-2024-07-18"));
    const reply = mock.replies.at(-1)!;
    expect(res).toEqual({
      choices: [{ index: 0, message: { role: "assistant", content: reply.text, refusal: null }, finish_reason: "length", logprobs: null }],
      usage: { prompt_tokens: reply.promptTokens, completion_tokens: reply.completionTokens },
    });
  });

  test("returns tool calls, plain and streamed", async () => {
    mock.toolCall = { id: "call_1", name: "get_weather", arguments: { city: "Paris" } };
    const req = providerRequest("gpt-4o-mini-2024-07-18", { params: { tools: [WEATHER_TOOL] } });
    const res = await provider.complete(req);
    expect(res.choices[0]!.finish_reason).toBe("tool_calls");
    expect(res.choices[0]!.message.tool_calls).toEqual([{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }]);
    const streamed = await collect(provider.stream(req));
    const args = streamed.deltas.flatMap((d) => (d.delta.tool_calls ?? []) as { function?: { arguments?: string } }[]).map((c) => c.function?.arguments ?? "");
    expect(args.join("")).toBe('{"city":"Paris"}');
    expect(streamed.deltas.at(-1)!.finish_reason).toBe("tool_calls");
  });

  test("streams deltas, asks for usage in the last chunk and reports it", async () => {
    const out = await collect(provider.stream(providerRequest("gpt-4o-mini-2024-07-18", { params: { stream_options: { include_usage: false } } })));
    const seen = mock.requests.at(-1)!.body as { stream: boolean; stream_options: unknown };
    expect(seen.stream).toBe(true);
    expect(seen.stream_options).toEqual({ include_usage: true });
    const reply = mock.replies.at(-1)!;
    expect(out.text).toBe(reply.text);
    expect(out.deltas[0]!.delta.role).toBe("assistant");
    expect(out.deltas.at(-1)!.finish_reason).toBe("stop");
    expect(out.usage).toEqual({ prompt_tokens: reply.promptTokens, completion_tokens: reply.completionTokens });
  });

  test("a rejected key is a non-retryable HTTP error that does not repeat the key", async () => {
    const bad = new OpenAIProvider({ name: "openai", baseUrl: `${mock.url}/v1`, apiKey: "sk-wrong-key-123" });
    const err = await thrown(() => bad.complete(providerRequest("gpt-4o-mini-2024-07-18")));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: "http", status: 401, retryable: false });
    expect(err.message).toContain("openai answered HTTP 401: invalid api key: [redacted]");
    expect(err.message).not.toContain("sk-wrong-key-123");
  });

  test("a 429 carries its Retry-After", async () => {
    mock.failNext(1, 429, "2");
    const err = await thrown(() => provider.complete(providerRequest("gpt-4o-mini-2024-07-18")));
    expect(err).toMatchObject({ kind: "http", status: 429, retryAfterMs: 2000, retryable: true });
  });

  test("an OpenAI-compatible server is the same adapter with its own name, address and model names", async () => {
    const compat = createOpenAICompatibleProvider({ baseUrl: `${mock.url}/v1`, apiKey: KEY, upstreamModels: { "gpt-4o-mini-2024-07-18": "llama3.1:8b" } });
    expect(compat).toBeInstanceOf(OpenAIProvider);
    expect(compat.name).toBe("openai_compatible");
    await compat.complete(providerRequest("gpt-4o-mini-2024-07-18"));
    expect((mock.requests.at(-1)!.body as { model: string }).model).toBe("llama3.1:8b");
  });
});
