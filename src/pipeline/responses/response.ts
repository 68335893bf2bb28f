import { newId } from "./ids";

/**
 * A Chat Completions answer as a Responses API `response` object: text becomes an output message with
 * output_text (or a refusal part), tool calls become function_call items, finish_reason "length" makes
 * the response incomplete (max_output_tokens), usage is renamed (input/output tokens and details).
 * svc_meta stays beside it.
 */
type Json = Record<string, any>;

export function responseUsage(u: Json | undefined): Json | null {
  if (!u) return null;
  return {
    input_tokens: u.prompt_tokens,
    input_tokens_details: { cached_tokens: u.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: u.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: u.prompt_tokens + u.completion_tokens,
  };
}

export function outputItems(message: Json): Json[] {
  const items: Json[] = [];
  const content: Json[] = [];
  if (typeof message.content === "string" && message.content !== "") content.push({ type: "output_text", text: message.content, annotations: [] });
  if (typeof message.refusal === "string" && message.refusal !== "") content.push({ type: "refusal", refusal: message.refusal });
  if (content.length > 0) items.push({ type: "message", id: newId("msg"), status: "completed", role: "assistant", content });
  for (const call of message.tool_calls ?? []) {
    items.push({ type: "function_call", id: newId("fc"), call_id: call.id, name: call.function.name, arguments: call.function.arguments, status: "completed" });
  }
  return items;
}

/** The response object around an output; `status` and usage as the answer ended. */
export function responseObject(id: string, model: string, output: Json[], finish: string | null, usage: Json | undefined, echo: Json, extra: Json = {}): Json {
  const incomplete = finish === "length" || finish === "content_filter";
  return {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: incomplete ? "incomplete" : "completed",
    error: null,
    incomplete_details: incomplete ? { reason: finish === "length" ? "max_output_tokens" : "content_filter" } : null,
    model,
    output,
    output_text: output.flatMap((i) => (i.type === "message" ? i.content.filter((c: Json) => c.type === "output_text").map((c: Json) => c.text) : [])).join(""),
    usage: responseUsage(usage),
    ...echo,
    ...extra,
  };
}

/** A whole (non-streamed) chat completion body as a response. */
export function toResponse(id: string, chat: Json, echo: Json): Json {
  const choice = chat.choices?.[0] ?? { message: {}, finish_reason: "stop" };
  return responseObject(id, chat.model, outputItems(choice.message), choice.finish_reason, chat.usage, echo, { svc_meta: chat.svc_meta });
}
