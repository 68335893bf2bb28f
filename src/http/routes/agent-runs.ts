import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { adminKeyOf, keyOf } from "../auth";
import { readJsonBody } from "../body";
import { storeUnavailable } from "../../accounting/budgets";
import { countField, objectBody, usdField } from "../validate/resource-body";

/** /api/agent-runs/{id}: any key of the app reads a run; an admin key sets its limits, resets or closes it. */
export function agentRunRoutes(gw: Pick<Services, "keyIndex" | "hash" | "agentRuns" | "settings">) {
  const guarded = async <T>(op: () => Promise<T>) => {
    try {
      return await op();
    } catch (e) {
      throw storeUnavailable(e, "agent runs");
    }
  };
  const id = (params: { id: string }) => decodeURIComponent(params.id);
  return new Elysia()
    .get("/api/agent-runs/:id", ({ request, params }) => {
      const key = keyOf(gw, request);
      return gw.agentRuns.get(key.appId, id(params), key.runLimits);
    })
    .put(
      "/api/agent-runs/:id",
      async ({ request, params }) => {
        const key = adminKeyOf(gw, request, "setting an agent run's limits");
        const b = objectBody(await readJsonBody(request, gw.settings.maxBodyBytes), ["max_cost_usd", "max_calls", "max_repeats"]);
        const limits = {
          maxCostMicros: usdField(b, "max_cost_usd", false),
          maxCalls: countField(b, "max_calls", 1, 1_000_000_000),
          maxRepeats: countField(b, "max_repeats", 1, 1_000_000),
        };
        return guarded(() => gw.agentRuns.put(key.appId, id(params), limits));
      },
      { parse: "none" },
    )
    .post("/api/agent-runs/:id/reset", ({ request, params }) =>
      guarded(() => gw.agentRuns.reset(adminKeyOf(gw, request, "resetting an agent run").appId, id(params))),
    )
    .post("/api/agent-runs/:id/close", ({ request, params }) =>
      guarded(() => gw.agentRuns.close(adminKeyOf(gw, request, "closing an agent run").appId, id(params))),
    );
}
