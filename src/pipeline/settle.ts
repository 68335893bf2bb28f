import type { LedgerRow } from "../accounting/ledger";
import { priceCall, savedTokensBySource, type CostInput, type SavedBySource } from "../accounting/costs";
import { toMicros } from "../accounting/budgets";
import { ApiError } from "../core/errors";
import { UpstreamFailure } from "../providers/call";
import { ProviderError, type Usage } from "../providers/types";
import type { ModelInfo } from "../catalog/catalog";
import type { Services } from "./services";
import type { Call, CallEnd, Outcome, Plan, Priced } from "./call";
import { buildMeta, type PromptCacheMeta } from "./meta";
import { promptCacheMinTokens } from "../providers/prompt-cache";
import { observeCall } from "./observe";
import { commit, rollback } from "./stage";

/** Costs, timing and svc_meta of an answer, measured when it is complete (before it is rendered). */
export function price(s: Pick<Services, "catalog">, call: Call, plan: Plan, out: Outcome): Priced {
  // The provider counts the prompt it received (compressed); scale our own count of the original by
  // the same factor so both sides of the saving are in the provider's units. Uncounted means the
  // prompt went out unchanged.
  const sent = out.usage.prompt_tokens;
  const { originalTokens: ours, compressedTokens: oursSent } = plan.opt;
  const scale = ours !== undefined && oursSent ? sent / oursSent : 1;
  const originalPromptTokens = ours !== undefined && oursSent ? Math.round(ours * scale) : sent;
  const conversationTokensSaved = Math.round((plan.context?.conversationSavedTokens ?? 0) * scale);
  const input: CostInput = {
    requested: plan.requested,
    served: out.served,
    originalPromptTokens,
    sentPromptTokens: sent,
    completionTokens: out.usage.completion_tokens,
    cacheHit: out.cacheHit,
    conversationTokens: conversationTokensSaved,
  };
  // Set, not spread in: see completion-request.ts on conditional spreads in the per-call path.
  if (out.usage.cached_tokens !== undefined) input.cachedTokens = out.usage.cached_tokens;
  if (out.usage.cache_write_tokens !== undefined) input.cacheWriteTokens = out.usage.cache_write_tokens;
  const costs = priceCall(s.catalog, input);
  const totalMs = performance.now() - call.t0;
  const overheadMs = totalMs - out.upstreamMs;
  const meta = buildMeta({
    opt: plan.opt,
    originalTokens: originalPromptTokens,
    compressedTokens: sent,
    costs,
    reason: out.reason,
    modelRequested: call.req.model,
    cacheHit: out.cacheHit,
    overheadMs,
    score: call.req.svc_options.score,
    conversationId: call.req.svc_options.conversation_id,
    conversationTokensSaved,
    ...(plan.context && { promptCache: promptCacheMeta(Math.round(plan.context.prefixTokens * scale), promptCacheMinTokens(out.served)) }),
    simulated: out.simulated,
  });
  return { costs, savedTokens: savedTokensBySource(input), originalPromptTokens, totalMs, overheadMs, meta };
}

function promptCacheMeta(prefixTokens: number, min: number | undefined): PromptCacheMeta {
  return { prefix_tokens: prefixTokens, min_tokens: min ?? null, below_minimum: min === undefined || prefixTokens < min };
}

/**
 * The status and error code a failed call is recorded with. A client that went away is 499 (nginx's
 * convention) whatever the error it left behind: an aborted provider call, or the worker pool refusing
 * to start a task for nobody.
 */
export function failureOutcome(e: unknown, signal: AbortSignal): { status: number; code: string } {
  if (e instanceof ApiError && e.code === "SHUTTING_DOWN") return { status: e.status, code: e.code };
  if (signal.aborted || (e instanceof ProviderError && e.kind === "aborted")) return { status: 499, code: "CLIENT_CLOSED" };
  const err = e instanceof ApiError ? e : undefined;
  return { status: err?.status ?? 500, code: err?.code ?? "INTERNAL_ERROR" };
}

