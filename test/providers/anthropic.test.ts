import { describe, expect, test } from "bun:test";
import { AnthropicProvider } from "../../src/providers/anthropic/provider";
import { AnthropicStreamMapper } from "../../src/providers/anthropic/stream";
import { ProviderError } from "../../src/providers/types";
import { startAnthropicMock } from "../mocks/anthropic-mock";
import { collect, KEY, mockForFile, providerRequest, thrown, WEATHER_TOOL } from "./fixtures";

const mock = mockForFile(startAnthropicMock({ apiKey: KEY }));
const provider = new AnthropicProvider({ apiKey: KEY, baseUrl: mock.url });
const MODEL = "claude-3-haiku-20240307";

describe("Anthropic adapter", () => {
  test("sends a Messages request: system on top, same-role turns merged, tools and params mapped", async () => {
    await provider.complete(
      providerRequest(MODEL, {
        messages: [
          { role: "system", content: "Be brief." },
          { role: "developer", content: "Answer in French." },
          { role: "user", content: "Hello." },
          { role: "user", content: "Weather in Paris?" },
          {
            role: "assistant",
            content: "",
            tool_calls: [{ id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
          },
          { role: "tool", tool_call_id: "toolu_1", content: "18C, sunny" },
          { role: "user", content: "And tomorrow?" },
        ],
        params: {
          temperature: 1.4,
          top_p: 0.8,
          stop: "END",
          user: "user-9",
          seed: 3,
          tools: [WEATHER_TOOL],
          tool_choice: { type: "function", function: { name: "get_weather" } },
        },
      }),
    );
    const seen = mock.requests.at(-1)!;
    expect(seen.path).toBe("/v1/messages");
    expect(seen.headers["x-api-key"]).toBe(KEY);
    expect(seen.headers["anthropic-version"]).toBe("2023-06-01");
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.body).toEqual({
      model: MODEL,
      max_tokens: 64,
      system: "Be brief.\n\nAnswer in French.",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Hello." },
            { type: "text", text: "Weather in Paris?" },
          ],
        },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: "18C, sunny" },
            { type: "text", text: "And tomorrow?" },
          ],
        },
      ],
      temperature: 1,
      top_p: 0.8,
      stop_sequences: ["END"],
      metadata: { user_id: "user-9" },
      tools: [{ name: "get_weather", description: "Current weather", input_schema: WEATHER_TOOL.function.parameters }],
      tool_choice: { type: "tool", name: "get_weather" },
    });
  });

  test("maps text, usage and each stop reason", async () => {
    const cases: [string, string][] = [
      ["end_turn", "stop"],
      ["stop_sequence", "stop"],
      ["max_tokens", "length"],
    ];
    for (const [stop, finish] of cases) {
      mock.stopReason = stop;
      const res = await provider.complete(providerRequest(MODEL));
      const reply = mock.replies.at(-1)!;
      expect(res).toEqual({
        choices: [{ index: 0, message: { role: "assistant", content: reply.text }, finish_reason: finish as "stop" }],
        usage: {
          prompt_tokens: reply.promptTokens,
          completion_tokens: reply.completionTokens,
          cached_tokens: reply.cachedTokens,
          cache_write_tokens: reply.cacheWriteTokens,
        },
      });
    }
  });

  test("maps tool_use blocks to tool_calls, plain and streamed (input_json_delta)", async () => {
    mock.toolCall = { id: "toolu_9", name: "get_weather", arguments: { city: "Lyon" } };
    const req = providerRequest(MODEL, { params: { tools: [WEATHER_TOOL] } });
    const res = await provider.complete(req);
    expect(res.choices[0]!.finish_reason).toBe("tool_calls");
    expect(res.choices[0]!.message.tool_calls).toEqual([{ id: "toolu_9", type: "function", function: { name: "get_weather", arguments: '{"city":"Lyon"}' } }]);
    const out = await collect(provider.stream(req));
    const calls = out.deltas.flatMap(
      (d) => (d.delta.tool_calls ?? []) as { index: number; id?: string; type?: string; function: { name?: string; arguments: string } }[],
    );
    expect(calls[0]).toEqual({ index: 0, id: "toolu_9", type: "function", function: { name: "get_weather", arguments: "" } });
    expect(calls.every((c) => c.index === 0)).toBe(true);
    expect(calls.map((c) => c.function.arguments).join("")).toBe('{"city":"Lyon"}');
    expect(out.deltas.at(-1)!.finish_reason).toBe("tool_calls");
  });

  test("streams message events as OpenAI deltas with usage from message_start and message_delta", async () => {
    const out = await collect(provider.stream(providerRequest(MODEL)));
    const reply = mock.replies.at(-1)!;
    expect((mock.requests.at(-1)!.body as { stream: boolean }).stream).toBe(true);
    expect(out.deltas[0]!.delta).toEqual({ role: "assistant" });
    expect(out.text).toBe(reply.text);
    expect(out.deltas.at(-1)!.finish_reason).toBe("stop");
    expect(out.usage).toEqual({
      prompt_tokens: reply.promptTokens,
      completion_tokens: reply.completionTokens,
      cached_tokens: reply.cachedTokens,
      cache_write_tokens: reply.cacheWriteTokens,
    });
  });

  test("n > 1 is refused before any call, with a clear reason", async () => {
    const before = mock.requests.length;
    const err = await thrown(() => provider.complete(providerRequest(MODEL, { params: { n: 3 } })));
    expect(err).toMatchObject({ kind: "unsupported", retryable: false });
    expect(err.message).toContain("n=3 is not supported");
    expect(mock.requests.length).toBe(before);
  });

  test("HTTP errors keep status, Retry-After and the provider's message, never the key", async () => {
    mock.failNext(1, 529);
    expect(await thrown(() => provider.complete(providerRequest(MODEL)))).toMatchObject({ kind: "http", status: 529, retryable: true });
    mock.failNext(1, 429, "3");
    expect(await thrown(() => provider.complete(providerRequest(MODEL)))).toMatchObject({ status: 429, retryAfterMs: 3000 });
    const bad = new AnthropicProvider({ apiKey: "sk-ant-wrong-0000", baseUrl: mock.url });
    const err = await thrown(() => bad.complete(providerRequest(MODEL)));
    expect(err).toMatchObject({ kind: "http", status: 401, retryable: false });
    expect(err.message).not.toContain("sk-ant-wrong-0000");
  });

  test("an error event mid-stream becomes a ProviderError with the status its type implies", () => {
    const mapper = new AnthropicStreamMapper();
    const err = (() => {
      try {
        mapper.map({ event: "error", data: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }) });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: "http", status: 529 });
    expect((err as Error).message).toContain("Overloaded");
  });
});
