import type { usageLedger } from "./schema";

/**
 * The ledger's daily rollup (`usage_daily`, migration 0004): one row per app, UTC day, key, model,
 * budget and agent run with the sums the usage reports read and an overhead histogram, kept in the
 * same transaction as the ledger rows it sums. A 90-day report over a million ledger rows read them
 * all (11.9 s, bench/results/dashboard-1m.md); it reads at most days × keys × models × budgets × runs
 * rollup rows instead, and the ledger only for the partial days at a range's edges, so every answer
 * equals the one the ledger alone gives.
 *
 * Everything here is portable SQL with `?` placeholders (SQLite and PostgreSQL alike), so a ledger
 * writer on either store runs the same upsert with the same parameters: `rollupParams(rows)`.
 */

type LedgerRow = typeof usageLedger.$inferInsert;

export const DAY_MS = 86_400_000;

/**
 * Overhead histogram edges in ms: 0.01 ms × 2^(i/4), four significant digits, so a percentile read off
 * the histogram (its bucket's upper edge, never an understatement) is at most 19% above the true value.
 * Bucket 0 holds answers under 0.01 ms, bucket i in [EDGE[i-1], EDGE[i]), the last one everything from
 * 463 ms up (its upper edge is the rows' maximum, kept beside the buckets).
 */
export const OVERHEAD_EDGES_MS: readonly number[] = Array.from({ length: 63 }, (_, i) => Number((0.01 * 2 ** (i / 4)).toPrecision(4)));
export const OVERHEAD_BUCKETS = OVERHEAD_EDGES_MS.length + 1;
const bucketColumn = (i: number) => `overhead_b${String(i).padStart(2, "0")}`;
export const OVERHEAD_COLUMNS: readonly string[] = Array.from({ length: OVERHEAD_BUCKETS }, (_, i) => bucketColumn(i));

