import pkg from "../package.json";
import type { Settings } from "./config/config";
import type { Logger } from "./log/logger";
import { openStore, type Store } from "./store/db";
import { openPostgresStore } from "./store/postgres";
import { PgCounters } from "./store/pg-counters";
import { PgSpendStore } from "./store/pg-spend-store";
import { NodeHeartbeat } from "./store/nodes";
import { hostname } from "node:os";
import { ApiError } from "./core/errors";
import { Catalog } from "./catalog/catalog";
import { loadVocabularies, vocabulariesFor } from "./tokens/count";
import { Plans } from "./auth/plans";
import { keyHasher, loadOrCreateSecret } from "./auth/secret";
import { ConversationMaps, deriveMappingKey } from "./pipeline/pii/vault";
import { KeyRepository } from "./auth/key-repository";
import { KeyIndex } from "./auth/key-index";
import { KeyService } from "./auth/key-service";
import { Quota } from "./auth/quota";
import { parseKey } from "./auth/key-format";
import { buildProviders } from "./providers/registry";
import { DEFAULT_CALL_POLICY } from "./providers/call";
import { Ledger } from "./accounting/ledger";
import { LedgerJournal } from "./accounting/ledger-journal";
import { postgresWriter, threadWriter } from "./accounting/ledger-writer";
import { SqliteCounters, type Counters, type DurableCounters } from "./store/counters";
import { RedisLink } from "./store/redis";
import { RedisCounters } from "./store/redis-counters";
import { COALESCE_LEASE_MS, RedisCachePeers } from "./pipeline/cache/redis-peers";
import { SqliteSpendStore, type SpendStore } from "./store/spend-store";
import { RedisSpendStore } from "./store/redis-spend";
import { SettleQueue } from "./accounting/settle-queue";
import { Budgets } from "./accounting/budgets";
import { AgentRuns } from "./accounting/agent-runs";
import { processAlive } from "./accounting/ledger-journal";
import { join } from "node:path";
import { Metrics } from "./metrics/metrics";
import { startTracing } from "./pipeline/trace";
import { cacheWriteThread, SemanticCache } from "./pipeline/cache";
import { Optimizer } from "./pipeline/optimizer";
import { loadModels, loadSynonyms } from "./pipeline/models";
import { loadEmbedder, modelOptionsOf } from "./ml/load";
import type { Services } from "./pipeline/services";
import { Conversations } from "./pipeline/context/conversations";
import { ResponseStore } from "./pipeline/responses/store";
import { MessageMemo } from "./pipeline/context/message-memo";
import { summaryModelOf } from "./pipeline/context/model-summary";
import { optimizerCompressor, Protocols } from "./pipeline/context/protocols";

/** How long the ledger's writer thread waits for another process's write lock before it retries later. */
const STORE_BUSY_TIMEOUT_MS = 5000;

/**
 * Who holds a reservation: the pid on SQLite (the processes share one machine and its data directory,
 * as the ledger journal does), node and pid on PostgreSQL (nodes are other machines, dead when their
 * heartbeat stops: store/nodes.ts).
 */
function ownerOf(store: Store, settings: Settings): string {
  return store.dialect === "sqlite" ? String(process.pid) : `${settings.nodeId ?? hostname()}/${process.pid}`;
}

/** The services that need no model: what the CLI's key commands use, and the first half of a server's. */
export type StoreServices = Omit<Services, "cache" | "optimizer" | "protocols">;

