-- Per-key defaults for budgets and agent runs (issue 29).
-- A key may be bound to a default budget: every call made with the key that names no
-- svc_options.budget_id is reserved and charged on it. NULL: no default. Deleting the budget unbinds it.
ALTER TABLE api_keys ADD COLUMN budget_id TEXT;
-- The key's own defaults for the agent runs its calls name (a run's own limits, set by PUT
-- /api/agent-runs/{id}, still win); NULL: the operator's SVC_AGENT_RUN_* setting.
ALTER TABLE api_keys ADD COLUMN run_max_cost_micros BIGINT;
ALTER TABLE api_keys ADD COLUMN run_max_calls BIGINT;
ALTER TABLE api_keys ADD COLUMN run_max_repeats BIGINT;
