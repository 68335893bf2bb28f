import type { KeyEntry } from "../auth/key-record";
import { completeWithFallback, streamWithFallback, type UpstreamRequest } from "../providers/call";
import type { Services } from "./services";
import type { CompletionRequest } from "./request";
import { openCall, type Call, type CallContext, type Outcome, type Plan } from "./call";
import { admit, forClient, planned, type Stage } from "./stage";
import { buildStages, type StageServices } from "./stages";
import { price, settle } from "./settle";
import { completionBody, replayFrames, type CompletionResult } from "./render";
import { relay } from "./relay";
import { estimateUsage } from "./usage";
import { optimizeInputOf } from "./analyze";
import { AUTO_MODEL, noProviderError } from "./route";
import { offersTools, type CacheHit, type CacheRequest } from "./cache";
import { cacheBreakpoints, frameOf } from "./context/frame";

export type PipelineServices = Pick<
  Services,
  "catalog" | "providers" | "callPolicy" | "cache" | "optimizer" | "ledger" | "metrics" | "tracer" | "settings" | "servableModels" | "shutdown"
> &
  StageServices;

/**
 * POST /v1/complete, top to bottom: admit the call (the stages' `before`: quota), run the CPU stages
 * in one optimizer call (compression, scoring, embedding, classification, routing), answer from the
 * cache when it can, else hold what the call may cost (the stages' `planned`: budget and agent-run
 * reservations) and call the provider with retries and fallback, render the answer as JSON or
 * as an SSE stream, and settle the call once: its stages commit or roll back, its ledger row is written.
 */
export class Pipeline {
  private readonly stages: readonly Stage[];

  constructor(private readonly s: PipelineServices) {
    this.stages = buildStages(s);
  }

  async complete(key: KeyEntry, req: CompletionRequest, ctx: CallContext): Promise<CompletionResult> {
    const call = openCall(key, req, ctx);
    // Only a traced call times each stage's `before`.
    if (this.s.tracer) call.befores = [];
    try {
      const admitting = admit(call, this.stages);
      if (admitting) await admitting;
      call.marks.admitted = performance.now();
    } catch (e) {
      settle(this.s, call, { kind: "refused", error: e });
      throw e;
    }
    try {
      const plan = (call.plan = await this.optimize(call));
      call.marks.optimized = performance.now();
      const cached = await this.s.cache.lookup(cacheRequest(call, plan));
      call.marks.lookedUp = performance.now();
      this.s.metrics.countCacheLookup(cached.kind, cached.kind === "hit" ? cached.hit.layer : "none");
      if (cached.kind === "hit") return await this.fromCache(call, plan, cached.hit);
      if (cached.kind === "miss") call.fill = cached.fill;
      const reserving = planned(call, plan);
      if (reserving) await reserving;
      if (req.stream) return { kind: "sse", stream: await this.stream(call, plan) };
      const out = await this.upstream(call, plan);
      const priced = price(this.s, call, plan, out);
      const body = completionBody(call, out, forClient(call, out.choices), priced.meta);
      await settle(this.s, call, { kind: "answered", path: "json", outcome: out, priced });
      return { kind: "json", body };
    } catch (e) {
      // The error answer too waits for the call's row to be journaled.
      await settle(this.s, call, { kind: "failed", error: e });
      throw e;
    }
  }

  private async optimize(call: Call): Promise<Plan> {
    const { s } = this;
    const { req } = call;
    const requested = req.model === AUTO_MODEL ? undefined : s.catalog.resolve(req.model);
    const frame = frameOf(req.messages, call.protocol, call.conversation, call.remembered);
    // With a protocol, a conversation or remembered messages the optimizer sees only the call's new content; the stored part is counted already.
    // A fresh object, completed in place rather than copied into another one per call.
    const input = optimizeInputOf(frame ? { ...req, messages: frame.toOptimize } : req, s.servableModels, s.settings.qualityFloor);
    // A request with tools is matched exactly only (offersTools): no vector of its prompt is needed.
    input.wantEmbedding = req.svc_options.cache && !offersTools(req.params);
    input.countTokens = frame !== undefined;
    if (frame) input.prefixTokens = frame.sentTokens;
    const ran = await s.optimizer.run(input, call.signal);
    // The optimizer's result may be a remembered one shared with other calls: copied, not changed.
    const fresh = call.pii ? { ...ran, pii: call.pii.found, piiMasked: call.pii.masked } : ran;
    if (!fresh.route.ok) throw noProviderError(fresh.route);
    const candidates = fresh.route.candidates.map((id) => s.catalog.find(id)!);
    if (!frame) return { opt: fresh, candidates, requested, reason: fresh.route.reason };
    const assembled = frame.assemble(fresh.messages);
    const opt = {
      ...fresh,
      messages: assembled.messages,
      originalTokens: (fresh.originalTokens ?? 0) + frame.originalTokens,
      compressedTokens: (fresh.compressedTokens ?? 0) + frame.sentTokens,
    };
    const context = { assembled, prefixTokens: frame.sentTokens, conversationSavedTokens: frame.conversationSavedTokens };
    return { opt, candidates, requested, reason: fresh.route.reason, context };
  }

