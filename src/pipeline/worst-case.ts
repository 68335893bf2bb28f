import type { Catalog, ModelInfo } from "../catalog/catalog";
import { toMicros } from "../accounting/budgets";
import { estimateUsage } from "./usage";
import type { Call, Plan } from "./call";

/**
 * Our prompt count can fall short of the provider's (its chat template, a tokenizer that splits
 * differently): the reservation adds this share and a few tokens so an answer's actual cost stays
 * within what was held. A judgement, not a measurement; an answer that costs more is still charged
 * in full, so the margin only decides how far a budget may be passed, never whether usage is recorded.
 */
const PROMPT_MARGIN = 1.1;
const PROMPT_MARGIN_TOKENS = 16;

/**
 * The most a call can cost, in micro-dollars: its prompt plus `max_tokens` of output for each of `n`
 * choices, on the dearest model it may be served by (routing's candidates include the fallbacks), each
 * prompt counted with that model's tokenizer. Memoised on the call: the budget and the agent run both
 * reserve it.
 */
export function worstCaseMicros(catalog: Catalog, call: Call, plan: Plan): number {
  if (call.worstCase !== undefined) return call.worstCase;
  return (call.worstCase = Math.max(0, ...ceilingsOf(catalog, call, plan, plan.candidates)));
}

/** The most the call can cost on each of `models`, in micro-dollars. */
export function ceilingsOf(catalog: Catalog, call: Call, plan: Plan, models: readonly ModelInfo[]): number[] {
  const completion = call.req.max_tokens * (call.req.params.n ?? 1);
  const promptByProvider = new Map<string, number>();
  return models.map((m) => {
    let prompt = promptByProvider.get(m.provider);
    if (prompt === undefined)
      promptByProvider.set(m.provider, (prompt = Math.ceil(estimateUsage(plan.opt.messages, m, "").prompt_tokens * PROMPT_MARGIN) + PROMPT_MARGIN_TOKENS));
    // A model served by name without a catalog price is charged nothing (svc_meta reports its cost as
    // null), so it reserves nothing either: a budget cannot bound what it cannot price.
    return toMicros(catalog.costOf(m, prompt, completion) ?? 0);
  });
}
