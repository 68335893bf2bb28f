import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { adminKeyOf, keyOf } from "../auth";
import { readJsonBody } from "../body";
import { validationError } from "../../core/errors";
import { BUDGET_PERIODS } from "../../accounting/budgets";
import type { BudgetPeriod } from "../../store/spend-store";
import { nameField, objectBody, usdField } from "../validate/resource-body";
import { storeUnavailable } from "../../accounting/budgets";

/** /api/budgets: any key of the app reads its budgets; an admin key creates, changes and deletes them. */
export function budgetRoutes(gw: Pick<Services, "keyIndex" | "hash" | "budgets" | "keys" | "settings">) {
  const body = async (request: Request, allowed: readonly string[]) => objectBody(await readJsonBody(request, gw.settings.maxBodyBytes), allowed);
  const guarded = async <T>(op: () => Promise<T>) => {
    try {
      return await op();
    } catch (e) {
      throw storeUnavailable(e, "budgets");
    }
  };
  return new Elysia()
    .post(
      "/api/budgets",
      async ({ request, set }) => {
        const key = adminKeyOf(gw, request, "creating a budget");
        const b = await body(request, ["name", "limit_usd", "period"]);
        const name = nameField(b, "name", true)!;
        const limit = usdField(b, "limit_usd", true)!;
        if (!BUDGET_PERIODS.includes(b.period as BudgetPeriod)) throw validationError("period", `must be one of ${BUDGET_PERIODS.join(", ")}`);
        const created = await guarded(() => gw.budgets.create(key.appId, name, limit, b.period as BudgetPeriod));
        set.status = 201;
        return created;
      },
      { parse: "none" },
    )
    .get("/api/budgets", async ({ request }) => ({ object: "list", data: await gw.budgets.list(keyOf(gw, request).appId) }))
    .get("/api/budgets/:id", ({ request, params }) => gw.budgets.get(keyOf(gw, request).appId, params.id))
    .patch(
      "/api/budgets/:id",
      async ({ request, params }) => {
        const key = adminKeyOf(gw, request, "changing a budget");
        const b = await body(request, ["name", "limit_usd"]);
        const patch = { name: nameField(b, "name", false), limitMicros: usdField(b, "limit_usd", false) };
        return guarded(() => gw.budgets.update(key.appId, params.id, patch));
      },
      { parse: "none" },
    )
    .delete("/api/budgets/:id", async ({ request, params }) => {
      const key = adminKeyOf(gw, request, "deleting a budget");
      const removed = await guarded(() => gw.budgets.remove(key.appId, params.id));
      // Keys bound to it as their default go back to none: the deleted budget no longer caps their calls.
      await gw.keys.unbindBudget(removed.id);
      return { ...removed, deleted: true };
    });
}
