/**
 * The response cache stage (`svc_options.cache`, `svc_meta.cache_hit`). Open one SemanticCache per
 * process on the store; per request call `lookup`, then on a miss `fill.complete(answer)` or
 * `fill.fail()`. `replayDeltas` turns a hit into stream deltas for `stream: true` requests.
 */
export { SemanticCache, embeddingText, foldedText, type CacheFill, type CacheLookup, type CacheStats, type SemanticCacheOptions } from "./semantic-cache";
export { DEFAULT_CACHE_CONFIG, type BypassReason, type CacheConfig, type CachedAnswer, type CacheHit, type CacheRequest, type HitLayer } from "./types";
export {
  verifyEquivalent,
  compareFacets,
  unmatchedWords,
  wordsToEmbed,
  substitutionAlignment,
  type MismatchKind,
  type Verdict,
  type VerifiablePrompt,
  type WordSimilarity,
} from "./verify";
export { extractFacets, packFacets, type PackedFacets, type PromptFacets } from "./facets";
export { SynonymTable } from "./synonyms";
export { requestKeys, canonicalJson, canonicalContent, offersTools, semanticPrompt, type RequestKeys } from "./keys";
export { replayDeltas } from "./replay";
export { cacheWriteThread, type CacheLog, type CacheWriteThread } from "./persistence";
