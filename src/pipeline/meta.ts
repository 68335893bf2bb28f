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
  simulated?: boolean;
  /** The run's totals after this call (set by the agent-run stage's commit). */
  agent_run?: { id: string; calls: number; cost_usd: number; status: "active" | "tripped" | "closed" };
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
  if (m.conversationId !== undefined) meta.conversation_id = m.conversationId;
  if (m.simulated) meta.simulated = true;
  return meta;
}
