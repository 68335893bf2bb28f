import type { ChatMessage } from "../core/messages";
import type { PassThroughParams } from "../providers/types";
import type { SvcOptions } from "./request";
import type { Tier } from "../catalog/catalog";
import type { TaskClass } from "../ml/types";
import type { RoutingReason } from "./route";
import type { PackedFacets } from "./cache";

/**
 * The one message that crosses to a worker thread per request, and the one that comes back: every
 * CPU-side stage (PII masking, compression, token counting, embedding, classification, quality
 * score, routing) runs in a single task. Plain data only, so msgpackr can pack it.
 */
export interface OptimizeInput {
  messages: ChatMessage[];
  model: string;
  options: SvcOptions;
  params: PassThroughParams;
  maxTokens: number;
  /** Ids of the catalog models whose provider is configured and healthy right now. */
  availableModels: string[];
  /** The semantic cache wants an embedding of the last user prompt. */
  wantEmbedding: boolean;
  /**
   * Count tokens even when nothing needs them here. The gateway leaves this off: with compression off
   * and no auto-routing, the provider's own usage gives the counts, and a relayed request skips the
   * tokenizer entirely.
   */
  countTokens: boolean;
  qualityFloor: number;
  /**
   * o200k tokens of a stored prefix that goes upstream before `messages` without passing through here
   * (a protocol, a conversation's summary and older turns): routing counts it against context windows.
   */
  prefixTokens?: number;
}

export type RouteOutcome =
  | { ok: true; model: string; reason: RoutingReason; tier?: Tier; candidates: string[]; task?: TaskClass; capable?: string[] }
  | { ok: false; reason: RoutingReason; message: string; tooLong?: boolean };

export interface PiiSpan {
  type: string;
  message: number;
  start: number;
  end: number;
}

export interface OptimizeResult {
  /** Exactly what goes upstream. */
  messages: ChatMessage[];
  /** Tokens before and after compression (o200k); absent when not counted (see OptimizeInput.countTokens). */
  originalTokens?: number;
  compressedTokens?: number;
  compressionRatio: number;
  rulesApplied: string[];
  /** Quality of what was sent against the original (0-100); absent when scoring is off. */
  qualityScore?: number;
  route: RouteOutcome;
  pii: PiiSpan[];
  piiMasked: boolean;
  /** Embedding of `cacheText`, present when asked for and the request ends with a user message. */
  embedding?: Float32Array;
  /** The semantic cache's packed facets of the last user message, with `embedding` (CacheRequest.facets). */
  cacheFacets?: PackedFacets;
  /** The last user message as the semantic cache embeds it (embeddingText; "" when the request ends otherwise or the cache wants no vector). */
  cacheText: string;
}
