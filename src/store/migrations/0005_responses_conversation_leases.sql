-- Issue 27: Responses API objects kept for previous_response_id, item_reference and GET/DELETE
-- /v1/responses/{id}, per app, in the store (so every gateway process and a restart find them), each
-- until expires_at. messages: the conversation so far as chat messages (JSON); response: the response object (JSON).
CREATE TABLE stored_responses (
  app_id TEXT NOT NULL,
  id TEXT NOT NULL,
  messages TEXT NOT NULL,
  response TEXT NOT NULL,
  bytes BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (app_id, id)
);
CREATE INDEX stored_responses_app_created ON stored_responses (app_id, created_at);
CREATE INDEX stored_responses_expires ON stored_responses (expires_at);
-- Output items by id (input items of type item_reference name them), with the response they belong to.
CREATE TABLE stored_response_items (
  app_id TEXT NOT NULL,
  id TEXT NOT NULL,
  response_id TEXT NOT NULL,
  item TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (app_id, id)
);
CREATE INDEX stored_response_items_response ON stored_response_items (app_id, response_id);
CREATE INDEX stored_response_items_expires ON stored_response_items (expires_at);
-- Issue 28: one call at a time per conversation across gateway processes. A process holds a
-- conversation while its call runs (holder: process and request); a lease past expires_at is free
-- (its holder died or hung), so a crash never locks a conversation for longer than one call may run.
CREATE TABLE conversation_leases (
  app_id TEXT NOT NULL,
  id TEXT NOT NULL,
  holder TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (app_id, id)
);
