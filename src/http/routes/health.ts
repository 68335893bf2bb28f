import { Elysia } from "elysia";
import type { Gateway } from "../../gateway";
import { registerRoute } from "../app";

/** GET /health: unauthenticated; 503 when a check fails so load balancers take the node out. */
export function healthRoutes(gw: Gateway) {
  registerRoute("GET", "/health");
  return new Elysia().get("/health", ({ set }) => {
    const checks = gw.healthChecks();
    const ok = Object.values(checks).every((c) => c.ok);
    set.status = ok ? 200 : 503;
    return { status: ok ? "ok" : "degraded", version: gw.version, uptime_s: Math.floor((Date.now() - gw.startedAt) / 1000), checks };
  });
}