export async function openStoreServices(settings: Settings, log: Logger, env: Record<string, string | undefined> = process.env): Promise<StoreServices> {
  // SVC_DATABASE_URL: the whole store on PostgreSQL, shared by every node; else SQLite in the data directory.
  const store: Store = settings.databaseUrl ? await openPostgresStore(settings.databaseUrl) : openStore(settings.dataDir);
  const catalog = Catalog.load(settings.modelsFile);
  const plans = Plans.load(settings.plansFile);
  const secret = loadOrCreateSecret(settings.dataDir, settings.secret);
  const hash = keyHasher(secret);
  const repo = new KeyRepository(store);
  const keyIndex = new KeyIndex(repo);
  await keyIndex.sync();
  // Binding a key to a budget checks the budget (made below, with the spend store: asked only once serving).
  const keys = new KeyService(repo, keyIndex, hash, plans, (appId, id) => budgets.exists(appId, id));
  const providers = buildProviders(env, catalog);
  const ledger = new Ledger(
    store.dialect === "sqlite" ? threadWriter(store.path, STORE_BUSY_TIMEOUT_MS) : postgresWriter(store.sql),
    new LedgerJournal(join(settings.dataDir, "ledger-journal")),
    {
      onRejected: (rejected) =>
        log.error(
          { rows: rejected.length, request_ids: rejected.slice(0, 5).map((r) => r.requestId), reason: rejected[0]!.reason },
          "usage ledger: rows refused by the store were kept in ledger-journal/rejected.jsonl",
        ),
      onStoreError: (e, pending) =>
        log.error({ pending, err: { message: e.message } }, "usage ledger: the store failed a write; the rows are kept and retried"),
    },
  );
  if (settings.bootstrapAdminKey) {
    const type = parseKey(settings.bootstrapAdminKey);
    if (!type) throw new Error("SVC_BOOTSTRAP_ADMIN_KEY is not a well-formed svc key (create one with `svc keys create --admin`)");
    await keys.registerBootstrap(settings.bootstrapAdminKey, type);
  }
  const redis = settings.redisUrl ? new RedisLink(settings.redisUrl, settings.redisPrefix, log) : undefined;
  const durableCounters: DurableCounters = store.dialect === "sqlite" ? new SqliteCounters(store.path) : new PgCounters(store.sql);
  const redisCounters = redis && new RedisCounters(redis, durableCounters);
  const counters: Counters = redisCounters ?? durableCounters;
  if (redis) broadcastKeyChanges(redis, keyIndex, log);
  const quota = new Quota(counters, plans, settings.testKeyDailyCalls);
  const durableSpend: SpendStore = store.dialect === "sqlite" ? new SqliteSpendStore(store.path) : new PgSpendStore(store.sql);
  const spend: SpendStore = redis ? new RedisSpendStore(redis, durableSpend, redis.node) : durableSpend;
  const owner = ownerOf(store, settings);
  const settles = new SettleQueue(spend);
  const budgets = new Budgets(spend, owner, Date.now, settles);
  const agentRuns = new AgentRuns(
    spend,
    { maxCostMicros: Math.round(settings.agentRunMaxCostUsd * 1e6), maxCalls: settings.agentRunMaxCalls, maxRepeats: settings.agentRunMaxRepeats },
    owner,
    settings.agentRunWrapUpAt,
    Date.now,
    settles,
  );
  return {
    version: pkg.version,
    startedAt: Date.now(),
    shutdown: new AbortController(),
    settings,
    log,
    store,
    catalog,
    plans,
    hash,
    keyIndex,
    keys,
    counters,
    redis,
    quota,
    spend,
    budgets,
    agentRuns,
    providers,
    callPolicy: {
      ...DEFAULT_CALL_POLICY,
      retries: settings.providerRetries,
      backoffBaseMs: settings.providerRetryBaseMs,
      timeoutMs: settings.providerTimeoutMs,
      totalMs: settings.requestTimeoutMs,
      maxAnswerBytes: settings.upstreamMaxBytes,
    },
    ledger,
    conversations: new Conversations(store, {
      turnsToKeep: settings.conversationTurnsToKeep,
      summaryStep: settings.conversationSummaryStep,
      maxTurns: settings.conversationMaxTurns,
      // Renewed every 10 s while its call runs: a process that dies holding one locks the conversation for at most 30 s.
      leaseMs: 30_000,
      summaryModel: summaryModelOf(settings.conversationSummaryModel, catalog, providers),
    }),
    messageMemo: new MessageMemo(settings.messageMemoChars),
    responses: new ResponseStore(store.db, {
      ttlMs: settings.responsesTtlS * 1000,
      maxPerApp: settings.responsesMaxPerApp,
      maxBytes: settings.responsesMaxBytes,
    }),
    metrics: new Metrics(new Set(catalog.models.flatMap((m) => [m.id, ...m.aliases]))),
    piiMaps: new ConversationMaps(store.db, deriveMappingKey(secret)),
    servableModels: catalog.models.filter((m) => providers.providerFor(m) !== undefined).map((m) => m.id),
    flushables: [
      { name: "ledger", flush: () => ledger.flush() },
      { name: "quota", flush: () => quota.flush() },
      ...(redisCounters ? [{ name: "counters' write-back", flush: () => redisCounters.writeBack() }] : []),
      { name: "budget and agent-run settles", flush: () => budgets.flush() },
      { name: "budgets and agent runs", flush: () => spend.flush() },
      { name: "key usage", flush: () => keyIndex.flushUsage() },
    ],
  };
}

