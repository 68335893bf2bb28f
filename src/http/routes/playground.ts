import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { readJsonBody } from "../body";
import { parseCompletionRequest } from "../validate/completion-request";
import { RULE_NAMES } from "../../pipeline/compress";
import { optimizeInputOf, reportOf } from "../../pipeline/analyze";
import { PerClientLimit } from "../playground/rate-limit";
import page from "../playground/page.html" with { type: "text" };

/** GET /v1/playground: a page to try the optimizer; POST: the same analysis as JSON. No key, limited per client address. */
export function playgroundRoutes(gw: Pick<Services, "optimizer" | "servableModels" | "settings">) {
  const limit = new PerClientLimit(gw.settings.playgroundPerMinute);
  return new Elysia()
    .get("/v1/playground", () => new Response(page as unknown as string, { headers: { "content-type": "text/html; charset=utf-8" } }))
    .post(
      "/v1/playground",
      async ({ request, server }) => {
        limit.take(server?.requestIP(request)?.address ?? "unknown", Date.now());
        const req = parseCompletionRequest(await readJsonBody(request, gw.settings.maxBodyBytes), RULE_NAMES);
        return reportOf(await gw.optimizer.run(optimizeInputOf(req, gw.servableModels, gw.settings.qualityFloor), request.signal));
      },
      { parse: "none" },
    );
}
