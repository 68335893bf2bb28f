/**
 * The wire shapes of svc, as a client sends and receives them. `SvcOptions`, `SvcMeta` and `KeyRecord`
 * mirror the server's own types field for field; test/clients/drift.test.ts fails when the server gains
 * a field these lack, so keep the field lists below in step with the interfaces.
 */

/** CONTRACT.md's list of `svc_meta.routing_reason` values, and svc's five that name the signal that sent a prompt up a tier. */
export type RoutingReason =
  | "explicit_model"
  | "faq_pattern"
  | "code_task"
  | "math_task"
  | "reasoning_task"
  | "creative_task"
  | "summarize_task"
  | "extract_task"
  | "translate_task"
  | "chat_default"
  | "long_context"
  | "fallback"
  | "cache_hit"
  | "route_disabled"
  | "low_confidence"
  | "many_constraints"
  | "multi_step"
  | "long_output"
  | "large_context"
  | "long_question"
  | "deliberation"
  | "calculation"
  | "estimation"
  | "software_terms"
  | "budget_fit";

/** `svc_options` of a completion request (seed 2.2); every field is optional, the server fills defaults. */
export interface SvcOptions {
  /** Prompt compression (default true). */
  compress?: boolean;
  /** Model routing for `model: "auto"` (default true). */
  route?: boolean;
  /** The semantic cache (default true). */
  cache?: boolean;
  /** Accept a cached answer even for a request that asks for variety (temperature above the limit, n > 1); default false. */
  cache_nondeterministic?: boolean;
  /** Include `svc_meta.quality_score` (default true; false omits the field). */
  score?: boolean;
  /** Team budget to charge. */
  budget_id?: string;
  /** Mask PII before the prompt leaves the gateway (default false). */
  mask_pii?: boolean;
  /** Compression level, 0.0 (light) to 1.0 (maximum); default 0.5. */
  max_aggressiveness?: number;
  /** Compression rules not to apply, e.g. `["filler", "preamble"]`. */
  skip_rules?: string[];
  conversation_id?: string;
  agent_run_id?: string;
  protocol_id?: string;
  /** Integer, 1 to 10,000. */
  max_turns_to_keep?: number;
}

export interface SavedBySource {
  compression: number;
  routing: number;
  cache: number;
  prompt_cache: number;
  conversation: number;
}

/** `svc_meta` of a response (seed 2.3 plus the contract's additions). */
export interface SvcMeta {
  original_tokens: number;
  compressed_tokens: number;
  /** Fraction of tokens removed: 0.60 means 60% removed. */
  compression_ratio: number;
  /** 0 to 100; absent when the request set `score: false`. */
  quality_score?: number;
  /** null when the model has no price in svc's catalog (an unlisted model served by name). */
  cost_original_usd: number | null;
  cost_actual_usd: number | null;
  saved_usd: number | null;
  /** The saving by where it came from, in USD; the parts add up to `saved_usd` (all 0 when a price is unknown). */
  saved_by_source: SavedBySource;
  routing_reason: RoutingReason;
  model_requested: string;
  rules_applied: string[];
  cache_hit: boolean;
  pii_masked: boolean;
  latency_overhead_ms: number;
  conversation_id?: string;
  /** With `conversation_id`: prompt tokens the conversation's summary kept from this call. */
  conversation_tokens_saved?: number;
  /** With a protocol or conversation: the stable prefix sent, and whether the provider caches one that short. */
  prompt_cache?: { prefix_tokens: number; min_tokens: number | null; below_minimum: boolean };
  /** True when the gateway answered with its built-in simulator (no provider configured). */
  simulated?: boolean;
  /** Set when the budget could not cover the model `auto` routing chose: that model and its reason (`routing_reason` is then `budget_fit`). */
  budget_fit?: { instead_of: string; reason: RoutingReason };
  /** The agent run's totals after this call, when the request named `agent_run_id`. */
  /** `wrap_up: true` when the call went out with svc's wrap-up instruction (the run is near a limit). */
  agent_run?: { id: string; calls: number; cost_usd: number; status: "active" | "tripped" | "closed"; wrap_up?: true };
}

/** Every field name of `SvcOptions`, for code that must enumerate them (checked to be complete at compile time). */
export const SVC_OPTION_FIELDS = [
  "compress",
  "route",
  "cache",
  "cache_nondeterministic",
  "score",
  "budget_id",
  "mask_pii",
  "max_aggressiveness",
  "skip_rules",
  "conversation_id",
  "agent_run_id",
  "protocol_id",
  "max_turns_to_keep",
] as const satisfies readonly (keyof SvcOptions)[];

