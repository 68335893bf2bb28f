import type { Database } from "bun:sqlite";
import { validationError } from "../core/errors";
import type { Store } from "./db";
import { pgText } from "./postgres";
import { BASE_SUMS, COLUMNS, DAY_MS, DIMENSIONS, ledgerRollupSelect, OVERHEAD_COLUMNS, overheadPercentiles, SUMS } from "./usage-daily";

export const USAGE_GROUPS = ["day", "key", "model", "budget", "agent_run"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** The rollup column each grouping reads; calls without one (no budget) group under ''. */
const GROUP_COLUMN: Record<UsageGroup, string> = {
  day: "day",
  key: "key_id",
  model: "model",
  budget: "budget_id",
  agent_run: "agent_run_id",
};

/** Narrows a report to one key, model or budget of the app (the dashboard's filters). */
export interface UsageFilter {
  keyId?: string;
  model?: string;
  budgetId?: string;
}

export interface UsageRow {
  group: string | null;
  calls: number;
  errors: number;
  original_tokens: number;
  sent_tokens: number;
  /** Prompt tokens of the calls answered from the cache: the cache hit rate by tokens is this over original_tokens. */
  cached_tokens: number;
  cost_original_usd: number;
  cost_actual_usd: number;
  saved_usd: number;
  saved_by_source: { compression: number; routing: number; cache: number; prompt_cache: number; conversation: number };
  cache_hits: number;
  avg_latency_ms: number;
}

/** A range's sums over every group, with svc's own time on its answered calls. */
export interface UsageTotals extends Omit<UsageRow, "group"> {
  /** From a histogram with edges 19% apart: each figure is its bucket's upper edge (or the largest overhead, if lower). */
  overhead_ms: { p50: number | null; p99: number | null };
}

type Raw = Record<string, number | string | null> & { grp: string | number | null };

// Sums of doubles carry float noise (0.30000000000000004); reports round to 1e-10 USD as svc_meta does.
const usd = (x: number) => Math.round(x * 1e10) / 1e10;
const day = (d: number) => new Date(d * DAY_MS).toISOString().slice(0, 10);

/**
 * Usage of one app, aggregated in the store and exact: the whole UTC days of [from, to) come from the
 * daily rollup (usage_daily), the partial days at its two edges from the ledger rows themselves, summed
 * the same way (`ledgerRollupSelect`); one GROUP BY over the three, a page at a time in group order
 * (keyset paging: `after` is the last group of the previous page). A 90-day report reads at most
 * 90 × keys × models × budgets × runs rollup rows and two days of ledger rows.
 *
 * The statements are portable SQL with positional parameters, one statement per shape (only the
 * filters given are in it), so PostgreSQL never sees an untyped NULL parameter; on SQLite each shape is
 * prepared once, on PostgreSQL the same text runs with `$N` parameters through the store's pool.
 */
export class UsageQuery {
  private readonly statements = new Map<string, ReturnType<Database["prepare"]>>();
  private readonly texts = new Map<string, string>();

  constructor(private readonly store: Store) {}

  async page(
    appId: string,
    group: UsageGroup,
    from: number,
    to: number,
    after: string | undefined,
    limit: number,
    filter: UsageFilter = {},
  ): Promise<{ rows: UsageRow[]; next: string | null }> {
    const afterValue = after === undefined ? undefined : group === "day" ? Math.floor(Date.parse(`${after}T00:00:00Z`) / DAY_MS) : after;
    if (Number.isNaN(afterValue)) throw validationError("cursor", "is not a cursor this endpoint gave");
    const raw = await this.run(appId, from, to, filter, group, afterValue, limit + 1);
    const more = raw.length > limit;
    const rows = raw.slice(0, limit).map((r) => toRow(r, group));
    return { rows, next: more ? (rows[limit - 1]!.group ?? "") : null };
  }

  /**
   * The range's sums over every group, overhead percentiles included. A statement of its own: the
   * histogram's 64 columns cost 3 times the base sums' to aggregate, and grouping them costs more.
   */
  async totals(appId: string, from: number, to: number, filter: UsageFilter = {}): Promise<UsageTotals> {
    const [raw] = await this.run(appId, from, to, filter, undefined, undefined, undefined);
    const { group: _, ...sums } = toRow(raw!, undefined);
    return {
      ...sums,
      overhead_ms: overheadPercentiles(
        OVERHEAD_COLUMNS.map((c) => Number(raw![c] ?? 0)),
        Number(raw!.overhead_max_ms ?? 0),
      ),
    };
  }

  private run(
    appId: string,
    from: number,
    to: number,
    filter: UsageFilter,
    group: UsageGroup | undefined,
    after: string | number | undefined,
    limit: number | undefined,
  ): Promise<Raw[]> | Raw[] {
    // Whole days [d0, d1) from the rollup; the ledger for [from, d0) and [d1, to), or all of [from, to) within one day.
    const d0 = Math.ceil(from / DAY_MS);
    const d1 = Math.floor(to / DAY_MS);
    const whole = d0 < d1;
    const filters: [string, string, string | undefined][] = [
      ["key_id", "key_id", filter.keyId],
      ["model", "coalesce(model, '')", filter.model],
      ["budget_id", "coalesce(budget_id, '')", filter.budgetId],
    ];
    const given = filters.filter(([, , v]) => v !== undefined);
    const column = group && GROUP_COLUMN[group];
    const shape = `${group ?? ""}|${after !== undefined}|${given.map(([c]) => c).join(",")}`;
    const text = this.text(shape, () => {
      // A page reads the base sums; the totals (no grouping) the histogram too.
      const histogram = column === undefined;
      const columns = histogram ? COLUMNS : [...DIMENSIONS, ...BASE_SUMS];
      const sums = (histogram ? SUMS : BASE_SUMS).map((c) => `coalesce(sum(${c}), 0) AS ${c}`).join(", ");
      const rollupWhere = ["app_id = ? AND day >= ? AND day < ?", ...given.map(([c]) => `${c} = ?`)].join(" AND ");
      const ledgerWhere = ["app_id = ? AND created_at >= ? AND created_at < ?", ...given.map(([, e]) => `${e} = ?`)].join(" AND ");
      return `SELECT ${column ?? "''"} AS grp, ${sums}${histogram ? ", coalesce(max(overhead_max_ms), 0) AS overhead_max_ms" : ""}
        FROM (
          SELECT ${columns.join(", ")} FROM usage_daily WHERE ${rollupWhere}
          UNION ALL ${ledgerRollupSelect(ledgerWhere, histogram)}
          UNION ALL ${ledgerRollupSelect(ledgerWhere, histogram)}
        ) u
        ${after !== undefined ? `WHERE ${column} > ?` : ""}
        ${column ? `GROUP BY ${column} ORDER BY ${column} LIMIT ?` : ""}`;
    });
    const values = given.map(([, , v]) => v);
    const params: unknown[] = [
      appId,
      whole ? d0 : 0,
      whole ? d1 : 0,
      ...values,
      appId,
      from,
      whole ? d0 * DAY_MS : to,
      ...values,
      appId,
      whole ? d1 * DAY_MS : 0,
      whole ? to : 0,
      ...values,
    ];
    if (after !== undefined) params.push(after);
    if (column) params.push(limit);
    if (this.store.dialect === "postgres") return this.store.sql.unsafe<Raw[]>(pgText(text), params as never[]);
    let statement = this.statements.get(shape);
    if (!statement) this.statements.set(shape, (statement = this.store.sqlite.prepare(text)));
    return statement.all(...(params as never[])) as Raw[];
  }

  private text(shape: string, build: () => string): string {
    let t = this.texts.get(shape);
    if (t === undefined) this.texts.set(shape, (t = build()));
    return t;
  }
}

function toRow(r: Raw, group: UsageGroup | undefined): UsageRow {
  const n = (c: string) => Number(r[c] ?? 0);
  const calls = n("calls");
  return {
    group: group === undefined || r.grp === "" ? null : group === "day" ? day(Number(r.grp)) : String(r.grp),
    calls,
    errors: n("errors"),
    original_tokens: n("original_tokens"),
    sent_tokens: n("sent_tokens"),
    cached_tokens: n("cached_tokens"),
    cost_original_usd: usd(n("cost_original_usd")),
    cost_actual_usd: usd(n("cost_actual_usd")),
    saved_usd: usd(n("saved_usd")),
    saved_by_source: {
      compression: usd(n("saved_compression_usd")),
      routing: usd(n("saved_routing_usd")),
      cache: usd(n("saved_cache_usd")),
      prompt_cache: usd(n("saved_prompt_cache_usd")),
      conversation: usd(n("saved_conversation_usd")),
    },
    cache_hits: n("cache_hits"),
    avg_latency_ms: calls === 0 ? 0 : Math.round((n("latency_ms") / calls) * 1000) / 1000,
  };
}
