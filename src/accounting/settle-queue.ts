import type { Settle, SpendStore } from "../store/spend-store";

/**
 * What the calls that ended in one event-loop turn leave to write, budgets' settles and agent runs'
 * costs together: handed to the store after the turn, all of it for one transaction (SpendStore.settleMany;
 * SQLite's rides in the next reservation's, else goes alone within 5 ms), so an answer never waits for a
 * commit of its own and concurrent calls share one. bench/budget-guard.ts:
 * the budget's settle was about 20 µs of a budgeted call's 56 µs; the run's, one more commit (about
 * 25 µs at a load of 7 on 2 cores) of a call with a budget and an agent run.
 *
 * Until then a reservation stays held, which can only refuse a call early, never let one overspend;
 * a process that dies first leaves its reservation rows, settled at the next start against the
 * call's ledger row. What is not a reservation (the calls and repeats of a run, counted at admission)
 * is exact already.
 */
export class SettleQueue {
  private pending: Settle[] = [];
  private written: Promise<void> | undefined;

  constructor(private readonly store: SpendStore) {}

  /** Queues a settle for the end of the turn; resolves once written. */
  add(settle: Settle): Promise<void> {
    this.pending.push(settle);
    this.written ??= new Promise((resolve) => setImmediate(() => resolve(this.flush())));
    return this.written;
  }

  /** Writes the settles gathered so far (at the end of a turn, and at a flush or shutdown). */
  flush(): void | Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.written = undefined;
    if (batch.length > 0) return this.store.settleMany(batch);
  }
}