/** Every field name of `SvcMeta` (checked to be complete at compile time). */
export const SVC_META_FIELDS = [
  "original_tokens",
  "compressed_tokens",
  "compression_ratio",
  "quality_score",
  "cost_original_usd",
  "cost_actual_usd",
  "saved_usd",
  "saved_by_source",
  "routing_reason",
  "model_requested",
  "rules_applied",
  "cache_hit",
  "pii_masked",
  "latency_overhead_ms",
  "conversation_id",
  "conversation_tokens_saved",
  "prompt_cache",
  "simulated",
  "budget_fit",
  "agent_run",
] as const satisfies readonly (keyof SvcMeta)[];

// The lists above name every field: a field added to an interface but not to its list fails to compile here.
type Missing<T, L extends readonly unknown[]> = Exclude<keyof T, L[number]>;
const optionFieldsComplete: [Missing<SvcOptions, typeof SVC_OPTION_FIELDS>] extends [never] ? true : never = true;
const metaFieldsComplete: [Missing<SvcMeta, typeof SVC_META_FIELDS>] extends [never] ? true : never = true;
void optionFieldsComplete;
void metaFieldsComplete;

export type Role = "system" | "user" | "assistant" | "tool" | "developer";

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: Role;
  content: string | { type: "text"; text: string }[] | null;
  name?: string;
  tool_call_id?: string;
  tool_calls?: ToolCall[];
}

/** The body of `POST /v1/complete` (seed 2.1) with the OpenAI pass-through parameters the gateway accepts. */
export interface CompletionRequest {
  messages: ChatMessage[];
  /** `"auto"` (the default) lets svc route; otherwise a model id or alias from `GET /v1/models`. */
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  svc_options?: SvcOptions;
  temperature?: number;
  top_p?: number;
  stop?: string | string[] | null;
  n?: number;
  user?: string;
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  tools?: { type: string; [k: string]: unknown }[];
  tool_choice?: unknown;
  response_format?: { type: string; [k: string]: unknown };
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A non-streaming response (seed 2.3). */
export interface Completion {
  /** `svc_req_…` */
  id: string;
  object: "chat.completion";
  created: number;
  /** The concrete model that served the call. */
  model: string;
  choices: {
    index: number;
    message: { role: "assistant"; content: string | null; tool_calls?: ToolCall[] };
    finish_reason: string | null;
  }[];
  usage?: Usage;
  svc_meta: SvcMeta;
}

/** One event of a streamed response; the last one carries `finish_reason` and `svc_meta`. */
export interface CompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  choices: {
    index: number;
    delta: { role?: "assistant"; content?: string | null; tool_calls?: (Partial<ToolCall> & { index: number })[] };
    finish_reason: string | null;
  }[];
  usage?: Usage;
  svc_meta?: SvcMeta;
}

export type KeyType = "live" | "test";

/** A key as `GET /api/keys` lists it (CONTRACT.md "Keys"); never carries the value. */
export interface KeyRecord {
  /** `key_…`, the id `keys.revoke()` takes. */
  id: string;
  name: string;
  app_id: string;
  type: KeyType;
  /** The first 12 characters of the value. */
  prefix: string;
  last4: string;
  status: "active" | "revoked";
  scopes: string[];
  plan: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The key's default budget: calls that name no `budget_id` are charged on it. */
  budget_id: string | null;
  /** The key's defaults for its calls' agent runs (null: the operator's); a run's own limits win. */
  agent_run_limits: { max_cost_usd: number | null; max_calls: number | null; max_repeats: number | null };
}

/** What `keys.create()` answers: the record plus the value, shown this once. */
export interface CreatedKey extends KeyRecord {
  key: string;
}

export interface CreateKeyParams {
  name: string;
  app_id: string;
  /** Default `live`; a test key can only create test keys. */
  type?: KeyType;
  /** Default `["complete"]`; `admin` manages keys. A key cannot grant scopes it lacks. */
  scopes?: string[];
  plan?: string;
  /** The budget its calls that name none are charged on. */
  budget_id?: string;
  /** Its calls' agent-run limits (null or left out: the operator's); a run's own limits win. */
  agent_run_limits?: Partial<KeyRecord["agent_run_limits"]>;
}

/** `keys.update()`: at least one field. */
export interface UpdateKeyParams {
  /** null unbinds the key from its default budget. */
  budget_id?: string | null;
  agent_run_limits?: Partial<KeyRecord["agent_run_limits"]>;
}

/** `{object: "list", data}`, the shape of every list endpoint but `/api/usage`. */
export interface List<T> {
  object: "list";
  data: T[];
}

export type BudgetPeriod = "daily" | "monthly" | "total";

