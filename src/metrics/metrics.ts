import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Prometheus metrics of one gateway process: what it served, what it saved, what it added. */
export class Metrics {
  readonly registry = new Registry();
  readonly completions = new Counter({ name: "svc_completions_total", help: "Completion calls by outcome", labelNames: ["status", "model", "cache_hit"] as const, registers: [this.registry] });
  readonly savedUsd = new Counter({ name: "svc_saved_usd_total", help: "USD saved against what the calls would have cost without the gateway", registers: [this.registry] });
  readonly costUsd = new Counter({ name: "svc_cost_usd_total", help: "USD the calls actually cost", registers: [this.registry] });
  readonly tokensRemoved = new Counter({ name: "svc_prompt_tokens_removed_total", help: "Prompt tokens removed by compression", registers: [this.registry] });
  readonly overhead = new Histogram({
    name: "svc_overhead_ms",
    help: "Milliseconds the gateway added to a call (total minus time waiting on providers)",
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100],
    registers: [this.registry],
  });

  /** Labelled children, kept: prom-client hashes the label object on every inc() otherwise. */
  private readonly completionChildren = new Map<string, { inc(): void }>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: "svc_process_" });
  }

  countCompletion(status: number, model: string, cacheHit: boolean): void {
    const key = `${status}|${model}|${cacheHit}`;
    let child = this.completionChildren.get(key);
    if (!child) {
      child = this.completions.labels(String(status), model, String(cacheHit));
      this.completionChildren.set(key, child);
    }
    child.inc();
  }
}
