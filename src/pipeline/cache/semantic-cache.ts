import { randomUUID } from "node:crypto";
import type { Embedder } from "../../ml/types";
import { foldWhitespace } from "../../text/fold-whitespace";
import type { Store } from "../../store/db";
import { Coalescer } from "./coalescer";
import { canonicalRequest, extractFacets, facetBytes, packFacets, stem, unpackFacets, type PromptFacets } from "./facets";
import { requestKeys, type RequestKeys } from "./keys";
import {
  CacheWriter,
  decodeEmbedding,
  type CacheWriteThread,
  embedderSignature,
  encodeEmbedding,
  loadLiveRows,
  type CacheLog,
  type CacheRow,
} from "./persistence";
import { DEFAULT_CACHE_CONFIG, type BypassReason, type CacheConfig, type CachedAnswer, type CacheHit, type CacheRequest } from "./types";
import { EMBEDDED_SYNONYM, SHIPPED_SYNONYMS } from "./request-synonyms";
import type { SynonymTable } from "./synonyms";
import { VectorSet } from "./vector-set";
import { verifyEquivalent, wordsToEmbed, type VerifiablePrompt, type WordSimilarity } from "./verify";

/** What `lookup` found. On a miss the caller gets the fill through which it hands back the upstream answer. */
export type CacheLookup = { kind: "hit"; hit: CacheHit } | { kind: "miss"; fill: CacheFill } | { kind: "bypass"; reason: BypassReason };

/**
 * The open end of a cache miss. Call exactly one of them when the upstream call is over; requests
 * waiting for this one are released by either.
 */
export interface CacheFill {
  /**
   * Hands over the upstream answer. It is stored only when complete (every choice finished with
   * `stop` or `tool_calls`), neither empty nor a refusal, and within the size limit; returns whether it was stored.
   */
  complete(answer: CachedAnswer): boolean;
  /** The upstream call failed or was abandoned: nothing is stored, waiting duplicates go upstream themselves. */
  fail(): void;
}

/**
 * The other gateway nodes' caches (src/pipeline/cache/redis-peers.ts): entries one node writes reach
 * every node's index, and identical misses on different nodes make one upstream call.
 */
export interface CachePeers {
  /** Claims the upstream call for `exactKey` across nodes: true when this node makes it, false when another node already does. */
  lead(exactKey: string): Promise<boolean>;
  /** Keeps this node's claim on `exactKey` alive while its call runs; the returned function stops (at the fill's end). */
  hold(exactKey: string): () => void;
  /** Calls `lapsed` once the claim on `exactKey` is gone without an entry or a release (its node died); the returned function stops watching. */
  watch(exactKey: string, lapsed: () => void): () => void;
  /** A new entry of this node, for every other node (it also ends this node's claim on its key). */
  share(row: CacheRow): void;
  /** This node's call for `exactKey` stored nothing: nodes waiting for it go upstream themselves. */
  release(exactKey: string): void;
}

export interface CacheStats {
  entries: number;
  bytes: number;
  partitions: number;
  inFlight: number;
  pendingWrites: number;
  hits: { exact: number; semantic: number; coalesced: number };
  misses: number;
  bypassed: number;
  /** Semantic candidates above the threshold that the verifier refused, by reason. */
  refused: Record<string, number>;
}

export interface SemanticCacheOptions {
  store: Store;
  embedder: Embedder;
  /** Synonyms the verifier accepts as swapped words; default the shipped request words (request-synonyms.ts), which loadSynonyms extends with an operator's file. */
  synonyms?: SynonymTable;
  config?: Partial<CacheConfig>;
  log?: CacheLog;
  /** Clock, for tests of expiry. */
  now?: () => number;
  /** Where a SQLite store's writes go instead of the caller's thread (the gateway's: cacheWriteThread). */
  writeThread?: CacheWriteThread;
}

