import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { adminKeyOf } from "../auth";

/** GET /metrics: Prometheus text, for admin keys (or without a key on the separate metrics listener). */
export function metricsRoutes(gw: Pick<Services, "keyIndex" | "hash" | "metrics">, open = false) {
  return new Elysia().get("/metrics", async ({ request }) => {
    if (!open) adminKeyOf(gw, request, "/metrics");
    return new Response(await gw.metrics.registry.metrics(), { headers: { "content-type": gw.metrics.registry.contentType } });
  });
}
