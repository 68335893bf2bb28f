import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { keyOf } from "../auth";
import { validationError } from "../../core/errors";
import { USAGE_GROUPS, UsageQuery, type UsageFilter, type UsageGroup, type UsageRow } from "../../store/usage-query";

const DAY_MS = 86_400_000;
const MAX_PAGE = 1000;

function timeParam(q: URLSearchParams, field: string, fallback: number): number {
  const v = q.get(field);
  if (v === null || v === "") return fallback;
  const t = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(t)) throw validationError(field, "must be an ISO 8601 time or epoch milliseconds");
  return t;
}

function filterParam(q: URLSearchParams, field: string): string | undefined {
  const v = q.get(field);
  if (v === null || v === "") return undefined;
  if (v.length > 200) throw validationError(field, "at most 200 characters");
  return v;
}

// Cursors carry a prefix so that the group '' (calls without a model, budget or run) still makes one.
const CURSOR_PREFIX = "g:";

const CSV_COLUMNS = [
  "group",
  "calls",
  "errors",
  "original_tokens",
  "sent_tokens",
  "cost_original_usd",
  "cost_actual_usd",
  "saved_usd",
  "saved_compression_usd",
  "saved_routing_usd",
  "saved_cache_usd",
  "saved_prompt_cache_usd",
  "saved_conversation_usd",
  "cache_hits",
  "avg_latency_ms",
  "cached_tokens",
];

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
const csvField = (v: unknown) => {
  const s = v === null ? "" : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

function csv(rows: UsageRow[]): string {
  const lines = rows.map((r) =>
    [
      r.group,
      r.calls,
      r.errors,
      r.original_tokens,
      r.sent_tokens,
      r.cost_original_usd,
      r.cost_actual_usd,
      r.saved_usd,
      r.saved_by_source.compression,
      r.saved_by_source.routing,
      r.saved_by_source.cache,
      r.saved_by_source.prompt_cache,
      r.saved_by_source.conversation,
      r.cache_hits,
      r.avg_latency_ms,
      r.cached_tokens,
    ]
      .map(csvField)
      .join(","),
  );
  return [CSV_COLUMNS.join(","), ...lines].join("\r\n") + "\r\n";
}

/**
 * GET /api/usage: the key's app's calls aggregated by day, key, model, budget or agent run over
 * [from, to) (default the last 30 days), optionally of one key, model or budget (`key_id`, `model`,
 * `budget_id`), a page at a time (`limit`, then `cursor` = the previous page's next_cursor), as JSON
 * (with `totals` over every group of the range, overhead percentiles included, unless `totals=false`:
 * they cost a second pass, so a caller that has them from another grouping skips them) or CSV. Rows reach the store within a flush interval
 * of their call. The dashboard reads its charts from here.
 */
export function usageRoutes(gw: Pick<Services, "keyIndex" | "hash" | "store">) {
  const query = new UsageQuery(gw.store);
  return new Elysia().get("/api/usage", async ({ request }) => {
    const key = keyOf(gw, request);
    const q = new URL(request.url).searchParams;
    const to = timeParam(q, "to", Date.now());
    const from = timeParam(q, "from", to - 30 * DAY_MS);
    if (from > to) throw validationError("from", "must not be after 'to'");
    const group = (q.get("group_by") ?? "day") as UsageGroup;
    if (!USAGE_GROUPS.includes(group)) throw validationError("group_by", `must be one of ${USAGE_GROUPS.join(", ")}`);
    const format = q.get("format") ?? "json";
    if (format !== "json" && format !== "csv") throw validationError("format", "must be json or csv");
    const limitRaw = q.get("limit");
    const limit = limitRaw === null ? 100 : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) throw validationError("limit", `must be an integer from 1 to ${MAX_PAGE}`);
    const cursorRaw = q.get("cursor");
    let after: string | undefined;
    if (cursorRaw) {
      const decoded = Buffer.from(cursorRaw, "base64url").toString("utf8");
      if (Buffer.from(decoded, "utf8").toString("base64url") !== cursorRaw || !decoded.startsWith(CURSOR_PREFIX))
        throw validationError("cursor", "is not a cursor this endpoint gave");
      after = decoded.slice(CURSOR_PREFIX.length);
    }
    const filter: UsageFilter = { keyId: filterParam(q, "key_id"), model: filterParam(q, "model"), budgetId: filterParam(q, "budget_id") };
    const page = await query.page(key.appId, group, from, to, after, limit, filter);
    const next = page.next === null ? null : Buffer.from(CURSOR_PREFIX + page.next, "utf8").toString("base64url");
    if (format === "csv") {
      const headers: Record<string, string> = { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="usage-${group}.csv"` };
      if (next) headers["x-next-cursor"] = next;
      return new Response(csv(page.rows), { headers });
    }
    return {
      object: "usage",
      group_by: group,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      rows: page.rows,
      next_cursor: next,
      ...(q.get("totals") !== "false" && { totals: await query.totals(key.appId, from, to, filter) }),
    };
  });
}