interface Entry {
  id: string;
  label: bigint;
  exactKey: string;
  scopeKey: string;
  contextHash: string;
  /** Partition of the vector set holding this entry's embedding; null for exact-only entries. */
  partition: string | null;
  prompt: string;
  /**
   * The prompt's facets, packed (see packFacets): the request that filled the entry brings them when
   * the gateway's worker extracted them with the embedding; an entry filled without them (the event
   * loop's optimizer leaves them to the cache), loaded from the store or received from a peer gets them
   * in drainUnindexed, after the vectors, or on its first verification if that comes first. Then its
   * first verification costs what every later one does.
   */
  facets: Uint8Array | null;
  /** The answer as JSON: every hit parses a fresh copy that the caller may change freely. */
  response: string;
  bytes: number;
  createdAt: number;
  expiresAt: number;
  hits: number;
  lastHitAt: number | null;
}

const COMPLETE_FINISH_REASONS: ReadonlySet<string> = new Set(["stop", "tool_calls"]);
const NO_VECTORS: ReadonlyMap<string, Float32Array> = new Map();
const WORD_MEMO_SIZE = 20_000;
/** Vectors per indexing step (see indexLater): small enough that a request never waits long behind one. */
const REBUILD_BATCH = 256;

/** Whitespace runs mean nothing to an embedding; collapsing them makes "a  b" and "a b" one vector. */
export function foldedText(prompt: string): string {
  return foldWhitespace(prompt.normalize("NFKC"));
}

/** "how do I", "how can I", "how to" opening a canonical request: one "how" (see embeddingText). */
const HOW_FRAME = /^\s*how (?:do|can|could|would) i\b|^\s*how to\b/i;

/**
 * The text the cache embeds a prompt as: the request the verifier reads (courtesy off, the question
 * frame in one form, see canonicalRequest), its "how do I" / "how to" one "how", whitespace folded.
 * Wordings of one question then embed closer: on the FAQ files (bench/cache-misses.ts, every ordered
 * pair of two wordings of one intent) faq-replay / faq-holdout / faq-fresh / faq-dev / faq-dev2 were
 * served 137 / 132 / 83 / 203 / 131 pairs with the prompt embedded as written, 166 / 149 / 100 / 224 /
 * 158 this way (160 / 140 / 93 / 220 / 156 without the one "how"); the verifier still compares the
 * question words themselves. For a prompt the cache matches exactly only (past semanticMaxChars) the
 * text is only folded.
 */
export function embeddingText(prompt: string, maxChars: number = DEFAULT_CACHE_CONFIG.semanticMaxChars): string {
  return prompt.length > maxChars ? foldedText(prompt) : foldWhitespace(withEmbeddedSynonyms(canonicalRequest(prompt).replace(HOW_FRAME, "how")));
}

const LOWER_WORD = /\p{L}+/gu;

/** Every word of a shipped synonym group as its group's first stem (see EMBEDDED_SYNONYM); other words as written. */
function withEmbeddedSynonyms(text: string): string {
  return text.replace(LOWER_WORD, (w) => EMBEDDED_SYNONYM.get(stem(w.toLowerCase())) ?? w);
}

/**
 * An answer worth serving again: every choice finished, said something (text or tool calls) and is no
 * refusal. A refusal may be the provider's momentary judgement of this wording; an empty answer is
 * what a refusal becomes with a provider that sends no `refusal` field.
 */
function isServable(answer: CachedAnswer): boolean {
  return (
    answer.choices.length > 0 &&
    answer.choices.every((c) => {
      const refusal = c.message.refusal;
      const said = (c.message.content ?? "").trim() !== "" || (c.message.tool_calls?.length ?? 0) > 0;
      return COMPLETE_FINISH_REASONS.has(c.finish_reason) && said && !(typeof refusal === "string" && refusal !== "");
    })
  );
}

const consoleLog: CacheLog = { warn: (fields, message) => console.warn(message, fields) };

/**
 * The response cache of the completion pipeline: an exact layer (a hash of everything that changes
 * the answer) in front of a semantic layer (nearest cached prompt by embedding, then a verifier that
 * refuses on any difference in numbers, negation, names, operators, units, direction, language or
 * format), per tenant, persisted in the store, with request coalescing.
 */
