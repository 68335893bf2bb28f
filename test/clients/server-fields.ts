import { buildMeta, type MetaInput } from "../../src/pipeline/meta";
import type { OptimizeResult } from "../../src/pipeline/optimize-types";

/** The server's meta builder with every optional field switched on, so every field it can send is present. */
export function fullestMeta() {
  const input: MetaInput = {
    opt: { compressionRatio: 0.4, qualityScore: 97, rulesApplied: ["filler"], piiMasked: true } as unknown as OptimizeResult,
    originalTokens: 100,
    compressedTokens: 60,
    costs: {
      cost_original_usd: 0.001,
      cost_actual_usd: 0.0004,
      saved_usd: 0.0006,
      saved_by_source: { compression: 0.0002, routing: 0.0003, cache: 0, prompt_cache: 0.0001, conversation: 0 },
    },
    reason: "code_task",
    modelRequested: "auto",
    cacheHit: false,
    overheadMs: 3,
    score: true,
    conversationId: "conv_1",
    conversationTokensSaved: 12,
    promptCache: { prefix_tokens: 900, min_tokens: 1024, below_minimum: true },
    simulated: true,
  };
  return buildMeta(input);
}
