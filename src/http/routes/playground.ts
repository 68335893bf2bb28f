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
import { priceCall } from "../../accounting/costs";
import { scriptResponse } from "../dashboard/bundle";
import page from "../playground/page.html" with { type: "text" };

/** GET /v1/playground: a page to try the optimizer; POST: the same analysis as JSON. No key, limited per client address. */
export function playgroundRoutes(gw: Pick<Services, "optimizer" | "servableModels" | "settings" | "catalog">) {
  const limit = new PerClientLimit(gw.settings.playgroundPerMinute);
  let running = 0;
  return new Elysia()
    .get(
      "/v1/playground",
      () =>
        new Response(page as unknown as string, {
          headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": "default-src 'self'; style-src 'self' 'unsafe-inline'" },
        }),
    )
    .get("/v1/playground/app.js", () => scriptResponse("playground"))
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
          const report = reportOf(await gw.optimizer.run(optimizeInputOf(masked.req, gw.servableModels, gw.settings.qualityFloor), request.signal), masked);
          // The prompt's price before and after, as the ledger would price it; the answer's tokens are
          // unknown without a provider call and would add to both sides.
          const costs = priceCall(gw.catalog, {
            requested: req.model === "auto" ? undefined : gw.catalog.find(req.model),
            served: gw.catalog.resolve(report.model),
            originalPromptTokens: report.svc_meta.original_tokens,
            sentPromptTokens: report.svc_meta.compressed_tokens,
            completionTokens: 0,
            cacheHit: false,
          });
          return {
            ...report,
            estimated_costs: { prompt_original_usd: costs.cost_original_usd, prompt_sent_usd: costs.cost_actual_usd, saved_usd: costs.saved_usd },
          };
        } finally {
          running--;
        }
      },
      { parse: "none" },
    );
}