/** A wait for another node's entry ended because that node's claim lapsed (it died). */
const LAPSED = Symbol("lapsed");
/** Claims that lapse one after another (each claimant dying) before a waiter stops waiting and calls upstream itself. */
const MAX_CLAIM_ROUNDS = 3;

export class SemanticCache {
  private readonly config: CacheConfig;
  private readonly entries = new Map<string, Entry>();
  private readonly byLabel = new Map<bigint, Entry>();
  private readonly partitions = new Map<string, VectorSet>();
  private readonly coalescer = new Coalescer();
  private readonly writer: CacheWriter;
  private readonly now: () => number;
  private readonly log: CacheLog;
  private nextLabel = 1n;
  /** Entries whose vectors wait to go into the index, oldest first from `unindexedFrom` (see indexLater). */
  private unindexed: { entry: Entry; vector: Float32Array }[] = [];
  private unindexedFrom = 0;
  /** Indexed entries still without facets, oldest first from `unfacetedFrom` (see drainUnindexed). */
  private unfaceted: Entry[] = [];
  private unfacetedFrom = 0;
  private indexing: Promise<void> | null = null;
  private bytes = 0;
  private lastSweep = 0;
  private readonly counters = { exact: 0, semantic: 0, coalesced: 0, misses: 0, bypassed: 0 };
  private readonly refused: Record<string, number> = {};
  private readonly wordMemo = new Map<string, Float32Array>();
  private readonly synonyms: SynonymTable;
  private peers: CachePeers | undefined;
  /** Lookups waiting for another node's answer to their exact key: resolved by `receive`, `released`, or the claim's lapse. */
  private readonly arrivals = new Map<string, ((entry: Entry | undefined) => void)[]>();

  private constructor(
    private readonly store: Store,
    private readonly embedder: Embedder,
    private readonly signature: string,
    options: SemanticCacheOptions,
  ) {
    this.config = { ...DEFAULT_CACHE_CONFIG, ...options.config };
    this.now = options.now ?? Date.now;
    this.log = options.log ?? consoleLog;
    this.synonyms = options.synonyms ?? SHIPPED_SYNONYMS;
    this.writer = new CacheWriter(store, this.config.flushDelayMs, this.log, options.writeThread);
  }

  /** Opens the cache on a store, rebuilding the in-memory layers from the live rows. */
  static async open(options: SemanticCacheOptions): Promise<SemanticCache> {
    const signature = await embedderSignature(options.embedder);
    const cache = new SemanticCache(options.store, options.embedder, signature, options);
    await cache.reload();
    return cache;
  }

