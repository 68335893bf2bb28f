import type { ChatMessage, ToolCall } from "../../core/messages";
import { wireParts } from "../shared/content-parts";
import { eventJson } from "../shared/sse";
import { postForEvents, postJson, type UpstreamPost } from "../shared/upstream-http";
import {
  ProviderError,
  type Choice,
  type EmbeddingRequest,
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
  message?: { content?: string | null; tool_calls?: ToolCall[]; refusal?: string | null; [k: string]: unknown };
  delta?: { role?: "assistant"; content?: string | null; tool_calls?: unknown[]; refusal?: string | null; [k: string]: unknown };
  finish_reason?: string | null;
  logprobs?: unknown;
}

interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: Record<string, unknown> | null;
  completion_tokens_details?: Record<string, unknown> | null;
}

interface WireCompletion {
  choices?: WireChoice[];
  usage?: WireUsage | null;
  error?: { message?: string };
  system_fingerprint?: string | null;
  service_tier?: string | null;
}

/** Top-level answer fields passed on to the client as they came. */
const PASSED_FIELDS = ["system_fingerprint", "service_tier"] as const;

/** OpenAI Chat Completions, also spoken by vLLM, Ollama and llama.cpp servers. */
export class OpenAIProvider implements Provider {
  readonly simulated = false;
  readonly name: string;
  /** Fixed per provider, so built once rather than on every call. */
  private readonly url: string;
  private readonly embeddingsUrl: string;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly secrets: readonly string[];

  constructor(private readonly config: OpenAIProviderConfig) {
    this.name = config.name;
    this.url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.embeddingsUrl = `${config.baseUrl.replace(/\/+$/, "")}/embeddings`;
    this.headers = config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {};
    this.secrets = config.apiKey ? [config.apiKey] : [];
  }

  async complete(req: ProviderRequest): Promise<ProviderResponse> {
    const body = (await postJson(this.post(req, false))) as WireCompletion;
    if (!Array.isArray(body?.choices)) throw new ProviderError("protocol", `${this.name} answered without choices`);
    const response: ProviderResponse = { choices: body.choices.map((c, i) => toChoice(c, i)) };
    const usage = toUsage(body.usage);
    if (usage) response.usage = usage;
    for (const f of PASSED_FIELDS) if (body[f] !== undefined) (response.extra ??= {})[f] = body[f];
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

  async embed(req: EmbeddingRequest): Promise<unknown> {
    const model = this.config.upstreamModels?.[req.body.model as string] ?? req.body.model;
    return postJson({
      provider: this.name,
      url: this.embeddingsUrl,
      headers: this.headers,
      body: { ...req.body, model },
      signal: req.signal,
      timeoutMs: req.timeoutMs,
      deadlineAt: req.deadlineAt,
      maxAnswerBytes: req.maxAnswerBytes,
      secrets: this.secrets,
    });
  }

  private post(req: ProviderRequest, stream: boolean): UpstreamPost {
    const { stream_options, extra, max_tokens_field, ...params } = req.params;
    // Fields the client sent that svc does not read go on as sent; svc's own fields take precedence.
    const body: Record<string, unknown> = {
      ...extra,
      ...params,
      model: this.config.upstreamModels?.[req.model] ?? req.model,
      messages: req.messages.map(toWireMessage),
      [max_tokens_field ?? "max_tokens"]: req.max_tokens,
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
  const out: Record<string, unknown> = { role: m.role, content: wireParts(m) ?? m.content };
  if (m.name !== undefined) out.name = m.name;
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  if (m.tool_calls !== undefined) out.tool_calls = m.tool_calls;
  return out;
}

function toChoice(c: WireChoice, position: number): Choice {
  // Every field of the provider's message goes on (refusal, annotations, audio, ...), content as sent.
  const { content, tool_calls, ...rest } = c.message ?? {};
  const message: Choice["message"] = {
    ...rest,
    role: "assistant",
    content: typeof content === "string" ? content : tool_calls?.length || typeof rest.refusal === "string" ? null : "",
  };
  if (tool_calls?.length) message.tool_calls = tool_calls;
  const choice: Choice = { index: c.index ?? position, message, finish_reason: toFinishReason(c.finish_reason) ?? "stop" };
  if (c.logprobs !== undefined) choice.logprobs = c.logprobs;
  return choice;
}

function toDelta(c: WireChoice, position: number): StreamDelta {
  const { role, content, tool_calls, refusal, ...rest } = c.delta ?? {};
  const delta: StreamDelta["delta"] = { ...rest };
  if (role) delta.role = role;
  if (typeof content === "string") delta.content = content;
  if (tool_calls?.length) delta.tool_calls = tool_calls;
  if (typeof refusal === "string") delta.refusal = refusal;
  const out: StreamDelta = { index: c.index ?? position, delta, finish_reason: toFinishReason(c.finish_reason) };
  if (c.logprobs !== undefined && c.logprobs !== null) out.logprobs = c.logprobs;
  return out;
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
  const usage: Usage = { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens };
  const cached = u.prompt_tokens_details?.cached_tokens;
  if (typeof cached === "number") usage.cached_tokens = cached;
  if (u.prompt_tokens_details) usage.prompt_tokens_details = u.prompt_tokens_details;
  if (u.completion_tokens_details) usage.completion_tokens_details = u.completion_tokens_details;
  return usage;
}
