-- Portable DDL: runs unchanged on SQLite and PostgreSQL. Times are epoch milliseconds (BIGINT),
-- money is DOUBLE PRECISION USD, booleans are INTEGER 0/1, lists and objects are JSON text.

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  app_id TEXT NOT NULL,
  type TEXT NOT NULL,
  prefix TEXT NOT NULL,
  last4 TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL,
  scopes TEXT NOT NULL,
  plan TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT,
  revoked_at BIGINT,
  sync_seq BIGINT NOT NULL
);
CREATE INDEX api_keys_app ON api_keys (app_id);
CREATE INDEX api_keys_sync ON api_keys (sync_seq);

-- Calls counted against a key's limit in one period ('d:2026-11-21' for test keys, 'm:2026-11' for live).
CREATE TABLE usage_counters (
  key_id TEXT NOT NULL,
  period TEXT NOT NULL,
  calls BIGINT NOT NULL,
  PRIMARY KEY (key_id, period)
);

-- One row per completion call, successful or not.
CREATE TABLE usage_ledger (
  request_id TEXT PRIMARY KEY,
  key_id TEXT NOT NULL,
  app_id TEXT NOT NULL,
  model TEXT,
  model_requested TEXT NOT NULL,
  provider TEXT,
  prompt_tokens BIGINT NOT NULL,
  completion_tokens BIGINT NOT NULL,
  original_tokens BIGINT NOT NULL,
  cost_original_usd DOUBLE PRECISION NOT NULL,
  cost_actual_usd DOUBLE PRECISION NOT NULL,
  saved_usd DOUBLE PRECISION NOT NULL,
  cache_hit INTEGER NOT NULL,
  status INTEGER NOT NULL,
  error_code TEXT,
  latency_ms DOUBLE PRECISION NOT NULL,
  overhead_ms DOUBLE PRECISION NOT NULL,
  stream INTEGER NOT NULL,
  budget_id TEXT,
  conversation_id TEXT,
  agent_run_id TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX usage_ledger_app_time ON usage_ledger (app_id, created_at);

CREATE TABLE budgets (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL,
  name TEXT NOT NULL,
  limit_usd DOUBLE PRECISION NOT NULL,
  spent_usd DOUBLE PRECISION NOT NULL,
  period TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX budgets_app ON budgets (app_id);

CREATE TABLE conversations (
  app_id TEXT NOT NULL,
  id TEXT NOT NULL,
  turns TEXT NOT NULL,
  summary TEXT,
  turn_count BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (app_id, id)
);

CREATE TABLE agent_runs (
  app_id TEXT NOT NULL,
  id TEXT NOT NULL,
  calls BIGINT NOT NULL,
  prompt_tokens BIGINT NOT NULL,
  completion_tokens BIGINT NOT NULL,
  cost_usd DOUBLE PRECISION NOT NULL,
  last_request_hash TEXT,
  repeat_count BIGINT NOT NULL,
  status TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (app_id, id)
);

CREATE TABLE protocols (
  app_id TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  content TEXT NOT NULL,
  compressed TEXT NOT NULL,
  original_tokens BIGINT NOT NULL,
  compressed_tokens BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (app_id, id)
);

-- Semantic-cache entries. The embedding is base64 of little-endian float32 so the column is TEXT on
-- both databases; the usearch index is rebuilt from these rows at start.
CREATE TABLE cache_entries (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL,
  exact_key TEXT NOT NULL,
  scope_key TEXT NOT NULL,
  model TEXT NOT NULL,
  prompt_text TEXT NOT NULL,
  context_hash TEXT NOT NULL,
  embedding TEXT,
  response TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  hits BIGINT NOT NULL,
  last_hit_at BIGINT
);
CREATE UNIQUE INDEX cache_entries_exact ON cache_entries (app_id, exact_key);
CREATE INDEX cache_entries_expiry ON cache_entries (expires_at);
