import type { Database } from "bun:sqlite";

export const USAGE_GROUPS = ["day", "key", "model", "budget", "agent_run"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** The column (or expression) each grouping reads; rows without one (a call with no budget) group under ''. */
const GROUP_SQL: Record<UsageGroup, string> = {
  day: "strftime('%Y-%m-%d', created_at / 1000, 'unixepoch')",
  key: "key_id",
  model: "coalesce(model, '')",
  budget: "coalesce(budget_id, '')",
  agent_run: "coalesce(agent_run_id, '')",
};

export interface UsageRow {
  group: string | null;
  calls: number;
  errors: number;
  original_tokens: number;
  sent_tokens: number;
  cost_original_usd: number;
  cost_actual_usd: number;
  saved_usd: number;
  saved_by_source: { compression: number; routing: number; cache: number; prompt_cache: number; conversation: number };
  cache_hits: number;
  avg_latency_ms: number;
}

interface Raw {
  grp: string;
  calls: number;
  errors: number;
  original_tokens: number;
  sent_tokens: number;
  cost_original_usd: number;
  cost_actual_usd: number;
  saved_usd: number;
  s_compression: number;
  s_routing: number;
  s_cache: number;
  s_prompt_cache: number;
  s_conversation: number;
  cache_hits: number;
  avg_latency_ms: number;
}

// Sums of doubles carry float noise (0.30000000000000004); reports round to 1e-10 USD as svc_meta does.
const usd = (x: number) => Math.round(x * 1e10) / 1e10;

/**
 * Usage of one app, aggregated in the store: one GROUP BY over the ledger rows of a time range, read
 * through the (app_id, created_at) index, a page at a time in group order (keyset paging: `after` is
 * the last group of the previous page).
 */
export class UsageQuery {
  private readonly statements = new Map<UsageGroup, ReturnType<Database["prepare"]>>();

  constructor(private readonly sqlite: Database) {}

  page(appId: string, group: UsageGroup, from: number, to: number, after: string | undefined, limit: number): { rows: UsageRow[]; next: string | null } {
    const raw = this.statement(group).all(appId, from, to, after ?? null, limit + 1) as Raw[];
    const more = raw.length > limit;
    const rows = raw.slice(0, limit).map(
      (r): UsageRow => ({
        group: r.grp === "" ? null : r.grp,
        calls: r.calls,
        errors: r.errors,
        original_tokens: r.original_tokens,
        sent_tokens: r.sent_tokens,
        cost_original_usd: usd(r.cost_original_usd),
        cost_actual_usd: usd(r.cost_actual_usd),
        saved_usd: usd(r.saved_usd),
        saved_by_source: {
          compression: usd(r.s_compression),
          routing: usd(r.s_routing),
          cache: usd(r.s_cache),
          prompt_cache: usd(r.s_prompt_cache),
          conversation: usd(r.s_conversation),
        },
        cache_hits: r.cache_hits,
        avg_latency_ms: Math.round(r.avg_latency_ms * 1000) / 1000,
      }),
    );
    return { rows, next: more ? raw[limit - 1]!.grp : null };
  }

  private statement(group: UsageGroup) {
    let s = this.statements.get(group);
    if (!s) {
      const g = GROUP_SQL[group];
      s = this.sqlite.prepare(
        `SELECT ${g} AS grp, count(*) AS calls, sum(CASE WHEN status >= 400 THEN 1 ELSE 0 END) AS errors,
           sum(original_tokens) AS original_tokens, sum(prompt_tokens) AS sent_tokens,
           sum(cost_original_usd) AS cost_original_usd, sum(cost_actual_usd) AS cost_actual_usd, sum(saved_usd) AS saved_usd,
           coalesce(sum(saved_compression_usd), 0) AS s_compression, coalesce(sum(saved_routing_usd), 0) AS s_routing,
           coalesce(sum(saved_cache_usd), 0) AS s_cache, coalesce(sum(saved_prompt_cache_usd), 0) AS s_prompt_cache,
           coalesce(sum(saved_conversation_usd), 0) AS s_conversation,
           sum(cache_hit) AS cache_hits, avg(latency_ms) AS avg_latency_ms
         FROM usage_ledger
         WHERE app_id = ?1 AND created_at >= ?2 AND created_at < ?3
         GROUP BY grp HAVING ?4 IS NULL OR grp > ?4
         ORDER BY grp LIMIT ?5`,
      );
      this.statements.set(group, s);
    }
    return s;
  }
}
