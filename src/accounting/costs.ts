import type { Catalog, ModelInfo } from "../catalog/catalog";

export interface CallCosts {
  cost_original_usd: number;
  cost_actual_usd: number;
  saved_usd: number;
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
  const original = catalog.costOf(c.requested ?? catalog.baseline, c.originalPromptTokens, c.completionTokens);
  const actual = c.cacheHit ? 0 : catalog.costOf(c.served, c.sentPromptTokens, c.completionTokens);
  const costs: CallCosts = { cost_original_usd: round(original ?? 0), cost_actual_usd: round(actual ?? 0), saved_usd: round((original ?? 0) - (actual ?? 0)) };
  if (original === null || actual === null) {
    costs.unknown = { original: original === null, actual: actual === null };
    costs.saved_usd = 0;
  }
  return costs;
}
