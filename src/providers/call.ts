import type { ModelInfo } from "../catalog/catalog";
import { ApiError, ERROR_CODES, type ErrorBody } from "../core/errors";
import type { ChatMessage } from "../core/messages";
import { backoffDelay, sleep } from "./backoff";
import { DEFAULT_MAX_ANSWER_BYTES } from "./shared/upstream-http";
import type { ProviderRegistry } from "./registry";
import {
  DEFAULT_TIMEOUT_MS,
  ProviderError,
  type PassThroughParams,
  type Provider,
  type ProviderErrorKind,
  type ProviderRequest,
  type ProviderResponse,
  type StreamEvent,
} from "./types";

/** How hard to try one request. The gateway fills it from its config. */
export interface CallPolicy {
  /** Extra attempts on the same model after a retryable failure (429, 5xx, connection, timeout). */
  retries: number;
  /** First backoff wait; it doubles with each retry, with jitter. */
  backoffBaseMs: number;
  /** Per attempt: the whole answer, or for a stream the longest silence. */
  timeoutMs: number;
  /** Longest Retry-After honoured; a provider asking for more is left for the next candidate at once. */
  maxRetryAfterMs: number;
  /**
   * One deadline over the whole call: every attempt, backoff and fallback, and a stream to its end
   * (SVC_REQUEST_TIMEOUT_MS). A 3 s per-attempt timeout held a client 9.3 s on a fixed model and 18.6 s
   * on auto before it (issue 23).
   */
  totalMs: number;
  /** Largest upstream answer, in bytes (SVC_UPSTREAM_MAX_BYTES). */
  maxAnswerBytes: number;
}

export const DEFAULT_CALL_POLICY: CallPolicy = {
  retries: 2,
  backoffBaseMs: 100,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  maxRetryAfterMs: 10_000,
  totalMs: 600_000,
  maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES,
};

export interface UpstreamRequest {
  /** Models to try, in order: the routed model first, then fallbacks (same tier first). */
  candidates: readonly ModelInfo[];
  messages: ChatMessage[];
  max_tokens: number;
  params: PassThroughParams;
  /** The client's signal: aborting it cancels the upstream call at once and stops all retries. */
  signal: AbortSignal;
  /** See ProviderRequest.cacheBreakpoints. */
  cacheBreakpoints?: number[];
}

/** One upstream call, as the call log and svc_meta may report it. */
export interface Attempt {
  model: string;
  provider: string;
  outcome: "ok" | ProviderErrorKind;
  status?: number;
  error?: string;
  /** performance.now() when the attempt started (a trace span's start); unset for an attempt made outside the call loop. */
  at?: number;
  ms: number;
}

interface Served {
  /** The model that actually answered. */
  model: ModelInfo;
  provider: Provider;
  /** True when the answer did not come from the first candidate. */
  fallback: boolean;
  attempts: Attempt[];
}

export interface CallResult extends Served {
  response: ProviderResponse;
  /** Ms spent in provider calls and in backoff waits between them; latency_overhead_ms is total minus this. */
  upstreamMs: number;
}

export interface StreamResult extends Served {
  /** The answer's events, from the first one on (already received when this result is returned). */
  events: AsyncIterable<StreamEvent>;
  /** Ms spent waiting on providers, backoff included; it grows while `events` is consumed and is final when it ends. */
  readonly upstreamMs: number;
}

/**
 * What call.ts throws when no candidate answered: an ApiError (UPSTREAM_ERROR 502, UPSTREAM_TIMEOUT 504,
 * NO_PROVIDER 503, or VALIDATION_ERROR 400 when no provider can express the request) with the attempts made.
 * A provider's own 4xx about the request (a 400 context_length_exceeded, a 429 after svc's retries, ...)
 * keeps its status, OpenAI error type, code and message, and a 429 its Retry-After, so SDKs classify it as
 * they would have without svc. 401 and 403 concern svc's provider key, not the client's, and stay 502.
 * Where svc already retried, `x-should-retry: false` keeps the SDK from multiplying the attempts.
 * A client abort is not one of these: it surfaces as ProviderError of kind "aborted", and nobody is left to answer.
 */
export class UpstreamFailure extends ApiError {
  override readonly status: number;
  override readonly type: string;
  private readonly upstream: { code: string; message: string; param?: string } | undefined;
  private readonly retryAfterMs: number | undefined;
  private readonly retried: boolean;

