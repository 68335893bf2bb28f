import { Type, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { ApiError, validationError } from "../../core/errors";
import { ROLES, type ChatMessage, type ContentPart } from "../../core/messages";
import type { CompletionRequest, SvcOptions } from "../../pipeline/request";
import type { PassThroughParams } from "../../providers/types";

export const MAX_TOKENS_DEFAULT = 1000;
/** Fields svc reads itself; they do not go upstream as sent. */
const INTERPRETED = new Set(["messages", "model", "max_tokens", "max_completion_tokens", "stream", "svc_options"]);
const KNOWN_PARAMS = [
  "temperature",
  "top_p",
  "stop",
  "n",
  "user",
  "seed",
  "presence_penalty",
  "frequency_penalty",
  "tools",
  "tool_choice",
  "response_format",
  "stream_options",
] as const;
/** Every field that does not reach `params.extra`: read by svc, or passed on as a known parameter. */
const NOT_EXTRA = new Set<string>([...INTERPRETED, ...KNOWN_PARAMS]);
const MAX_MESSAGES = 10_000;
const Id = Type.String({ minLength: 1, maxLength: 200 });

const TextPart = Type.Object({ type: Type.Literal("text"), text: Type.String() });
const ImagePart = Type.Object({
  type: Type.Literal("image_url"),
  image_url: Type.Object({
    url: Type.String({ minLength: 1 }),
    detail: Type.Optional(Type.Union([Type.Literal("auto"), Type.Literal("low"), Type.Literal("high")])),
  }),
});
/** Other OpenAI part types (input_audio, file, refusal in assistant history): passed on as sent, or refused by name by an adapter that cannot send them. */
const OtherPart = Type.Object({ type: Type.String({ minLength: 1, pattern: "^(?!text$|image_url$)" }) });
const Message = Type.Object({
  role: Type.Union(ROLES.map((r) => Type.Literal(r))),
  content: Type.Union([Type.String(), Type.Array(Type.Union([TextPart, ImagePart, OtherPart]), { minItems: 1 }), Type.Null()]),
  name: Type.Optional(Type.String({ maxLength: 256 })),
  tool_call_id: Type.Optional(Type.String()),
  tool_calls: Type.Optional(
    Type.Array(Type.Object({ id: Type.String(), type: Type.Literal("function"), function: Type.Object({ name: Type.String(), arguments: Type.String() }) })),
  ),
});

export const Options = Type.Object(
  {
    compress: Type.Optional(Type.Boolean()),
    route: Type.Optional(Type.Boolean()),
    cache: Type.Optional(Type.Boolean()),
    cache_nondeterministic: Type.Optional(Type.Boolean()),
    score: Type.Optional(Type.Boolean()),
    budget_id: Type.Optional(Id),
    mask_pii: Type.Optional(Type.Boolean()),
    max_aggressiveness: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    skip_rules: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })),
    conversation_id: Type.Optional(Id),
    agent_run_id: Type.Optional(Id),
    protocol_id: Type.Optional(Id),
    max_turns_to_keep: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);

const Body = Type.Object({
  messages: Type.Array(Message, { minItems: 1, maxItems: MAX_MESSAGES }),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  max_tokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  max_completion_tokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  stream: Type.Optional(Type.Boolean()),
  svc_options: Type.Optional(Options),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
  top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  stop: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 4 }), Type.Null()])),
  n: Type.Optional(Type.Integer({ minimum: 1, maximum: 128 })),
  user: Type.Optional(Type.String({ maxLength: 512 })),
  seed: Type.Optional(Type.Integer()),
  presence_penalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
  frequency_penalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
  tools: Type.Optional(Type.Array(Type.Object({ type: Type.String() }), { maxItems: 128 })),
  tool_choice: Type.Optional(Type.Unknown()),
  response_format: Type.Optional(Type.Object({ type: Type.String() })),
  stream_options: Type.Optional(Type.Union([Type.Object({ include_usage: Type.Optional(Type.Boolean()) }), Type.Null()])),
});

const checkBody = TypeCompiler.Compile(Body);

