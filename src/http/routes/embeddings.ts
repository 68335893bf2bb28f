import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { keyOf } from "../auth";
import { readJsonBody } from "../body";
import { embeddings, parseEmbeddingsRequest, type EmbeddingServices } from "../../pipeline/embeddings";

/** POST /v1/embeddings (OpenAI's shape): svc's own model, or forwarded to an OpenAI-format provider. */
export function embeddingRoutes(gw: EmbeddingServices & Pick<Services, "keyIndex" | "hash">) {
  return new Elysia().post(
    "/v1/embeddings",
    async ({ request }) => {
      const key = keyOf(gw, request);
      const req = parseEmbeddingsRequest(await readJsonBody(request, gw.settings.maxBodyBytes));
      return Response.json(await embeddings(gw, key, req, request.signal));
    },
    { parse: "none" },
  );
}
