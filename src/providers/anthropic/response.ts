import type { ToolCall } from "../../core/messages";
import { ProviderError, type FinishReason, type ProviderResponse, type Usage } from "../types";

/** A Messages API answer, as far as the gateway reads it. */
export interface AnthropicResponse {
  type?: string;
  content?: ({ type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown } | { type: string })[];
  stop_reason?: string | null;
  usage?: AnthropicUsage;
}

export interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Anthropic leaves prompt-cache reads and writes out of input_tokens; the prompt is all three. */
export function promptTokens(u: AnthropicUsage | undefined): number | undefined {
  if (typeof u?.input_tokens !== "number") return undefined;
  return u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
}

/** The usage in OpenAI's terms: the prompt is all three counts, the cache's share named. */
export function toUsage(u: AnthropicUsage | undefined, outputTokens: number | undefined): Usage | undefined {
  const prompt = promptTokens(u);
  if (prompt === undefined || typeof outputTokens !== "number") return undefined;
  const usage: Usage = {
    prompt_tokens: prompt,
    completion_tokens: outputTokens,
    cached_tokens: u?.cache_read_input_tokens ?? 0,
    cache_write_tokens: u?.cache_creation_input_tokens ?? 0,
  };
  // Prompt-cache reads, in OpenAI's place for them.
  if (u?.cache_read_input_tokens) usage.prompt_tokens_details = { cached_tokens: u.cache_read_input_tokens };
  return usage;
}

export function toFinishReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case "max_tokens":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "refusal":
      return "content_filter";
    default:
      // end_turn, stop_sequence, pause_turn
      return "stop";
  }
}

export function fromAnthropicResponse(body: AnthropicResponse): ProviderResponse {
  if (body?.type !== "message" || !Array.isArray(body.content)) throw new ProviderError("protocol", "anthropic answered something that is not a message");
  let text = "";
  const toolCalls: ToolCall[] = [];
  for (const block of body.content) {
    if (block.type === "text" && "text" in block) text += block.text;
    else if (block.type === "tool_use" && "input" in block) {
      toolCalls.push({ id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
    }
  }
  const message: ProviderResponse["choices"][number]["message"] = { role: "assistant", content: text };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const response: ProviderResponse = { choices: [{ index: 0, message, finish_reason: toFinishReason(body.stop_reason) }] };
  const usage = toUsage(body.usage, body.usage?.output_tokens);
  if (usage) response.usage = usage;
  return response;
}
