import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { readJsonBody } from "../body";
import { parseCompletionRequest } from "../validate/completion-request";
import { RULE_NAMES } from "../../pipeline/compress";
import { optimizeInputOf, reportOf } from "../../pipeline/analyze";
import { maskRequest, piiTypesOf } from "../../pipeline/pii/request";
import { PerClientLimit } from "../playground/rate-limit";
import { addressBlock } from "../playground/address-block";
import { ApiError } from "../../core/errors";
import page from "../playground/page.html" with { type: "text" };

/** GET /v1/playground: a page to try the optimizer; POST: the same analysis as JSON. No key, limited per client address. */
export function playgroundRoutes(gw: Pick<Services, "optimizer" | "servableModels" | "settings">) {
  const limit = new PerClientLimit(gw.settings.playgroundPerMinute);
  let running = 0;
  return new Elysia()
    .get("/v1/playground", () => new Response(page as unknown as string, { headers: { "content-type": "text/html; charset=utf-8" } }))
    .post(
      "/v1/playground",
      async ({ request, server }) => {
        limit.take(addressBlock(server?.requestIP(request)?.address ?? "unknown"), Date.now());
        const req = parseCompletionRequest(await readJsonBody(request, gw.settings.playgroundMaxBytes), RULE_NAMES);
        // No queue: a playground analysis waits for no one and no keyed call waits behind it.
        if (running >= gw.settings.playgroundConcurrency) throw new ApiError("OVERLOADED", "the playground is busy; retry shortly", { retryAfterS: 1 });
        running++;
        try {
          const masked = maskRequest(req, piiTypesOf(gw.settings.piiTypes));
          return reportOf(await gw.optimizer.run(optimizeInputOf(masked.req, gw.servableModels, gw.settings.qualityFloor), request.signal), masked);
        } finally {
          running--;
        }
      },
      { parse: "none" },
    );
}