  /**
   * Looks the request up. A hit carries the answer to return with `cache_hit: true`; a miss carries
   * the fill to complete or fail once the upstream call is over; a bypass means the request is not
   * cacheable (cache disabled, or non-deterministic by request) and nothing must be stored.
   */
  async lookup(req: CacheRequest): Promise<CacheLookup> {
    const bypass = this.bypassReason(req);
    if (bypass) {
      this.counters.bypassed++;
      return { kind: "bypass", reason: bypass };
    }
    const keys = requestKeys(req);
    const exact = this.liveEntry(keys.exactKey);
    if (exact) return this.hit(exact, "exact", 1);

    const waiting = this.coalescer.follow(keys.exactKey, this.config.coalesceTimeoutMs);
    if (waiting) {
      const answer = await waiting;
      if (answer) {
        this.counters.coalesced++;
        return {
          kind: "hit",
          hit: { layer: "coalesced", answer: structuredClone(answer), similarity: 1, matchedPrompt: keys.prompt ?? "", createdAt: this.now() },
        };
      }
      // The leader failed or is too slow: go upstream alone, and still store what comes back.
      return this.miss(req.appId, keys, null, false);
    }
    // Registered before the first await, so concurrent duplicates find this request as their leader.
    this.coalescer.lead(keys.exactKey, this.config.coalesceTimeoutMs);
    try {
      const vector = await this.embedPrompt(keys, req.embedding);
      // Facets of another text (a caller's mistake) would verify the wrong prompt: then they are extracted here.
      const given = req.facets?.prompt === keys.prompt ? req.facets.bytes : undefined;
      const semantic = vector ? await this.semanticMatch(keys, vector, given) : null;
      if (semantic) {
        const hit = this.hit(semantic.entry, "semantic", semantic.similarity);
        this.coalescer.settle(keys.exactKey, hit.hit.answer);
        return hit;
      }
      const peer = this.peers && (await this.fromPeer(this.peers, keys.exactKey));
      if (peer && "entry" in peer) {
        const { entry } = peer;
        const answer = JSON.parse(entry.response) as CachedAnswer;
        this.counters.coalesced++;
        this.coalescer.settle(keys.exactKey, answer);
        return { kind: "hit", hit: { layer: "coalesced", answer, similarity: 1, matchedPrompt: entry.prompt, createdAt: entry.createdAt } };
      }
      return this.miss(req.appId, keys, vector && { vector, facets: given }, true, peer?.stopHold);
    } catch (err) {
      this.coalescer.settle(keys.exactKey, null);
      throw err;
    }
  }

  /**
   * Lookup and fill around one upstream call, for callers that get the whole answer at once.
   * Upstream errors propagate after the fill is failed, so nothing is cached for them.
   */
  async through(req: CacheRequest, upstream: () => Promise<CachedAnswer>): Promise<{ answer: CachedAnswer; hit: CacheHit | null }> {
    const found = await this.lookup(req);
    if (found.kind === "hit") return { answer: found.hit.answer, hit: found.hit };
    try {
      const answer = await upstream();
      if (found.kind === "miss") found.fill.complete(answer);
      return { answer, hit: null };
    } catch (err) {
      if (found.kind === "miss") found.fill.fail();
      throw err;
    }
  }

  stats(): CacheStats {
    return {
      entries: this.entries.size,
      bytes: this.bytes,
      partitions: this.partitions.size,
      inFlight: this.coalescer.inFlight,
      pendingWrites: this.writer.pending,
      hits: { exact: this.counters.exact, semantic: this.counters.semantic, coalesced: this.counters.coalesced },
      misses: this.counters.misses,
      bypassed: this.counters.bypassed,
      refused: { ...this.refused },
    };
  }

  /** How long a duplicate waits for the first request's answer: also how long a node's claim on a key lasts. */
  get coalesceTimeoutMs(): number {
    return this.config.coalesceTimeoutMs;
  }

  /** Shares this node's entries with the other nodes and takes theirs (`receive`, `released`) from now on. */
  connect(peers: CachePeers): void {
    this.peers = peers;
  }

  /**
   * Another node's new entry: filed in memory and indexed like this node's own (the node that wrote it
   * stored it in the shared store). Expired rows and rows already known are skipped.
   */
  receive(row: CacheRow): void {
    const known = this.entries.get(row.exactKey);
    if (row.expiresAt <= this.now() || known?.id === row.id) return;
    const vector = decodeEmbedding(row.embedding, this.signature, this.embedder.dimensions);
    const entry = this.add(row, vector);
    if (vector && entry.partition) this.indexLater([{ entry, vector }]);
    this.enforceBounds();
    this.arrived(row.exactKey, entry);
  }

  /** Another node's upstream call for `exactKey` stored nothing. */
  released(exactKey: string): void {
    this.arrived(exactKey, undefined);
  }

  /** Writes queued changes to the store now. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Writes what is queued and stops the write thread; call it before closing the store at shutdown. */
  close(): Promise<void> {
    return this.writer.close();
  }