  constructor(
    code: "UPSTREAM_ERROR" | "UPSTREAM_TIMEOUT" | "NO_PROVIDER" | "VALIDATION_ERROR",
    message: string,
    readonly attempts: readonly Attempt[],
    readonly upstreamMs: number,
    last?: ProviderError,
  ) {
    super(code, message, last?.param ? { param: last.param } : {});
    const passOn = last?.kind === "http" && last.status !== undefined && last.status >= 400 && last.status < 500 && last.status !== 401 && last.status !== 403;
    this.status = passOn ? last.status! : ERROR_CODES[code].status;
    this.type = passOn ? (last.upstream?.type ?? "invalid_request_error") : ERROR_CODES[code].type;
    this.upstream = passOn
      ? {
          code: last.upstream?.code ?? "UPSTREAM_ERROR",
          message: last.upstream?.message || last.message,
          ...(last.upstream?.param && { param: last.upstream.param }),
        }
      : undefined;
    this.retryAfterMs = passOn ? last.retryAfterMs : undefined;
    this.retried = attempts.length > 1 || (last !== undefined && !last.retryable);
  }

  override body(requestId: string): ErrorBody {
    const body = super.body(requestId);
    if (this.upstream) {
      body.error.message = this.upstream.message.slice(0, MAX_UPSTREAM_MESSAGE);
      body.error.code = this.upstream.code;
      if (this.upstream.param) body.error.param = this.upstream.param;
    }
    return body;
  }

  override headers(requestId: string): Record<string, string> {
    const h = super.headers(requestId);
    if (this.retryAfterMs !== undefined) {
      h["retry-after"] = String(Math.max(1, Math.ceil(this.retryAfterMs / 1000)));
      h["retry-after-ms"] = String(Math.round(this.retryAfterMs));
    }
    if (this.retried && this.code !== "VALIDATION_ERROR") h["x-should-retry"] = "false";
    return h;
  }
}

/** A provider's error message is passed on up to this length. */
const MAX_UPSTREAM_MESSAGE = 2000;

/** Serves a plain (non-stream) request on the first candidate that answers, retrying and falling back. */
export async function completeWithFallback(registry: ProviderRegistry, req: UpstreamRequest, policy: CallPolicy = DEFAULT_CALL_POLICY): Promise<CallResult> {
  const clock = new WaitClock();
  const served = await firstSuccess(registry, req, policy, clock, (provider, providerReq) => provider.complete(providerReq));
  return { ...served, response: served.value, upstreamMs: clock.ms };
}

/**
 * Serves a stream. Retries and fallback happen only until the first event arrives; after that a failure
 * is thrown from `events` (as UpstreamFailure), since part of the answer has already gone to the client.
 */
export async function streamWithFallback(registry: ProviderRegistry, req: UpstreamRequest, policy: CallPolicy = DEFAULT_CALL_POLICY): Promise<StreamResult> {
  const clock = new WaitClock();
  const served = await firstSuccess(registry, req, policy, clock, async (provider, providerReq) => {
    const iterator = provider.stream(providerReq)[Symbol.asyncIterator]();
    try {
      const first = await iterator.next();
      if (first.done) throw new ProviderError("protocol", `${provider.name} ended the stream without any event`);
      return { iterator, first: first.value };
    } catch (e) {
      await iterator.return?.();
      throw e;
    }
  });
  const { iterator, first } = served.value;
  const onFailure = (e: unknown): unknown => {
    if (!(e instanceof ProviderError)) return e;
    served.attempts.at(-1)!.outcome = e.kind;
    served.attempts.at(-1)!.error = e.message;
    if (e.kind === "aborted") return e;
    registry.health.recordFailure(served.provider.name, e);
    return failure(e, served.attempts, clock.ms, "stream broke after it had started: ");
  };
  return {
    model: served.model,
    provider: served.provider,
    fallback: served.fallback,
    attempts: served.attempts,
    events: relay(first, iterator, clock, onFailure),
    get upstreamMs() {
      return clock.ms;
    },
  };
}

async function* relay(
  first: StreamEvent,
  iterator: AsyncIterator<StreamEvent>,
  clock: WaitClock,
  onFailure: (e: unknown) => unknown,
): AsyncGenerator<StreamEvent> {
  let done = false;
  try {
    yield first;
    while (true) {
      let next: IteratorResult<StreamEvent>;
      try {
        next = await clock.time(() => iterator.next());
      } catch (e) {
        done = true;
        throw onFailure(e);
      }
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // The consumer stopped early (client gone): cancel the upstream request.
    if (!done) await iterator.return?.();
  }
}

/** Adds up the time spent waiting on providers, leaving out the time the gateway itself spends. */
class WaitClock {
  ms = 0;

  async time<T>(wait: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await wait();
    } finally {
      this.stop(start);
    }
  }

  /** Counts the wait since `start` (a performance.now()) and returns it, for a caller timing inline. */
  stop(start: number): number {
    const ms = performance.now() - start;
    this.ms += ms;
    return ms;
  }
}