/** Everything a server needs, built once: the store's services, then the cache and the optimizer. */
export async function startServices(settings: Settings, log: Logger, env: Record<string, string | undefined> = process.env): Promise<Services> {
  const base = await openStoreServices(settings, log, env);
  // Rows a process that stopped (killed, or the store was down) journaled and did not store.
  const recovered = await base.ledger.recover();
  if (recovered > 0) log.warn({ rows: recovered }, "usage ledger: rows journaled by a process that stopped were written to the store");
  // Then the money calls of a process that died mid-call still hold: reconciled against those rows.
  const settled = (reservations: number) =>
    log.warn({ reservations }, "budgets and agent runs: reservations of a process that stopped were settled (charged as recorded, else in full)");
  const store = base.store;
  const nodes = store.dialect === "postgres" ? new NodeHeartbeat(store.sql, ownerOf(store, settings), base.spend, settled) : undefined;
  const orphans = nodes
    ? await nodes.start()
    : await base.spend.settleOrphans((owner) => owner === String(process.pid) || !processAlive(Number(owner)), Date.now());
  if (orphans > 0) settled(orphans);
  // The event loop counts tokens in o200k (the optimizer's inline path) and in the tokenizer of every
  // provider it can serve (usage estimates): loaded here, about half a second each, rather than on a
  // first request; not when the CLI's key commands open the store.
  const servedProviders = base.servableModels.map((id) => base.catalog.find(id)!.provider);
  loadVocabularies(new Set(["o200k" as const, ...vocabulariesFor(servedProviders)]));
  // Prompt vectors come from the worker task; the event loop keeps an embedder only for the cache's
  // word-level check (a semantic candidate that differs only in swapped words, memoised per word)
  // and its start-up signature check.
  // The event loop loads all three models when it runs model tasks (every one with no workers, short
  // ones while the optimizer is idle: Optimizer.runsInline), else the embedding alone.
  const inlineModels = settings.workers === 0 || settings.inlineModelMaxChars > 0;
  const models = inlineModels ? await loadModels(undefined, modelOptionsOf(settings)) : undefined;
  const cache = await SemanticCache.open({
    store: base.store,
    ...(base.store.dialect === "sqlite" && { writeThread: cacheWriteThread(base.store.path, STORE_BUSY_TIMEOUT_MS) }),
    embedder: models?.embedder ?? (await loadEmbedder(modelOptionsOf(settings))),
    ...(settings.cacheSynonymsFile !== undefined && { synonyms: await loadSynonyms(settings.cacheSynonymsFile) }),
    log: { warn: (fields, message) => log.warn(fields, message) },
    config: { maxEntries: settings.cacheMaxEntries, ttlMs: settings.cacheTtlS * 1000, cacheUnsetTemperature: settings.cacheUnsetTemperature },
  });
  if (base.redis) {
    await base.redis.ready;
    await new RedisCachePeers(base.redis, cache, base.redis.node, COALESCE_LEASE_MS, { warn: (fields, message) => log.warn(fields, message) }).start();
  }
  const optimizer = await Optimizer.start(settings, models);
  const protocols = new Protocols(base.store, optimizerCompressor(optimizer, base.catalog.defaultModel.id, settings.qualityFloor));
  base.metrics.watchQueue(() => optimizer.queueDepth());
  base.metrics.watchBudgets((appId, id) =>
    base.budgets.get(appId, id).then(
      (b) => b.remaining_usd,
      (e) => (e instanceof ApiError && e.code === "NOT_FOUND" ? undefined : Promise.reject(e)),
    ),
  );
  const redis = base.redis;
  if (redis)
    base.metrics.watchRedis(
      () => redis.sent,
      () => redis.healthy,
    );
  const tracer = await startTracing(env, base.version);
  if (tracer)
    log.info(
      { endpoint: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? "http://localhost:4318/v1/traces" },
      "tracing: one OTLP trace per call",
    );
  return Object.freeze({
    ...base,
    cache,
    optimizer,
    protocols,
    tracer,
    flushables: [{ name: "cache", flush: () => cache.flush() }, ...base.flushables, ...(nodes ? [{ name: "node heartbeat", flush: () => nodes.tick() }] : [])],
  });
}

