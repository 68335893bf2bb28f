import { sqliteTable, text, integer, real, primaryKey } from "drizzle-orm/sqlite-core";

/** Drizzle view of migrations/0001_initial.sql; the SQL file is the source of truth for the DDL. */

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
});

export const budgets = sqliteTable("budgets", {
  id: text("id").primaryKey(),
  appId: text("app_id").notNull(),
  name: text("name").notNull(),
  limitUsd: real("limit_usd").notNull(),
  spentUsd: real("spent_usd").notNull(),
  period: text("period").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

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
    costUsd: real("cost_usd").notNull(),
    lastRequestHash: text("last_request_hash"),
    repeatCount: integer("repeat_count").notNull(),
    status: text("status").notNull(),
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
