import pkg from "../package.json";
import type { Settings } from "./config/config";
import type { Logger } from "./log/logger";
import { openStore, type Store } from "./store/db";
import { Catalog } from "./catalog/catalog";
import { loadVocabularies, vocabulariesFor } from "./tokens/count";
import { Plans } from "./auth/plans";
import { keyHasher, loadOrCreateSecret, type KeyHasher } from "./auth/secret";
import { KeyRepository } from "./auth/key-repository";
import { KeyIndex } from "./auth/key-index";
import { KeyService } from "./auth/key-service";
import { Quota } from "./auth/quota";
import { authenticate } from "./auth/authenticate";
import { parseKey } from "./auth/key-format";
import type { KeyEntry } from "./auth/key-record";
import { buildProviders, type ProviderRegistry } from "./providers/registry";
import { DEFAULT_CALL_POLICY, type CallPolicy } from "./providers/call";
import { Ledger } from "./accounting/ledger";
import type { OptimizeInput, OptimizeResult } from "./pipeline/optimize-types";
import { optimize, needsModels, type OptimizerDeps } from "./pipeline/optimize";
import { optimizerDeps, ruleDeps } from "./pipeline/optimizer-deps";
import { WorkerPool } from "../workers/pool";
import { Metrics } from "./metrics/metrics";
import { OptimizeMemo } from "./pipeline/optimize-memo";
import { SemanticCache } from "./pipeline/cache";
import { loadEmbedder, loadModels, loadSynonyms, modelOptionsOf } from "./ml/load";

const OPTIMIZE_WORKER = new URL("../workers/optimize.worker.ts", import.meta.url).href;

function promptChars(input: OptimizeInput): number {
  let n = 0;
  for (const m of input.messages) n += m.content.length;
  return n;
}

export interface HealthCheck {
  ok: boolean;
  detail?: string;
}

/**
 * Everything a request handler needs, built once at start. Routes receive this object; nothing
 * else holds global state.
 */
export class Gateway {
  readonly version: string = pkg.version;
  readonly startedAt = Date.now();
  readonly store: Store;
  readonly catalog: Catalog;
  readonly plans: Plans;
  readonly hash: KeyHasher;
  readonly keyIndex: KeyIndex;
  readonly keys: KeyService;
  readonly quota: Quota;
  readonly providers: ProviderRegistry;
  readonly callPolicy: CallPolicy;
  readonly ledger: Ledger;
  readonly metrics = new Metrics();
  private semanticCache: SemanticCache | undefined;
  private pool: WorkerPool<OptimizeInput, OptimizeResult> | undefined;
  private inlineOptimize: ((input: OptimizeInput) => Promise<OptimizeResult>) | undefined;
  private readonly eventLoopDeps: OptimizerDeps;
  private readonly memo: OptimizeMemo;
  private readonly timers: ReturnType<typeof setInterval>[] = [];

  constructor(
    readonly settings: Settings,
    readonly log: Logger,
    env: Record<string, string | undefined> = process.env,
  ) {
    this.store = openStore(settings.dataDir);
    this.catalog = Catalog.load(settings.modelsFile);
    this.plans = Plans.load(settings.plansFile);
    this.hash = keyHasher(loadOrCreateSecret(settings.dataDir, settings.secret));
    const repo = new KeyRepository(this.store.db);
    this.keyIndex = new KeyIndex(repo);
    this.keyIndex.sync();
    this.keys = new KeyService(repo, this.keyIndex, this.hash, this.plans);
    this.quota = new Quota(this.store.db, this.plans, settings.testKeyDailyCalls);
    this.providers = buildProviders(env, this.catalog);
    this.callPolicy = { ...DEFAULT_CALL_POLICY, retries: settings.providerRetries, backoffBaseMs: settings.providerRetryBaseMs, timeoutMs: settings.providerTimeoutMs };
    this.ledger = new Ledger(this.store, undefined, (rejected) =>
      this.log.error({ rows: rejected.length, request_ids: rejected.slice(0, 5).map((r) => r.requestId), reason: rejected[0]!.reason }, "usage ledger: rows refused by the store were left out"),
    );
    this.eventLoopDeps = ruleDeps(settings);
    this.memo = new OptimizeMemo(settings.optimizeMemoEntries);
    if (settings.bootstrapAdminKey) {
      const type = parseKey(settings.bootstrapAdminKey);
      if (!type) throw new Error("SVC_BOOTSTRAP_ADMIN_KEY is not a well-formed svc key (create one with `svc keys create --admin`)");
      this.keys.registerBootstrap(settings.bootstrapAdminKey, type);
    }
  }

