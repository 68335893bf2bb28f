import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { requestStartOf } from "../request-id";
import { keyOf } from "../auth";
import { SSE_HEADERS } from "../sse-headers";
import { readJsonBody } from "../body";
import { parseCompletionRequest } from "../validate/completion-request";
import { Pipeline, type PipelineServices } from "../../pipeline/complete";
import { RULE_NAMES } from "../../pipeline/compress";

/**
 * POST /v1/complete and its OpenAI-named twin POST /v1/chat/completions (one handler, so the OpenAI
 * SDKs work with only the base URL and key changed), and GET /v1/models.
 */
export function completionRoutes(gw: PipelineServices & Pick<Services, "keyIndex" | "hash">) {
  const pipeline = new Pipeline(gw);
  const handlerOf =
    (route: string) =>
    async ({ request }: { request: Request }) => {
      const key = keyOf(gw, request);
      const req = parseCompletionRequest(await readJsonBody(request, gw.settings.maxBodyBytes), RULE_NAMES);
      const { id, t0 } = requestStartOf(request);
      const result = await pipeline.complete(key, req, { requestId: id, t0, signal: request.signal, route });
      if (result.kind === "json") return Response.json(result.body, { headers: { "x-request-id": id } });
      return new Response(result.stream, { headers: { ...SSE_HEADERS, "x-request-id": id } });
    };
  const modelObject = (m: (typeof gw.catalog.models)[number]) => ({
    id: m.id,
    object: "model",
    created: 0,
    owned_by: m.provider,
    tier: m.tier ?? null,
    aliases: m.aliases,
    context_window: m.context_window,
    input_usd_per_mtok: m.input_usd_per_mtok,
    output_usd_per_mtok: m.output_usd_per_mtok,
    cached_input_usd_per_mtok: m.cached_input_usd_per_mtok ?? null,
    ...(m.cache_write_usd_per_mtok !== undefined && { cache_write_usd_per_mtok: m.cache_write_usd_per_mtok }),
    features: m.features,
    listed: m.listed !== false,
    available: gw.providers.isAvailable(m),
  });
  return new Elysia()
    .post("/v1/complete", handlerOf("/v1/complete"), { parse: "none" })
    .post("/v1/chat/completions", handlerOf("/v1/chat/completions"), { parse: "none" })
    .get("/v1/models", ({ request }) => {
      keyOf(gw, request);
      return { object: "list", data: [{ id: "auto", object: "model", created: 0, owned_by: "svc", tier: "auto" }, ...gw.catalog.models.map(modelObject)] };
    })
    .get("/v1/models/:id", ({ request, params }) => {
      keyOf(gw, request);
      return modelObject(gw.catalog.resolve(decodeURIComponent(params.id)));
    });
}
