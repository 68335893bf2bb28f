import type { ModelInfo } from "../catalog/catalog";
import type { ChatMessage } from "../core/messages";
import { countTokens, tokenizerFor } from "../tokens/count";
import type { Usage } from "../providers/types";

/** The provider reported no usage: count with the served model's tokenizer (never characters / 4). */
export function estimateUsage(sent: readonly ChatMessage[], served: ModelInfo, completionText: string): Usage {
  const family = tokenizerFor(served.provider);
  let prompt = 3;
  for (const m of sent) prompt += 3 + countTokens(m.content, family);
  return { prompt_tokens: prompt, completion_tokens: countTokens(completionText, family) };
}
