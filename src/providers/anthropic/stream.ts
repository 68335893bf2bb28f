import type { EventSourceMessage } from "eventsource-parser";
import { eventJson } from "../shared/sse";
import { ProviderError, type StreamEvent } from "../types";
import { toFinishReason, toUsage, type AnthropicUsage } from "./response";

interface AnthropicEventData {
  type?: string;
  index?: number;
  message?: { usage?: AnthropicUsage };
  content_block?: { type?: string; id?: string; name?: string; text?: string };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

/** Anthropic's error types as the HTTP status it would have sent, so retry decisions stay the same. */
const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/**
 * Turns the Messages API stream (message_start, content_block_*, message_delta, message_stop, ping, error)
 * into OpenAI deltas. Content blocks are numbered across text and tool_use; OpenAI numbers tool calls
 * alone, hence the block → tool index map. Usage comes in two halves (input at start, output at the end)
 * and is reported once, at message_stop.
 */
export class AnthropicStreamMapper {
  private readonly toolIndexByBlock = new Map<number, number>();
  /** message_start's usage: the prompt's three counts (uncached, cache read, cache write). */
  private inputUsage: AnthropicUsage | undefined;
  private outputTokens: number | undefined;
  private stopped = false;

  /** True once message_stop arrived: an answer that ends before it was cut off. */
  get complete(): boolean {
    return this.stopped;
  }

  map(event: EventSourceMessage): StreamEvent[] {
    const data = eventJson<AnthropicEventData>(event, "anthropic");
    switch (event.event ?? data.type) {
      case "message_start":
        this.inputUsage = data.message?.usage;
        this.outputTokens = data.message?.usage?.output_tokens;
        return [delta({ role: "assistant" })];
      case "content_block_start":
        return this.blockStart(data);
      case "content_block_delta":
        return this.blockDelta(data);
      case "message_delta":
        if (typeof data.usage?.output_tokens === "number") this.outputTokens = data.usage.output_tokens;
        return [{ kind: "delta", delta: { index: 0, delta: {}, finish_reason: toFinishReason(data.delta?.stop_reason) } }];
      case "message_stop": {
        this.stopped = true;
        const usage = toUsage(this.inputUsage, this.outputTokens);
        return usage ? [{ kind: "usage", usage }] : [];
      }
      case "error": {
        const type = data.error?.type ?? "api_error";
        throw new ProviderError("http", `anthropic failed mid-stream: ${type}: ${data.error?.message ?? ""}`.trim(), ERROR_STATUS[type] ?? 500);
      }
      default:
        // ping, content_block_stop, and event types Anthropic may add later carry nothing to relay.
        return [];
    }
  }

  private blockStart(data: AnthropicEventData): StreamEvent[] {
    const block = data.content_block;
    if (block?.type === "tool_use") {
      const toolIndex = this.toolIndexByBlock.size;
      this.toolIndexByBlock.set(data.index ?? 0, toolIndex);
      return [delta({ tool_calls: [{ index: toolIndex, id: block.id, type: "function", function: { name: block.name, arguments: "" } }] })];
    }
    if (block?.type === "text" && block.text) return [delta({ content: block.text })];
    return [];
  }

  private blockDelta(data: AnthropicEventData): StreamEvent[] {
    const d = data.delta;
    if (d?.type === "text_delta" && d.text) return [delta({ content: d.text })];
    if (d?.type === "input_json_delta" && d.partial_json) {
      const toolIndex = this.toolIndexByBlock.get(data.index ?? 0) ?? 0;
      return [delta({ tool_calls: [{ index: toolIndex, function: { arguments: d.partial_json } }] })];
    }
    return [];
  }
}

function delta(d: { role?: "assistant"; content?: string; tool_calls?: unknown[] }): StreamEvent {
  return { kind: "delta", delta: { index: 0, delta: d, finish_reason: null } };
}