  /**
   * Claims the upstream call for `exactKey` across nodes, or waits for the node that holds the claim:
   * its entry, or `stopHold` when this node calls upstream (it holds the claim, renewed until its fill
   * ends; or the other node released it or took longer than the coalescing timeout). When the claim
   * lapses (its node died), an entry it shared just before is taken, else this node claims the key in turn.
   */
  private async fromPeer(peers: CachePeers, exactKey: string): Promise<{ entry: Entry } | { stopHold?: () => void }> {
    for (let round = 0; round < MAX_CLAIM_ROUNDS; round++) {
      // Another node's entry may have arrived while this lookup embedded its prompt.
      const arrived = this.liveEntry(exactKey);
      if (arrived) return { entry: arrived };
      if (await peers.lead(exactKey)) return { stopHold: peers.hold(exactKey) };
      const entry = this.liveEntry(exactKey) ?? (await this.arrival(exactKey, peers));
      if (entry !== LAPSED) return entry ? { entry } : {};
    }
    return {};
  }

  private arrival(exactKey: string, peers: CachePeers): Promise<Entry | undefined | typeof LAPSED> {
    const { promise, resolve } = Promise.withResolvers<Entry | undefined | typeof LAPSED>();
    const waiting = this.arrivals.get(exactKey) ?? [];
    const leave = () => {
      clearTimeout(timer);
      unwatch();
      const left = (this.arrivals.get(exactKey) ?? []).filter((w) => w !== done);
      if (left.length > 0) this.arrivals.set(exactKey, left);
      else this.arrivals.delete(exactKey);
    };
    const done = (entry: Entry | undefined) => {
      clearTimeout(timer);
      unwatch();
      resolve(entry);
    };
    const timer = setTimeout(() => {
      leave();
      resolve(undefined);
    }, this.config.coalesceTimeoutMs);
    timer.unref?.();
    const unwatch = peers.watch(exactKey, () => {
      leave();
      resolve(LAPSED);
    });
    waiting.push(done);
    this.arrivals.set(exactKey, waiting);
    return promise;
  }

  private arrived(exactKey: string, entry: Entry | undefined): void {
    const waiting = this.arrivals.get(exactKey);
    if (!waiting) return;
    this.arrivals.delete(exactKey);
    for (const w of waiting) w(entry);
  }

  private bypassReason(req: CacheRequest): BypassReason | null {
    if (!req.appId) throw new TypeError("cache request without appId: entries are per tenant");
    if (req.enabled === false) return "disabled";
    const temperature = req.params.temperature;
    const varied = (temperature === undefined ? !this.config.cacheUnsetTemperature : temperature > this.config.maxTemperature) || (req.params.n ?? 1) > 1;
    if (varied && !req.allowNondeterministic && !this.config.allowNondeterministic) return "nondeterministic";
    return null;
  }

  private liveEntry(exactKey: string): Entry | undefined {
    const entry = this.entries.get(exactKey);
    if (entry && entry.expiresAt <= this.now()) {
      this.evict(entry);
      return undefined;
    }
    return entry;
  }

  private async embedPrompt(keys: RequestKeys, given: Float32Array | undefined): Promise<Float32Array | null> {
    if (keys.prompt === null || keys.prompt.length === 0 || keys.prompt.length > this.config.semanticMaxChars) return null;
    if (given) return given;
    try {
      return await this.embedder.embed(embeddingText(keys.prompt));
    } catch (err) {
      // Without a vector the request still gets the exact layer; the embedder must never fail a call.
      this.log.warn({ err: (err as Error).message }, "semantic cache: embedding failed");
      return null;
    }
  }

