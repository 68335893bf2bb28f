import { validationError } from "../../core/errors";

type Json = Record<string, any>;

/**
 * GET /v1/responses/{id}/input_items: the items a stored response was generated from (the turns of
 * the responses it continues, then its own input; instructions are not carried over, as OpenAI does
 * not), as Responses API items rebuilt from the chat messages the store keeps. Ids are the response's
 * id and the item's position, so a page cursor (`after`, `before`) names the same item on every node
 * and every read.
 */
export function inputItems(responseId: string, messages: readonly Json[]): Json[] {
  const suffix = responseId.replace(/^resp_/, "");
  const items: Json[] = [];
  const id = (prefix: string) => `${prefix}_${suffix}_${items.length}`;
  // The last stored message is the response's own answer, not one of its inputs.
  for (const m of messages.slice(0, -1)) {
    if (m.role === "tool") {
      items.push({ type: "function_call_output", id: id("fco"), call_id: m.tool_call_id, output: m.content, status: "completed" });
      continue;
    }
    const content = m.role === "assistant" ? assistantParts(m) : userParts(m.content);
    if (content.length > 0) items.push({ type: "message", id: id("msg"), status: "completed", role: m.role, content });
    for (const call of m.tool_calls ?? []) {
      items.push({ type: "function_call", id: id("fc"), call_id: call.id, name: call.function.name, arguments: call.function.arguments, status: "completed" });
    }
  }
  return items;
}

function assistantParts(m: Json): Json[] {
  return typeof m.content === "string" && m.content !== "" ? [{ type: "output_text", text: m.content, annotations: [] }] : [];
}

function userParts(content: unknown): Json[] {
  if (typeof content === "string") return [{ type: "input_text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.map((p: Json) =>
    p.type === "image_url" ? { type: "input_image", image_url: p.image_url.url, detail: p.image_url.detail ?? "auto" } : { type: "input_text", text: p.text },
  );
}

export interface ItemPageQuery {
  limit?: string | undefined;
  order?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

/** One page of items as OpenAI lists them: newest first unless `order=asc`, 20 by default, at most 100. */
export function itemPage(items: readonly Json[], q: ItemPageQuery): Json {
  const limit = q.limit === undefined ? 20 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw validationError("limit", "must be an integer from 1 to 100");
  if (q.order !== undefined && q.order !== "asc" && q.order !== "desc") throw validationError("order", "must be asc or desc");
  let ordered = q.order === "asc" ? [...items] : [...items].reverse();
  const at = (field: "after" | "before", cursor: string) => {
    const i = ordered.findIndex((item) => item.id === cursor);
    if (i < 0) throw validationError(field, `no item '${cursor}' in this response's input`);
    return i;
  };
  if (q.after !== undefined) ordered = ordered.slice(at("after", q.after) + 1);
  if (q.before !== undefined) ordered = ordered.slice(0, at("before", q.before));
  // A page before a cursor is the items nearest to it; has_more says whether there are more beyond the page.
  const data = q.before !== undefined && q.after === undefined ? ordered.slice(-limit) : ordered.slice(0, limit);
  return { object: "list", data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: ordered.length > limit };
}
