import type { ChatMessage } from "../../core/messages";
import type { PackedFacets } from "./facets";
import type { Choice, PassThroughParams, Usage } from "../../providers/types";

/** What the cache needs to know of one completion request, after routing picked the model. */
export interface CacheRequest {
  /** Tenant. Entries are never shared between app_ids. */
  appId: string;
  /** The routed model id (or tier) the answer will come from. */
  model: string;
  /** The messages exactly as they will go upstream. */
  messages: readonly ChatMessage[];
  maxTokens: number;
  params: PassThroughParams;
  /**
   * The embedding of `embeddingText(last user prompt)`, when the caller computed it already (the
   * gateway does, in the same worker task as the other models, to keep model work off the event loop).
   */
  embedding?: Float32Array;
  /**
   * `packFacets(semanticPrompt(messages))`, when the caller computed them (the gateway's worker does,
   * with `embedding`): then the cache extracts no facets on its thread, neither for the lookup's
   * verification nor for the entry a miss files. Without them it extracts the query's only when a
   * neighbour is close enough to verify, and the entry's after the answer (drainUnindexed). Ignored
   * unless their prompt is the request's.
   */
  facets?: PackedFacets;
  /** `svc_options.cache`; absent means enabled. */
  enabled?: boolean;
  /**
   * `svc_options.cache_nondeterministic`: the client accepts a cached answer even though it asked for
   * variety (temperature above the limit, or n > 1).
   */
  allowNondeterministic?: boolean;
}

/** A complete, successful answer, everything the gateway needs to reply (or replay as SSE) without a provider. */
export interface CachedAnswer {
  /** The concrete model that produced the answer. */
  model: string;
  choices: Choice[];
  /** Tokens of the original call; a cache hit reports them but costs 0. */
  usage: Usage;
}

export type HitLayer = "exact" | "semantic" | "coalesced";

export interface CacheHit {
  layer: HitLayer;
  answer: CachedAnswer;
  /** Cosine similarity of the matched prompt (1 for exact and coalesced hits). */
  similarity: number;
  /** The cached prompt that matched; for a semantic hit it differs from the request's. */
  matchedPrompt: string;
  /** When the answer was produced (epoch ms). */
  createdAt: number;
}

export type BypassReason = "disabled" | "nondeterministic";

export interface CacheConfig {
  /** How long an answer stays servable. */
  ttlMs: number;
  /** Size bound: least recently used entries go first. */
  maxEntries: number;
  /** Memory bound on stored prompt and answer text, in bytes (UTF-16 length x 2). */
  maxBytes: number;
  /** Answers larger than this are not cached at all. */
  maxEntryBytes: number;
  /** Cosine similarity from which a semantic candidate is considered (then verified). */
  similarityThreshold: number;
  /**
   * When two prompts differ by a substituted word ("password" / "username"), the cosine of the two
   * words' vectors from which they count as synonyms ("make" / "build"). Words the synonym table
   * pairs ("couch" / "sofa") count as 1.
   */
  minWordSimilarity: number;
  /** How many nearest cached prompts are verified before giving up. */
  candidates: number;
  /** Prompts longer than this get only the exact layer: an embedding of a long text hides differences past its window. */
  semanticMaxChars: number;
  /** Requests with a temperature above this are not cached unless the client opts in. */
  maxTemperature: number;
  /** Operator-wide opt-in: cache requests with temperature above the limit or n > 1 too. */
  allowNondeterministic: boolean;
  /**
   * Whether a request without an explicit temperature is cacheable. It samples at the provider's
   * default (1 at OpenAI and Anthropic), which `maxTemperature` already admits when written out; a
   * cached answer is one sample of that distribution. Off, such requests bypass unless opted in.
   */
  cacheUnsetTemperature: boolean;
  /** How long identical concurrent requests wait for the first one's answer before going upstream themselves. */
  coalesceTimeoutMs: number;
  /** Writes are batched; a batch goes to the store this long after its first write. */
  flushDelayMs: number;
  /**
   * Storage of vectors in the index. i8 is a quarter of f32 and reads the fewest bytes per distance,
   * which is what a search with the CPU caches cold waits on; its cosine is off by at most 0.02, far
   * inside the margin between the similarity threshold and a paraphrase, and the verifier, not the
   * cosine, decides every hit.
   */
  quantization: "f32" | "f16" | "i8";
}

export const DEFAULT_CACHE_CONFIG: CacheConfig = {
  ttlMs: 24 * 60 * 60 * 1000,
  maxEntries: 100_000,
  maxBytes: 512 * 1024 * 1024,
  maxEntryBytes: 256 * 1024,
  // From bench/cache-eval.ts with the shipped embedding (models/embedding), tuned on STS-B dev and
  // edited and reworded prompts: the verifier does the refusing, so the lowest threshold tried (0.5)
  // keeps precision at 1.0 on the test split and loses no paraphrase to the embedding. Its
  // single-word vectors are character n-grams: 0.3 pairs spellings and inflections ("colour" /
  // "color", "run" / "running") and nothing else. Re-run the eval for another embedder.
  similarityThreshold: 0.5,
  minWordSimilarity: 0.3,
  candidates: 4,
  semanticMaxChars: 1000,
  maxTemperature: 1,
  allowNondeterministic: false,
  cacheUnsetTemperature: true,
  coalesceTimeoutMs: 30_000,
  flushDelayMs: 25,
  quantization: "i8",
};
