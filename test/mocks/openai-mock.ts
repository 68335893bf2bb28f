import { MockProvider, sseFrame, type MockOptions, type MockReply, type WireFormat } from "./mock-server";

interface OpenAIBody {
  model?: string;
  messages?: { role: string; content?: string | { type: string; text?: string }[] | null }[];
  stream?: boolean;
  n?: number;
  tools?: unknown[];
  stream_options?: { include_usage?: boolean };
}

const CREATED = 1_700_000_000;

/** OpenAI counts cached tokens inside prompt_tokens and names them in prompt_tokens_details (here only when some were cached). */
function usageOf(reply: MockReply) {
  const usage = { prompt_tokens: reply.promptTokens, completion_tokens: reply.completionTokens, total_tokens: reply.promptTokens + reply.completionTokens };
  return reply.cachedTokens > 0 ? { ...usage, prompt_tokens_details: { cached_tokens: reply.cachedTokens } } : usage;
}

function message(reply: MockReply, index: number): Record<string, unknown> {
  const content = index === 0 ? reply.text : `${reply.text} (choice ${index})`;
  if (reply.refusal) return { role: "assistant", content: null, refusal: reply.refusal, ...reply.extras?.message };
  if (!reply.toolCall) return { role: "assistant", content, refusal: null, ...reply.extras?.message };
  const call = { id: reply.toolCall.id, type: "function", function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) } };
  return { role: "assistant", content: null, tool_calls: [call], refusal: null, ...reply.extras?.message };
}

/** A message's text, whether sent as a string or as content parts. */
function textOf(content: string | { type: string; text?: string }[] | null | undefined): string {
  if (Array.isArray(content)) return content.map((p) => (p.type === "text" ? (p.text ?? "") : `[${p.type}]`)).join(" ");
  return content ?? "";
}

function finishReason(reply: MockReply): string {
  return reply.stopReason ?? (reply.toolCall ? "tool_calls" : "stop");
}

/** OpenAI Chat Completions: POST /v1/chat/completions, Bearer auth, `data:` chunks ending in [DONE]. */
export const openaiFormat: WireFormat = {
  name: "openai",
  promptCache: { mode: "automatic", minTokens: 1024, step: 128 },
  parse(url, raw) {
    if (!url.pathname.endsWith("/chat/completions")) return undefined;
    const body = raw as OpenAIBody;
    const texts = (body.messages ?? []).map((m) => textOf(m.content));
    const lastUser = [...(body.messages ?? [])].reverse().find((m) => m.role === "user");
    const segments = (body.messages ?? []).map((m) => ({ key: JSON.stringify(m), text: textOf(m.content), breakpoint: false }));
    return {
      model: body.model ?? "",
      stream: body.stream === true,
      n: body.n ?? 1,
      hasTools: (body.tools?.length ?? 0) > 0,
      texts,
      lastUserText: textOf(lastUser?.content),
      endsWithToolResult: body.messages?.at(-1)?.role === "tool",
      segments,
    };
  },
  presentedKey: (headers) => headers.get("authorization")?.replace(/^Bearer /, "") ?? null,
  embeddings(url, raw) {
    if (!url.pathname.endsWith("/embeddings")) return undefined;
    const body = raw as { model?: string; input?: string | string[]; dimensions?: number; encoding_format?: string };
    const inputs = typeof body.input === "string" ? [body.input] : (body.input ?? []);
    // A vector that depends on the text: its first value is the text's length.
    const vector = (text: string) => Array.from({ length: body.dimensions ?? 8 }, (_, i) => (i === 0 ? text.length : i / 10));
    const encode = (v: number[]) => (body.encoding_format === "base64" ? Buffer.from(new Float32Array(v).buffer).toString("base64") : v);
    const tokens = inputs.reduce((n, t) => n + String(t).split(/\s+/).length, 0);
    return {
      object: "list",
      data: inputs.map((t, index) => ({ object: "embedding", index, embedding: encode(vector(String(t))) })),
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    };
  },
  errorBody: (status, message) => ({
    error: { message, type: status === 429 ? "rate_limit_error" : status >= 500 ? "server_error" : "invalid_request_error", param: null, code: null },
  }),
  completion: (reply) => ({
    id: "chatcmpl-mock",
    object: "chat.completion",
    created: CREATED,
    model: reply.model,
    choices: Array.from({ length: reply.n }, (_, index) => ({
      index,
      message: message(reply, index),
      logprobs: null,
      finish_reason: finishReason(reply),
      ...reply.extras?.choice,
    })),
    usage: { ...usageOf(reply), ...reply.extras?.usage },
    ...reply.extras?.top,
  }),
  streamFrames(reply) {
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      sseFrame({ id: "chatcmpl-mock", object: "chat.completion.chunk", created: CREATED, model: reply.model, choices, ...reply.extras?.top, ...extra });
    const frames: string[] = [];
    // Choices stream one after the other, each ending with its own finish_reason, as OpenAI sends n > 1.
    for (let index = 0; index < reply.n; index++) {
      frames.push(chunk([{ index, delta: { role: "assistant", content: "" }, finish_reason: null }]));
      if (reply.refusal) {
        for (const piece of reply.refusal.match(/\S+\s*/g) ?? [])
          frames.push(chunk([{ index, delta: { refusal: piece }, finish_reason: null, ...reply.extras?.choice }]));
      } else if (reply.toolCall) {
        const args = JSON.stringify(reply.toolCall.arguments);
        frames.push(
          chunk([
            {
              index,
              delta: { tool_calls: [{ index: 0, id: reply.toolCall.id, type: "function", function: { name: reply.toolCall.name, arguments: "" } }] },
              finish_reason: null,
            },
          ]),
        );
        for (const part of [args.slice(0, args.length >> 1), args.slice(args.length >> 1)]) {
          frames.push(chunk([{ index, delta: { tool_calls: [{ index: 0, function: { arguments: part } }] }, finish_reason: null }]));
        }
      } else {
        const pieces = index === 0 ? reply.pieces : [...reply.pieces, ` (choice ${index})`];
        for (const piece of pieces) frames.push(chunk([{ index, delta: { content: piece }, finish_reason: null, ...reply.extras?.choice }]));
      }
      frames.push(chunk([{ index, delta: {}, finish_reason: finishReason(reply) }]));
    }
    frames.push(chunk([], { usage: { ...usageOf(reply), ...reply.extras?.usage } }));
    frames.push(sseFrame("[DONE]"));
    return frames;
  },
};

/** Starts an OpenAI mock; its base URL for the adapter is `${mock.url}/v1`. */
export function startOpenAIMock(options: MockOptions = {}): MockProvider {
  return new MockProvider(openaiFormat, options);
}

function flag(args: string[], name: string): number | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = Number(args[i + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} needs a non-negative number`);
  return value;
}

// As a process: `bun test/mocks/openai-mock.ts --port 0 --latency-ms 20 --chunk-delay-ms 5` prints {"url": ...}.
if (import.meta.main) {
  const args = process.argv.slice(2);
  // Run as a process, it serves benchmarks, which never read the request log.
  const mock = startOpenAIMock({
    port: flag(args, "--port") ?? 0,
    latencyMs: flag(args, "--latency-ms") ?? 0,
    chunkDelayMs: flag(args, "--chunk-delay-ms") ?? 0,
    record: false,
  });
  console.log(JSON.stringify({ url: `${mock.url}/v1` }));
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      mock.stop();
      process.exit(0);
    });
  }
}
