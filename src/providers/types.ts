import type { ChatMessage, ToolCall } from "../core/messages";

/**
 * OpenAI parameters a client may send besides messages/model/max_tokens/stream. They are passed on to
 * every provider that has an equivalent; an adapter maps them into its own wire format.
 */
export interface PassThroughParams {
  temperature?: number;
  top_p?: number;
  stop?: string | string[];
  n?: number;
  user?: string;
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  tools?: unknown[];
  tool_choice?: unknown;
  response_format?: { type: string; [k: string]: unknown };
  stream_options?: { include_usage?: boolean };
  /** The client sent max_completion_tokens (which o-series models require) rather than max_tokens. */
  max_tokens_field?: "max_completion_tokens";
  /**
   * Every other field of the client's body, as sent (logprobs, parallel_tool_calls, metadata, store,
   * reasoning_effort, ...): the OpenAI adapter forwards them, the others map or refuse each by name.
   */
  extra?: Record<string, unknown>;
}

export interface ProviderRequest {
  /** The provider's own versioned model id. */
  model: string;
  messages: ChatMessage[];
  max_tokens: number;
  params: PassThroughParams;
  /** Aborted when the client goes away or the gateway gives up; the adapter must cancel the upstream call. */
  signal: AbortSignal;
  /**
   * Upstream time limit in ms (default DEFAULT_TIMEOUT_MS). A plain answer must arrive whole within it; a
   * stream must not stay silent longer than it, so a long answer that keeps flowing is never cut.
   */
  timeoutMs?: number;
  /**
   * performance.now() past which the call gives up, whatever `timeoutMs` allows: the one deadline over
   * every attempt, fallback and the whole of a stream (SVC_REQUEST_TIMEOUT_MS). A stream that trickles a
   * byte at a time used to run for ever.
   */
  deadlineAt?: number;
  /** Largest answer accepted, in bytes (a stream's bytes added up); more is a protocol failure, not memory. */
  maxAnswerBytes?: number;
  /**
   * Indices of messages that end a stable prefix (protocol and system prompt, the whole stored prefix,
   * the request): an adapter whose provider caches prefixes only where it is told (Anthropic) marks them.
   */
  cacheBreakpoints?: number[];
}

export const DEFAULT_TIMEOUT_MS = 60_000;

export interface Usage {
  /** Every prompt token, cached or not (OpenAI's convention; Anthropic's three counts added up). */
  prompt_tokens: number;
  completion_tokens: number;
  /**
   * Of prompt_tokens, read from the provider's prompt cache (OpenAI prompt_tokens_details.cached_tokens,
   * Anthropic cache_read_input_tokens, Gemini cachedContentTokenCount); absent when not reported.
   */
  cached_tokens?: number;
  /** Of prompt_tokens, written to the prompt cache (Anthropic cache_creation_input_tokens, billed above the input price). */
  cache_write_tokens?: number;
  /** As the provider reports them (cached_tokens, audio_tokens; reasoning_tokens, ...), passed on to the client. */
  prompt_tokens_details?: Record<string, unknown>;
  completion_tokens_details?: Record<string, unknown>;
}

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

export interface Choice {
  index: number;
  /** `content` is null when the model wrote no text (an answer of tool calls, a refusal), as OpenAI sends it. */
  message: { role: "assistant"; content: string | null; tool_calls?: ToolCall[]; refusal?: string | null; [k: string]: unknown };
  finish_reason: FinishReason;
  /** The provider's log probabilities, when asked for (logprobs: true). */
  logprobs?: unknown;
}

export interface ProviderResponse {
  choices: Choice[];
  /** Absent when the provider reported none; the gateway then counts tokens itself. */
  usage?: Usage;
  /** Top-level fields of the provider's answer the gateway passes on (system_fingerprint, service_tier). */
  extra?: Record<string, unknown>;
}

/** One piece of a streamed answer, already in the OpenAI delta shape. */
export interface StreamDelta {
  index: number;
  delta: { role?: "assistant"; content?: string; tool_calls?: unknown[]; refusal?: string; [k: string]: unknown };
  finish_reason: FinishReason | null;
  logprobs?: unknown;
}

export type StreamEvent = { kind: "delta"; delta: StreamDelta } | { kind: "usage"; usage: Usage };

/**
 * One wire format. An adapter maps the OpenAI-shaped request into its provider's format and the
 * provider's answers, usage, finish reasons, errors and stream events back. Nothing outside the
 * adapter's folder knows its quirks.
 */
export interface Provider {
  readonly name: string;
  /** True when answers are made up locally (the built-in simulator). */
  readonly simulated: boolean;
  complete(req: ProviderRequest): Promise<ProviderResponse>;
  /** Yields events as they arrive; throws ProviderError when the upstream fails, also mid-stream. */
  stream(req: ProviderRequest): AsyncIterable<StreamEvent>;
  /** POST /embeddings in OpenAI's wire format, body and answer as they are; absent where the wire format has none. */
  embed?(req: EmbeddingRequest): Promise<unknown>;
}

export interface EmbeddingRequest {
  /** The client's body with `model` set to the provider's id. */
  body: Record<string, unknown>;
  signal: AbortSignal;
  timeoutMs?: number;
  /** See ProviderRequest.deadlineAt. */
  deadlineAt?: number;
  /** See ProviderRequest.maxAnswerBytes. */
  maxAnswerBytes?: number;
}

/**
 * `unsupported`: the adapter cannot express the request in its wire format (e.g. n > 1 on Anthropic), so
 * nothing was sent; another provider may still serve it. `deadline`: the call's one deadline over all its
 * attempts passed (ProviderRequest.deadlineAt); nothing is tried after it.
 */
export type ProviderErrorKind = "http" | "timeout" | "deadline" | "connection" | "aborted" | "protocol" | "unsupported";

/** What a provider said about its own error, mapped to OpenAI's error vocabulary. */
export interface UpstreamErrorDetail {
  message: string;
  type?: string;
  code?: string | null;
  param?: string | null;
}

/** A failed upstream call. `retryable` says whether trying again (or another provider) can help. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
    /** For `unsupported`: the request field the adapter could not express. */
    readonly param?: string,
    /** For `http`: the provider's own error, as far as it gave one (OpenAI's type and code, ...). */
    readonly upstream?: UpstreamErrorDetail,
  ) {
    super(message);
  }

  get retryable(): boolean {
    if (this.kind === "aborted" || this.kind === "unsupported" || this.kind === "deadline") return false;
    if (this.kind === "http") return this.status === 408 || this.status === 409 || this.status === 429 || (this.status ?? 0) >= 500;
    return true;
  }
}
