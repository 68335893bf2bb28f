import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { keyOf } from "../auth";
import { readJsonBody } from "../body";
import { Embeddings, parseEmbeddingsRequest, type EmbeddingServices } from "../../pipeline/embeddings";
import { requestStartOf } from "../request-id";

/** POST /v1/embeddings (OpenAI's shape): svc's own model, or forwarded to an OpenAI-format provider. */
export function embeddingRoutes(gw: EmbeddingServices & Pick<Services, "keyIndex" | "hash">) {
  const service = new Embeddings(gw);
  return new Elysia().post(
    "/v1/embeddings",
    async ({ request }) => {
      const key = keyOf(gw, request);
      const req = parseEmbeddingsRequest(await readJsonBody(request, gw.settings.maxBodyBytes));
      const { id, t0 } = requestStartOf(request);
      const body = await service.create(key, req, { requestId: id, t0, signal: request.signal, route: "/v1/embeddings" });
      return Response.json(body, { headers: { "x-request-id": id } });
    },
    { parse: "none" },
  );
}
