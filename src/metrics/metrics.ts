import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import { FastCounter, FastHistogram } from "./series";

/** Seconds; from a tenth of a millisecond (the relay's own overhead) to a minute (a long answer). */
const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The pipeline's timed steps, the `stage` label of svc_stage_duration_seconds. */
export type TimedStage = "admit" | "optimize" | "cache_lookup" | "upstream" | "settle";

/** Where a saving came from, the `source` label of the savings counters. */
export type SavingSource = "compression" | "routing" | "cache" | "prompt_cache" | "conversation";

/**
 * Prometheus metrics of one gateway process: what it served, what it saved, what it added. Every label
 * value comes from a closed set: routes are the router's patterns, models the catalog's ids (anything
 * else is "other"), outcomes and stages fixed lists; no key, app or raw URL is ever a label.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests = new FastCounter(
    "svc_http_requests_total",
    "HTTP requests by route pattern, method and status",
    ["route", "method", "status"],
    this.registry,
  );
  private readonly httpDuration = new FastHistogram(
    "svc_http_request_duration_seconds",
    "HTTP request latency, arrival to the end of the answer's headers, by route pattern, method and status",
    ["route", "method", "status"],
    this.registry,
    LATENCY_BUCKETS,
  );
  private readonly completions = new FastCounter(
    "svc_completions_total",
    "Completion calls by route, status, model (catalog id, 'auto' or 'other') and whether the cache answered",
    ["route", "status", "model", "cache_hit"],
    this.registry,
  );
  private readonly completionDuration = new FastHistogram(
    "svc_completion_duration_seconds",
    "Completion latency, arrival to the answer's end (a stream's last chunk), by route, status and model",
    ["route", "status", "model"],
    this.registry,
    LATENCY_BUCKETS,
  );
  private readonly overhead = new FastHistogram(
    "svc_overhead_seconds",
    "Time the gateway added to a call: its latency minus the time spent waiting on providers",
    [],
    this.registry,
    LATENCY_BUCKETS,
  ).series();
  private readonly stageDuration = new FastHistogram(
    "svc_stage_duration_seconds",
    "Time in each pipeline step (admit, optimize, cache_lookup, upstream, settle)",
    ["stage"],
    this.registry,
    LATENCY_BUCKETS,
  );
  private readonly cacheLookups = new FastCounter(
    "svc_cache_lookups_total",
    "Semantic-cache lookups by result (hit, miss, bypass) and, for a hit, the layer that answered",
    ["result", "layer"],
    this.registry,
  );
  private readonly savedUsd = new FastCounter(
    "svc_saved_usd_total",
    "USD saved against what the calls would have cost without the gateway, by source (positive parts only)",
    ["source"],
    this.registry,
  );
  private readonly savedTokens = new FastCounter(
    "svc_saved_tokens_total",
    "Tokens not sent to a provider, by source (compression and conversation: prompt tokens removed; cache: the prompt and completion of an answer served from the cache)",
    ["source"],
    this.registry,
  );
  private readonly costUsd = new FastCounter("svc_cost_usd_total", "USD the calls actually cost", [], this.registry).series();
  private readonly attempts = new FastCounter(
    "svc_provider_attempts_total",
    "Upstream attempts by provider and outcome (ok or the failure kind)",
    ["provider", "outcome"],
    this.registry,
  );
  private readonly retries = new FastCounter(
    "svc_provider_retries_total",
    "Attempts that retried the same model after a failure, by provider",
    ["provider"],
    this.registry,
  );
  private readonly fallbacks = new FastCounter(
    "svc_provider_fallbacks_total",
    "Attempts that moved to another model after a failure, by the provider fallen back to",
    ["provider"],
    this.registry,
  );
  private readonly queueDepth: Gauge = new Gauge({
    name: "svc_worker_queue_depth",
    help: "Optimizer tasks waiting for a free worker",
    registers: [this.registry],
    collect: (): void => this.queueDepth.set(this.queued()),
  });
  private queued: () => number = () => 0;
  private readonly budgetRemaining: Gauge = new Gauge({
    name: "svc_budget_remaining_usd",
    help: "USD left in the current period of each budget this process has served calls against (limit less spent and reserved), read at each scrape",
    labelNames: ["budget"],
    registers: [this.registry],
    collect: (): Promise<void> => this.collectBudgets(),
  });
  /** Budget ids this process has reserved on, with their app: a label value set as bounded as the budgets the operators created. */
  private readonly budgets = new Map<string, string>();
  private budgetLeft: (appId: string, id: string) => Promise<number | undefined> = async () => undefined;
  private redis: { sent: () => number; up: () => boolean } | undefined;
  private readonly redisSent: Counter = new Counter({
    name: "svc_redis_commands_total",
    help: "Commands (round trips: a Lua script is one) this process sent to Redis (SVC_REDIS_URL)",
    registers: [this.registry],
    collect: (): void => {
      this.redisSent.reset();
      this.redisSent.inc(this.redis?.sent() ?? 0);
    },
  });
  private readonly redisUp: Gauge = new Gauge({
    name: "svc_redis_up",
    help: "1 while Redis answers this process, 0 while it refuses what needs Redis (absent without SVC_REDIS_URL: 0)",
    registers: [this.registry],
    collect: (): void => this.redisUp.set(this.redis?.up() ? 1 : 0),
  });

  /** `models` are the catalog's ids and aliases: the only model names that become label values. */
  constructor(private readonly models: ReadonlySet<string> = new Set()) {
    collectDefaultMetrics({ register: this.registry, prefix: "svc_process_" });
  }

  /** A model name as a label value: one the catalog lists, "auto", else "other" (clients may send any string). */
  modelLabel(name: string): string {
    return name === "auto" || this.models.has(name) ? name : "other";
  }

  /** Where svc_redis_commands_total and svc_redis_up read from, when Redis is configured. */
  watchRedis(sent: () => number, up: () => boolean): void {
    this.redis = { sent, up };
  }

  /** Where svc_worker_queue_depth reads from, once the optimizer's pool exists. */
  watchQueue(depth: () => number): void {
    this.queued = depth;
  }

  /** Where svc_budget_remaining_usd reads from: a budget's USD left, undefined once it is deleted. */
  watchBudgets(left: (appId: string, id: string) => Promise<number | undefined>): void {
    this.budgetLeft = left;
  }

  /** A call reserved on a budget: from now on the budget is one series of svc_budget_remaining_usd. */
  noteBudget(appId: string, id: string): void {
    if (!this.budgets.has(id)) this.budgets.set(id, appId);
  }

  private async collectBudgets(): Promise<void> {
    this.budgetRemaining.reset();
    await Promise.all(
      [...this.budgets].map(async ([id, appId]) => {
        // A store that cannot answer now leaves the series out of this scrape only.
        const left = await this.budgetLeft(appId, id).catch(() => null);
        if (left === undefined) this.budgets.delete(id);
        else if (left !== null) this.budgetRemaining.set({ budget: id }, left);
      }),
    );
  }

  countRequest(route: string, method: string, status: number, seconds: number): void {
    const st = String(status);
    this.httpRequests.series(route, method, st).value++;
    this.httpDuration.observe(this.httpDuration.series(route, method, st), seconds);
  }

  countCompletion(route: string, status: number, model: string, cacheHit: boolean, seconds: number): void {
    const s = String(status);
    this.completions.series(route, s, model, cacheHit ? "true" : "false").value++;
    this.completionDuration.observe(this.completionDuration.series(route, s, model), seconds);
  }

  observeStage(stage: TimedStage, seconds: number): void {
    this.stageDuration.observe(this.stageDuration.series(stage), seconds);
  }

  observeOverhead(seconds: number): void {
    this.stageDuration.observe(this.overhead, seconds);
  }

  countCacheLookup(result: "hit" | "miss" | "bypass", layer: string): void {
    this.cacheLookups.series(result, layer).value++;
  }

  countSaving(source: SavingSource, usd: number, tokens: number): void {
    if (usd > 0) this.savedUsd.series(source).value += usd;
    if (tokens > 0) this.savedTokens.series(source).value += tokens;
  }

  countCost(usd: number): void {
    if (usd > 0) this.costUsd.value += usd;
  }

  /** One upstream attempt; `after` is the attempt before it in the same call, if any. */
  countAttempt(a: { model: string; provider: string; outcome: string }, after: { model: string } | undefined): void {
    this.attempts.series(a.provider, a.outcome).value++;
    if (!after) return;
    (after.model === a.model ? this.retries : this.fallbacks).series(a.provider).value++;
  }
}
