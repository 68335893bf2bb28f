import type { Sql } from "postgres";
import { COUNTER_SQL, type DurableCounters } from "./counters";
import { onPostgres, pgText } from "./postgres";

const ADD = pgText(COUNTER_SQL.add);
const SUBTRACT = pgText(COUNTER_SQL.subtract);
const READ = pgText(COUNTER_SQL.read);
const RAISE = pgText(COUNTER_SQL.raise);

/**
 * Counters in PostgreSQL's `usage_counters`, shared by every node: each change is the same single
 * statement as on SQLite (the conditional upsert locks the row and re-reads it), so N nodes give the
 * same limits as one. A failure is a StoreUnavailableError: the call is refused (503), never let through uncounted.
 */
export class PgCounters implements DurableCounters {
  problem: string | undefined;

  constructor(private readonly sql: Sql) {}

  async addWithin(name: string, period: string, by: number, limit: number): Promise<number | undefined> {
    // A first call past a limit below `by` would insert: refuse it here, the upsert cannot.
    if (by > limit) return undefined;
    const rows = await onPostgres(
      this,
      () => this.sql.unsafe<{ calls: number }[]>(ADD, [name, period, by, limit]),
      // Once, not retried: a subtract that landed unseen and ran again would count a call too few.
      async (late) => late.length > 0 && this.sql.unsafe(SUBTRACT, [name, period, by]),
    );
    return rows[0]?.calls;
  }

  async subtract(name: string, period: string, by: number): Promise<void> {
    await onPostgres(this, () => this.sql.unsafe(SUBTRACT, [name, period, by]));
  }

  async read(name: string, period: string): Promise<number> {
    const rows = await onPostgres(this, () => this.sql.unsafe<{ calls: number }[]>(READ, [name, period]));
    return rows[0]?.calls ?? 0;
  }

  async raiseTo(name: string, period: string, value: number): Promise<void> {
    await onPostgres(this, () => this.sql.unsafe(RAISE, [name, period, value]));
  }

  /** The pool is the store's, closed with it. */
  async close(): Promise<void> {}
}
