-- Issue 28: protocol versions and the conversation stage's state. One column per statement, so the
-- same file runs on SQLite and PostgreSQL.
ALTER TABLE protocols ADD COLUMN version BIGINT NOT NULL DEFAULT 1;
-- The client's leading system messages as last sent, each with the form that went upstream (JSON).
ALTER TABLE conversations ADD COLUMN system_messages TEXT NOT NULL DEFAULT '[]';
-- How many of the oldest turns the summary stands for, and its size in o200k tokens.
ALTER TABLE conversations ADD COLUMN summarized_turns BIGINT NOT NULL DEFAULT 0;
ALTER TABLE conversations ADD COLUMN summary_tokens BIGINT NOT NULL DEFAULT 0;
-- Prompt tokens the conversation stage kept from the provider over the conversation's calls.
ALTER TABLE conversations ADD COLUMN tokens_saved BIGINT NOT NULL DEFAULT 0;
