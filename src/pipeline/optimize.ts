import type { Catalog } from "../catalog/catalog";
import type { TaskPrediction } from "../ml/types";
import { countMessageTokens } from "../tokens/count";
import { foldWhitespace } from "../text/fold-whitespace";
import { compressWithQualityFloor } from "./compress";
import type { ChatMessage } from "../core/messages";
import type { OptimizeInput, OptimizeResult, RouteOutcome } from "./optimize-types";
import { decideRoute, needsClassification, promptSignals, type CapabilityTable, type RouteDecision } from "./route";
import { DEFAULT_CACHE_CONFIG, embeddingText, foldedText, packFacets, semanticPrompt } from "./cache";

/** The three trained models, as the optimizer uses them. */
export interface OptimizerModels {
  embed(text: string): Promise<Float32Array>;
  /** The vector of each text, as embed gives it; the shipped embedding makes them in one run of its graph. */
  embedBatch(texts: readonly string[]): Promise<Float32Array[]>;
  classify(text: string, embedding?: Float32Array): Promise<TaskPrediction>;
  /** 0-100: how much of the original's meaning the compressed text keeps. */
  quality(original: string, compressed: string): Promise<number>;
}

export interface OptimizerDeps {
  catalog: Catalog;
  capabilities: CapabilityTable;
  /** Absent on the event loop, where only requests that need no model run (see needsModels). */
  models?: OptimizerModels;
  /**
   * Whether optimize() extracts the semantic cache's facets of the prompt (OptimizeResult.cacheFacets):
   * in a worker, so that the cache extracts none on the event loop. The event loop's own optimizer
   * leaves them to the cache, which reads a query's facets only once a neighbour is close enough to
   * verify, and a new entry's between requests after its answer (SemanticCache.drainUnindexed): the
   * same thread either way, and a miss without a close neighbour no longer waits for them before going
   * upstream: bun bench/miss-facets.ts (600 prompts of 200-1,000 characters, interleaved with main, load
   * 8-10): optimize() and the lookup 1,346 -> 1,147 µs p50, the work after the answer 103 -> 352 µs.
   */
  extractsFacets?: boolean;
}

/** Whether a request needs any of the three models, or only token counting and routing rules. */
export function needsModels(input: OptimizeInput): boolean {
  return input.options.compress || input.wantEmbedding || needsClassification(input.model, input.options.route);
}

function modelsOf(deps: OptimizerDeps): OptimizerModels {
  if (!deps.models) throw new Error("optimize: this request needs the models, which run in the worker pool");
  return deps.models;
}

/** The last user turn, whitespace folded: what the classifier reads when the request ends otherwise. */
export function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "user") return foldWhitespace(messages[i]!.content);
  }
  return "";
}

/**
 * Every CPU-side stage of one request, in order: compress (backing off while the quality score is
 * under the floor), embed and classify the prompt, then route. Runs in a worker thread; pure apart
 * from the models it is given.
 */
