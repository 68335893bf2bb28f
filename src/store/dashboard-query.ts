import type { Database } from "bun:sqlite";

const DAY_MS = 86_400_000;

export interface DashboardFilter {
  appId: string;
  from: number;
  to: number;
  keyId?: string;
  model?: string;
}

export interface DayTotals {
  day: string;
  calls: number;
  errors: number;
  original_tokens: number;
  sent_tokens: number;
  cached_tokens: number;
  cost_original_usd: number;
  cost_actual_usd: number;
  saved_usd: number;
  cache_hits: number;
}

export interface DashboardUsage {
  totals: Omit<DayTotals, "day"> & { cache_hit_rate_calls: number; cache_hit_rate_tokens: number };
  days: DayTotals[];
  models: { model: string; calls: number; cost_actual_usd: number }[];
  overhead_ms: { p50: number | null; p99: number | null };
}

interface RawDayModel {
  day: number;
  model: string;
  calls: number;
  errors: number;
  original_tokens: number;
  sent_tokens: number;
  cached_tokens: number;
  cost_original_usd: number;
  cost_actual_usd: number;
  saved_usd: number;
  cache_hits: number;
}

// Sums of doubles carry float noise (0.30000000000000004); reports round to 1e-10 USD as svc_meta does.
const usd = (x: number) => Math.round(x * 1e10) / 1e10;
const ratio = (a: number, b: number) => (b === 0 ? 0 : Math.round((a / b) * 10_000) / 10_000);

// Every statement reads only the rows of one app in one time range through usage_ledger_app_time;
// the optional key and model filters are tested on those rows, not in a second index.
const WHERE = `app_id = ?1 AND created_at >= ?2 AND created_at < ?3 AND (?4 IS NULL OR key_id = ?4) AND (?5 IS NULL OR model = ?5)`;

/**
 * The dashboard's view of the ledger, aggregated in the store: one GROUP BY (day, model) pass for the
 * series, the totals and the model mix (a few hundred groups at most), and one pass over a histogram
 * of overhead in 10 µs buckets for its percentiles, so no row is sorted or sent to the process.
 */
export class DashboardQuery {
  private readonly byDayModel;
  private readonly overhead;

  constructor(sqlite: Database) {
    this.byDayModel = sqlite.prepare(
      `SELECT created_at / ${DAY_MS} AS day, coalesce(model, '') AS model, count(*) AS calls,
         sum(CASE WHEN status >= 400 THEN 1 ELSE 0 END) AS errors,
         sum(original_tokens) AS original_tokens, sum(prompt_tokens) AS sent_tokens,
         sum(CASE WHEN cache_hit THEN original_tokens ELSE 0 END) AS cached_tokens,
         sum(cost_original_usd) AS cost_original_usd, sum(cost_actual_usd) AS cost_actual_usd, sum(saved_usd) AS saved_usd,
         sum(cache_hit) AS cache_hits
       FROM usage_ledger WHERE ${WHERE} GROUP BY day, model`,
    );
    // Overhead of answered calls only: a refused call's time says nothing about the pipeline's.
    this.overhead = sqlite.prepare(
      `SELECT CAST(overhead_ms * 100 AS INTEGER) AS bucket, count(*) AS n FROM usage_ledger WHERE ${WHERE} AND status < 400 GROUP BY bucket ORDER BY bucket`,
    );
  }

  usage(f: DashboardFilter): DashboardUsage {
    const params = [f.appId, f.from, f.to, f.keyId ?? null, f.model ?? null] as const;
    const raw = this.byDayModel.all(...params) as RawDayModel[];
    const days = new Map<number, DayTotals>();
    const models = new Map<string, { model: string; calls: number; cost_actual_usd: number }>();
    const totals = {
      calls: 0,
      errors: 0,
      original_tokens: 0,
      sent_tokens: 0,
      cached_tokens: 0,
      cost_original_usd: 0,
      cost_actual_usd: 0,
      saved_usd: 0,
      cache_hits: 0,
    };
    for (const r of raw) {
      let d = days.get(r.day);
      if (!d)
        days.set(
          r.day,
          (d = { day: new Date(r.day * DAY_MS).toISOString().slice(0, 10), ...Object.fromEntries(Object.keys(totals).map((k) => [k, 0])) } as DayTotals),
        );
      for (const k of Object.keys(totals) as (keyof typeof totals)[]) {
        d[k] += r[k];
        totals[k] += r[k];
      }
      const m = models.get(r.model) ?? { model: r.model, calls: 0, cost_actual_usd: 0 };
      m.calls += r.calls;
      m.cost_actual_usd += r.cost_actual_usd;
      models.set(r.model, m);
    }
    const money = <T extends { cost_original_usd?: number; cost_actual_usd: number; saved_usd?: number }>(x: T): T => ({
      ...x,
      ...(x.cost_original_usd !== undefined && { cost_original_usd: usd(x.cost_original_usd) }),
      cost_actual_usd: usd(x.cost_actual_usd),
      ...(x.saved_usd !== undefined && { saved_usd: usd(x.saved_usd) }),
    });
    return {
      totals: {
        ...money(totals),
        cache_hit_rate_calls: ratio(totals.cache_hits, totals.calls),
        cache_hit_rate_tokens: ratio(totals.cached_tokens, totals.original_tokens),
      },
      days: [...days.entries()].sort(([a], [b]) => a - b).map(([, d]) => money(d)),
      models: [...models.values()].sort((a, b) => b.calls - a.calls).map(money),
      overhead_ms: this.percentiles(params),
    };
  }

  private percentiles(params: readonly unknown[]): { p50: number | null; p99: number | null } {
    const hist = this.overhead.all(...(params as never[])) as { bucket: number; n: number }[];
    const total = hist.reduce((s, h) => s + h.n, 0);
    if (total === 0) return { p50: null, p99: null };
    // The bucket holding the rank's row; its upper edge, so a figure never understates the overhead.
    const at = (q: number) => {
      const rank = Math.ceil(q * total);
      let seen = 0;
      for (const h of hist) if ((seen += h.n) >= rank) return (h.bucket + 1) / 100;
      return (hist[hist.length - 1]!.bucket + 1) / 100;
    };
    return { p50: at(0.5), p99: at(0.99) };
  }
}
