import { toMicros, type BudgetHold } from "../../accounting/budgets";
import { storeUnavailable } from "../../accounting/budgets";
import type { Services } from "../services";
import type { Stage } from "../stage";
import { worstCaseMicros } from "../worst-case";

/**
 * `svc_options.budget_id`: once routing knows the models the call may be served by, its worst-case
 * cost is reserved on the budget, or the call is refused (402 BUDGET_EXCEEDED) before any provider
 * call; the answer's actual cost replaces the reservation; a call that produced nothing releases it.
 */
export function budgetStage(s: Pick<Services, "budgets" | "catalog" | "metrics">): Stage<{ hold?: BudgetHold } | undefined> {
  return {
    name: "budget",
    before: (call) => (call.req.svc_options.budget_id === undefined ? undefined : {}),
    // A call without a budget returns at once, not a promise: an asynchronous hook costs every call a turn of the event loop.
    planned: (call, plan, state) => {
      const id = call.req.svc_options.budget_id;
      if (!state || id === undefined) return undefined;
      return s.budgets.reserve(call.key.appId, id, call.requestId, worstCaseMicros(s.catalog, call, plan)).then(
        (hold) => {
          state.hold = hold;
          s.metrics.noteBudget(call.key.appId, id);
        },
        (e) => Promise.reject(storeUnavailable(e, "the budget")),
      );
    },
    commit(_call, _out, state, priced) {
      if (state?.hold) void s.budgets.settle(state.hold, toMicros(priced.costs.cost_actual_usd));
    },
    rollback(_call, _error, state) {
      if (state?.hold) void s.budgets.settle(state.hold, 0);
    },
  };
}
