import { MockProvider, sseFrame, type MockOptions, type MockReply, type WireFormat } from "./mock-server";

interface Part {
  text?: string;
  functionResponse?: { response?: { content?: unknown } };
}
interface GeminiBody {
  contents?: { role: string; parts: Part[] }[];
  systemInstruction?: { parts: Part[] };
  generationConfig?: { candidateCount?: number };
  tools?: unknown[];
}

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

function partTexts(parts: Part[]): string[] {
  return parts.flatMap((p) => (p.text ? [p.text] : typeof p.functionResponse?.response?.content === "string" ? [p.functionResponse.response.content] : []));
}

function usage(reply: MockReply, completion: number) {
  // Gemini counts cached tokens inside promptTokenCount and names them in cachedContentTokenCount.
  return {
    promptTokenCount: reply.promptTokens,
    candidatesTokenCount: completion,
    totalTokenCount: reply.promptTokens + completion,
    ...(reply.cachedTokens > 0 && { cachedContentTokenCount: reply.cachedTokens }),
  };
}

function parts(reply: MockReply, index: number): Record<string, unknown>[] {
  const text = index === 0 ? reply.text : `${reply.text} (candidate ${index})`;
  return reply.toolCall ? [{ functionCall: { name: reply.toolCall.name, args: reply.toolCall.arguments } }] : [{ text }];
}

/** Gemini: POST /v1beta/models/{model}:generateContent | :streamGenerateContent?alt=sse, x-goog-api-key. */
export const geminiFormat: WireFormat = {
  name: "gemini",
  // Implicit caching (Gemini 2.5): automatic from 1,024 prompt tokens.
  promptCache: { mode: "automatic", minTokens: 1024, step: 1 },
  parse(url, raw) {
    const match = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(url.pathname);
    if (!match) return undefined;
    const stream = match[2] === "streamGenerateContent";
    if (stream && url.searchParams.get("alt") !== "sse") return undefined;
    const body = raw as GeminiBody;
    const contents = body.contents ?? [];
    const texts = [...partTexts(body.systemInstruction?.parts ?? []), ...contents.flatMap((c) => partTexts(c.parts))];
    const segments = [
      ...(body.systemInstruction?.parts ?? []).map((p) => ({ role: "system", p })),
      ...contents.flatMap((c) => c.parts.map((p) => ({ role: c.role, p }))),
    ].map(({ role, p }) => ({ key: role + JSON.stringify(p), text: partTexts([p]).join(" "), breakpoint: false }));
    const lastUser = [...contents].reverse().find((c) => c.role === "user");
    return {
      model: decodeURIComponent(match[1]!),
      stream,
      n: body.generationConfig?.candidateCount ?? 1,
      hasTools: (body.tools?.length ?? 0) > 0,
      endsWithToolResult: contents.at(-1)?.parts.some((p) => p.functionResponse !== undefined) ?? false,
      texts,
      lastUserText: lastUser ? partTexts(lastUser.parts).join("\n") : "",
      segments,
    };
  },
  presentedKey: (headers) => headers.get("x-goog-api-key"),
  errorBody: (status, message) => ({ error: { code: status, message, status: STATUS_NAMES[status] ?? "UNKNOWN" } }),
  completion: (reply) => ({
    candidates: Array.from({ length: reply.n }, (_, index) => ({
      content: { parts: parts(reply, index), role: "model" },
      finishReason: reply.stopReason ?? "STOP",
      index,
    })),
    usageMetadata: usage(reply, reply.completionTokens),
    modelVersion: reply.model,
  }),
  streamFrames(reply) {
    if (reply.toolCall) {
      return [
        sseFrame({
          candidates: [{ content: { parts: parts(reply, 0), role: "model" }, finishReason: reply.stopReason ?? "STOP", index: 0 }],
          usageMetadata: usage(reply, reply.completionTokens),
          modelVersion: reply.model,
        }),
      ];
    }
    return reply.pieces.map((text, i) => {
      const last = i === reply.pieces.length - 1;
      const candidate: Record<string, unknown> = { content: { parts: [{ text }], role: "model" }, index: 0 };
      if (last) candidate.finishReason = reply.stopReason ?? "STOP";
      return sseFrame({ candidates: [candidate], usageMetadata: usage(reply, i + 1), modelVersion: reply.model });
    });
  },
};

/** Starts a Gemini mock; its base URL for the adapter is `mock.url`. */
export function startGeminiMock(options: MockOptions = {}): MockProvider {
  return new MockProvider(geminiFormat, options);
}
