import type { Catalog, ModelInfo } from "../catalog/catalog";

/** Where a call's saving came from, in USD; the parts sum to `saved_usd`. */
export interface SavedBySource {
  /** The prompt's tokens removed, at the requested model's input price. */
  compression: number;
  /** The sent call on the served model instead of the requested one (negative when a fallback cost more). */
  routing: number;
  /** A semantic-cache hit: the whole call. */
  cache: number;
  /** Provider prompt caching (issue 28; 0 until it is priced). */
  prompt_cache: number;
  /** Conversation memory (issue 28; 0 until it is priced). */
  conversation: number;
}

export interface CallCosts {
  cost_original_usd: number;
  cost_actual_usd: number;
  saved_usd: number;
  saved_by_source: SavedBySource;
  /**
   * Which figures have no price behind them (a model the catalog does not list): they read 0 above, for
   * the ledger's sums, and svc_meta reports them as null rather than a guess.
   */
  unknown?: { original: boolean; actual: boolean };
}

export interface CostInput {
  /** The model the client asked for; undefined for `auto`, which is priced on the catalog's baseline. */
  requested: ModelInfo | undefined;
  /** The model that produced the answer (for a cache hit, the one that produced the cached answer). */
  served: ModelInfo;
  originalPromptTokens: number;
  sentPromptTokens: number;
  completionTokens: number;
  cacheHit: boolean;
}

// Micro-dollar precision without float noise such as 0.30000000000000004 in a client's reports.
const round = (usd: number) => Math.round(usd * 1e10) / 1e10;

/**
 * What the call would have cost without the gateway (the original prompt and the same completion on
 * the requested model, or the baseline for auto) against what it cost (the prompt actually sent on
 * the model that served it; nothing for a cache hit).
 */
export function priceCall(catalog: Catalog, c: CostInput): CallCosts {
  const requested = c.requested ?? catalog.baseline;
  const original = catalog.costOf(requested, c.originalPromptTokens, c.completionTokens);
  const sentOnServed = catalog.costOf(c.served, c.sentPromptTokens, c.completionTokens);
  const actual = c.cacheHit ? 0 : sentOnServed;
  const costs: CallCosts = {
    cost_original_usd: round(original ?? 0),
    cost_actual_usd: round(actual ?? 0),
    saved_usd: round((original ?? 0) - (actual ?? 0)),
    saved_by_source: { compression: 0, routing: 0, cache: 0, prompt_cache: 0, conversation: 0 },
  };
  if (original === null || actual === null) {
    costs.unknown = { original: original === null, actual: actual === null };
    costs.saved_usd = 0;
    return costs;
  }
  // The saving walked step by step: compression (original prompt → sent prompt, on the requested
  // model), routing (requested → served model), the cache (the served call → nothing). Routing takes
  // the rounding remainder, so the parts sum to saved_usd exactly.
  const compression = round(catalog.costOf(requested, c.originalPromptTokens - c.sentPromptTokens, 0) ?? 0);
  const cache = c.cacheHit ? round(sentOnServed ?? 0) : 0;
  costs.saved_by_source = { compression, routing: round(costs.saved_usd - compression - cache), cache, prompt_cache: 0, conversation: 0 };
  return costs;
}
