import { Elysia } from "elysia";
import type { Gateway } from "../../gateway";
import { registerRoute } from "../app";
import { ApiError } from "../errors";

/** GET /metrics: Prometheus text, for admin keys (or without a key on the separate metrics listener). */
export function metricsRoutes(gw: Gateway, open = false) {
  registerRoute("GET", "/metrics");
  return new Elysia().get("/metrics", async ({ request }) => {
    if (!open) {
      const key = gw.authenticate(request);
      if (!key.scopes.includes("admin")) throw new ApiError("FORBIDDEN", "metrics need a key with the 'admin' scope");
    }
    return new Response(await gw.metrics.registry.metrics(), { headers: { "content-type": gw.metrics.registry.contentType } });
  });
}
