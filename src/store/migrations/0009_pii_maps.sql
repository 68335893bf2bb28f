-- Issue 30: a conversation's PII placeholders, so a turn served by another gateway process restores
-- the placeholders of earlier turns. Only ciphertext: AES-256-GCM under a key derived from the
-- server secret (which never reaches the store), with the owner as additional data. Rows past
-- expires_at are ignored and deleted.
CREATE TABLE pii_maps (
  app_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  sealed TEXT NOT NULL,
  -- Bumped on every write: a process writes only over the version it read (compare and set).
  version BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (app_id, conversation_id)
);
CREATE INDEX pii_maps_expires ON pii_maps (expires_at);
