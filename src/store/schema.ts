import { sqliteTable, text, integer, real, primaryKey } from "drizzle-orm/sqlite-core";

/** Drizzle view of migrations/*.sql; the SQL files are the source of truth for the DDL. */

export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  appId: text("app_id").notNull(),
  type: text("type", { enum: ["live", "test"] }).notNull(),
  prefix: text("prefix").notNull(),
  last4: text("last4").notNull(),
  hash: text("hash").notNull(),
  status: text("status", { enum: ["active", "revoked"] }).notNull(),
  scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
  plan: text("plan").notNull(),
  createdAt: integer("created_at").notNull(),
  lastUsedAt: integer("last_used_at"),
  revokedAt: integer("revoked_at"),
  syncSeq: integer("sync_seq").notNull(),
  budgetId: text("budget_id"),
  runMaxCostMicros: integer("run_max_cost_micros"),
  runMaxCalls: integer("run_max_calls"),
  runMaxRepeats: integer("run_max_repeats"),
});

export const usageCounters = sqliteTable(
  "usage_counters",
  { keyId: text("key_id").notNull(), period: text("period").notNull(), calls: integer("calls").notNull() },
  (t) => [primaryKey({ columns: [t.keyId, t.period] })],
);

export const usageLedger = sqliteTable("usage_ledger", {
  requestId: text("request_id").primaryKey(),
  keyId: text("key_id").notNull(),
  appId: text("app_id").notNull(),
  model: text("model"),
  modelRequested: text("model_requested").notNull(),
  provider: text("provider"),
  promptTokens: integer("prompt_tokens").notNull(),
  completionTokens: integer("completion_tokens").notNull(),
  originalTokens: integer("original_tokens").notNull(),
  costOriginalUsd: real("cost_original_usd").notNull(),
  costActualUsd: real("cost_actual_usd").notNull(),
  savedUsd: real("saved_usd").notNull(),
  cacheHit: integer("cache_hit", { mode: "boolean" }).notNull(),
  status: integer("status").notNull(),
  errorCode: text("error_code"),
  latencyMs: real("latency_ms").notNull(),
  overheadMs: real("overhead_ms").notNull(),
  stream: integer("stream", { mode: "boolean" }).notNull(),
  budgetId: text("budget_id"),
  conversationId: text("conversation_id"),
  agentRunId: text("agent_run_id"),
  createdAt: integer("created_at").notNull(),
  savedCompressionUsd: real("saved_compression_usd"),
  savedRoutingUsd: real("saved_routing_usd"),
  savedCacheUsd: real("saved_cache_usd"),
  savedPromptCacheUsd: real("saved_prompt_cache_usd"),
  savedConversationUsd: real("saved_conversation_usd"),
});

export const budgets = sqliteTable("budgets", {
  id: text("id").primaryKey(),
  appId: text("app_id").notNull(),
  name: text("name").notNull(),
  limitMicros: integer("limit_micros").notNull(),
  period: text("period", { enum: ["daily", "monthly", "total"] }).notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const budgetSpend = sqliteTable(
  "budget_spend",
  {
    budgetId: text("budget_id").notNull(),
    period: text("period").notNull(),
    spentMicros: integer("spent_micros").notNull(),
    reservedMicros: integer("reserved_micros").notNull(),
  },
  (t) => [primaryKey({ columns: [t.budgetId, t.period] })],
);

export const reservations = sqliteTable(
  "reservations",
  {
    requestId: text("request_id").notNull(),
    kind: text("kind", { enum: ["budget", "run"] }).notNull(),
    target: text("target").notNull(),
    period: text("period").notNull(),
    micros: integer("micros").notNull(),
    owner: text("owner").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.kind] })],
);

export const conversations = sqliteTable(
  "conversations",
  {
    appId: text("app_id").notNull(),
    id: text("id").notNull(),
    turns: text("turns", { mode: "json" }).$type<unknown[]>().notNull(),
    summary: text("summary"),
    turnCount: integer("turn_count").notNull(),
    systemMessages: text("system_messages", { mode: "json" }).$type<unknown[]>().notNull(),
    summarizedTurns: integer("summarized_turns").notNull(),
    summaryTokens: integer("summary_tokens").notNull(),
    tokensSaved: integer("tokens_saved").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.id] })],
);

export const agentRuns = sqliteTable(
  "agent_runs",
  {
    appId: text("app_id").notNull(),
    id: text("id").notNull(),
    calls: integer("calls").notNull(),
    promptTokens: integer("prompt_tokens").notNull(),
    completionTokens: integer("completion_tokens").notNull(),
    costMicros: integer("cost_micros").notNull(),
    reservedMicros: integer("reserved_micros").notNull(),
    maxCostMicros: integer("max_cost_micros"),
    maxCalls: integer("max_calls"),
    maxRepeats: integer("max_repeats"),
    lastRequestHash: text("last_request_hash"),
    repeatCount: integer("repeat_count").notNull(),
    status: text("status", { enum: ["active", "tripped", "closed"] }).notNull(),
    tripReason: text("trip_reason"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.id] })],
);

export const protocols = sqliteTable(
  "protocols",
  {
    appId: text("app_id").notNull(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    content: text("content").notNull(),
    compressed: text("compressed").notNull(),
    originalTokens: integer("original_tokens").notNull(),
    compressedTokens: integer("compressed_tokens").notNull(),
    version: integer("version").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.id] })],
);

export const cacheEntries = sqliteTable("cache_entries", {
  id: text("id").primaryKey(),
  appId: text("app_id").notNull(),
  exactKey: text("exact_key").notNull(),
  scopeKey: text("scope_key").notNull(),
  model: text("model").notNull(),
  promptText: text("prompt_text").notNull(),
  contextHash: text("context_hash").notNull(),
  embedding: text("embedding"),
  response: text("response").notNull(),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  hits: integer("hits").notNull(),
  lastHitAt: integer("last_hit_at"),
});

export const storedResponses = sqliteTable(
  "stored_responses",
  {
    appId: text("app_id").notNull(),
    id: text("id").notNull(),
    messages: text("messages").notNull(),
    response: text("response").notNull(),
    bytes: integer("bytes").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.id] })],
);

export const storedResponseItems = sqliteTable(
  "stored_response_items",
  {
    appId: text("app_id").notNull(),
    id: text("id").notNull(),
    responseId: text("response_id").notNull(),
    item: text("item").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.id] })],
);

export const conversationLeases = sqliteTable(
  "conversation_leases",
  {
    appId: text("app_id").notNull(),
    id: text("id").notNull(),
    holder: text("holder").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.id] })],
);

/** A conversation's PII placeholder map, sealed (src/pipeline/pii/vault.ts): ciphertext only. */
export const piiMaps = sqliteTable(
  "pii_maps",
  {
    appId: text("app_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    sealed: text("sealed").notNull(),
    version: integer("version").notNull(),
    updatedAt: integer("updated_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.conversationId] })],
);