  private async semanticMatch(keys: RequestKeys, vector: Float32Array, packed: Uint8Array | undefined): Promise<{ entry: Entry; similarity: number } | null> {
    const set = this.partitions.get(partitionOf(keys));
    if (!set) return null;
    // The prompt's facets are read only once a neighbour is close enough to verify: most new prompts have none.
    let query: (VerifiablePrompt & { facets: PromptFacets }) | undefined;
    for (const n of set.nearest(vector, this.config.candidates)) {
      if (n.similarity < this.config.similarityThreshold) break;
      const entry = this.byLabel.get(n.label);
      if (!entry || entry.expiresAt <= this.now()) continue;
      query ??= { prompt: keys.prompt!, contextHash: keys.contextHash, scopeKey: keys.scopeKey, facets: queryFacets(keys.prompt!, packed) };
      const cached = { prompt: entry.prompt, contextHash: entry.contextHash, scopeKey: entry.scopeKey, facets: entryFacets(entry) };
      // Without word vectors every swapped word but a synonym refuses, so the cheap checks run first
      // and words are embedded (on this thread) only for a candidate that differs in nothing but
      // swapped words, not all of them synonyms.
      let verdict = verifyEquivalent(query, cached, this.wordSimilarity(NO_VECTORS));
      const needed = verdict.equivalent || verdict.kind !== "content" || this.config.minWordSimilarity >= 1 ? [] : wordsToEmbed(query.facets, cached.facets);
      if (needed.length > 0) {
        const vectors = await this.wordVectors(needed);
        if (vectors) verdict = verifyEquivalent(query, cached, this.wordSimilarity(vectors));
      }
      if (verdict.equivalent) return { entry, similarity: n.similarity };
      this.refused[verdict.kind] = (this.refused[verdict.kind] ?? 0) + 1;
    }
    return null;
  }

  private wordSimilarity(vectors: ReadonlyMap<string, Float32Array>): WordSimilarity {
    return { vectors, minSimilarity: this.config.minWordSimilarity, synonyms: this.synonyms };
  }

  /** Vectors of single words for the verifier's substitution check, memoised: the same words recur across prompts. */
  private async wordVectors(words: string[]): Promise<Map<string, Float32Array> | undefined> {
    const out = new Map<string, Float32Array>();
    try {
      for (const w of words) {
        let v = this.wordMemo.get(w);
        if (!v) {
          v = await this.embedder.embed(w);
          if (this.wordMemo.size >= WORD_MEMO_SIZE) this.wordMemo.delete(this.wordMemo.keys().next().value!);
          this.wordMemo.set(w, v);
        }
        out.set(w, v);
      }
    } catch (err) {
      // Without the vectors the verifier refuses every substitution: a miss, never a wrong hit.
      this.log.warn({ err: (err as Error).message }, "semantic cache: word embedding failed");
      return undefined;
    }
    return out;
  }

  private hit(entry: Entry, layer: "exact" | "semantic", similarity: number): CacheLookup & { kind: "hit" } {
    const now = this.now();
    entry.hits++;
    entry.lastHitAt = now;
    // Re-inserting moves the entry to the most recently used end of the eviction order.
    this.entries.delete(entry.exactKey);
    this.entries.set(entry.exactKey, entry);
    this.writer.touch(entry.id, entry.hits, now);
    this.counters[layer]++;
    const answer = JSON.parse(entry.response) as CachedAnswer;
    return { kind: "hit", hit: { layer, answer, similarity, matchedPrompt: entry.prompt, createdAt: entry.createdAt } };
  }

  private miss(appId: string, keys: RequestKeys, semantic: Semantic | null, leader: boolean, stopHold?: () => void): CacheLookup {
    this.counters.misses++;
    let open = true;
    const release = (answer: CachedAnswer | null) => {
      open = false;
      stopHold?.();
      if (leader) this.coalescer.settle(keys.exactKey, answer);
      if (leader && !answer) this.peers?.release(keys.exactKey);
    };
    const fill: CacheFill = {
      complete: (answer) => {
        if (!open) throw new Error("cache fill already completed or failed");
        const stored = isServable(answer) && this.insert(appId, keys, semantic, answer);
        release(stored ? answer : null);
        return stored;
      },
      fail: () => {
        if (open) release(null);
      },
    };
    return { kind: "miss", fill };
  }

