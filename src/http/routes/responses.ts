import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { validationError } from "../../core/errors";
import { requestStartOf } from "../request-id";
import { keyOf } from "../auth";
import { SSE_HEADERS } from "../sse-headers";
import { readJsonBody } from "../body";
import { parseCompletionRequest } from "../validate/completion-request";
import { Pipeline, type PipelineServices } from "../../pipeline/complete";
import { RULE_NAMES } from "../../pipeline/compress";
import { toChatRequest } from "../../pipeline/responses/request";
import { toResponse } from "../../pipeline/responses/response";
import { toResponseEvents } from "../../pipeline/responses/stream";
import { ResponseStore } from "../../pipeline/responses/store";
import { newId } from "../../pipeline/responses/ids";

/**
 * POST /v1/responses: the OpenAI Responses API, served by the completion pipeline (optimizer, cache,
 * routing, providers, svc_meta) through a translation to and from Chat Completions.
 */
export function responseRoutes(gw: PipelineServices & Pick<Services, "keyIndex" | "hash">) {
  const pipeline = new Pipeline(gw);
  const store = new ResponseStore();
  return new Elysia().post(
    "/v1/responses",
    async ({ request }) => {
      const key = keyOf(gw, request);
      const r = toChatRequest(await readJsonBody(request, gw.settings.maxBodyBytes), (itemId) => store.item(key.appId, itemId));
      let history: Record<string, unknown>[] = [];
      if (r.previousResponseId) {
        const earlier = store.get(key.appId, r.previousResponseId);
        if (!earlier)
          throw validationError(
            "previous_response_id",
            `no stored response '${r.previousResponseId}' (svc keeps recent responses of this node in memory; send the whole input instead)`,
          );
        history = earlier;
      }
      // This request's instructions first, then the stored conversation, then the new input.
      const instructions = (r.chat.messages as unknown[]).slice(0, (r.chat.messages as unknown[]).length - r.inputMessages.length);
      const chat = { ...r.chat, messages: [...instructions, ...history, ...r.inputMessages] };
      const req = parseCompletionRequest(chat, RULE_NAMES);
      const { id, t0 } = requestStartOf(request);
      const responseId = newId("resp");
      const remember = (message: Record<string, unknown>, output: Record<string, unknown>[]) => {
        if (r.store) store.set(key.appId, responseId, [...history, ...r.inputMessages, message], output);
      };
      const result = await pipeline.complete(key, req, { requestId: id, t0, signal: request.signal, route: "/v1/responses" });
      if (result.kind === "json") {
        const response = toResponse(responseId, result.body, r.echo);
        remember(result.body.choices[0]?.message ?? { role: "assistant", content: "" }, response.output);
        return Response.json(response, { headers: { "x-request-id": id } });
      }
      return new Response(toResponseEvents(result.stream, responseId, r.echo, remember), { headers: { ...SSE_HEADERS, "x-request-id": id } });
    },
    { parse: "none" },
  );
}
