-- Budgets, agent runs and savings by source (issue 29). Money is integer micro-dollars (BIGINT), so
-- additions across calls and processes are exact; the 0001 placeholders held no rows and are replaced.

DROP TABLE budgets;
CREATE TABLE budgets (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL,
  name TEXT NOT NULL,
  limit_micros BIGINT NOT NULL,
  period TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX budgets_app ON budgets (app_id);

-- Spend and in-flight reservations per budget and period window ('' for total, 'd:2026-11-26',
-- 'm:2026-11'); a new window is a new row, so a reset is never a write racing the calls.
CREATE TABLE budget_spend (
  budget_id TEXT NOT NULL,
  period TEXT NOT NULL,
  spent_micros BIGINT NOT NULL,
  reserved_micros BIGINT NOT NULL,
  PRIMARY KEY (budget_id, period)
);

-- One row per call holding money it has not spent yet (kind 'budget' or 'run'), with the process
-- that holds it: a process that dies mid-call leaves its rows, settled at the next start.
CREATE TABLE reservations (
  request_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  target TEXT NOT NULL,
  period TEXT NOT NULL,
  micros BIGINT NOT NULL,
  owner TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (request_id, kind)
);
CREATE INDEX reservations_owner ON reservations (owner);

DROP TABLE agent_runs;
CREATE TABLE agent_runs (
  app_id TEXT NOT NULL,
  id TEXT NOT NULL,
  calls BIGINT NOT NULL,
  prompt_tokens BIGINT NOT NULL,
  completion_tokens BIGINT NOT NULL,
  cost_micros BIGINT NOT NULL,
  reserved_micros BIGINT NOT NULL,
  max_cost_micros BIGINT,
  max_calls BIGINT,
  max_repeats BIGINT,
  last_request_hash TEXT,
  repeat_count BIGINT NOT NULL,
  status TEXT NOT NULL,
  trip_reason TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (app_id, id)
);

-- Savings by source per ledger row (svc_meta.saved_by_source); nullable so journal rows written
-- before this migration still replay.
ALTER TABLE usage_ledger ADD COLUMN saved_compression_usd DOUBLE PRECISION;
ALTER TABLE usage_ledger ADD COLUMN saved_routing_usd DOUBLE PRECISION;
ALTER TABLE usage_ledger ADD COLUMN saved_cache_usd DOUBLE PRECISION;
ALTER TABLE usage_ledger ADD COLUMN saved_prompt_cache_usd DOUBLE PRECISION;
ALTER TABLE usage_ledger ADD COLUMN saved_conversation_usd DOUBLE PRECISION;
