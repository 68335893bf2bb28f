import { Elysia } from "elysia";
import type { Gateway } from "../../gateway";
import { registerRoute } from "../app";
import { readJsonBody } from "../body";
import { embeddings, parseEmbeddingsRequest } from "../../pipeline/embeddings";

/** POST /v1/embeddings (OpenAI's shape): svc's own model, or forwarded to an OpenAI-format provider. */
export function embeddingRoutes(gw: Gateway) {
  registerRoute("POST", "/v1/embeddings");
  return new Elysia().post(
    "/v1/embeddings",
    async ({ request }) => {
      const key = gw.authenticate(request);
      const req = parseEmbeddingsRequest(await readJsonBody(request, gw.settings.maxBodyBytes));
      return Response.json(await embeddings(gw, key, req, request.signal));
    },
    { parse: "none" },
  );
}