/**
 * A key created or revoked here reaches the other nodes through Redis at once (they re-read the store's
 * changes), instead of at their next poll; the poll stays, for when Redis is away and for the CLI without it.
 */
function broadcastKeyChanges(redis: RedisLink, keyIndex: KeyIndex, log: Logger): void {
  const sync = () => guard(log, "key sync", () => keyIndex.sync());
  keyIndex.onLocalChange((id) => redis.announce("keys", id));
  void redis.subscribe("keys", sync);
  redis.onRecover(sync);
}

/**
 * Writes what the flushables buffer, each on its own: one failing (a full disk) neither stops the
 * others nor, rejected later, ends the process — an unhandled rejection from a key-usage write on a
 * full disk killed the gateway mid-test once the store went asynchronous. The log goes last, so what
 * they log (a ledger row refused) is written now, not a flush later.
 */
export function flushAll(s: Pick<Services, "flushables" | "log">): void {
  try {
    for (const f of s.flushables) guard(s.log, `flush of ${f.name}`, () => f.flush());
  } finally {
    s.log.flush();
  }
}

/** Runs background work whose failure, thrown now or rejected later, is logged rather than left to end the process. */
function guard(log: Logger, what: string, fn: () => void | Promise<void>): void {
  const failed = (e: unknown) => log.error({ err: { message: (e as Error)?.message } }, `${what} failed`);
  try {
    fn()?.catch(failed);
  } catch (e) {
    failed(e);
  }
}

/** Starts the background work (following key changes made elsewhere, write-behind flushes); returns what stops it. */
export function startBackground(s: Pick<Services, "log" | "settings" | "keyIndex" | "flushables">): () => void {
  const timers = [
    setInterval(() => guard(s.log, "key sync", () => s.keyIndex.sync()), s.settings.keySyncMs),
    setInterval(() => guard(s.log, "flush", () => flushAll(s)), s.settings.flushMs),
  ];
  for (const t of timers) t.unref?.();
  return () => timers.forEach(clearInterval);
}

/** After the server stopped (or a CLI command ended): the pool, a final flush, the store. */
export async function closeServices(s: StoreServices & Partial<Pick<Services, "optimizer" | "cache">>): Promise<void> {
  await s.optimizer?.close();
  // The batch still held is exported before the process ends.
  await s.tracer?.shutdown().catch((e: Error) => s.log.warn({ err: { message: e.message } }, "tracing: the last export failed"));
  guard(s.log, "final flush", () => flushAll(s));
  // Its write thread closes its connection before the store's checkpoint, like the ledger's.
  await s.cache?.close().catch((e: Error) => s.log.warn({ err: { message: e.message } }, "semantic cache: the last write failed"));
  await s.ledger.close();
  await s.quota.close();
  await s.counters.close();
  await s.redis?.close();
  await s.spend.close();
  await s.store.close();
}
