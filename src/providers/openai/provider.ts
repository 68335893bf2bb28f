import type { ChatMessage, ToolCall } from "../../core/messages";
import { eventJson } from "../shared/sse";
import { postForEvents, postJson, type UpstreamPost } from "../shared/upstream-http";
import {
  ProviderError,
  type Choice,
  type FinishReason,
  type Provider,
  type ProviderRequest,
  type ProviderResponse,
  type StreamDelta,
  type StreamEvent,
  type Usage,
} from "../types";

export interface OpenAIProviderConfig {
  /** Name used in errors, health and logs ("openai", "openai_compatible", ...). */
  name: string;
  /** Up to and including the version segment, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  /** Sent as a Bearer token; local servers often need none. */
  apiKey?: string;
  /** Catalog model id → the name the server knows it by (a local server may call gpt-4o-mini "llama3.1:8b"). */
  upstreamModels?: Readonly<Record<string, string>>;
}

export const OPENAI_BASE_URL = "https://api.openai.com/v1";

interface WireChoice {
  index?: number;
  message?: { content?: string | null; tool_calls?: ToolCall[] };
  delta?: { role?: "assistant"; content?: string | null; tool_calls?: unknown[] };
  finish_reason?: string | null;
}

interface WireCompletion {
  choices?: WireChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

/** OpenAI Chat Completions, also spoken by vLLM, Ollama and llama.cpp servers. */
export class OpenAIProvider implements Provider {
  readonly simulated = false;
  readonly name: string;
  /** Fixed per provider, so built once rather than on every call. */
  private readonly url: string;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly secrets: readonly string[];

  constructor(private readonly config: OpenAIProviderConfig) {
    this.name = config.name;
    this.url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.headers = config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {};
    this.secrets = config.apiKey ? [config.apiKey] : [];
  }

  async complete(req: ProviderRequest): Promise<ProviderResponse> {
    const body = (await postJson(this.post(req, false))) as WireCompletion;
    if (!Array.isArray(body?.choices)) throw new ProviderError("protocol", `${this.name} answered without choices`);
    const response: ProviderResponse = { choices: body.choices.map((c, i) => toChoice(c, i)) };
    const usage = toUsage(body.usage);
    if (usage) response.usage = usage;
    return response;
  }

  async *stream(req: ProviderRequest): AsyncGenerator<StreamEvent> {
    let finished = false;
    for await (const event of postForEvents(this.post(req, true))) {
      if (event.data === "[DONE]") return;
      const chunk = eventJson<WireCompletion>(event, this.name);
      if (chunk.error) throw new ProviderError("http", `${this.name} failed mid-stream: ${chunk.error.message ?? "unknown error"}`, 500);
      for (const [i, c] of (chunk.choices ?? []).entries()) {
        const delta = toDelta(c, i);
        if (delta.finish_reason) finished = true;
        yield { kind: "delta", delta };
      }
      const usage = toUsage(chunk.usage);
      if (usage) yield { kind: "usage", usage };
    }
    // Some OpenAI-compatible servers omit [DONE]; an end after every finish_reason is still complete.
    if (!finished) throw new ProviderError("connection", `${this.name} ended the stream before the answer was complete`);
  }

  private post(req: ProviderRequest, stream: boolean): UpstreamPost {
    const { stream_options, ...params } = req.params;
    const body: Record<string, unknown> = {
      ...params,
      model: this.config.upstreamModels?.[req.model] ?? req.model,
      messages: req.messages.map(toWireMessage),
      max_tokens: req.max_tokens,
      stream,
    };
    // Usage is needed for pricing, so it is always asked for; it arrives in the last chunk.
    if (stream) body.stream_options = { ...stream_options, include_usage: true };
    return {
      provider: this.name,
      url: this.url,
      headers: this.headers,
      body,
      signal: req.signal,
      timeoutMs: req.timeoutMs,
      deadlineAt: req.deadlineAt,
      maxAnswerBytes: req.maxAnswerBytes,
      secrets: this.secrets,
    };
  }
}

function toWireMessage(m: ChatMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { role: m.role, content: m.content };
  if (m.name !== undefined) out.name = m.name;
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  if (m.tool_calls !== undefined) out.tool_calls = m.tool_calls;
  return out;
}

function toChoice(c: WireChoice, position: number): Choice {
  const message: Choice["message"] = { role: "assistant", content: c.message?.content ?? "" };
  if (c.message?.tool_calls?.length) message.tool_calls = c.message.tool_calls;
  return { index: c.index ?? position, message, finish_reason: toFinishReason(c.finish_reason) ?? "stop" };
}

function toDelta(c: WireChoice, position: number): StreamDelta {
  const delta: StreamDelta["delta"] = {};
  if (c.delta?.role) delta.role = c.delta.role;
  if (typeof c.delta?.content === "string") delta.content = c.delta.content;
  if (c.delta?.tool_calls?.length) delta.tool_calls = c.delta.tool_calls;
  return { index: c.index ?? position, delta, finish_reason: toFinishReason(c.finish_reason) };
}

function toFinishReason(reason: string | null | undefined): FinishReason | null {
  switch (reason) {
    case null:
    case undefined:
      return null;
    case "length":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "content_filter":
      return "content_filter";
    default:
      return "stop";
  }
}

function toUsage(u: WireCompletion["usage"]): Usage | undefined {
  if (typeof u?.prompt_tokens !== "number" || typeof u.completion_tokens !== "number") return undefined;
  return { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens };
}
