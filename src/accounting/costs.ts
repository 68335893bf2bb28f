import type { Catalog, ModelInfo } from "../catalog/catalog";

/** Where a call's saving came from (CONTRACT.md): USD per source, adding up to `saved_usd`. */
export interface SavedBySource {
  compression: number;
  routing: number;
  cache: number;
  prompt_cache: number;
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
  /** Of the prompt tokens the original had and the sent prompt has not, those the conversation's summary took out. */
  conversationTokens?: number;
  /** Of sentPromptTokens, read from and written to the provider's prompt cache, as it reported them. */
  cachedTokens?: number;
  cacheWriteTokens?: number;
}

// Micro-dollar precision without float noise such as 0.30000000000000004 in a client's reports.
const round = (usd: number) => Math.round(usd * 1e10) / 1e10;

/**
 * What the call would have cost without the gateway (the original prompt and the same completion on
 * the requested model, or the baseline for auto, at the full input price) against what it cost (the
 * prompt actually sent on the model that served it, its cached share at the provider's cached prices;
 * nothing for a cache hit). The saving is taken apart in the order the gateway works: the conversation's
 * summary and compression remove prompt tokens (priced on the requested model), routing moves the call
 * to another model, and the provider's prompt cache discounts what was sent. Anthropic's cache writes
 * cost more than input, so prompt_cache can be negative on the call that writes.
 */
export function priceCall(catalog: Catalog, c: CostInput): CallCosts {
  const baseModel = c.requested ?? catalog.baseline;
  const original = round(catalog.cost(baseModel, c.originalPromptTokens, c.completionTokens));
  if (c.cacheHit) {
    return { cost_original_usd: original, cost_actual_usd: 0, saved_usd: original, saved_by_source: { compression: 0, routing: 0, cache: original, prompt_cache: 0, conversation: 0 } };
  }
  const actual = round(catalog.promptCacheCost(c.served, c.sentPromptTokens, c.cachedTokens ?? 0, c.cacheWriteTokens ?? 0, c.completionTokens));
  const saved = round(original - actual);
  const perToken = baseModel.input_usd_per_mtok / 1_000_000;
  const conversation = round((c.conversationTokens ?? 0) * perToken);
  const compression = round((c.originalPromptTokens - c.sentPromptTokens - (c.conversationTokens ?? 0)) * perToken);
  const routing = round(catalog.cost(baseModel, c.sentPromptTokens, c.completionTokens) - catalog.cost(c.served, c.sentPromptTokens, c.completionTokens));
  // The rest, so the parts add up to saved_usd exactly after rounding.
  const prompt_cache = round(saved - conversation - compression - routing);
  return { cost_original_usd: original, cost_actual_usd: actual, saved_usd: saved, saved_by_source: { compression, routing, cache: 0, prompt_cache, conversation } };
}
