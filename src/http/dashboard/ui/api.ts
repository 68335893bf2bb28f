import type { UsagePage } from "../../../../clients/typescript/src/types";

export type { AgentRun, Budget, Conversation, SavedBySource, UsageRow } from "../../../../clients/typescript/src/types";

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

/** A usage report as GET /api/usage answers it (the TypeScript client's types, drift-checked against the server's). */
export type Usage = Pick<UsagePage, "rows" | "totals" | "next_cursor">;

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
