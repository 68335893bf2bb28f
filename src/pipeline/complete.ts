import type { Gateway } from "../gateway";
import type { KeyEntry } from "../auth/key-record";
import type { QuotaTicket } from "../auth/quota";
import type { CompletionRequest } from "../http/validate/completion-request";
import type { ModelInfo } from "../catalog/catalog";
import { ApiError } from "../http/errors";
import { SSE_DONE, SSE_HEADERS, sseData } from "../http/sse";
import { priceCall } from "../accounting/costs";
import { completeWithFallback, streamWithFallback, UpstreamFailure } from "../providers/call";
import { ProviderError, type Choice, type FinishReason, type Usage } from "../providers/types";
import { countTokens, tokenizerFor } from "../tokens/count";
import { buildMeta, type SvcMeta } from "./meta";
import { optimizeInputOf } from "./analyze";
import type { OptimizeResult } from "./optimize-types";
import { AUTO_MODEL, type RoutingReason } from "./route";
import { replayDeltas, type CacheFill, type CacheHit, type CacheRequest } from "./cache";

/** Facts about the HTTP call the pipeline needs but does not own. */
export interface CallContext {
  requestId: string;
  /** performance.now() when the request arrived: the start of the overhead clock. */
  t0: number;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

/** Everything decided before the upstream call, carried to accounting. */
interface Planned {
  key: KeyEntry;
  req: CompletionRequest;
  ctx: CallContext;
  ticket: QuotaTicket;
  opt: OptimizeResult;
  candidates: ModelInfo[];
  requested: ModelInfo | undefined;
  reason: RoutingReason;
  /** Set on a cache miss: the answer is handed back through it, or it is failed. */
  fill?: CacheFill;
}

interface Outcome {
  served: ModelInfo;
  choices: Choice[];
  usage: Usage;
  reason: RoutingReason;
  cacheHit: boolean;
  upstreamMs: number;
  simulated: boolean;
  /** Top-level fields of the provider's answer passed on as they came (system_fingerprint, service_tier). */
  extra?: Record<string, unknown>;
}

/**
 * POST /v1/complete, top to bottom: admit the call against the key's limits, run the CPU stages in
 * one worker task (compression, scoring, embedding, classification, routing), answer from the cache
 * when it can, else call the provider with retries and fallback, then account for the call and
 * answer as JSON or as an SSE stream.
 */
export async function complete(gw: Gateway, key: KeyEntry, req: CompletionRequest, ctx: CallContext): Promise<Response> {
  const ticket = gw.quota.consume(key, Date.now());
  let plan: Planned | undefined;
  try {
    plan = await prepare(gw, key, req, ctx, ticket);
    const cached = await gw.cache.lookup(cacheRequest(plan));
    if (cached.kind === "hit") return answerFromCache(gw, plan, cached.hit);
    if (cached.kind === "miss") plan.fill = cached.fill;
    if (req.stream) return await streamAnswer(gw, plan);
    const out = await upstream(gw, plan);
    plan.fill?.complete({ model: out.served.id, choices: out.choices, usage: out.usage });
    const meta = account(gw, plan, out, 200);
    return Response.json(completionBody(plan, out, meta), { headers: { "x-request-id": ctx.requestId } });
  } catch (e) {
    failCall(gw, key, req, ctx, ticket, plan, e);
    throw e;
  }
}

function cacheRequest(p: Planned): CacheRequest {
  return {
    appId: p.key.appId,
    model: p.candidates[0]!.id,
    messages: p.opt.messages,
    maxTokens: p.req.max_tokens,
    params: p.req.params,
    enabled: p.req.svc_options.cache,
    allowNondeterministic: p.req.svc_options.cache_nondeterministic,
    ...(p.opt.embedding && { embedding: p.opt.embedding }),
  };
}

/** A cache hit: no provider call, cost 0, the model that produced the answer, replayed as SSE when asked. */
function answerFromCache(gw: Gateway, p: Planned, hit: CacheHit): Response {
  const out: Outcome = {
    served: gw.catalog.find(hit.answer.model) ?? p.candidates[0]!,
    choices: hit.answer.choices,
    usage: hit.answer.usage,
    reason: "cache_hit",
    cacheHit: true,
    upstreamMs: 0,
    simulated: gw.providers.simulatedOnly,
  };
  const meta = account(gw, p, out, 200);
  if (!p.req.stream) return Response.json(completionBody(p, out, meta), { headers: { "x-request-id": p.ctx.requestId } });
  const chunk = chunkFramer(p, out.served.id);
  const frames: Uint8Array[] = [];
  const deltas = replayDeltas(hit.answer);
  for (const d of deltas) if (!d.finish_reason) frames.push(chunk([d]));
  const finish = deltas.find((d) => d.finish_reason)?.finish_reason ?? "stop";
  frames.push(finalChunk(chunk, finish, out.usage, meta), SSE_DONE);
  return new Response(new Blob(frames), { headers: { ...SSE_HEADERS, "x-request-id": p.ctx.requestId } });
}

function chunkFramer(p: Planned, model: string) {
  const created = Math.floor(Date.now() / 1000);
  return (choices: unknown[], extra?: Record<string, unknown>) => sseData({ id: p.ctx.requestId, object: "chat.completion.chunk", created, model, choices, ...extra });
}

function finalChunk(chunk: ReturnType<typeof chunkFramer>, finish: FinishReason, u: Usage, meta: SvcMeta): Uint8Array {
  return chunk([{ index: 0, delta: {}, finish_reason: finish }], { usage: { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.prompt_tokens + u.completion_tokens }, svc_meta: meta });
}

async function prepare(gw: Gateway, key: KeyEntry, req: CompletionRequest, ctx: CallContext, ticket: QuotaTicket): Promise<Planned> {
  const requested = req.model === AUTO_MODEL ? undefined : gw.catalog.resolve(req.model);
  const opt = await gw.optimize({ ...optimizeInputOf(req, gw.servableModels, gw.settings.qualityFloor), wantEmbedding: req.svc_options.cache, countTokens: false }, ctx.signal);
  if (!opt.route.ok) throw new ApiError("NO_PROVIDER", opt.route.message);
  const candidates = opt.route.candidates.map((id) => gw.catalog.find(id)!);
  return { key, req, ctx, ticket, opt, candidates, requested, reason: opt.route.reason };
}

async function upstream(gw: Gateway, p: Planned): Promise<Outcome> {
  const r = await completeWithFallback(gw.providers, upstreamRequest(p), gw.callPolicy);
  const completionText = r.response.choices.map((c) => c.message.content).join("");
  const usage = r.response.usage ?? estimateUsage(p, r.model, completionText);
  return { served: r.model, choices: r.response.choices, usage, reason: r.fallback ? "fallback" : p.reason, cacheHit: false, upstreamMs: r.upstreamMs, simulated: r.provider.simulated, ...(r.response.extra && { extra: r.response.extra }) };
}

function upstreamRequest(p: Planned) {
  return { candidates: p.candidates, messages: p.opt.messages, max_tokens: p.req.max_tokens, params: p.req.params, signal: p.ctx.signal };
}

/** The provider reported no usage: count with the served model's tokenizer (never characters / 4). */
function estimateUsage(p: Planned, served: ModelInfo, completionText: string): Usage {
  const family = tokenizerFor(served.provider);
  let prompt = 3;
  for (const m of p.opt.messages) prompt += 3 + countTokens(m.content, family);
  return { prompt_tokens: prompt, completion_tokens: countTokens(completionText, family) };
}

/** Costs, ledger row and svc_meta for a call that produced an answer. */
function account(gw: Gateway, p: Planned, out: Outcome, status: number): SvcMeta {
  // The provider counts the prompt it received (compressed); scale our own count of the original by
  // the same factor so both sides of the saving are in the provider's units. Uncounted means the
  // prompt went out unchanged.
  const sent = out.usage.prompt_tokens;
  const { originalTokens: ours, compressedTokens: oursSent } = p.opt;
  const originalPrompt = ours !== undefined && oursSent ? Math.round((ours * sent) / oursSent) : sent;
  const costs = priceCall(gw.catalog, {
    requested: p.requested,
    served: out.served,
    originalPromptTokens: originalPrompt,
    sentPromptTokens: sent,
    completionTokens: out.usage.completion_tokens,
    cacheHit: out.cacheHit,
  });
  const totalMs = performance.now() - p.ctx.t0;
  const overheadMs = totalMs - out.upstreamMs;
  gw.ledger.record({
    requestId: p.ctx.requestId,
    keyId: p.key.id,
    appId: p.key.appId,
    model: out.served.id,
    modelRequested: p.req.model,
    provider: out.served.provider,
    promptTokens: out.usage.prompt_tokens,
    completionTokens: out.usage.completion_tokens,
    originalTokens: originalPrompt,
    costOriginalUsd: costs.cost_original_usd,
    costActualUsd: costs.cost_actual_usd,
    savedUsd: costs.saved_usd,
    cacheHit: out.cacheHit,
    status,
    errorCode: null,
    latencyMs: totalMs,
    overheadMs,
    stream: p.req.stream,
    budgetId: p.req.svc_options.budget_id ?? null,
    conversationId: p.req.svc_options.conversation_id ?? null,
    agentRunId: p.req.svc_options.agent_run_id ?? null,
    createdAt: Date.now(),
  });
  gw.metrics.countCompletion(status, out.served.id, out.cacheHit);
  gw.metrics.savedUsd.inc(Math.max(0, costs.saved_usd));
  gw.metrics.costUsd.inc(costs.cost_actual_usd);
  gw.metrics.tokensRemoved.inc(Math.max(0, originalPrompt - sent));
  gw.metrics.overhead.observe(overheadMs);
  return buildMeta({
    opt: p.opt,
    originalTokens: originalPrompt,
    compressedTokens: sent,
    costs,
    reason: out.reason,
    modelRequested: p.req.model,
    cacheHit: out.cacheHit,
    overheadMs,
    score: p.req.svc_options.score,
    conversationId: p.req.svc_options.conversation_id,
    simulated: out.simulated,
  });
}

/**
 * The status and error code a failed call is recorded with. A client that went away is 499 (nginx's
 * convention) whatever the error it left behind: an aborted provider call, or the worker pool refusing
 * to start a task for nobody.
 */
export function failureOutcome(e: unknown, signal: AbortSignal): { status: number; code: string } {
  if (signal.aborted || (e instanceof ProviderError && e.kind === "aborted")) return { status: 499, code: "CLIENT_CLOSED" };
  const err = e instanceof ApiError ? e : undefined;
  return { status: err?.status ?? 500, code: err?.code ?? "INTERNAL_ERROR" };
}

/** A call that produced no answer: its cache fill is dropped, its quota given back, and it is recorded (ledger, metrics). */
function failCall(gw: Gateway, key: KeyEntry, req: CompletionRequest, ctx: CallContext, ticket: QuotaTicket, plan: Planned | undefined, e: unknown): void {
  plan?.fill?.fail();
  gw.quota.refund(ticket);
  const { status, code } = failureOutcome(e, ctx.signal);
  const totalMs = performance.now() - ctx.t0;
  const upstreamMs = e instanceof UpstreamFailure ? e.upstreamMs : 0;
  gw.metrics.countCompletion(status, "none", false);
  gw.ledger.record({
    requestId: ctx.requestId,
    keyId: key.id,
    appId: key.appId,
    model: null,
    modelRequested: req.model,
    provider: null,
    promptTokens: 0,
    completionTokens: 0,
    originalTokens: plan?.opt.originalTokens ?? 0,
    costOriginalUsd: 0,
    costActualUsd: 0,
    savedUsd: 0,
    cacheHit: false,
    status,
    errorCode: code,
    latencyMs: totalMs,
    overheadMs: totalMs - upstreamMs,
    stream: req.stream,
    budgetId: req.svc_options.budget_id ?? null,
    conversationId: req.svc_options.conversation_id ?? null,
    agentRunId: req.svc_options.agent_run_id ?? null,
    createdAt: Date.now(),
  });
}

function completionBody(p: Planned, out: Outcome, meta: SvcMeta) {
  return {
    id: p.ctx.requestId,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: out.served.id,
    choices: out.choices,
    // The provider's usage details (cached_tokens, reasoning_tokens) go on as reported.
    usage: { ...out.usage, total_tokens: out.usage.prompt_tokens + out.usage.completion_tokens },
    ...out.extra,
    svc_meta: meta,
  };
}

/**
 * Relays the provider's stream as OpenAI chunks the moment each arrives. The final chunk carries an
 * empty delta, the finish reason and the full svc_meta, then `[DONE]`. A provider failing mid-way
 * ends the stream with an error event and no `[DONE]`, so no client mistakes half an answer for a
 * whole one. The client going away aborts the upstream call.
 */
async function streamAnswer(gw: Gateway, p: Planned): Promise<Response> {
  const r = await streamWithFallback(gw.providers, upstreamRequest(p), gw.callPolicy);
  const chunk = chunkFramer(p, r.model.id);
  const iterator = r.events[Symbol.asyncIterator]();
  const texts: string[] = [];
  const finishes: FinishReason[] = [];
  let toolCalls = false;
  let usage: Usage | undefined;
  let finish: FinishReason = "stop";
  // A call is accounted once: the client going away after the last chunk was accounted, or after a
  // failure was, must not write a second ledger row (one per request id) nor refund the quota again.
  let accounted = false;
  const fail = (e: unknown) => {
    if (accounted) return;
    accounted = true;
    failCall(gw, p.key, p.req, p.ctx, p.ticket, p, e);
  };

  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        for (;;) {
          const next = await iterator.next();
          if (next.done) break;
          const ev = next.value;
          if (ev.kind === "usage") {
            usage = ev.usage;
            continue;
          }
          const d = ev.delta;
          if (d.delta.content) texts[d.index] = (texts[d.index] ?? "") + d.delta.content;
          if (d.delta.tool_calls) toolCalls = true;
          if (d.finish_reason) {
            finish = d.finish_reason;
            finishes[d.index] = d.finish_reason;
            // The closing chunk below carries the finish reason together with svc_meta.
            if (!d.delta.content && !d.delta.tool_calls) continue;
          }
          controller.enqueue(chunk([{ index: d.index, delta: d.delta, finish_reason: null }]));
          return;
        }
        const out: Outcome = {
          served: r.model,
          choices: [],
          usage: usage ?? estimateUsage(p, r.model, texts.join("")),
          reason: r.fallback ? "fallback" : p.reason,
          cacheHit: false,
          upstreamMs: r.upstreamMs,
          simulated: r.provider.simulated,
        };
        // Streamed tool calls arrive as fragments; such answers are not cached rather than reassembled.
        if (toolCalls) p.fill?.fail();
        else {
          const choices: Choice[] = texts.map((content, index) => ({ index, message: { role: "assistant", content: content ?? "" }, finish_reason: finishes[index] ?? finish }));
          p.fill?.complete({ model: r.model.id, choices, usage: out.usage });
        }
        accounted = true;
        const meta = account(gw, p, out, 200);
        controller.enqueue(finalChunk(chunk, finish, out.usage, meta));
        controller.enqueue(SSE_DONE);
        controller.close();
      } catch (e) {
        fail(e);
        const err = e instanceof ApiError ? e : new ApiError("UPSTREAM_ERROR", "the provider failed while streaming");
        if (!(e instanceof ProviderError && e.kind === "aborted")) controller.enqueue(sseData(err.body(p.ctx.requestId)));
        controller.close();
      }
    },
    async cancel() {
      // The client went away mid-answer: stop the upstream call, cache nothing, and do not count the call.
      fail(new ProviderError("aborted", "client closed the stream"));
      await iterator.return?.();
    },
  });
  return new Response(body, { headers: { ...SSE_HEADERS, "x-request-id": p.ctx.requestId } });
}