/** The one place a call's ledger row is written out, for every way a call ends but a refusal. A partial stream is priced like an answer, with the status of how it ended. */
export function ledgerRow(call: Call, end: Exclude<CallEnd, { kind: "refused" }>): LedgerRow {
  const o = call.req.svc_options;
  const common = {
    requestId: call.requestId,
    keyId: call.key.id,
    appId: call.key.appId,
    modelRequested: call.req.model,
    stream: call.req.stream,
    budgetId: call.budgetId ?? o.budget_id ?? null,
    conversationId: o.conversation_id ?? null,
    agentRunId: o.agent_run_id ?? null,
  };
  if (end.kind === "answered" || end.kind === "partial") {
    const { outcome: out, priced: p } = end;
    const ended = end.kind === "partial" ? failureOutcome(end.error, call.signal) : { status: 200, code: null };
    return {
      ...common,
      model: out.served.id,
      provider: out.served.provider,
      promptTokens: out.usage.prompt_tokens,
      completionTokens: out.usage.completion_tokens,
      originalTokens: p.originalPromptTokens,
      costOriginalUsd: p.costs.cost_original_usd,
      costActualUsd: p.costs.cost_actual_usd,
      savedUsd: p.costs.saved_usd,
      ...savedColumns(p.costs.saved_by_source),
      cacheHit: out.cacheHit,
      status: ended.status,
      errorCode: ended.code,
      latencyMs: p.totalMs,
      overheadMs: p.overheadMs,
      createdAt: Date.now(),
    };
  }
  const { status, code } = failureOutcome(end.error, call.signal);
  const totalMs = performance.now() - call.t0;
  const upstreamMs = end.error instanceof UpstreamFailure ? end.error.upstreamMs : 0;
  return {
    ...common,
    model: null,
    provider: null,
    promptTokens: 0,
    completionTokens: 0,
    originalTokens: call.plan?.opt.originalTokens ?? 0,
    costOriginalUsd: 0,
    costActualUsd: 0,
    savedUsd: 0,
    ...NOTHING_SAVED,
    cacheHit: false,
    status,
    errorCode: code,
    latencyMs: totalMs,
    overheadMs: totalMs - upstreamMs,
    createdAt: Date.now(),
  };
}

/**
 * A provider call svc makes on a call's behalf (a conversation's model-written summary step): a ledger
 * row of its own (request id `<call's id>.<suffix>`), on the call's key, app and conversation, at its
 * model's price, charged with the call to the call's budget and agent run (call.sideMicros). It is not
 * a call of the client's, so the key's call quota does not count it.
 */
export function recordSideCall(
  s: Pick<Services, "ledger" | "catalog">,
  call: Call,
  suffix: string,
  served: ModelInfo,
  usage: Usage,
  upstreamMs: number,
): LedgerRow {
  const cost = s.catalog.promptCacheCost(served, usage.prompt_tokens, usage.cached_tokens ?? 0, usage.cache_write_tokens ?? 0, usage.completion_tokens) ?? 0;
  call.sideMicros = (call.sideMicros ?? 0) + toMicros(cost);
  const o = call.req.svc_options;
  const row: LedgerRow = {
    requestId: `${call.requestId}.${suffix}`,
    keyId: call.key.id,
    appId: call.key.appId,
    model: served.id,
    modelRequested: served.id,
    provider: served.provider,
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    originalTokens: usage.prompt_tokens,
    costOriginalUsd: cost,
    costActualUsd: cost,
    savedUsd: 0,
    ...NOTHING_SAVED,
    cacheHit: false,
    status: 200,
    errorCode: null,
    latencyMs: upstreamMs,
    overheadMs: 0,
    stream: false,
    // The budget the budget stage will charge (it has not run yet): the named one, else the key's default.
    budgetId: o.budget_id ?? call.key.budgetId ?? null,
    conversationId: o.conversation_id ?? null,
    agentRunId: o.agent_run_id ?? null,
    createdAt: Date.now(),
  };
  // Not waited for here: the call's own row, recorded after it, is journaled in the same write or a
  // later one, and the call's answer waits for that.
  void s.ledger.record(row);
  return row;
}

function savedColumns(by: SavedBySource) {
  return {
    savedCompressionUsd: by.compression,
    savedRoutingUsd: by.routing,
    savedCacheUsd: by.cache,
    savedPromptCacheUsd: by.prompt_cache,
    savedConversationUsd: by.conversation,
  };
}

const NOTHING_SAVED = savedColumns({ compression: 0, routing: 0, cache: 0, prompt_cache: 0, conversation: 0 });

/**
 * Settles a call exactly once, whichever path reaches here first (the client going away after the
 * last chunk, or after a failure, finds it settled): the stages commit in order or roll back in
 * reverse order, then the call is recorded (ledger row, metrics). Returns, when a row was recorded
 * into a journal, the promise that it is written there (Ledger.record): the call's answer, or its
 * error, goes out only after it.
 */
export function settle(s: Pick<Services, "ledger" | "metrics" | "tracer">, call: Call, end: CallEnd): Promise<void> | undefined {
  if (call.settled) return undefined;
  call.settled = true;
  const start = performance.now();
  if (end.kind === "failed" || end.kind === "refused") {
    rollback(call, end.error);
    if (end.kind === "refused") return undefined;
  } else {
    // A partial stream commits too: what was delivered was paid for (the quota keeps the call; the
    // cache fill refuses the outcome, which is never cacheable).
    commit(call, end.outcome, end.priced);
  }
  const row = ledgerRow(call, end);
  const journaled = s.ledger.record(row);
  observeCall(s, call, end, row);
  s.metrics.observeStage("settle", (performance.now() - start) / 1000);
  s.tracer?.record(call, end, row, start);
  return journaled;
}
