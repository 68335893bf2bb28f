import type { Catalog, ModelInfo } from "../catalog/catalog";

/** Where a call's saving came from, in USD; the parts sum to `saved_usd`. */
export interface SavedBySource {
  /** The prompt's tokens removed by compression, at the requested model's input price. */
  compression: number;
  /** The sent call on the served model instead of the requested one (negative when a fallback cost more). */
  routing: number;
  /** A semantic-cache hit: the call the served model would have been paid for. */
  cache: number;
  /** The provider's prompt cache: its discount on cached tokens (negative on an Anthropic call that writes more than it reads). */
  prompt_cache: number;
  /** The prompt's tokens the conversation's summary took out, at the requested model's input price. */
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
 * nothing for a cache hit). The saving is walked step by step, in the order the gateway works: the
 * conversation's summary and compression remove prompt tokens (on the requested model), routing moves
 * the call to the served model, then the semantic cache answers it for nothing or the provider's prompt
 * cache discounts what was sent.
 */
export function priceCall(catalog: Catalog, c: CostInput): CallCosts {
  const requested = c.requested ?? catalog.baseline;
  const original = catalog.costOf(requested, c.originalPromptTokens, c.completionTokens);
  const actual = c.cacheHit ? 0 : catalog.promptCacheCost(c.served, c.sentPromptTokens, c.cachedTokens ?? 0, c.cacheWriteTokens ?? 0, c.completionTokens);
  if (original === null || actual === null) {
    // No price behind a figure: reported as unknown, and no saving is claimed for any source.
    return {
      cost_original_usd: round(original ?? 0),
      cost_actual_usd: round(actual ?? 0),
      saved_usd: 0,
      saved_by_source: { compression: 0, routing: 0, cache: 0, prompt_cache: 0, conversation: 0 },
      unknown: { original: original === null, actual: actual === null },
    };
  }
  // The served call at the full input price (on the requested model when the served one has no price: no routing part).
  const sentOnServed = round(
    catalog.costOf(c.served, c.sentPromptTokens, c.completionTokens) ?? catalog.costOf(requested, c.sentPromptTokens, c.completionTokens)!,
  );
  const saved = round(original - actual);
  const conversationTokens = c.conversationTokens ?? 0;
  const conversation = round(catalog.costOf(requested, conversationTokens, 0)!);
  const compression = round(catalog.costOf(requested, c.originalPromptTokens - c.sentPromptTokens - conversationTokens, 0)!);
  const cache = c.cacheHit ? sentOnServed : 0;
  const promptCache = c.cacheHit ? 0 : round(sentOnServed - actual);
  // Routing takes the rounding remainder, so the parts sum to saved_usd exactly.
  const routing = round(saved - conversation - compression - cache - promptCache);
  return {
    cost_original_usd: round(original),
    cost_actual_usd: round(actual),
    saved_usd: saved,
    saved_by_source: { compression, routing, cache, prompt_cache: promptCache, conversation },
  };
}

/** Tokens a call kept from the provider, by the sources of priceCall's saved_by_source that save tokens. */
export interface SavedTokensBySource {
  compression: number;
  conversation: number;
  cache: number;
}

/**
 * The tokens behind priceCall's split (the USD split has one source, priceCall; this only counts):
 * the conversation's summary and compression removed prompt tokens, and a cache hit sent nothing,
 * so the rest of the prompt and the whole completion are the cache's. Routing and the provider's
 * prompt cache change prices, not tokens. The parts add up to what a call without the gateway would
 * have sent and received, less what this one did.
 */
export function savedTokensBySource(c: CostInput): SavedTokensBySource {
  const conversation = c.conversationTokens ?? 0;
  const compression = c.originalPromptTokens - c.sentPromptTokens - conversation;
  return { compression, conversation, cache: c.cacheHit ? c.sentPromptTokens + c.completionTokens : 0 };
}
