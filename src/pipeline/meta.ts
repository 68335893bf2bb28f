import type { CallCosts, SavedBySource } from "../accounting/costs";
import type { OptimizeResult } from "./optimize-types";
import type { RoutingReason } from "./route";

/**
 * `svc_meta` of seed 2.3, plus the contract's additions (simulated, agent_run). A cost is null when the
 * model has no price in the catalog (an unlisted model the provider serves by name).
 */
export interface SvcMeta {
  cost_original_usd: number | null;
  cost_actual_usd: number | null;
  saved_usd: number | null;
  /** Where the saving came from, in USD; the parts sum to `saved_usd` (all 0 when a cost is unknown). */
  saved_by_source: SavedBySource;
  original_tokens: number;
  compressed_tokens: number;
  compression_ratio: number;
  quality_score?: number;
  routing_reason: RoutingReason;
  model_requested: string;
  rules_applied: string[];
  cache_hit: boolean;
  pii_masked: boolean;
  latency_overhead_ms: number;
  conversation_id?: string;
  /** Prompt tokens (the provider's units) the conversation's summary kept from this call. */
  conversation_tokens_saved?: number;
  /**
   * With a protocol or a conversation: the stable prefix this call sent (provider tokens) and the
   * shortest the served model's provider caches; `below_minimum` says the provider will not cache it.
   */
  prompt_cache?: PromptCacheMeta;
  simulated?: boolean;
  /** Set when a budget moved `auto` routing off the model it chose (routing_reason `budget_fit`; the budget stage's commit). */
  budget_fit?: BudgetFitMeta;
  /** The run's totals after this call (set by the agent-run stage's commit). */
  agent_run?: { id: string; calls: number; cost_usd: number; status: "active" | "tripped" | "closed"; wrap_up?: true };
}

/** The model routing had chosen for the task, and why, before the budget could not cover it. */
export interface BudgetFitMeta {
  instead_of: string;
  reason: RoutingReason;
}

export interface PromptCacheMeta {
  prefix_tokens: number;
  min_tokens: number | null;
  below_minimum: boolean;
}

export interface MetaInput {
  opt: OptimizeResult;
  /** In the provider's units: the prompt as sent, and the original scaled to the same tokenizer. */
  originalTokens: number;
  compressedTokens: number;
  costs: CallCosts;
  reason: RoutingReason;
  modelRequested: string;
  cacheHit: boolean;
  overheadMs: number;
  score: boolean;
  conversationId?: string;
  conversationTokensSaved?: number;
  promptCache?: PromptCacheMeta;
  simulated: boolean;
}

export function buildMeta(m: MetaInput): SvcMeta {
  const meta: SvcMeta = {
    original_tokens: m.originalTokens,
    compressed_tokens: m.compressedTokens,
    compression_ratio: m.opt.compressionRatio,
    ...(m.score && m.opt.qualityScore !== undefined && { quality_score: m.opt.qualityScore }),
    cost_original_usd: m.costs.unknown?.original ? null : m.costs.cost_original_usd,
    cost_actual_usd: m.costs.unknown?.actual ? null : m.costs.cost_actual_usd,
    saved_usd: m.costs.unknown ? null : m.costs.saved_usd,
    saved_by_source: m.costs.saved_by_source,
    routing_reason: m.reason,
    model_requested: m.modelRequested,
    rules_applied: m.opt.rulesApplied,
    cache_hit: m.cacheHit,
    pii_masked: m.opt.piiMasked,
    latency_overhead_ms: Math.max(0, Math.round(m.overheadMs)),
  };
  if (m.conversationId !== undefined) {
    meta.conversation_id = m.conversationId;
    meta.conversation_tokens_saved = m.conversationTokensSaved ?? 0;
  }
  if (m.promptCache) meta.prompt_cache = m.promptCache;
  if (m.simulated) meta.simulated = true;
  return meta;
}
