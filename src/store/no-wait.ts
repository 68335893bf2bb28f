import type { Database } from "bun:sqlite";

/** What the store's main connection waits for another writer's lock (openStore): key changes and start-up. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Runs a background write without waiting for another process's write lock: SQLite answers busy at
 * once instead of holding the event loop for the busy timeout. An external lock of 12 s used to freeze
 * every request, `/health` included, one timer-driven flush after another (issue 23). The caller keeps
 * what it could not write for its next flush.
 */
export function withoutWaiting<T>(sqlite: Database, write: () => T): T {
  sqlite.run("PRAGMA busy_timeout = 0");
  try {
    return write();
  } finally {
    sqlite.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/** Another connection holds the write lock: try again later. */
export function isBusy(e: unknown): boolean {
  const code = (e as { code?: string } | null)?.code ?? "";
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}

/**
 * PostgreSQL cannot be reached now (refused, reset, timed out, restarting): the write is kept and tried
 * again later, as a locked SQLite's is. postgres.js names its own connection failures; the server's are
 * SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, starting up).
 */
export function isUnreachable(e: unknown): boolean {
  const code = (e as { code?: string } | null)?.code ?? "";
  return CONNECTION_CODES.has(code) || code.startsWith("08") || code.startsWith("57P");
}

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
]);

/**
 * Leaves WAL checkpoints to the writer threads' connections (ledger, cache: openWriterConnection),
 * which commit on every flush, and to the store's close. SQLite runs an automatic checkpoint, with its
 * fsync of the database file, inside whichever commit takes the WAL past 1,000 pages: on a connection of
 * the event loop that would stall every request for the length of a sync (issue 23: the store's
 * writes never block the event loop).
 */
export function noCheckpoints(sqlite: Database): void {
  sqlite.run("PRAGMA wal_autocheckpoint = 0");
}
