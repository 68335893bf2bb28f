import type { Database } from "bun:sqlite";
import { counterConnection, retryWhileBusy } from "./busy";

export { StoreUnavailableError } from "./busy";

/**
 * Counters shared by every gateway process on one store: quotas now, budgets and agent runs next.
 * Each change is one atomic statement of the store, so N processes give the same limits as one
 * (issue 23: two processes each counting in memory let a 100-call key make 200 calls).
 */
export interface Counters {
  /** Adds `by` to a counter unless that takes it past `limit`; the new value, or undefined when refused. */
  addWithin(name: string, period: string, by: number, limit: number): Promise<number | undefined>;
  /** Gives back what a failed call took (never below 0). */
  subtract(name: string, period: string, by: number): Promise<void>;
  read(name: string, period: string): Promise<number>;
  /** Why the last change failed, until one succeeds again: what /health reports. */
  readonly problem: string | undefined;
  close(): Promise<void>;
}

/** Counters a faster layer (Redis) writes back to: the store stays the source of truth. */
export interface DurableCounters extends Counters {
  /** Raises a counter to at least `value` (idempotent: a write-back repeated or out of order never lowers it). */
  raiseTo(name: string, period: string, value: number): Promise<void>;
}

/**
 * The counters' statements, run as they are on SQLite and on PostgreSQL (`?N` as `$N`): the conflict
 * branch names the table's own `calls` (bare, PostgreSQL finds it ambiguous with `excluded`), and CASE,
 * not SQLite's max(a, b). ?1 counter, ?2 period, ?3 amount, ?4 limit. On PostgreSQL the conflict branch
 * locks the row and re-reads `calls` before its WHERE, so concurrent adds from any number of nodes
 * never pass the limit.
 */
export const COUNTER_SQL = {
  add: "INSERT INTO usage_counters (key_id, period, calls) VALUES (?1, ?2, ?3) ON CONFLICT (key_id, period) DO UPDATE SET calls = usage_counters.calls + ?3 WHERE usage_counters.calls + ?3 <= ?4 RETURNING calls",
  subtract: "UPDATE usage_counters SET calls = CASE WHEN calls > ?3 THEN calls - ?3 ELSE 0 END WHERE key_id = ?1 AND period = ?2",
  read: "SELECT calls FROM usage_counters WHERE key_id = ?1 AND period = ?2",
  // A faster layer's write-back: at least ?3, never lower (repeated or out of order).
  raise:
    "INSERT INTO usage_counters (key_id, period, calls) VALUES (?1, ?2, ?3) ON CONFLICT (key_id, period) DO UPDATE SET calls = CASE WHEN usage_counters.calls < ?3 THEN ?3 ELSE usage_counters.calls END",
} as const;

/**
 * Counters in SQLite's `usage_counters`, on a connection of their own that never waits inside SQLite
 * (busy_timeout 0): a write lock held by another process is waited out with timers, so the event loop
 * keeps serving. One upsert is about 13 µs p50 on the event loop (20,000 in a row, WAL, synchronous NORMAL).
 */
export class SqliteCounters implements DurableCounters {
  private readonly sqlite: Database;
  private readonly add;
  private readonly sub;
  private readonly get;
  private readonly raise;

  constructor(dbPath: string) {
    this.sqlite = counterConnection(dbPath);
    this.add = this.sqlite.prepare<{ calls: number }, [string, string, number, number]>(COUNTER_SQL.add);
    this.sub = this.sqlite.prepare<unknown, [string, string, number]>(COUNTER_SQL.subtract);
    this.raise = this.sqlite.prepare<unknown, [string, string, number]>(COUNTER_SQL.raise);
    this.get = this.sqlite.prepare<{ calls: number }, [string, string]>(COUNTER_SQL.read);
  }

  async addWithin(name: string, period: string, by: number, limit: number): Promise<number | undefined> {
    // A first call past a limit below `by` would insert: refuse it here, the upsert cannot.
    if (by > limit) return undefined;
    return this.retryWhileBusy(() => this.add.get(name, period, by, limit)?.calls);
  }

  async subtract(name: string, period: string, by: number): Promise<void> {
    await this.retryWhileBusy(() => this.sub.run(name, period, by));
  }

  async raiseTo(name: string, period: string, value: number): Promise<void> {
    await this.retryWhileBusy(() => this.raise.run(name, period, value));
  }

  async read(name: string, period: string): Promise<number> {
    return this.get.get(name, period)?.calls ?? 0;
  }

  async close(): Promise<void> {
    this.sqlite.close();
  }

  /** The last failure, until a counter changes again: what /health reports. */
  problem: string | undefined;

  private async retryWhileBusy<T>(op: () => T): Promise<T> {
    return retryWhileBusy(this, op);
  }
}