  /** A cache hit: no provider call, cost 0, the model that produced the answer, replayed as SSE when asked. */
  private async fromCache(call: Call, plan: Plan, hit: CacheHit): Promise<CompletionResult> {
    const out: Outcome = {
      served: this.s.catalog.find(hit.answer.model) ?? plan.candidates[0]!,
      choices: hit.answer.choices,
      usage: hit.answer.usage,
      reason: "cache_hit",
      cacheHit: true,
      upstreamMs: 0,
      simulated: this.s.providers.simulatedOnly,
      cacheable: false,
    };
    const priced = price(this.s, call, plan, out);
    // Settled before rendering: the commit completes svc_meta (an agent run's totals).
    await settle(this.s, call, { kind: "answered", path: "cache", outcome: out, priced });
    const choices = forClient(call, out.choices);
    return call.req.stream
      ? { kind: "sse", stream: replayFrames(call, out, { ...hit.answer, choices }, priced.meta) }
      : { kind: "json", body: completionBody(call, out, choices, priced.meta) };
  }

  private async upstream(call: Call, plan: Plan): Promise<Outcome> {
    const r = await completeWithFallback(this.s.providers, upstreamRequest(call, plan, this.s.settings.anthropicCacheControl), this.s.callPolicy);
    call.attempts = r.attempts;
    const usage = r.response.usage ?? estimateUsage(plan.opt.messages, r.model, r.response.choices.map((c) => c.message.content).join(""));
    const out: Outcome = {
      served: r.model,
      choices: r.response.choices,
      usage,
      reason: r.fallback ? "fallback" : plan.reason,
      cacheHit: false,
      upstreamMs: r.upstreamMs,
      simulated: r.provider.simulated,
      cacheable: true,
    };
    if (r.response.extra) out.extra = r.response.extra;
    return out;
  }

  private async stream(call: Call, plan: Plan): Promise<ReadableStream<Uint8Array>> {
    const r = await streamWithFallback(this.s.providers, upstreamRequest(call, plan, this.s.settings.anthropicCacheControl), this.s.callPolicy);
    call.attempts = r.attempts;
    return relay(
      call,
      r,
      {
        answered: (outcome) => {
          const priced = price(this.s, call, plan, outcome);
          return { meta: priced.meta, journaled: settle(this.s, call, { kind: "answered", path: "stream", outcome, priced }) };
        },
        partial: (error, outcome) => settle(this.s, call, { kind: "partial", error, outcome, priced: price(this.s, call, plan, outcome) }),
        failed: (error) => settle(this.s, call, { kind: "failed", error }),
      },
      this.s.shutdown.signal,
    );
  }
}

function cacheRequest(call: Call, plan: Plan): CacheRequest {
  const req: CacheRequest = {
    appId: call.key.appId,
    model: plan.candidates[0]!.id,
    messages: plan.opt.messages,
    maxTokens: call.req.max_tokens,
    params: call.req.params,
    enabled: call.req.svc_options.cache,
    allowNondeterministic: call.req.svc_options.cache_nondeterministic,
  };
  // Set, not spread in: every call makes one (see completion-request.ts on conditional spreads).
  if (plan.opt.embedding) req.embedding = plan.opt.embedding;
  if (plan.opt.cacheFacets) req.facets = plan.opt.cacheFacets;
  return req;
}

function upstreamRequest(call: Call, plan: Plan, cacheControl: boolean): UpstreamRequest {
  const req: UpstreamRequest = {
    candidates: plan.candidates,
    messages: plan.opt.messages,
    max_tokens: call.req.max_tokens,
    params: call.req.params,
    signal: call.signal,
  };
  if (cacheControl && plan.context) req.cacheBreakpoints = cacheBreakpoints(plan.context.assembled);
  return req;
}