/** The bucket an answered call's overhead falls in. */
export function overheadBucket(ms: number): number {
  let lo = 0;
  let hi = OVERHEAD_EDGES_MS.length;
  // The first edge above ms: its index is the bucket.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ms < OVERHEAD_EDGES_MS[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The rollup's key: null model, budget and run are '' (a primary key column is never null on PostgreSQL). */
export const DIMENSIONS = ["app_id", "day", "key_id", "model", "budget_id", "agent_run_id"] as const;

/** The sums every report reads, in table order. */
export const BASE_SUMS = [
  "calls",
  "errors",
  "original_tokens",
  "sent_tokens",
  "cached_tokens",
  "cost_original_usd",
  "cost_actual_usd",
  "saved_usd",
  "saved_compression_usd",
  "saved_routing_usd",
  "saved_cache_usd",
  "saved_prompt_cache_usd",
  "saved_conversation_usd",
  "cache_hits",
  "latency_ms",
] as const;

/** Summed columns, in table order: the base sums, then the overhead histogram. */
export const SUMS: readonly string[] = [...BASE_SUMS, ...OVERHEAD_COLUMNS];

/** Every column of usage_daily, in table order. */
export const COLUMNS: readonly string[] = [...DIMENSIONS, ...SUMS, "overhead_max_ms"];

/**
 * Adds a batch's sums to the rollup: one statement per rollup row the batch touches (`rollupParams`).
 * The largest overhead is kept with CASE, not SQLite's two-argument max(), which PostgreSQL lacks.
 */
export const ROLLUP_UPSERT_SQL = `INSERT INTO usage_daily (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map(() => "?").join(", ")})
  ON CONFLICT (${DIMENSIONS.join(", ")}) DO UPDATE SET ${SUMS.map((c) => `${c} = usage_daily.${c} + excluded.${c}`).join(", ")},
  overhead_max_ms = CASE WHEN excluded.overhead_max_ms > usage_daily.overhead_max_ms THEN excluded.overhead_max_ms ELSE usage_daily.overhead_max_ms END`;

/** The rollup rows of a batch of ledger rows (the ones the store took), as ROLLUP_UPSERT_SQL's parameters. */
export function rollupParams(rows: readonly LedgerRow[]): unknown[][] {
  const groups = new Map<string, unknown[]>();
  const first = DIMENSIONS.length;
  const bucket0 = first + BASE_SUMS.length;
  const max = COLUMNS.length - 1;
  for (const r of rows) {
    const day = Math.floor(r.createdAt / DAY_MS);
    const dims = [r.appId, day, r.keyId, r.model ?? "", r.budgetId ?? "", r.agentRunId ?? ""];
    const id = dims.join("\u001f");
    let g = groups.get(id);
    if (!g) groups.set(id, (g = [...dims, ...new Array(SUMS.length).fill(0), 0]));
    const add = (i: number, v: number | null | undefined) => {
      (g![first + i] as number) += v ?? 0;
    };
    add(0, 1);
    add(1, r.status >= 400 ? 1 : 0);
    add(2, r.originalTokens);
    add(3, r.promptTokens);
    add(4, r.cacheHit ? r.originalTokens : 0);
    add(5, r.costOriginalUsd);
    add(6, r.costActualUsd);
    add(7, r.savedUsd);
    add(8, r.savedCompressionUsd);
    add(9, r.savedRoutingUsd);
    add(10, r.savedCacheUsd);
    add(11, r.savedPromptCacheUsd);
    add(12, r.savedConversationUsd);
    add(13, r.cacheHit ? 1 : 0);
    add(14, r.latencyMs);
    // Overhead of answered calls only: a refused call's time says nothing about the pipeline's.
    if (r.status < 400) {
      (g[bucket0 + overheadBucket(r.overheadMs)] as number) += 1;
      if (r.overheadMs > (g[max] as number)) g[max] = r.overheadMs;
    }
  }
  return [...groups.values()];
}

/** The base sums over ledger rows, in BASE_SUMS order. */
const BASE_EXPRESSIONS = [
  "count(*)",
  "sum(CASE WHEN status >= 400 THEN 1 ELSE 0 END)",
  "sum(original_tokens)",
  "sum(prompt_tokens)",
  "sum(CASE WHEN cache_hit = 1 THEN original_tokens ELSE 0 END)",
  "sum(cost_original_usd)",
  "sum(cost_actual_usd)",
  "sum(saved_usd)",
  "coalesce(sum(saved_compression_usd), 0)",
  "coalesce(sum(saved_routing_usd), 0)",
  "coalesce(sum(saved_cache_usd), 0)",
  "coalesce(sum(saved_prompt_cache_usd), 0)",
  "coalesce(sum(saved_conversation_usd), 0)",
  "sum(cache_hit)",
  "sum(latency_ms)",
];

/** A ledger row's rollup key, in DIMENSIONS order. */
const DIMENSION_EXPRESSIONS = ["app_id", `created_at / ${DAY_MS}`, "key_id", "coalesce(model, '')", "coalesce(budget_id, '')", "coalesce(agent_run_id, '')"];

/**
 * The histogram bucket of overhead_ms as a binary search of nested CASEs: six comparisons a row where
 * one sum per bucket cost 64 (30 µs a ledger row against about 5, measured on the 100k-row seed).
 */
function bucketOf(lo: number, hi: number): string {
  if (lo === hi) return String(lo);
  const mid = (lo + hi) >> 1;
  return `CASE WHEN overhead_ms < ${OVERHEAD_EDGES_MS[mid]} THEN ${bucketOf(lo, mid)} ELSE ${bucketOf(mid + 1, hi)} END`;
}

/**
 * The rollup's sums over ledger rows in SQL, grouped by the rollup's key: the migration's backfill and
 * the usage query's partial days at a range's edges (`where` picks the rows). Without the histogram,
 * the key and the base sums only; with it, every column of usage_daily, the rows grouped first by key
 * and bucket and the buckets then turned into columns.
 */
export function ledgerRollupSelect(where: string, histogram: boolean): string {
  const from = `FROM usage_ledger${where ? ` WHERE ${where}` : ""}`;
  if (!histogram) {
    const exprs = [...DIMENSION_EXPRESSIONS, ...BASE_EXPRESSIONS];
    return `SELECT ${exprs.map((e, i) => `${e} AS ${[...DIMENSIONS, ...BASE_SUMS][i]}`).join(", ")}
${from}
GROUP BY ${DIMENSION_EXPRESSIONS.join(", ")}`;
  }
  const inner = [
    ...DIMENSION_EXPRESSIONS.map((e, i) => `${e} AS ${DIMENSIONS[i]}`),
    ...BASE_EXPRESSIONS.map((e, i) => `${e} AS ${BASE_SUMS[i]}`),
    // Overhead of answered calls only: a refused call's time says nothing about the pipeline's.
    "sum(CASE WHEN status < 400 THEN 1 ELSE 0 END) AS answered",
    "max(CASE WHEN status < 400 THEN overhead_ms END) AS answered_max",
    `${bucketOf(0, OVERHEAD_BUCKETS - 1)} AS bucket`,
  ];
  const outer = [
    ...DIMENSIONS,
    ...BASE_SUMS.map((c) => `sum(${c}) AS ${c}`),
    ...OVERHEAD_COLUMNS.map((c, i) => `sum(CASE WHEN bucket = ${i} THEN answered ELSE 0 END) AS ${c}`),
    "coalesce(max(answered_max), 0) AS overhead_max_ms",
  ];
  return `SELECT ${outer.join(",\n  ")}
FROM (SELECT ${inner.join(",\n    ")}
  ${from}
  GROUP BY ${DIMENSION_EXPRESSIONS.join(", ")}, bucket) by_bucket
GROUP BY ${DIMENSIONS.join(", ")}`;
}

/** The migration's backfill of the rollup from the ledger rows already stored (test/store checks 0004 holds exactly this). */
export const BACKFILL_SQL = `INSERT INTO usage_daily (${COLUMNS.join(", ")})\n${ledgerRollupSelect("", true)};`;

/** The summed histogram's p50 and p99 (upper edges; the last bucket's is the maximum), null without answered calls. */
export function overheadPercentiles(buckets: readonly number[], maxMs: number): { p50: number | null; p99: number | null } {
  const total = buckets.reduce((s, n) => s + n, 0);
  if (total === 0) return { p50: null, p99: null };
  // To the microsecond, rounded up like the edges it stands in for.
  const max = Math.ceil(maxMs * 1000) / 1000;
  const at = (q: number) => {
    const rank = Math.ceil(q * total);
    let seen = 0;
    for (let i = 0; i < buckets.length; i++) {
      seen += buckets[i]!;
      if (seen >= rank) return i < OVERHEAD_EDGES_MS.length ? Math.min(OVERHEAD_EDGES_MS[i]!, max) : max;
    }
    return max;
  };
  return { p50: at(0.5), p99: at(0.99) };
}
