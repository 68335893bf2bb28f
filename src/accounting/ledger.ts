import type { Db } from "../store/db";
import { usageLedger } from "../store/schema";

export type LedgerRow = typeof usageLedger.$inferInsert;

/**
 * The usage ledger: one row per completion call. Rows queue in memory and are written in one
 * transaction per flush, so recording a call costs the response path an array push.
 */
export class Ledger {
  private queue: LedgerRow[] = [];

  constructor(
    private readonly db: Db,
    private readonly batchSize = 500,
  ) {}

  record(row: LedgerRow): void {
    this.queue.push(row);
    if (this.queue.length >= this.batchSize) this.flush();
  }

  flush(): void {
    if (this.queue.length === 0) return;
    const rows = this.queue;
    this.queue = [];
    this.db.transaction((tx) => {
      // SQLite caps bound parameters per statement; 40 rows x 23 columns stays well inside it.
      for (let i = 0; i < rows.length; i += 40) tx.insert(usageLedger).values(rows.slice(i, i + 40)).run();
    });
  }

  get pending(): number {
    return this.queue.length;
  }
}
