import { ProviderError } from "../types";

/**
 * OpenAI request fields that change nothing in the answer, so a wire format without them may leave them
 * out: storage and tagging on OpenAI's side (store, metadata), hints for OpenAI's own prompt cache and
 * abuse monitoring (prompt_cache_key, safety_identifier), and the defaults of the rest.
 */
function noEffect(field: string, value: unknown): boolean {
  switch (field) {
    case "store":
    case "metadata":
    case "prompt_cache_key":
    case "safety_identifier":
      return true;
    case "service_tier":
      return value === "auto" || value === "default";
    case "modalities":
      return Array.isArray(value) && value.length === 1 && value[0] === "text";
    case "logprobs":
    case "parallel_tool_calls":
      return value === false || (field === "parallel_tool_calls" && value === true);
    case "logit_bias":
      return typeof value === "object" && value !== null && Object.keys(value).length === 0;
    default:
      return false;
  }
}

/**
 * Checks the fields of an OpenAI request that `provider` does not map itself (`mapped`): each must be one
 * that changes nothing in the answer, else the request is refused naming the field (400 when no other
 * candidate can serve it), never sent with the field silently dropped.
 */
export function refuseUnmapped(extra: Readonly<Record<string, unknown>> | undefined, mapped: ReadonlySet<string>, provider: string): void {
  if (!extra) return;
  for (const [field, value] of Object.entries(extra)) {
    if (mapped.has(field) || noEffect(field, value)) continue;
    throw new ProviderError(
      "unsupported",
      `${provider} cannot honour '${field}' (${JSON.stringify(value).slice(0, 60)}); leave it out or name a model of a provider that has it`,
      undefined,
      undefined,
      field,
    );
  }
}

/** OpenAI's reasoning_effort as a thinking budget in tokens, for wire formats that take a budget. */
export function thinkingBudget(effort: unknown, provider: string): number {
  switch (effort) {
    case "minimal":
      return 0;
    case "low":
      return 1024;
    case "medium":
      return 8192;
    case "high":
      return 24576;
    default:
      throw new ProviderError("unsupported", `${provider} cannot honour reasoning_effort ${JSON.stringify(effort)}`, undefined, undefined, "reasoning_effort");
  }
}
