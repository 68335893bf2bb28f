import { toMicros } from "../../accounting/budgets";
import { storeUnavailable } from "../../accounting/budgets";
import { WRAP_UP, type RunHold } from "../../accounting/agent-runs";
import type { Services } from "../services";
import type { Stage } from "../stage";
import { worstCaseMicros } from "../worst-case";

/**
 * `svc_options.agent_run_id`: at admission the call is counted into its run unless the run's guard
 * refuses it (closed, tripped, call limit, the same step repeating); once the models are known its
 * worst-case cost is reserved against the run's cost limit; the answer adds its cost and tokens and
 * reports the run's totals in svc_meta.agent_run. A call that produced nothing is not counted.
 */
export function agentRunStage(s: Pick<Services, "agentRuns" | "catalog">): Stage<RunHold | undefined> {
  // A call without a run returns at once, not a promise: an asynchronous hook costs every call a turn of the event loop.
  return {
    name: "agent-run",
    before: (call) => {
      const id = call.req.svc_options.agent_run_id;
      return id === undefined
        ? undefined
        : s.agentRuns.admit(call.key.appId, id, call.requestId, call.req.messages, call.key.runLimits).then(
            (hold) => (call.runHold = hold),
            (e) => Promise.reject(storeUnavailable(e, "the agent run")),
          );
    },
    planned: (call, plan, hold) => {
      // An embedding call (max_tokens 0) writes no answer to wrap up: it goes as it came, and svc_meta says nothing.
      if (hold?.wrapUp && call.req.max_tokens === 0) hold.wrapUp = false;
      if (hold?.wrapUp) {
        // plan.opt may be a remembered optimizer result shared with other calls: replaced, not changed.
        plan.opt = { ...plan.opt, messages: [...plan.opt.messages, { role: "system", content: WRAP_UP }] };
        // The cache lookup was keyed on the request without it: this answer is not stored under that key.
        call.fill?.fail();
        call.fill = undefined;
      }
      // Reserved already when the budget stage made it with its own; else here.
      const r =
        hold?.limited && hold.micros === undefined ? s.agentRuns.reserve(hold, worstCaseMicros(s.catalog, call, plan) + (call.sideMicros ?? 0)) : undefined;
      return r?.catch((e) => Promise.reject(storeUnavailable(e, "the agent run")));
    },
    commit(call, out, hold, priced) {
      if (!hold) return;
      const micros = toMicros(priced.costs.cost_actual_usd) + (call.sideMicros ?? 0);
      priced.meta.agent_run = s.agentRuns.settle(hold, micros, out.usage.prompt_tokens, out.usage.completion_tokens);
    },
    rollback(_call, _error, hold) {
      if (hold) s.agentRuns.release(hold);
    },
  };
}