  /**
   * Loads the optimizer: a worker pool (each worker loads the models once), or with `workers: 0` the
   * same code inline on the event loop.
   */
  async startOptimizer(): Promise<void> {
    const { settings } = this;
    // The event loop counts tokens in o200k (the optimizer's inline path) and in the tokenizer of every
    // provider it can serve (usage estimates): loaded here, about half a second each, rather than on a
    // first request; not in the constructor, which the CLI's key commands also build.
    const servedProviders = this.servableModels.map((id) => this.catalog.find(id)!.provider);
    loadVocabularies(new Set(["o200k" as const, ...vocabulariesFor(servedProviders)]));
    // Prompt vectors come from the worker task; the event loop keeps an embedder only for the cache's
    // word-level check (a semantic candidate that differs only in swapped words, memoised per word)
    // and its start-up signature check.
    // With workers the event loop loads the embedding alone; inline it loads all three models once.
    const models = settings.workers === 0 ? await loadModels(undefined, modelOptionsOf(settings)) : undefined;
    this.semanticCache = await SemanticCache.open({
      store: this.store,
      embedder: models?.embedder ?? (await loadEmbedder(modelOptionsOf(settings))),
      synonyms: await loadSynonyms(),
      log: { warn: (fields, message) => this.log.warn(fields, message) },
      config: { maxEntries: settings.cacheMaxEntries, ttlMs: settings.cacheTtlS * 1000 },
    });
    if (models) {
      const deps = optimizerDeps(settings, models);
      this.inlineOptimize = (input) => optimize(input, deps);
      return;
    }
    this.pool = new WorkerPool({ filename: OPTIMIZE_WORKER, threads: settings.workers, queueLimit: settings.workerQueueLimit, taskTimeoutMs: settings.workerTaskTimeoutMs, workerData: settings });
    await this.pool.warm();
  }

  get cache(): SemanticCache {
    if (!this.semanticCache) throw new Error("cache not started");
    return this.semanticCache;
  }

  /**
   * Runs the CPU stages. A request that needs no model and is short costs less than the hop to a
   * worker (`bun bench/optimizer-hop.ts` measures both), so it runs here on the event loop.
   */
  optimize(input: OptimizeInput, signal?: AbortSignal): Promise<OptimizeResult> {
    if (!needsModels(input) && promptChars(input) <= this.settings.inlineMaxChars) return optimize(input, this.eventLoopDeps);
    return this.optimizeWithModels(input, signal);
  }

  /** Model work: remembered for repeats (the stages are deterministic), else in a worker (or inline with workers: 0). */
  private async optimizeWithModels(input: OptimizeInput, signal?: AbortSignal): Promise<OptimizeResult> {
    const key = this.memo.enabled ? this.memo.keyOf(input) : undefined;
    const known = key === undefined ? undefined : this.memo.get(key);
    if (known) return known;
    const result = this.inlineOptimize ? await this.inlineOptimize(input) : await this.runInPool(input, signal);
    if (key !== undefined) this.memo.set(key, result);
    return result;
  }

  private runInPool(input: OptimizeInput, signal?: AbortSignal): Promise<OptimizeResult> {
    if (!this.pool) throw new Error("optimizer not started");
    // The client's signal only keeps a queued task from starting (see WorkerPool.run).
    return this.pool.run(input, signal);
  }

  /** Starts the background work: following key changes made elsewhere, and write-behind flushes. */
  startBackground(): void {
    this.timers.push(setInterval(() => this.guard("key sync", () => this.keyIndex.sync()), this.settings.keySyncMs));
    this.timers.push(setInterval(() => this.guard("flush", () => this.flush()), this.settings.flushMs));
    for (const t of this.timers) t.unref?.();
  }

  /**
   * Models some configured provider serves: what routing may choose from. Health is left to the call
   * loop, which tries candidates on a cooling-down provider last rather than not at all.
   */
  get servableModels(): string[] {
    return (this.servable ??= this.catalog.models.filter((m) => this.providers.providerFor(m) !== undefined).map((m) => m.id));
  }
  private servable: string[] | undefined;

  authenticate(request: Request): KeyEntry {
    return authenticate(request.headers.get("authorization"), this.keyIndex, this.hash, Date.now());
  }

  healthChecks(): Record<string, HealthCheck> {
    let db: HealthCheck;
    try {
      this.store.sqlite.query("SELECT 1").get();
      db = { ok: true };
    } catch (e) {
      db = { ok: false, detail: (e as Error).message };
    }
    const workers: HealthCheck = this.pool ? { ok: true, detail: JSON.stringify(this.pool.stats()) } : { ok: this.inlineOptimize !== undefined, detail: "inline" };
    const status = this.providers.status();
    const providers: HealthCheck = {
      ok: status.some((p) => p.healthy),
      detail: status.map((p) => `${p.name}${p.simulated ? " (simulated)" : ""}: ${p.healthy ? "healthy" : "unhealthy"}`).join(", "),
    };
    return { db, workers, providers };
  }

  flush(): void {
    // The log goes last, so what the other flushes log (a ledger row refused) is written now, not a flush later.
    try {
      this.semanticCache?.flush();
      this.ledger.flush();
      this.quota.flush();
      this.keyIndex.flushUsage();
    } finally {
      this.log.flush();
    }
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await this.pool?.close();
    this.guard("final flush", () => this.flush());
    this.store.close();
  }

  private guard(what: string, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.log.error({ err: { message: (e as Error).message } }, `${what} failed`);
    }
  }
}
