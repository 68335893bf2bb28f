import { Database } from "bun:sqlite";
import { isBusy, noCheckpoints } from "./no-wait";

/**
 * The store cannot change a counter now: locked by another writer for longer than the waits below, or
 * failing (disk full, I/O error, read-only). The call is refused rather than counted wrongly or kept waiting.
 */
export class StoreUnavailableError extends Error {}

/** Waits between tries while another connection holds SQLite's write lock: 0.5 ms doubling, about 2 s in all. */
const BUSY_WAITS_MS = [0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000];

/**
 * A connection for counters that never waits inside SQLite (busy_timeout 0): a write lock held by
 * another process is waited out with timers (`retryWhileBusy`), so the event loop keeps serving.
 */
export function counterConnection(dbPath: string): Database {
  const sqlite = new Database(dbPath, { strict: true });
  sqlite.run("PRAGMA busy_timeout = 0");
  // Per connection, like the store's own: FULL would fsync every commit (bench/budget-guard.ts: the
  // quota stage alone 2,362 µs p50 a call, with the budget and agent-run commits 19,614 µs; 21 and 236
  // at NORMAL). In WAL mode NORMAL survives a killed process; a power cut may lose the last changes, as
  // it may the store's other writes.
  sqlite.run("PRAGMA synchronous = NORMAL");
  noCheckpoints(sqlite);
  return sqlite;
}

/** Why the last change failed, until one succeeds again: what /health reports. */
export interface BusyState {
  problem: string | undefined;
}

/**
 * Runs `op` now; while another writer holds the lock, again after timers. The first try is
 * synchronous, so a caller that cannot wait (a settle building svc_meta) gets the value at once
 * whenever the store is free, and a promise only when it was busy.
 */
export function retryWhileBusy<T>(state: BusyState, op: () => T): T | Promise<T> {
  const first = attempt(state, op, 0);
  return first.done ? first.value : later(state, op);
}

async function later<T>(state: BusyState, op: () => T): Promise<T> {
  for (let i = 0; ; i++) {
    await Bun.sleep(BUSY_WAITS_MS[i]!);
    const r = attempt(state, op, i + 1);
    if (r.done) return r.value;
  }
}

function attempt<T>(state: BusyState, op: () => T, tries: number): { done: true; value: T } | { done: false } {
  try {
    const value = op();
    state.problem = undefined;
    return { done: true, value };
  } catch (e) {
    const busy = isBusy(e);
    if (busy && tries < BUSY_WAITS_MS.length) return { done: false };
    state.problem = busy ? "the store stayed locked by another writer" : `the store failed: ${(e as Error).message}`;
    throw new StoreUnavailableError(state.problem);
  }
}
