import type { ChatMessage, ContentPart } from "../../core/messages";
import { mergeConsecutive } from "../shared/merge-consecutive";
import { functionTools, stopList, toolArguments, toolChoice } from "../shared/openai-tools";
import { imageSource, wireParts } from "../shared/content-parts";
import { refuseUnmapped, thinkingBudget } from "../shared/extra-params";
import { ProviderError, type ProviderRequest } from "../types";

/** A prompt-cache breakpoint: Anthropic caches the prompt up to and including the block carrying it. */
export type CacheControl = { cache_control?: { type: "ephemeral" } };

export type AnthropicBlock = (
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: string; data: string } | { type: "url"; url: string } }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; tool_use_id: string; content: string }
) &
  CacheControl;

export interface AnthropicMessage {
  role: "user" | "assistant";
  content: AnthropicBlock[];
}

/** The body of POST /v1/messages. */
export interface AnthropicRequest {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  /** A string, or text blocks when some carry a cache breakpoint. */
  system?: string | ({ type: "text"; text: string } & CacheControl)[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  stop_sequences?: string[];
  metadata?: { user_id: string };
  tools?: { name: string; description?: string; input_schema: Record<string, unknown> }[];
  tool_choice?: ({ type: "auto" | "any" | "none" } | { type: "tool"; name: string }) & { disable_parallel_tool_use?: boolean };
  thinking?: { type: "enabled"; budget_tokens: number };
}

/** OpenAI fields this adapter maps; every other extra field must be one that changes nothing (extra-params). */
const MAPPED = new Set(["parallel_tool_calls", "reasoning_effort"]);

const NAME = "anthropic";
const EPHEMERAL: CacheControl = { cache_control: { type: "ephemeral" } };

/**
 * Maps an OpenAI-shaped request to the Messages API. seed, presence/frequency penalties and
 * response_format have no Anthropic equivalent and are dropped; n > 1 cannot be honoured and is refused.
 */
export function toAnthropicRequest(req: ProviderRequest, stream: boolean): AnthropicRequest {
  const p = req.params;
  if (p.n !== undefined && p.n > 1)
    throw new ProviderError("unsupported", `${NAME} returns one choice per call; n=${p.n} is not supported`, undefined, undefined, "n");
  refuseUnmapped(p.extra, MAPPED, NAME);
  const marks = new Set(req.cacheBreakpoints);
  const isSystem = (m: ChatMessage) => m.role === "system" || m.role === "developer";
  const system = req.messages
    .map((m, i) => ({ m, mark: marks.has(i) }))
    .filter(({ m }) => isSystem(m) && m.content.length > 0)
    .map(({ m, mark }) => ({ type: "text" as const, text: m.content, ...(mark && EPHEMERAL) }));
  const turns = req.messages.flatMap((m, i) => {
    if (isSystem(m)) return [];
    const t = toAnthropicMessage(m);
    const last = t.content.at(-1);
    if (marks.has(i) && last) t.content[t.content.length - 1] = { ...last, ...EPHEMERAL };
    return [t];
  });
  const body: AnthropicRequest = {
    model: req.model,
    max_tokens: req.max_tokens,
    messages: mergeConsecutive(
      turns.filter((m) => m.content.length > 0),
      (a, b) => a.role === b.role,
      (a, b) => ({ role: a.role, content: [...a.content, ...b.content] }),
    ),
  };
  // A plain string unless a breakpoint needs blocks: the same bytes as before for every other request.
  if (system.length > 0) body.system = system.some((b) => b.cache_control) ? system : system.map((b) => b.text).join("\n\n");
  if (stream) body.stream = true;
  // Anthropic's temperature range is 0..1 where OpenAI's is 0..2; beyond 1 it would be a 400.
  if (p.temperature !== undefined) body.temperature = Math.min(1, p.temperature);
  if (p.top_p !== undefined) body.top_p = p.top_p;
  const stops = stopList(p.stop);
  if (stops) body.stop_sequences = stops;
  if (p.user !== undefined) body.metadata = { user_id: p.user };
  if (p.tools?.length) {
    body.tools = functionTools(p.tools, NAME).map((t) => ({
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      input_schema: t.parameters ?? { type: "object", properties: {} },
    }));
  }
  if (p.tool_choice !== undefined) {
    const choice = toolChoice(p.tool_choice, NAME);
    body.tool_choice = choice.mode === "function" ? { type: "tool", name: choice.name } : { type: choice.mode === "required" ? "any" : choice.mode };
  }
  if (p.extra?.parallel_tool_calls === false && body.tools) body.tool_choice = { ...(body.tool_choice ?? { type: "auto" }), disable_parallel_tool_use: true };
  if (p.extra?.reasoning_effort !== undefined) {
    const budget = thinkingBudget(p.extra.reasoning_effort, NAME);
    // Anthropic's smallest budget is 1024 tokens and it must stay under max_tokens.
    if (budget > 0) body.thinking = { type: "enabled", budget_tokens: Math.max(1024, Math.min(budget, req.max_tokens - 1)) };
  }
  return body;
}

function toAnthropicMessage(m: ChatMessage): AnthropicMessage {
  if (m.role === "tool") {
    return { role: "user", content: [{ type: "tool_result", tool_use_id: m.tool_call_id ?? "", content: m.content }] };
  }
  const parts = wireParts(m);
  const content: AnthropicBlock[] = parts ? parts.map(toAnthropicBlock) : m.content.length > 0 ? [{ type: "text", text: m.content }] : [];
  if (m.role === "assistant") {
    for (const call of m.tool_calls ?? []) {
      content.push({ type: "tool_use", id: call.id, name: call.function.name, input: toolArguments(call.function.arguments, NAME) });
    }
  }
  return { role: m.role === "assistant" ? "assistant" : "user", content };
}

function toAnthropicBlock(part: ContentPart): AnthropicBlock {
  if (part.type === "text") return { type: "text", text: part.text ?? "" };
  const image = part.type === "image_url" ? imageSource(part) : undefined;
  if (image?.kind === "base64") return { type: "image", source: { type: "base64", media_type: image.mediaType, data: image.data } };
  if (image?.kind === "url") return { type: "image", source: { type: "url", url: image.url } };
  throw new ProviderError("unsupported", `${NAME} cannot take content parts of type '${part.type}'`, undefined, undefined, "messages.content");
}
