-- Issue 32: gateway processes on other machines sharing one PostgreSQL store. Each writes a heartbeat
-- here; a reservation's owner ('<node id>/<pid>') is dead once its heartbeat has stopped, since another
-- machine's pid cannot be probed. On SQLite the processes share one machine and are probed by pid.
CREATE TABLE nodes (
  owner TEXT PRIMARY KEY,
  started_at BIGINT NOT NULL,
  heartbeat_at BIGINT NOT NULL
);
