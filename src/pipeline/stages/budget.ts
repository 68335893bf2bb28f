import { toMicros, type BudgetHold } from "../../accounting/budgets";
import { storeUnavailable } from "../../accounting/budgets";
import type { ModelInfo } from "../../catalog/catalog";
import { ApiError } from "../../core/errors";
import type { Services } from "../services";
import type { Stage } from "../stage";
import type { Call, Plan } from "../call";
import type { BudgetFitMeta } from "../meta";
import { AUTO_MODEL } from "../route";
import { ceilingsOf, worstCaseMicros } from "../worst-case";

interface BudgetState {
  /** The budget the call is charged on: the one it names, else its key's default. */
  id: string;
  named: boolean;
  hold?: BudgetHold;
  /** Set when the budget moved `auto` routing off the model it chose (svc_meta.budget_fit). */
  fit?: BudgetFitMeta;
}

/**
 * `svc_options.budget_id`, else the key's default budget: once routing knows the models the call may
 * be served by, its worst-case cost is reserved on the budget, or the call is refused (402
 * BUDGET_EXCEEDED) before any provider call; the answer's actual cost replaces the reservation; a call
 * that produced nothing releases it. With `model: "auto"` a call the budget cannot cover is served by
 * the capable models that fit what is left (fitToBudget) before it is refused.
 */
export function budgetStage(s: Pick<Services, "budgets" | "agentRuns" | "catalog" | "metrics">): Stage<BudgetState | undefined> {
  return {
    name: "budget",
    before(call) {
      const named = call.req.svc_options.budget_id;
      const id = named ?? call.key.budgetId ?? undefined;
      if (id === undefined) return undefined;
      call.budgetId = id;
      return { id, named: named !== undefined };
    },
    // A call without a budget returns at once, not a promise: an asynchronous hook costs every call a turn of the event loop.
    planned: (call, plan, state) => {
      if (!state) return undefined;
      // A summary step already made for this call is part of what it costs the budget.
      const side = call.sideMicros ?? 0;
      const refit = (left: number) => {
        const fit = fitToBudget(s.catalog, call, plan, left - side);
        if (fit?.moved) state.fit = fit.moved;
        return fit && fit.micros + side;
      };
      const micros = worstCaseMicros(s.catalog, call, plan) + side;
      // The call's agent run, when it has a cost limit, reserves the same worst case in this transaction (one commit for both).
      const run = call.runHold && s.agentRuns.jointly(call.runHold, micros);
      return s.budgets.reserve(call.key.appId, state.id, call.requestId, micros, { named: state.named, refit, ...(run && { run }) }).then(
        (hold) => {
          state.hold = hold;
          s.metrics.noteBudget(call.key.appId, state.id);
        },
        (e) => {
          // A key's default budget deleted since this process last synced its keys (deleting unbinds them): no longer a cap.
          if (!state.named && e instanceof ApiError && e.code === "NOT_FOUND") return void (call.budgetId = undefined);
          return Promise.reject(storeUnavailable(e, "the budget"));
        },
      );
    },
    commit(call, _out, state, priced) {
      if (!state?.hold) return;
      void s.budgets.settle(state.hold, toMicros(priced.costs.cost_actual_usd) + (call.sideMicros ?? 0));
      if (state.fit) priced.meta.budget_fit = state.fit;
    },
    rollback(call, _error, state) {
      if (state?.hold) void s.budgets.settle(state.hold, call.sideMicros ?? 0);
    },
  };
}

/**
 * Routing chose models (the chosen one and its fallbacks) whose worst case the budget cannot cover:
 * serves the call from the models routing counts capable of the task (its floor tier or above: never
 * below what the capability table allows for the task) whose worst case fits `left`. When the chosen
 * model fits, only the fallbacks that do not are dropped; else the call goes to the highest tier with
 * a model that fits, cheapest first, routing_reason `budget_fit` and svc_meta.budget_fit naming the model
 * and reason routing had chosen. Sets the plan's candidates and the call's worst case; undefined when
 * nothing capable fits (the call is refused) or the client named its model. Returns the new worst case
 * and, when the model changed, what svc_meta says about it.
 */
function fitToBudget(catalog: Services["catalog"], call: Call, plan: Plan, left: number): { micros: number; moved?: BudgetFitMeta } | undefined {
  const route = plan.opt.route;
  if (call.req.model !== AUTO_MODEL || !route.ok || !route.capable) return undefined;
  const capable = route.capable.map((id) => catalog.find(id)!);
  const ceilings = ceilingsOf(catalog, call, plan, capable);
  const fits = new Set(capable.filter((_, i) => ceilings[i]! <= left));
  const chosen = plan.candidates[0]!;
  let candidates: ModelInfo[];
  if (fits.has(chosen)) candidates = plan.candidates.filter((m) => fits.has(m));
  else {
    const fitting = capable.filter((m) => fits.has(m));
    if (fitting.length === 0) return undefined;
    // capable is cheapest tier first: the last fitting model's tier is the highest that fits.
    const top = fitting[fitting.length - 1]!.tier;
    candidates = fitting.filter((m) => m.tier === top);
  }
  const micros = (call.worstCase = Math.max(...candidates.map((m) => ceilings[capable.indexOf(m)]!)));
  plan.candidates = candidates;
  if (candidates[0] === chosen) return { micros };
  const moved: BudgetFitMeta = { instead_of: chosen.id, reason: plan.reason };
  plan.reason = "budget_fit";
  // The cache lookup was keyed on the chosen model: an answer from another is not stored under it.
  call.fill?.fail();
  call.fill = undefined;
  return { micros, moved };
}