  private insert(appId: string, keys: RequestKeys, semantic: Semantic | null, answer: CachedAnswer): boolean {
    const response = JSON.stringify(answer);
    const prompt = keys.prompt ?? "";
    const bytes = (response.length + prompt.length) * 2;
    if (bytes > this.config.maxEntryBytes) return false;
    const now = this.now();
    const row: CacheRow = {
      id: randomUUID(),
      appId,
      exactKey: keys.exactKey,
      scopeKey: keys.scopeKey,
      model: answer.model,
      promptText: prompt,
      contextHash: keys.contextHash,
      embedding: semantic ? encodeEmbedding(this.signature, semantic.vector) : null,
      response,
      createdAt: now,
      expiresAt: now + this.config.ttlMs,
      hits: 0,
      lastHitAt: null,
    };
    const entry = this.add(row, semantic?.vector ?? null);
    if (semantic && entry.partition) {
      // A copy: bytes unpacked from a worker's message may be a view of that whole message.
      entry.facets = semantic.facets?.slice() ?? null;
      this.indexLater([{ entry, vector: semantic.vector }]);
    }
    this.writer.upsert(row);
    this.peers?.share(row);
    this.enforceBounds();
    return true;
  }

  /** Files a row in memory; its vector is for the caller to index (see indexLater). */
  private add(row: CacheRow, vector: Float32Array | null): Entry {
    const previous = this.entries.get(row.exactKey);
    if (previous) this.forget(previous);
    const partition = vector ? partitionOf(row) : null;
    const entry: Entry = {
      id: row.id,
      label: this.nextLabel++,
      exactKey: row.exactKey,
      scopeKey: row.scopeKey,
      contextHash: row.contextHash,
      partition,
      prompt: row.promptText,
      facets: null,
      response: row.response,
      bytes: (row.response.length + row.promptText.length) * 2,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      hits: row.hits,
      lastHitAt: row.lastHitAt,
    };
    this.entries.set(entry.exactKey, entry);
    this.bytes += entry.bytes;
    if (partition) this.byLabel.set(entry.label, entry);
    return entry;
  }

  private vectorSet(partition: string): VectorSet {
    let set = this.partitions.get(partition);
    if (!set) {
      set = new VectorSet({ dimensions: this.embedder.dimensions, quantization: this.config.quantization });
      this.partitions.set(partition, set);
    }
    return set;
  }

  /** Drops an entry from memory only. */
  private forget(entry: Entry): void {
    this.entries.delete(entry.exactKey);
    this.bytes -= entry.bytes;
    if (entry.partition) {
      this.byLabel.delete(entry.label);
      const set = this.partitions.get(entry.partition);
      set?.remove(entry.label);
      if (set && set.size === 0) this.partitions.delete(entry.partition);
    }
  }

  private evict(entry: Entry): void {
    this.forget(entry);
    this.writer.delete(entry.id);
  }

  private enforceBounds(): void {
    const now = this.now();
    if (now - this.lastSweep > Math.min(this.config.ttlMs / 10, 60_000)) {
      this.lastSweep = now;
      for (const entry of this.entries.values()) if (entry.expiresAt <= now) this.evict(entry);
    }
    // Map order is least recently used first.
    for (const entry of this.entries.values()) {
      if (this.entries.size <= this.config.maxEntries && this.bytes <= this.config.maxBytes) break;
      this.evict(entry);
    }
  }

  /** Settles once every vector filed so far is in the index, and its entry's facets are extracted; lookups work before, with fewer semantic hits. */
  indexed(): Promise<void> {
    return this.indexing ?? Promise.resolve();
  }

  /** Loads the live rows: the exact layer at once, the vector index in the background (see `indexed`). */
  private async reload(): Promise<void> {
    const rows = await loadLiveRows(this.store, this.now(), this.config.maxEntries);
    const pending: { entry: Entry; vector: Float32Array }[] = [];
    for (const row of rows) {
      const vector = decodeEmbedding(row.embedding, this.signature, this.embedder.dimensions);
      const entry = this.add(row, vector);
      if (vector && entry.partition) pending.push({ entry, vector });
    }
    this.lastSweep = this.now();
    this.enforceBounds();
    this.indexLater(pending);
  }

