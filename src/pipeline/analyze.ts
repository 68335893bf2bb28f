import type { CompletionRequest } from "./request";
import type { ChatMessage } from "../core/messages";
import type { OptimizeInput, OptimizeResult, PiiSpan } from "./optimize-types";
import { noProviderError, type RoutingReason } from "./route";

/**
 * What the optimizer alone decides for a request, without calling a provider: the answer of
 * `svc optimize` (one per input line) and of `POST /v1/playground`.
 */
export interface OptimizerReport {
  messages: ChatMessage[];
  model: string;
  svc_meta: {
    original_tokens: number;
    compressed_tokens: number;
    compression_ratio: number;
    quality_score?: number;
    routing_reason: RoutingReason;
    rules_applied: string[];
    pii_masked: boolean;
  };
  pii: PiiSpan[];
}

export function optimizeInputOf(req: CompletionRequest, availableModels: string[], qualityFloor: number): OptimizeInput {
  return {
    messages: req.messages,
    model: req.model,
    options: req.svc_options,
    params: req.params,
    maxTokens: req.max_tokens,
    availableModels,
    wantEmbedding: false,
    countTokens: true,
    qualityFloor,
  };
}

/** The report of an optimizer run on a request; `pii` is what masking found before it (see maskRequest). */
export function reportOf(opt: OptimizeResult, pii?: { found: PiiSpan[]; masked: boolean }): OptimizerReport {
  if (!opt.route.ok) throw noProviderError(opt.route);
  if (opt.originalTokens === undefined || opt.compressedTokens === undefined) throw new Error("reportOf: the optimizer ran without countTokens");
  return {
    messages: opt.messages,
    model: opt.route.model,
    svc_meta: {
      original_tokens: opt.originalTokens,
      compressed_tokens: opt.compressedTokens,
      compression_ratio: opt.compressionRatio,
      ...(opt.qualityScore !== undefined && { quality_score: opt.qualityScore }),
      routing_reason: opt.route.reason,
      rules_applied: opt.rulesApplied,
      pii_masked: pii?.masked ?? opt.piiMasked,
    },
    pii: pii?.found ?? opt.pii,
  };
}
