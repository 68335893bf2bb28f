-- A key may be bound to a default budget (issue 29): every call made with the key that names no
-- svc_options.budget_id is reserved and charged on it. NULL: no default. Deleting the budget unbinds it.
ALTER TABLE api_keys ADD COLUMN budget_id TEXT;
