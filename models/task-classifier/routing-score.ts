import { REASON_OF_TASK } from "../../src/pipeline/route/reasons";
import type { TaskClass } from "../../src/ml/types";

const TASK_REASONS = new Set<string>(Object.values(REASON_OF_TASK));

/**
 * Whether a routing_reason is the one the prompt's label gives (issue 26's "reason accuracy"). When a
 * signal sent the prompt up a tier the reason names the signal, not the class; it counts as right when
 * the class routing acted on is the label. Shared by bench/route-eval.ts and cross-validate.ts so that
 * the figure tuned on is the figure reported.
 */
export function reasonIsRight(reason: string, routedTask: TaskClass, label: TaskClass): boolean {
  return TASK_REASONS.has(reason) ? reason === REASON_OF_TASK[label] : routedTask === label;
}
