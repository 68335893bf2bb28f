import type { TaskClass } from "../../ml/types";

/**
 * CONTRACT.md's list of `svc_meta.routing_reason` values, and ten more (README, "Routing") that say
 * which signal sent a prompt the table puts on the cheapest tier one tier up.
 */
export const ROUTING_REASONS = [
  "explicit_model",
  "faq_pattern",
  "code_task",
  "math_task",
  "reasoning_task",
  "creative_task",
  "summarize_task",
  "extract_task",
  "translate_task",
  "chat_default",
  "long_context",
  "fallback",
  "cache_hit",
  "route_disabled",
  "low_confidence",
  "many_constraints",
  "multi_step",
  "long_output",
  "large_context",
  "long_question",
  "deliberation",
  "calculation",
  "estimation",
  "software_terms",
  "budget_fit",
] as const;
export type RoutingReason = (typeof ROUTING_REASONS)[number];

/** The reason reported when a task class alone decided the model. */
export const REASON_OF_TASK: Record<TaskClass, RoutingReason> = {
  faq: "faq_pattern",
  code: "code_task",
  math: "math_task",
  reasoning: "reasoning_task",
  creative: "creative_task",
  summarize: "summarize_task",
  extract: "extract_task",
  translate: "translate_task",
  chat: "chat_default",
};