export async function optimize(input: OptimizeInput, deps: OptimizerDeps): Promise<OptimizeResult> {
  const o = input.options;
  const classify = needsClassification(input.model, o.route);
  const compressed = o.compress
    ? await compressWithQualityFloor(
        input.messages,
        { aggressiveness: o.max_aggressiveness, skipRules: o.skip_rules, qualityFloor: input.qualityFloor },
        (a, b) => modelsOf(deps).quality(a, b),
      )
    : unchanged(input.messages, input.countTokens || classify);

  // The semantic cache compares the last user message as it goes upstream, canonicalised as the cache
  // does it; embedding it here keeps model work off the event loop. The classifier reads the message
  // as written (folded), the cache its canonical request (embeddingText): one vector serves both
  // unless a courtesy or a question frame made them differ.
  const prompt = input.wantEmbedding || classify ? semanticPrompt(compressed.messages) : null;
  const cacheText = prompt === null || !input.wantEmbedding ? "" : embeddingText(prompt);
  const classifyText = classify ? (prompt === null ? "" : foldedText(prompt)) || lastUserText(compressed.messages) : "";
  const [embedding, classifyVector] = await vectors(deps, cacheText, classify ? classifyText : undefined);
  const prediction = classify ? await modelsOf(deps).classify(classifyText, classifyVector) : undefined;
  // The cache verifies a candidate against these facets and files them with the entry a miss makes:
  // a worker extracts them here, not on the event loop (cache-lookup.ts: the first verification of an
  // entry extracting them set the lookup's p99). Past semanticMaxChars the cache matches exactly only.
  const cacheFacets =
    deps.extractsFacets && input.wantEmbedding && prompt !== null && cacheText !== "" && prompt.length <= DEFAULT_CACHE_CONFIG.semanticMaxChars
      ? packFacets(prompt)
      : undefined;

  const available = availableSet(input.availableModels);
  const decision = decideRoute({
    model: input.model,
    route: o.route,
    prediction,
    // Only routing by task reads the signals; an explicit or operator-default model skips the scan.
    signals: () =>
      promptSignals(
        { messages: compressed.messages, max_tokens: input.maxTokens, params: input.params },
        compressed.compressedTokens === undefined ? undefined : compressed.compressedTokens + (input.prefixTokens ?? 0),
      ),
    catalog: deps.catalog,
    capabilities: deps.capabilities,
    // A model the catalog does not list is available when its provider serves some listed model now.
    isAvailable: (m) => available.has(m.id) || (m.listed === false && input.availableModels.some((id) => deps.catalog.find(id)?.provider === m.provider)),
  });
  const result: OptimizeResult = {
    messages: compressed.messages,
    originalTokens: compressed.originalTokens,
    compressedTokens: compressed.compressedTokens,
    compressionRatio: compressed.compressionRatio,
    rulesApplied: compressed.rulesApplied,
    route: routeOutcome(decision),
    pii: [],
    piiMasked: false,
    cacheText,
  };
  // Set, not spread in: this runs on the event loop for every relayed call (see completion-request.ts on conditional spreads).
  // svc_meta.quality_score is an integer (seed 2.3).
  if (o.score) result.qualityScore = Math.round(compressed.qualityScore);
  if (embedding) result.embedding = embedding;
  if (cacheFacets) result.cacheFacets = cacheFacets;
  return result;
}

/** The route as the optimizer's result carries it: model ids, which cross to and from the workers. */
function routeOutcome(decision: RouteDecision): RouteOutcome {
  if (!decision.ok)
    return decision.tooLong
      ? { ok: false, reason: decision.reason, message: decision.message, tooLong: true }
      : { ok: false, reason: decision.reason, message: decision.message };
  const route: RouteOutcome = { ok: true, model: decision.model.id, reason: decision.reason, candidates: decision.candidates.map((m) => m.id) };
  if (decision.tier) route.tier = decision.tier;
  if (decision.task) route.task = decision.task;
  if (decision.capable) route.capable = decision.capable.map((m) => m.id);
  return route;
}

/**
 * The cache's vector (of `cacheText`, none when it is "") and the classifier's (of `classifyText`, none
 * when the request is not classified). When both are wanted and the texts differ (a courtesy, a question
 * frame or a synonym made them differ: 37-81% of the prompts of each compression corpus and of
 * bench/data's chatty and FAQ files), one batch makes both (HashEmbedder.pool: one run of the graph over
 * the two bags, which share most ids), the classifier's text last so that the classifier's word bag
 * finds its word split memoised (ml/features.ts splitWords).
 */
async function vectors(
  deps: OptimizerDeps,
  cacheText: string,
  classifyText: string | undefined,
): Promise<[Float32Array | undefined, Float32Array | undefined]> {
  if (classifyText === undefined) return [cacheText === "" ? undefined : await modelsOf(deps).embed(cacheText), undefined];
  if (cacheText === "" || cacheText === classifyText) {
    const vector = await modelsOf(deps).embed(classifyText);
    return [cacheText === "" ? undefined : vector, vector];
  }
  const [cache, forClassifier] = await modelsOf(deps).embedBatch([cacheText, classifyText]);
  return [cache, forClassifier];
}

/**
 * The servable ids as a Set, kept per list: on the event loop every call hands the gateway's one list,
 * and a Set made per call was 1.7% of the relay's event-loop time under load (a worker gets a copy per
 * task, so it makes one per task, as before).
 */
const availableSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function availableSet(ids: readonly string[]): ReadonlySet<string> {
  let set = availableSets.get(ids);
  if (!set) availableSets.set(ids, (set = new Set(ids)));
  return set;
}

function unchanged(messages: ChatMessage[], count: boolean) {
  const tokens = count ? countMessageTokens(messages) : undefined;
  return { messages, originalTokens: tokens, compressedTokens: tokens, compressionRatio: 0, rulesApplied: [] as string[], qualityScore: 100 };
}
