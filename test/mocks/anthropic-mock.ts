import { MockProvider, sseFrame, type MockOptions, type MockReply, type WireFormat } from "./mock-server";

type Block = { type: string; text?: string; content?: unknown; cache_control?: unknown };
interface AnthropicBody {
  model?: string;
  system?: string | Block[];
  messages?: { role: string; content: string | Block[] }[];
  stream?: boolean;
  tools?: unknown[];
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  404: "not_found_error",
  429: "rate_limit_error",
  529: "overloaded_error",
};

function blockTexts(content: string | Block[]): string[] {
  if (typeof content === "string") return [content];
  return content.flatMap((b) => (b.type === "text" && b.text ? [b.text] : b.type === "tool_result" && typeof b.content === "string" ? [b.content] : []));
}

/** Anthropic leaves cache reads and writes out of input_tokens and reports them beside it. */
function inputUsage(reply: MockReply) {
  return {
    input_tokens: reply.promptTokens - reply.cachedTokens - reply.cacheWriteTokens,
    cache_creation_input_tokens: reply.cacheWriteTokens,
    cache_read_input_tokens: reply.cachedTokens,
  };
}

function stopReason(reply: MockReply): string {
  return reply.stopReason ?? (reply.toolCall ? "tool_use" : "end_turn");
}

/** Anthropic Messages: POST /v1/messages, x-api-key + anthropic-version, named SSE events. */
export const anthropicFormat: WireFormat = {
  name: "anthropic",
  promptCache: { mode: "explicit", minTokens: 1024, step: 1 },
  parse(url, raw) {
    if (url.pathname !== "/v1/messages") return undefined;
    const body = raw as AnthropicBody;
    const messages = body.messages ?? [];
    const system = typeof body.system === "string" ? [{ type: "text", text: body.system }] : (body.system ?? []);
    const texts = [...system.map((b) => b.text ?? ""), ...messages.flatMap((m) => blockTexts(m.content))];
    const segment = (b: Block) => {
      const { cache_control, ...rest } = b;
      return { key: JSON.stringify(rest), text: blockTexts([rest]).join(" "), breakpoint: cache_control !== undefined };
    };
    const segments = [
      ...system.map(segment),
      ...messages.flatMap((m) =>
        (typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content).map((b) => ({ ...segment(b), key: m.role + segment(b).key })),
      ),
    ];
    const lastUser = [...messages].reverse().find((m) => m.role === "user");
    return {
      model: body.model ?? "",
      stream: body.stream === true,
      n: 1,
      hasTools: (body.tools?.length ?? 0) > 0,
      texts,
      lastUserText: lastUser ? blockTexts(lastUser.content).join("\n") : "",
      endsWithToolResult: (() => {
        const c = messages.at(-1)?.content;
        return Array.isArray(c) && c.some((b) => b.type === "tool_result");
      })(),
      segments,
    };
  },
  presentedKey: (headers) => headers.get("x-api-key"),
  headerProblem: (headers) => (headers.get("anthropic-version") ? undefined : "anthropic-version: header is required"),
  errorBody: (status, message) => ({ type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message } }),
  completion: (reply) => ({
    id: "msg_mock",
    type: "message",
    role: "assistant",
    model: reply.model,
    content: [
      { type: "text", text: reply.text },
      ...(reply.toolCall ? [{ type: "tool_use", id: reply.toolCall.id, name: reply.toolCall.name, input: reply.toolCall.arguments }] : []),
    ],
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: { ...inputUsage(reply), output_tokens: reply.completionTokens },
  }),
  streamFrames(reply) {
    const frame = (type: string, data: Record<string, unknown>) => sseFrame({ type, ...data }, type);
    const message = { id: "msg_mock", type: "message", role: "assistant", content: [], model: reply.model, stop_reason: null, stop_sequence: null };
    const frames = [
      frame("message_start", { message: { ...message, usage: { ...inputUsage(reply), output_tokens: 1 } } }),
      frame("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      frame("ping", {}),
      ...reply.pieces.map((text) => frame("content_block_delta", { index: 0, delta: { type: "text_delta", text } })),
      frame("content_block_stop", { index: 0 }),
    ];
    if (reply.toolCall) {
      const args = JSON.stringify(reply.toolCall.arguments);
      frames.push(
        frame("content_block_start", { index: 1, content_block: { type: "tool_use", id: reply.toolCall.id, name: reply.toolCall.name, input: {} } }),
        frame("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: "" } }),
        frame("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: args.slice(0, args.length >> 1) } }),
        frame("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: args.slice(args.length >> 1) } }),
        frame("content_block_stop", { index: 1 }),
      );
    }
    frames.push(
      frame("message_delta", { delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: { output_tokens: reply.completionTokens } }),
      frame("message_stop", {}),
    );
    return frames;
  },
};

/** Starts an Anthropic mock; its base URL for the adapter is `mock.url`. */
export function startAnthropicMock(options: MockOptions = {}): MockProvider {
  return new MockProvider(anthropicFormat, options);
}