/** A budget (CONTRACT.md "Budgets"): money in USD, kept in integer micro-dollars by the server. */
export interface Budget {
  /** `bud_…`, the id `svc_options.budget_id` takes. */
  id: string;
  name: string;
  app_id: string;
  limit_usd: number;
  period: BudgetPeriod;
  /** Spent in the current period (daily and monthly reset at UTC midnight and the 1st). */
  spent_usd: number;
  /** Held by calls in flight, each at its worst case until it settles. */
  reserved_usd: number;
  remaining_usd: number;
  /** null for a `total` budget. */
  resets_at: string | null;
  created_at: string;
}

export interface CreateBudgetParams {
  name: string;
  limit_usd: number;
  period: BudgetPeriod;
}

export interface UpdateBudgetParams {
  name?: string;
  limit_usd?: number;
}

/** What `budgets.delete()` answers: the budget as it was, marked deleted. */
export interface DeletedBudget extends Budget {
  deleted: true;
}

/** An agent run (CONTRACT.md "Agent runs"); its id is the client's own `svc_options.agent_run_id`. */
export interface AgentRun {
  id: string;
  status: "active" | "tripped" | "closed";
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  /** The run's own limits, else the operator's defaults; null is unlimited. */
  limits: { max_cost_usd: number | null; max_calls: number | null; max_repeats: number };
  /** Why the guard tripped (`status: "tripped"`), else null. */
  trip_reason: string | null;
}

/** `agentRuns.setLimits()`: the limits to set; a field left out keeps its value. */
export interface AgentRunLimits {
  max_cost_usd?: number;
  /** Integer, 1 to 1,000,000,000. */
  max_calls?: number;
  /** Identical steps in a row before the loop guard trips; integer, 1 to 1,000,000. */
  max_repeats?: number;
}

/** A stored conversation (CONTRACT.md "Conversations"); its id is the client's own `svc_options.conversation_id`. */
export interface Conversation {
  id: string;
  /** Turns (messages) stored. */
  turns: number;
  /** Turns sent as they are. */
  kept_turns: number;
  /** Older turns folded into the summary. */
  summarized_turns: number;
  summary: string | null;
  tokens_saved: number;
}

/** A protocol (CONTRACT.md "Protocols"): a reusable system prompt, compressed once per version. */
export interface Protocol {
  /** `proto_…`, the id `svc_options.protocol_id` takes. */
  id: string;
  name: string;
  version: number;
  original_tokens: number;
  compressed_tokens: number;
  created_at: string;
  updated_at: string;
  /** Only in the answers of `get()` and `update()`. */
  content?: string;
  /** The exact text calls send as their first system message; with `content`. */
  compressed_content?: string;
}

export type UsageGroup = "day" | "key" | "model" | "budget" | "agent_run";

/** One group's totals in `/api/usage`. */
export interface UsageRow {
  /** The day (YYYY-MM-DD), key id, model, budget id or agent run id; '' for calls with none. */
  group: string | null;
  calls: number;
  errors: number;
  original_tokens: number;
  sent_tokens: number;
  /** Prompt tokens of the calls answered from the cache (the hit rate by tokens is this over original_tokens). */
  cached_tokens: number;
  cost_original_usd: number;
  cost_actual_usd: number;
  saved_usd: number;
  saved_by_source: SavedBySource;
  cache_hits: number;
  avg_latency_ms: number;
}

/** The range's sums over every group, with the overhead percentiles of its answered calls (ms). */
export interface UsageTotals extends Omit<UsageRow, "group"> {
  overhead_ms: { p50: number | null; p99: number | null };
}

/** `usage.get()`'s page. */
export interface UsagePage {
  object: "usage";
  group_by: UsageGroup;
  from: string;
  to: string;
  rows: UsageRow[];
  /** Pass as `cursor` for the next page; null on the last. */
  next_cursor: string | null;
  /** Absent when asked with `totals: false`. */
  totals?: UsageTotals;
}

/** The filters of `/api/usage`. */
export interface UsageParams {
  /** Start (inclusive): a Date, an ISO 8601 time or epoch ms. Default: 30 days before `to`. */
  from?: Date | string | number;
  /** End (exclusive). Default: now. */
  to?: Date | string | number;
  /** Default `day`. */
  group_by?: UsageGroup;
  /** Rows per page, 1 to 1,000; default 100. */
  limit?: number;
  /** A previous page's `next_cursor`. */
  cursor?: string;
  /** Only this key's, model's ('' for calls with none) or budget's calls. */
  key_id?: string;
  model?: string;
  budget_id?: string;
  /** false: the page without `totals` (they cost the server a second pass). */
  totals?: boolean;
}

/** One page of `/api/usage` as CSV (RFC 4180, a header line first, CRLF line ends). */
export interface UsageCsvPage {
  csv: string;
  /** From the `x-next-cursor` header; null on the last page. */
  next_cursor: string | null;
}
