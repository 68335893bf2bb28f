import { Elysia } from "elysia";
import { scriptResponse } from "../dashboard/bundle";
import page from "../dashboard/index.html" with { type: "text" };

// Only the page's own script and styles run: the admin key sits in sessionStorage, out of reach of
// anything injected from elsewhere. uPlot sets inline styles on its elements, hence 'unsafe-inline' for styles only.
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

/**
 * GET /dashboard: the page and its bundled script, no key needed to load them. The page reads the
 * app's own endpoints (/api/usage, /api/keys, /api/budgets, /api/agent-runs, /api/conversations)
 * with the admin key it signs in with.
 */
export function dashboardRoutes() {
  return new Elysia()
    .get("/dashboard", () => new Response(page as unknown as string, { headers: PAGE_HEADERS }))
    .get("/dashboard/app.js", () => scriptResponse("main"));
}