/** "/messages/0/role" → "messages[0].role": the field as a client writes it. */
function fieldName(path: string): string {
  return (
    path
      .split("/")
      .filter(Boolean)
      .map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`))
      .join("") || "body"
  );
}

/** Unions report only "expected union value"; say what the field accepts instead. */
const UNION_HINTS: Record<string, string> = {
  content: "must be a string or an array of content parts ({type: 'text', text}, {type: 'image_url', image_url: {url, detail?}}, ...)",
  stop: "must be a string or an array of up to 4 strings",
  stream_options: "must be an object {include_usage?: boolean}",
};

function describe(path: string, schema: TSchema, message: string): string {
  const hint = UNION_HINTS[path.split("/").pop() ?? ""];
  if (hint && message.includes("union")) return hint;
  if (schema.anyOf && Array.isArray(schema.anyOf) && schema.anyOf.every((s: TSchema) => "const" in s)) {
    return `must be one of ${schema.anyOf.map((s: TSchema) => JSON.stringify(s.const)).join(", ")}`;
  }
  return message.replace(/^Expected/, "expected");
}

/**
 * Validates and defaults a completion body, answering 400 VALIDATION_ERROR that names the first bad
 * field. `validRules` are the compression rule names; an unknown one is refused with the list.
 */
export function parseCompletionRequest(body: unknown, validRules: readonly string[]): CompletionRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError("body", "must be a JSON object");
  const b = body as Record<string, unknown>;
  if (!("messages" in b)) throw validationError("messages", "required");
  // OpenAI clients send null for "not set"; treat it as absent before checking shapes.
  if (b.svc_options === null) delete b.svc_options;
  if (!checkBody.Check(b)) {
    // Report the deepest error: for a union that is the member the client most likely meant.
    const errors = [...checkBody.Errors(b)];
    const first = errors.reduce((a, e) => (e.path.split("/").length > a.path.split("/").length ? e : a), errors[0]!);
    const optionsPath = first.path.startsWith("/svc_options/") || first.path === "/svc_options";
    const unknownOption = optionsPath && first.message.includes("Unexpected property");
    if (unknownOption) {
      const extra = Object.keys(b.svc_options as object).find((k) => !(k in Options.properties));
      throw validationError(`svc_options.${extra}`, `unknown option; valid: ${Object.keys(Options.properties).join(", ")}`);
    }
    throw validationError(fieldName(first.path), describe(first.path, first.schema, first.message));
  }
  const messages: ChatMessage[] = (b.messages as Record<string, unknown>[]).map((m, i) => {
    const raw = m.content as string | ContentPart[] | null;
    if (raw === null && !(m.role === "assistant" && m.tool_calls))
      throw validationError(`messages[${i}].content`, "required unless an assistant message carries tool_calls");
    // The optimizer reads text only: the text parts joined. Other parts travel beside it, untouched.
    const content = Array.isArray(raw)
      ? raw
          .filter((p) => p.type === "text")
          .map((p) => p.text)
          .join("\n")
      : (raw ?? "");
    const msg: ChatMessage = { role: m.role as ChatMessage["role"], content };
    if (Array.isArray(raw) && raw.some((p) => p.type !== "text")) msg.parts = raw;
    if (m.name !== undefined) msg.name = m.name as string;
    if (m.tool_call_id !== undefined) msg.tool_call_id = m.tool_call_id as string;
    if (m.tool_calls !== undefined) msg.tool_calls = m.tool_calls as ChatMessage["tool_calls"];
    return msg;
  });
  if (messages[messages.length - 1]!.role === "assistant" && !messages.some((m) => m.role === "user")) {
    throw validationError("messages", "must contain at least one user message");
  }
  const o = (b.svc_options ?? {}) as Partial<SvcOptions>;
  const skip = o.skip_rules ?? [];
  for (const r of skip) {
    if (!validRules.includes(r)) throw validationError("svc_options.skip_rules", `unknown rule '${r}'; valid rules: ${validRules.join(", ")}`);
  }
  const params: PassThroughParams = {};
  for (const k of KNOWN_PARAMS) {
    if (b[k] !== undefined && b[k] !== null) (params as Record<string, unknown>)[k] = b[k];
  }
  // Everything else reaches the provider as sent (OpenAI wire format) or is mapped or refused by name by
  // the adapter: nothing a client sends vanishes.
  const fields: Record<string, unknown> = b;
  for (const k in fields) {
    const v = fields[k];
    if (v === undefined || v === null || NOT_EXTRA.has(k)) continue;
    (params.extra ??= {})[k] = v;
  }
  if (b.max_completion_tokens !== undefined && b.max_tokens === undefined) params.max_tokens_field = "max_completion_tokens";
  if (b.max_tokens !== undefined && b.max_completion_tokens !== undefined && b.max_tokens !== b.max_completion_tokens) {
    throw new ApiError("VALIDATION_ERROR", "max_tokens and max_completion_tokens disagree; send one", { param: "max_tokens" });
  }
  // An answer about one image must never be served for another: the cache keys on text alone.
  const hasParts = messages.some((m) => m.parts !== undefined);
  const svcOptions: SvcOptions = {
    compress: o.compress ?? true,
    route: o.route ?? true,
    cache: hasParts ? false : (o.cache ?? true),
    cache_nondeterministic: o.cache_nondeterministic ?? false,
    score: o.score ?? true,
    mask_pii: o.mask_pii ?? false,
    max_aggressiveness: o.max_aggressiveness ?? 0.5,
    skip_rules: skip,
  };
  // Set one by one rather than spread in (`...(x !== undefined && { x })`): every call parses a body,
  // and each such spread is a copy of a temporary object (copyDataProperties, 2.5% of the relay's
  // event-loop samples under load, bun --cpu-prof, of which this function made a fifth).
  if (o.budget_id !== undefined) svcOptions.budget_id = o.budget_id;
  if (o.conversation_id !== undefined) svcOptions.conversation_id = o.conversation_id;
  if (o.agent_run_id !== undefined) svcOptions.agent_run_id = o.agent_run_id;
  if (o.protocol_id !== undefined) svcOptions.protocol_id = o.protocol_id;
  if (o.max_turns_to_keep !== undefined) svcOptions.max_turns_to_keep = o.max_turns_to_keep;
  return {
    messages,
    model: (b.model as string | undefined) ?? "auto",
    max_tokens: (b.max_tokens ?? b.max_completion_tokens ?? MAX_TOKENS_DEFAULT) as number,
    stream: (b.stream as boolean | undefined) ?? false,
    params,
    svc_options: svcOptions,
  };
}
