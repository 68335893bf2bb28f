import { sqliteOf } from "../../store/db";
import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { adminKeyOf } from "../auth";
import { validationError } from "../../core/errors";
import { DashboardQuery } from "../../store/dashboard-query";
import { scriptResponse } from "../dashboard/bundle";
import page from "../dashboard/index.html" with { type: "text" };

const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 400;

// Only the page's own script and styles run: the admin key sits in sessionStorage, out of reach of
// anything injected from elsewhere. uPlot sets inline styles on its elements, hence 'unsafe-inline' for styles only.
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

function timeParam(q: URLSearchParams, field: string, fallback: number): number {
  const v = q.get(field);
  if (v === null || v === "") return fallback;
  const t = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(t)) throw validationError(field, "must be an ISO 8601 time or epoch milliseconds");
  return t;
}

function optionalParam(q: URLSearchParams, field: string): string | undefined {
  const v = q.get(field);
  if (v === null || v === "") return undefined;
  if (v.length > 200) throw validationError(field, "at most 200 characters");
  return v;
}

/**
 * GET /dashboard (the page and its bundled script, no key needed to load them) and its data endpoint
 * GET /api/dashboard/usage, for admin keys, over the key's own app only.
 */
export function dashboardRoutes(gw: Pick<Services, "keyIndex" | "hash" | "store">) {
  const query = new DashboardQuery(sqliteOf(gw.store, "the dashboard"));
  return new Elysia()
    .get("/dashboard", () => new Response(page as unknown as string, { headers: PAGE_HEADERS }))
    .get("/dashboard/app.js", () => scriptResponse("main"))
    .get("/api/dashboard/usage", ({ request }) => {
      const key = adminKeyOf(gw, request, "the dashboard");
      const q = new URL(request.url).searchParams;
      const to = timeParam(q, "to", Date.now());
      const from = timeParam(q, "from", to - 30 * DAY_MS);
      if (from > to) throw validationError("from", "must not be after 'to'");
      if (to - from > MAX_RANGE_DAYS * DAY_MS) throw validationError("from", `the range is at most ${MAX_RANGE_DAYS} days`);
      const usage = query.usage({ appId: key.appId, from, to, keyId: optionalParam(q, "key_id"), model: optionalParam(q, "model") });
      return { object: "dashboard.usage", from: new Date(from).toISOString(), to: new Date(to).toISOString(), ...usage };
    });
}
