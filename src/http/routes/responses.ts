import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { ApiError, validationError } from "../../core/errors";
import { requestStartOf } from "../request-id";
import { keyOf } from "../auth";
import { SSE_HEADERS } from "../sse-headers";
import { readJsonBody } from "../body";
import { parseCompletionRequest } from "../validate/completion-request";
import { Pipeline, type PipelineServices } from "../../pipeline/complete";
import { RULE_NAMES } from "../../pipeline/compress";
import { itemReferences, toChatRequest } from "../../pipeline/responses/request";
import { toResponse } from "../../pipeline/responses/response";
import { toResponseEvents } from "../../pipeline/responses/stream";
import { newId } from "../../pipeline/responses/ids";
import { inputItems, itemPage } from "../../pipeline/responses/input-items";

/**
 * POST /v1/responses: the OpenAI Responses API, served by the completion pipeline (optimizer, cache,
 * routing, providers, svc_meta) through a translation to and from Chat Completions. GET and DELETE
 * /v1/responses/{id} and GET /v1/responses/{id}/input_items: a stored response (store: true, the default)
 * of the key's app.
 */
export function responseRoutes(gw: PipelineServices & Pick<Services, "keyIndex" | "hash" | "responses" | "log">) {
  const pipeline = new Pipeline(gw);
  const store = gw.responses;
  const notFound = (id: string) => new ApiError("NOT_FOUND", `no stored response '${id}' for this app`);
  return new Elysia()
    .get("/v1/responses/:id", async ({ request, params }) => {
      const key = keyOf(gw, request);
      const found = await store.response(key.appId, params.id);
      if (!found) throw notFound(params.id);
      return Response.json(found);
    })
    .get("/v1/responses/:id/input_items", async ({ request, params, query }) => {
      const key = keyOf(gw, request);
      const messages = await store.messages(key.appId, params.id);
      if (!messages) throw notFound(params.id);
      return Response.json(itemPage(inputItems(params.id, messages), query));
    })
    .delete("/v1/responses/:id", async ({ request, params }) => {
      const key = keyOf(gw, request);
      if (!(await store.delete(key.appId, params.id))) throw notFound(params.id);
      return Response.json({ id: params.id, object: "response", deleted: true });
    })
    .post(
      "/v1/responses",
      async ({ request }) => {
        const key = keyOf(gw, request);
        const body = await readJsonBody(request, gw.settings.maxBodyBytes);
        const referenced = await store.items(key.appId, itemReferences(body));
        const r = toChatRequest(body, (itemId) => referenced.get(itemId));
        let history: Record<string, unknown>[] = [];
        if (r.previousResponseId) {
          const earlier = await store.messages(key.appId, r.previousResponseId);
          if (!earlier)
            throw validationError(
              "previous_response_id",
              `no stored response '${r.previousResponseId}' for this app (stored responses are kept for SVC_RESPONSES_TTL_S, up to SVC_RESPONSES_MAX_PER_APP per app; send the whole input instead)`,
            );
          history = earlier;
        }
        // This request's instructions first, then the stored conversation, then the new input.
        const instructions = (r.chat.messages as unknown[]).slice(0, (r.chat.messages as unknown[]).length - r.inputMessages.length);
        const chat = { ...r.chat, messages: [...instructions, ...history, ...r.inputMessages] };
        const req = parseCompletionRequest(chat, RULE_NAMES);
        const { id, t0 } = requestStartOf(request);
        const responseId = newId("resp");
        // Stored before the answer's last event goes out, so a follow-up call finds it; a store failure loses
        // only the later previous_response_id (logged), never this answer.
        const remember = async (message: Record<string, unknown>, response: Record<string, unknown>) => {
          if (!r.store) return;
          try {
            await store.set(key.appId, responseId, [...history, ...r.inputMessages, message], response);
          } catch (e) {
            gw.log.error({ err: { message: (e as Error).message }, response_id: responseId }, "responses: a response could not be stored");
          }
        };
        const result = await pipeline.complete(key, req, { requestId: id, t0, signal: request.signal, route: "/v1/responses" });
        if (result.kind === "json") {
          const response = toResponse(responseId, result.body, r.echo);
          await remember(result.body.choices[0]?.message ?? { role: "assistant", content: "" }, response);
          return Response.json(response, { headers: { "x-request-id": id } });
        }
        return new Response(toResponseEvents(result.stream, responseId, r.echo, remember), { headers: { ...SSE_HEADERS, "x-request-id": id } });
      },
      { parse: "none" },
    );
}
