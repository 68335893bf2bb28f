import { validationError } from "../../core/errors";

/**
 * The OpenAI Responses API request, turned into the Chat Completions body the pipeline serves (so the
 * optimizer, cache, routing and svc_meta are the same): instructions and input items become messages,
 * function tools stay function tools, text.format becomes response_format, max_output_tokens max_tokens,
 * reasoning.effort reasoning_effort. What has no Chat Completions form (built-in tools such as
 * web_search, background mode) is refused with a 400 naming the field.
 */
export interface ResponsesRequest {
  /** The chat body for parseCompletionRequest, without the earlier turns of previous_response_id. */
  chat: Record<string, unknown>;
  /** The input as messages, to store after the answer for a later previous_response_id. */
  inputMessages: Record<string, unknown>[];
  previousResponseId?: string;
  store: boolean;
  stream: boolean;
  /** Request fields the Response object echoes (instructions, tools, tool_choice, text, ...). */
  echo: Record<string, unknown>;
}

type Item = Record<string, unknown>;

/** Fields the Responses API has that the translation reads; any other one is passed on to the chat body. */
const READ = new Set([
  "model",
  "input",
  "instructions",
  "tools",
  "tool_choice",
  "text",
  "max_output_tokens",
  "reasoning",
  "stream",
  "previous_response_id",
  "store",
  "metadata",
  "svc_options",
  "include",
  "truncation",
  "background",
]);

/** Finds a stored output item by id, for input items of type item_reference. */
export type ItemResolver = (id: string) => Record<string, unknown> | undefined;

/** The ids of the input's item_reference items: fetched from the store before the request is translated. */
export function itemReferences(body: unknown): string[] {
  const input = (body as { input?: unknown } | null)?.input;
  if (!Array.isArray(input)) return [];
  return input.filter((i): i is Item => i?.type === "item_reference" && typeof i.id === "string").map((i) => i.id as string);
}

export function toChatRequest(body: unknown, resolve: ItemResolver): ResponsesRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError("body", "must be a JSON object");
  const b = body as Record<string, unknown>;
  if (b.background === true) throw validationError("background", "background responses are not supported; leave it out");
  const messages: Item[] = [];
  if (b.instructions !== undefined && b.instructions !== null) {
    if (typeof b.instructions !== "string") throw validationError("instructions", "must be a string");
    messages.push({ role: "developer", content: b.instructions });
  }
  const inputMessages = inputToMessages(b.input, resolve);
  const chat: Record<string, unknown> = { model: b.model ?? "auto", messages: [...messages, ...inputMessages] };
  for (const [k, v] of Object.entries(b)) if (!READ.has(k) && v !== undefined && v !== null) chat[k] = v;
  if (Array.isArray(b.tools) && b.tools.length > 0) chat.tools = b.tools.map(toChatTool);
  if (b.tool_choice !== undefined && b.tool_choice !== null) chat.tool_choice = toChatToolChoice(b.tool_choice);
  const format = (b.text as { format?: Record<string, unknown> } | undefined)?.format;
  if (format && format.type !== "text") {
    chat.response_format =
      format.type === "json_schema"
        ? {
            type: "json_schema",
            json_schema: {
              name: format.name ?? "response",
              schema: format.schema,
              ...(format.strict !== undefined && { strict: format.strict }),
              ...(format.description !== undefined && { description: format.description }),
            },
          }
        : { type: format.type };
  }
  if (b.max_output_tokens !== undefined && b.max_output_tokens !== null) chat.max_completion_tokens = b.max_output_tokens;
  const effort = (b.reasoning as { effort?: unknown } | undefined)?.effort;
  if (effort !== undefined && effort !== null) chat.reasoning_effort = effort;
  if (b.svc_options !== undefined) chat.svc_options = b.svc_options;
  const stream = b.stream === true;
  chat.stream = stream;
  if (stream) chat.stream_options = { include_usage: true };
  if (b.previous_response_id !== undefined && b.previous_response_id !== null && typeof b.previous_response_id !== "string")
    throw validationError("previous_response_id", "must be a string");
  const echo: Record<string, unknown> = {
    instructions: b.instructions ?? null,
    tools: b.tools ?? [],
    tool_choice: b.tool_choice ?? "auto",
    text: b.text ?? { format: { type: "text" } },
    temperature: b.temperature ?? null,
    top_p: b.top_p ?? null,
    max_output_tokens: b.max_output_tokens ?? null,
    parallel_tool_calls: b.parallel_tool_calls ?? true,
    previous_response_id: b.previous_response_id ?? null,
    metadata: b.metadata ?? {},
    reasoning: b.reasoning ?? null,
    store: b.store !== false,
  };
  return {
    chat,
    inputMessages,
    ...(typeof b.previous_response_id === "string" && { previousResponseId: b.previous_response_id }),
    store: b.store !== false,
    stream,
    echo,
  };
}