async function firstSuccess<T>(
  registry: ProviderRegistry,
  req: UpstreamRequest,
  policy: CallPolicy,
  clock: WaitClock,
  attempt: (provider: Provider, providerReq: ProviderRequest) => Promise<T>,
): Promise<Served & { value: T }> {
  const attempts: Attempt[] = [];
  let last: ProviderError | undefined;
  const deadlineAt = performance.now() + policy.totalMs;
  const pastDeadline = () =>
    new UpstreamFailure(
      "UPSTREAM_TIMEOUT",
      `no answer within the call's deadline of ${policy.totalMs} ms (${attempts.length} attempt${attempts.length === 1 ? "" : "s"})`,
      attempts,
      clock.ms,
    );
  for (const model of candidateOrder(registry, req.candidates)) {
    const provider = registry.providerFor(model)!;
    const providerReq: ProviderRequest = {
      model: model.id,
      messages: req.messages,
      max_tokens: req.max_tokens,
      params: req.params,
      signal: req.signal,
      timeoutMs: policy.timeoutMs,
      deadlineAt,
      maxAnswerBytes: policy.maxAnswerBytes,
    };
    // Set, not spread in: one request per candidate of every call (see completion-request.ts on conditional spreads).
    if (req.cacheBreakpoints) providerReq.cacheBreakpoints = req.cacheBreakpoints;
    for (let retry = 0; ; retry++) {
      if (req.signal.aborted) throw new ProviderError("aborted", "call aborted by the caller");
      if (performance.now() >= deadlineAt) throw pastDeadline();
      // Timed inline rather than through clock.time: one closure and one async frame fewer per call.
      const start = performance.now();
      try {
        const value = await attempt(provider, providerReq);
        attempts.push({ model: model.id, provider: provider.name, outcome: "ok", at: start, ms: Math.round(clock.stop(start)) });
        registry.health.recordSuccess(provider.name);
        return { value, model, provider, fallback: model.id !== req.candidates[0]?.id, attempts };
      } catch (e) {
        const ms = clock.stop(start);
        if (!(e instanceof ProviderError)) throw e;
        const record: Attempt = { model: model.id, provider: provider.name, outcome: e.kind, error: e.message, at: start, ms: Math.round(ms) };
        if (e.status !== undefined) record.status = e.status;
        attempts.push(record);
        if (e.kind === "aborted") throw e;
        if (e.kind === "deadline") throw pastDeadline();
        registry.health.recordFailure(provider.name, e);
        last = e;
        if (!e.retryable || retry >= policy.retries) break;
        const wait = backoffDelay(retry, policy.backoffBaseMs, e.retryAfterMs, policy.maxRetryAfterMs);
        if (wait === undefined) break;
        if (performance.now() + wait >= deadlineAt) throw pastDeadline();
        await clock.time(() => sleep(wait, req.signal));
      }
    }
  }
  if (!last) {
    const names = req.candidates.map((m) => m.id).join(", ");
    throw new UpstreamFailure("NO_PROVIDER", `no configured provider serves ${names || "any requested model"}`, attempts, clock.ms);
  }
  throw failure(last, attempts, clock.ms, "");
}

/** Candidates that have a provider, once each, healthy ones first; benched ones stay as a last resort. */
function candidateOrder(registry: ProviderRegistry, candidates: readonly ModelInfo[]): ModelInfo[] {
  // One pass over a list of a few models: a Set and three filters were 2.4% of the relay's event-loop time under load.
  const healthy: ModelInfo[] = [];
  const benched: ModelInfo[] = [];
  const listed = (m: ModelInfo) => healthy.some((h) => h.id === m.id) || benched.some((b) => b.id === m.id);
  for (const m of candidates) {
    if (registry.providerFor(m) === undefined || listed(m)) continue;
    (registry.isAvailable(m) ? healthy : benched).push(m);
  }
  return benched.length === 0 ? healthy : healthy.concat(benched);
}

function failure(last: ProviderError, attempts: readonly Attempt[], upstreamMs: number, prefix: string): UpstreamFailure {
  const tried = `${attempts.length} attempt${attempts.length === 1 ? "" : "s"}`;
  if (attempts.every((a) => a.outcome === "unsupported")) return new UpstreamFailure("VALIDATION_ERROR", last.message, attempts, upstreamMs, last);
  const code = last.kind === "timeout" || last.kind === "deadline" ? "UPSTREAM_TIMEOUT" : "UPSTREAM_ERROR";
  return new UpstreamFailure(code, `${prefix}${last.message} (${tried})`, attempts, upstreamMs, last);
}
