import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Seconds; from a tenth of a millisecond (the relay's own overhead) to a minute (a long answer). */
const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The pipeline's timed steps, the `stage` label of svc_stage_duration_seconds. */
export type TimedStage = "admit" | "optimize" | "cache_lookup" | "upstream" | "settle";

/** Where a saving came from, the `source` label of the savings counters. */
export type SavingSource = "compression" | "routing" | "cache";

/** A labelled child of a metric, kept by its label values: prom-client hashes the label object on every call otherwise. */
class Children<T> {
  private readonly byKey = new Map<string, T>();
  constructor(private readonly make: (values: string[]) => T) {}

  get(...values: string[]): T {
    const key = values.join("\u0000");
    let child = this.byKey.get(key);
    if (!child) this.byKey.set(key, (child = this.make(values)));
    return child;
  }
}

/**
 * Prometheus metrics of one gateway process: what it served, what it saved, what it added. Every label
 * value comes from a closed set: routes are the router's patterns, models the catalog's ids (anything
 * else is "other"), outcomes and stages fixed lists; no key, app or raw URL is ever a label.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests = new Counter({ name: "svc_http_requests_total", help: "HTTP requests by route pattern, method and status", labelNames: ["route", "method", "status"] as const, registers: [this.registry] });
  private readonly httpDuration = new Histogram({ name: "svc_http_request_duration_seconds", help: "HTTP request latency, arrival to the end of the answer's headers, by route pattern, method and status", labelNames: ["route", "method", "status"] as const, buckets: LATENCY_BUCKETS, registers: [this.registry] });
  private readonly completions = new Counter({ name: "svc_completions_total", help: "Completion calls by route, status, model (catalog id, 'auto', 'other' or 'none') and whether the cache answered", labelNames: ["route", "status", "model", "cache_hit"] as const, registers: [this.registry] });
  private readonly completionDuration = new Histogram({ name: "svc_completion_duration_seconds", help: "Completion latency, arrival to the answer's end (a stream's last chunk), by route, status and model", labelNames: ["route", "status", "model"] as const, buckets: LATENCY_BUCKETS, registers: [this.registry] });
  private readonly overhead = new Histogram({ name: "svc_overhead_seconds", help: "Time the gateway added to a call: its latency minus the time spent waiting on providers", buckets: LATENCY_BUCKETS, registers: [this.registry] });
  private readonly stageDuration = new Histogram({ name: "svc_stage_duration_seconds", help: "Time in each pipeline step (admit, optimize, cache_lookup, upstream, settle)", labelNames: ["stage"] as const, buckets: LATENCY_BUCKETS, registers: [this.registry] });
  private readonly cacheLookups = new Counter({ name: "svc_cache_lookups_total", help: "Semantic-cache lookups by result (hit, miss, bypass) and, for a hit, the layer that answered", labelNames: ["result", "layer"] as const, registers: [this.registry] });
  private readonly savedUsd = new Counter({ name: "svc_saved_usd_total", help: "USD saved against what the calls would have cost without the gateway, by source", labelNames: ["source"] as const, registers: [this.registry] });
  private readonly savedTokens = new Counter({ name: "svc_saved_tokens_total", help: "Tokens not sent to a provider, by source (compression: prompt tokens removed; cache: prompt and completion of an answer served from the cache)", labelNames: ["source"] as const, registers: [this.registry] });
  private readonly costUsd = new Counter({ name: "svc_cost_usd_total", help: "USD the calls actually cost", registers: [this.registry] });
  private readonly attempts = new Counter({ name: "svc_provider_attempts_total", help: "Upstream attempts by provider and outcome (ok or the failure kind)", labelNames: ["provider", "outcome"] as const, registers: [this.registry] });
  private readonly retries = new Counter({ name: "svc_provider_retries_total", help: "Attempts that retried the same model after a failure, by provider", labelNames: ["provider"] as const, registers: [this.registry] });
  private readonly fallbacks = new Counter({ name: "svc_provider_fallbacks_total", help: "Attempts that moved to another model after a failure, by the provider fallen back to", labelNames: ["provider"] as const, registers: [this.registry] });
  private readonly queueDepth: Gauge = new Gauge({ name: "svc_worker_queue_depth", help: "Optimizer tasks waiting for a free worker", registers: [this.registry], collect: (): void => this.queueDepth.set(this.queued()) });

  private readonly httpChildren = new Children((v) => ({ count: this.httpRequests.labels(...v), duration: this.httpDuration.labels(...v) }));
  private readonly completionChildren = new Children((v) => this.completions.labels(...v));
  private readonly completionDurationChildren = new Children((v) => this.completionDuration.labels(...v));
  private readonly stageChildren = new Children((v) => this.stageDuration.labels(...v));
  private readonly cacheChildren = new Children((v) => this.cacheLookups.labels(...v));
  private readonly savedUsdChildren = new Children((v) => this.savedUsd.labels(...v));
  private readonly savedTokenChildren = new Children((v) => this.savedTokens.labels(...v));
  private readonly attemptChildren = new Children((v) => this.attempts.labels(...v));
  private readonly retryChildren = new Children((v) => this.retries.labels(...v));
  private readonly fallbackChildren = new Children((v) => this.fallbacks.labels(...v));
  private queued: () => number = () => 0;

  /** `models` are the catalog's ids and aliases: the only model names that become label values. */
  constructor(private readonly models: ReadonlySet<string> = new Set()) {
    collectDefaultMetrics({ register: this.registry, prefix: "svc_process_" });
  }

  /** A model name as a label value: one the catalog lists, "auto", else "other" (clients may send any string). */
  modelLabel(name: string): string {
    return name === "auto" || this.models.has(name) ? name : "other";
  }

  /** Where svc_worker_queue_depth reads from, once the optimizer's pool exists. */
  watchQueue(depth: () => number): void {
    this.queued = depth;
  }

  countRequest(route: string, method: string, status: number, seconds: number): void {
    const c = this.httpChildren.get(route, method, String(status));
    c.count.inc();
    c.duration.observe(seconds);
  }

  countCompletion(route: string, status: number, model: string, cacheHit: boolean, seconds: number): void {
    const s = String(status);
    this.completionChildren.get(route, s, model, String(cacheHit)).inc();
    this.completionDurationChildren.get(route, s, model).observe(seconds);
  }

  observeStage(stage: TimedStage, seconds: number): void {
    this.stageChildren.get(stage).observe(seconds);
  }

  observeOverhead(seconds: number): void {
    this.overhead.observe(seconds);
  }

  countCacheLookup(result: "hit" | "miss" | "bypass", layer: string): void {
    this.cacheChildren.get(result, layer).inc();
  }

  countSaving(source: SavingSource, usd: number, tokens: number): void {
    if (usd > 0) this.savedUsdChildren.get(source).inc(usd);
    if (tokens > 0) this.savedTokenChildren.get(source).inc(tokens);
  }

  countCost(usd: number): void {
    if (usd > 0) this.costUsd.inc(usd);
  }

  /** One upstream attempt; `after` is the attempt before it in the same call, if any. */
  countAttempt(a: { model: string; provider: string; outcome: string }, after: { model: string } | undefined): void {
    this.attemptChildren.get(a.provider, a.outcome).inc();
    if (!after) return;
    (after.model === a.model ? this.retryChildren : this.fallbackChildren).get(a.provider).inc();
  }
}
