const STORE = "svc.adminKey";

/** The admin key lives in this tab's sessionStorage only: never in a URL, a cookie or localStorage. */
export const session = {
  get: () => sessionStorage.getItem(STORE),
  set: (key: string) => sessionStorage.setItem(STORE, key),
  clear: () => sessionStorage.removeItem(STORE),
};

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A call to the gateway's API with the session's key in the Authorization header. */
export async function api<T>(method: string, path: string, body?: unknown, key = session.get()): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: { authorization: `Bearer ${key ?? ""}`, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiFailure(res.status, data?.error?.code ?? "HTTP_" + res.status, data?.error?.message ?? res.statusText);
  return data as T;
}

export interface KeyRecord {
  id: string;
  name: string;
  app_id: string;
  type: "live" | "test";
  prefix: string;
  last4: string;
  status: "active" | "revoked";
  scopes: string[];
  plan: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  key?: string;
}

/** Savings of a call by where they came from, in USD (svc_meta.saved_by_source). */
export interface SavedBySource {
  compression: number;
  routing: number;
  cache: number;
  prompt_cache: number;
  conversation: number;
}

/** One group of GET /api/usage (a day, key, model, budget or agent run), or the range's totals. */
export interface UsageRow {
  group: string | null;
  calls: number;
  errors: number;
  original_tokens: number;
  sent_tokens: number;
  cached_tokens: number;
  cost_original_usd: number;
  cost_actual_usd: number;
  saved_usd: number;
  saved_by_source: SavedBySource;
  cache_hits: number;
  avg_latency_ms: number;
}

export interface Usage {
  rows: UsageRow[];
  /** Absent when asked with totals=false. */
  totals?: Omit<UsageRow, "group"> & { overhead_ms: { p50: number | null; p99: number | null } };
  next_cursor: string | null;
}

/** Every group of a usage report (pages of 1,000 followed to the end), with the range's totals unless `totals` is false. */
export async function usage(query: URLSearchParams, totals = true): Promise<Usage> {
  const q = new URLSearchParams(query);
  q.set("limit", "1000");
  if (!totals) q.set("totals", "false");
  const first = await api<Usage>("GET", `/api/usage?${q}`);
  const rows = [...first.rows];
  for (let next = first.next_cursor; next !== null; ) {
    q.set("cursor", next);
    const page = await api<Usage>("GET", `/api/usage?${q}`);
    rows.push(...page.rows);
    next = page.next_cursor;
  }
  return { ...first, rows, next_cursor: null };
}

/** GET /api/budgets' record. */
export interface Budget {
  id: string;
  name: string;
  limit_usd: number;
  period: "daily" | "monthly" | "total";
  spent_usd: number;
  reserved_usd: number;
  remaining_usd: number;
  resets_at: string | null;
  created_at: string;
}