  /**
   * Vectors go into the index between requests, in small batches, never on a request's path: an HNSW
   * insert into 100k entries takes one to three milliseconds, which the answer that filled the cache
   * should not wait for, and rebuilding a large index at start-up takes seconds to minutes, which a gateway
   * must not wait for. Until its vector is in, an entry is served by the exact layer only: fewer
   * semantic hits for a moment, never a wrong one.
   */
  private indexLater(items: readonly { entry: Entry; vector: Float32Array }[]): void {
    for (const item of items) this.unindexed.push(item);
    // The drain yields before its first batch, so it cannot finish before `indexing` is set.
    if (!this.indexing && items.length > 0) this.indexing = this.drainUnindexed();
  }

  /**
   * Vectors first, then the facets of entries that came without them (loaded from the store, received
   * from a peer): extracting 100k entries' facets in the same pass as their vectors doubled the time
   * until the rebuilt index served at all (bun bench/cache-lookup.ts, load 14: 214 against 100 s).
   * Until its facets are in, an entry's first verification extracts them (see semanticMatch).
   */
  private async drainUnindexed(): Promise<void> {
    while (this.unindexedFrom < this.unindexed.length || this.unfacetedFrom < this.unfaceted.length) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.unindexedFrom === this.unindexed.length) {
        const entries = this.unfaceted.slice(this.unfacetedFrom, this.unfacetedFrom + REBUILD_BATCH);
        this.unfacetedFrom += entries.length;
        for (const entry of entries) if (this.byLabel.get(entry.label) === entry) entry.facets ??= packFacets(entry.prompt).bytes;
        continue;
      }
      const batch = this.unindexed.slice(this.unindexedFrom, this.unindexedFrom + REBUILD_BATCH);
      this.unindexedFrom += batch.length;
      const byPartition = new Map<string, { labels: bigint[]; vectors: Float32Array[] }>();
      for (const { entry, vector } of batch) {
        // Evicted or replaced while waiting: its label is gone.
        if (this.byLabel.get(entry.label) !== entry) continue;
        // Loaded from the store, received from a peer, or filled without them (see Entry.facets).
        if (!entry.facets) this.unfaceted.push(entry);
        const group = byPartition.get(entry.partition!) ?? { labels: [], vectors: [] };
        group.labels.push(entry.label);
        group.vectors.push(vector);
        byPartition.set(entry.partition!, group);
      }
      for (const [partition, group] of byPartition) {
        try {
          this.vectorSet(partition).addMany(group.labels, group.vectors);
        } catch (err) {
          // The entries keep their exact layer; nothing else depends on their vectors being in.
          this.log.warn({ err: (err as Error).message, vectors: group.labels.length }, "semantic cache: indexing failed");
        }
      }
    }
    this.unindexed = [];
    this.unindexedFrom = 0;
    this.unfaceted = [];
    this.unfacetedFrom = 0;
    this.indexing = null;
  }
}

/** What a miss with a vector leaves for its entry's semantic layer. */
interface Semantic {
  vector: Float32Array;
  /** The prompt's packed facets when the request brought them (CacheRequest.facets). */
  facets: Uint8Array | undefined;
}

/** An entry's facets: read back from its bytes, or, for an entry loaded or received whose facets drainUnindexed has not reached yet, extracted and kept. */
function entryFacets(entry: Entry): PromptFacets {
  if (entry.facets) return unpackFacets(entry.facets);
  const facets = extractFacets(entry.prompt);
  entry.facets = facetBytes(facets);
  return facets;
}

/** The query's facets: read back from the bytes the request brought (the gateway's worker extracted them), else extracted here. */
function queryFacets(prompt: string, packed: Uint8Array | undefined): PromptFacets {
  return packed ? unpackFacets(packed) : extractFacets(prompt);
}

function partitionOf(k: { scopeKey: string; contextHash: string }): string {
  return `${k.scopeKey}:${k.contextHash}`;
}
