import { getTableColumns } from "drizzle-orm";
import type { Store } from "../store/db";
import { usageLedger } from "../store/schema";

export type LedgerRow = typeof usageLedger.$inferInsert;

const columns = Object.entries(getTableColumns(usageLedger));
const INSERT = `INSERT INTO usage_ledger (${columns.map(([, c]) => c.name).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;

/**
 * The usage ledger: one row per completion call. Rows queue in memory and are written in one
 * transaction per flush through a statement prepared once (the query builder costs more per row
 * than the insert itself at thousands of calls a second), so recording a call costs the response
 * path an array push.
 */
export class Ledger {
  private queue: LedgerRow[] = [];
  private readonly insert;
  private readonly writeAll;

  constructor(
    store: Store,
    private readonly batchSize = 500,
  ) {
    this.insert = store.sqlite.prepare(INSERT);
    this.writeAll = store.sqlite.transaction((rows: LedgerRow[]) => {
      for (const row of rows) {
        const r = row as Record<string, unknown>;
        this.insert.run(...(columns.map(([key, c]) => (r[key] === undefined || r[key] === null ? null : c.mapToDriverValue(r[key]))) as never[]));
      }
    });
  }

  record(row: LedgerRow): void {
    this.queue.push(row);
    if (this.queue.length >= this.batchSize) this.flush();
  }

  flush(): void {
    if (this.queue.length === 0) return;
    const rows = this.queue;
    this.queue = [];
    this.writeAll(rows);
  }

  get pending(): number {
    return this.queue.length;
  }
}