function inputToMessages(input: unknown, resolve: ItemResolver): Item[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  if (!Array.isArray(input) || input.length === 0) throw validationError("input", "must be a string or a non-empty array of input items");
  const out: Item[] = [];
  input.forEach((raw, i) => {
    let item = raw as Item;
    if (item?.type === "item_reference") {
      const found = typeof item.id === "string" ? resolve(item.id) : undefined;
      if (!found) throw validationError(`input[${i}].id`, `no stored item '${String(item.id)}' (stored responses are kept per app for SVC_RESPONSES_TTL_S)`);
      item = found;
    }
    const type = item?.type ?? (item?.role !== undefined ? "message" : undefined);
    switch (type) {
      case "message": {
        if (item.role === "assistant" && Array.isArray(item.content)) {
          // A stored output message: its text, or its refusal.
          const parts = item.content as Item[];
          const text = parts
            .filter((p) => p.type === "output_text")
            .map((p) => p.text)
            .join("");
          out.push({ role: "assistant", content: text });
          return;
        }
        const role = item.role === "system" || item.role === "developer" || item.role === "assistant" ? item.role : item.role === "user" ? "user" : undefined;
        if (!role) throw validationError(`input[${i}].role`, "must be user, assistant, system or developer");
        out.push({ role, content: toChatContent(item.content, i) });
        return;
      }
      case "function_call": {
        const call = { id: item.call_id, type: "function", function: { name: item.name, arguments: item.arguments ?? "{}" } };
        const last = out.at(-1);
        // Calls of one turn join one assistant message, as Chat Completions carries them.
        if (last?.role === "assistant" && Array.isArray(last.tool_calls)) (last.tool_calls as unknown[]).push(call);
        else out.push({ role: "assistant", content: null, tool_calls: [call] });
        return;
      }
      case "function_call_output":
        out.push({ role: "tool", tool_call_id: item.call_id, content: typeof item.output === "string" ? item.output : JSON.stringify(item.output) });
        return;
      case "reasoning":
        // The model's own reasoning summary: nothing a Chat Completions provider takes back.
        return;
      default:
        throw validationError(
          `input[${i}].type`,
          `input items of type '${String(type)}' are not supported; use message, function_call or function_call_output`,
        );
    }
  });
  return out;
}

function toChatContent(content: unknown, i: number): unknown {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw validationError(`input[${i}].content`, "must be a string or an array of content parts");
  return content.map((raw, j) => {
    const p = raw as Item;
    if (p.type === "input_text" || p.type === "output_text") return { type: "text", text: p.text };
    if (p.type === "refusal") return { type: "text", text: p.refusal };
    if (p.type === "input_image") {
      const url = typeof p.image_url === "string" ? p.image_url : undefined;
      if (!url) throw validationError(`input[${i}].content[${j}].image_url`, "must be a URL or data: URL (file_id is not supported)");
      return { type: "image_url", image_url: { url, ...(p.detail !== undefined && { detail: p.detail }) } };
    }
    throw validationError(`input[${i}].content[${j}].type`, `content parts of type '${String(p.type)}' are not supported`);
  });
}

function toChatTool(raw: unknown, i: number): unknown {
  const t = raw as Item;
  if (t?.type !== "function") throw validationError(`tools[${i}].type`, `'${String(t?.type)}' tools are OpenAI-hosted and not served here; use function tools`);
  return {
    type: "function",
    function: {
      name: t.name,
      ...(t.description !== undefined && { description: t.description }),
      parameters: t.parameters ?? { type: "object", properties: {} },
      ...(t.strict !== undefined && t.strict !== null && { strict: t.strict }),
    },
  };
}

function toChatToolChoice(choice: unknown): unknown {
  if (typeof choice === "string") return choice;
  const c = choice as Item;
  if (c?.type === "function" && typeof c.name === "string") return { type: "function", function: { name: c.name } };
  throw validationError("tool_choice", "must be auto, none, required or {type: 'function', name}");
}
