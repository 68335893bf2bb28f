import { describe, expect, test } from "bun:test";
import { GeminiProvider } from "../../src/providers/gemini/provider";
import { collect, KEY, mockForFile, providerRequest, thrown, WEATHER_TOOL } from "./fixtures";
import { startGeminiMock } from "../mocks/gemini-mock";

const mock = mockForFile(startGeminiMock({ apiKey: KEY }));
const provider = new GeminiProvider({ apiKey: KEY, baseUrl: mock.url });
const MODEL = "gemini-1.5-flash-002";

describe("Gemini adapter", () => {
  test("sends generateContent with the key in a header, system as systemInstruction, user/model roles and generationConfig", async () => {
    await provider.complete(
      providerRequest(MODEL, {
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Hi." },
          { role: "user", content: "Weather in Paris?" },
          { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
          { role: "tool", tool_call_id: "c1", content: "18C" },
          { role: "assistant", content: "It is 18C." },
          { role: "user", content: "Thanks" },
        ],
        params: {
          temperature: 0.2,
          top_p: 0.7,
          stop: ["END"],
          n: 2,
          seed: 5,
          presence_penalty: 0.1,
          response_format: { type: "json_object" },
          tools: [WEATHER_TOOL],
          tool_choice: "required",
        },
      }),
    );
    const seen = mock.requests.at(-1)!;
    expect(seen.path).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(seen.headers["x-goog-api-key"]).toBe(KEY);
    expect(seen.body).toEqual({
      contents: [
        { role: "user", parts: [{ text: "Hi." }, { text: "Weather in Paris?" }] },
        { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { content: "18C" } } }] },
        { role: "model", parts: [{ text: "It is 18C." }] },
        { role: "user", parts: [{ text: "Thanks" }] },
      ],
      systemInstruction: { parts: [{ text: "Be brief." }] },
      generationConfig: {
        maxOutputTokens: 64,
        temperature: 0.2,
        topP: 0.7,
        stopSequences: ["END"],
        candidateCount: 2,
        seed: 5,
        presencePenalty: 0.1,
        responseMimeType: "application/json",
      },
      tools: [{ functionDeclarations: [{ name: "get_weather", description: "Current weather", parameters: WEATHER_TOOL.function.parameters }] }],
      toolConfig: { functionCallingConfig: { mode: "ANY" } },
    });
  });

  test("maps candidates, usageMetadata and finish reasons", async () => {
    const res = await provider.complete(providerRequest(MODEL, { params: { n: 2 } }));
    const reply = mock.replies.at(-1)!;
    expect(res.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(res.choices[0]!.message.content).toBe(reply.text);
    expect(res.choices[1]!.message.content).toBe(`${reply.text} (candidate 1)`);
    expect(res.usage).toEqual({ prompt_tokens: reply.promptTokens, completion_tokens: reply.completionTokens });
    for (const [reason, finish] of [
      ["STOP", "stop"],
      ["MAX_TOKENS", "length"],
      ["SAFETY", "content_filter"],
      ["RECITATION", "content_filter"],
    ]) {
      mock.stopReason = reason;
      expect((await provider.complete(providerRequest(MODEL))).choices[0]!.finish_reason).toBe(finish as "stop");
    }
  });

  test("function calls become tool_calls, plain and streamed", async () => {
    mock.toolCall = { id: "unused", name: "get_weather", arguments: { city: "Rome" } };
    const req = providerRequest(MODEL, { params: { tools: [WEATHER_TOOL] } });
    const res = await provider.complete(req);
    expect(res.choices[0]!.finish_reason).toBe("tool_calls");
    expect(res.choices[0]!.message.tool_calls).toMatchObject([{ type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } }]);
    expect(res.choices[0]!.message.tool_calls![0]!.id).toBeString();
    const out = await collect(provider.stream(req));
    expect(out.deltas.at(-1)!.finish_reason).toBe("tool_calls");
    expect(out.deltas.flatMap((d) => d.delta.tool_calls ?? [])).toMatchObject([{ index: 0, function: { name: "get_weather", arguments: '{"city":"Rome"}' } }]);
  });

  test("streams from streamGenerateContent?alt=sse with the last usageMetadata", async () => {
    const out = await collect(provider.stream(providerRequest(MODEL)));
    const reply = mock.replies.at(-1)!;
    expect(mock.requests.at(-1)!.path).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
    expect(out.deltas[0]!.delta.role).toBe("assistant");
    expect(out.text).toBe(reply.text);
    expect(out.deltas.at(-1)!.finish_reason).toBe("stop");
    expect(out.usage).toEqual({ prompt_tokens: reply.promptTokens, completion_tokens: reply.completionTokens });
  });

  test("HTTP errors map to ProviderError without the key", async () => {
    mock.failNext(1, 503, "1");
    expect(await thrown(() => provider.complete(providerRequest(MODEL)))).toMatchObject({ kind: "http", status: 503, retryAfterMs: 1000, retryable: true });
    const bad = new GeminiProvider({ apiKey: "AIza-wrong-777", baseUrl: mock.url });
    const err = await thrown(() => bad.complete(providerRequest(MODEL)));
    expect(err).toMatchObject({ kind: "http", status: 401, retryable: false });
    expect(err.message).toContain("[redacted]");
    expect(err.message).not.toContain("AIza-wrong-777");
  });
});
