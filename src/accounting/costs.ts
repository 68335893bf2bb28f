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
  const original = round(catalog.cost(requested, c.originalPromptTokens, c.completionTokens));
  const sentOnServed = round(catalog.cost(c.served, c.sentPromptTokens, c.completionTokens));
  const actual = c.cacheHit ? 0 : sentOnServed;
  const saved = round(original - actual);
  // The saving walked step by step: compression (original prompt → sent prompt, on the requested
  // model), routing (requested → served model), the cache (the served call → nothing). Routing takes
  // the rounding remainder, so the parts sum to saved_usd exactly.
  const compression = round(catalog.cost(requested, c.originalPromptTokens - c.sentPromptTokens, 0));
  const cache = c.cacheHit ? sentOnServed : 0;
  const routing = round(saved - compression - cache);
  return { cost_original_usd: original, cost_actual_usd: actual, saved_usd: saved, saved_by_source: { compression, routing, cache, prompt_cache: 0, conversation: 0 } };
}
