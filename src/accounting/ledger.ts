import type { LedgerJournal } from "./ledger-journal";
import type { LedgerWriter } from "./ledger-writer";
import type { LedgerRow, RejectedRow } from "./ledger-sql";

export type { LedgerRow, RejectedRow } from "./ledger-sql";

export interface LedgerOptions {
  /** Reaching this many queued rows starts a flush without waiting for the timer. */
  batchSize?: number;
  /** Past this many rows the store has not taken, the ledger is unhealthy and billable calls are refused. */
  maxBacklog?: number;
  /** Rows the store refused (a second row for one request id); the journal keeps them in its reject file. */
  onRejected?: (rows: RejectedRow[]) => void;
  /** The store failed a batch (disk full, locked, I/O): the rows are kept and written at a later flush. */
  onStoreError?: (e: Error, pending: number) => void;
}

/**
 * The usage ledger: one row per call, what users bill their teams from. A row is appended to the
 * journal (when there is one) as it is recorded, so it is durable before the call's answer is final;
 * rows reach the store in batches through the writer (its own thread in the gateway). Rows the store
 * cannot take are kept and written at a later flush, never dropped; while the journal cannot be
 * written or the backlog grows past its bound, `healthy` is false, and the gateway refuses new
 * billable calls (503 with Retry-After) rather than answer calls it cannot record.
 */
export class Ledger {
  private queue: LedgerRow[] = [];
  /** Each queued row as JSON, in queue order: made once for the journal and the writer thread alike. */
  private lines: string[] = [];
  /**
   * Rows of batches whose write failed without an answer: the store may have committed them before
   * the failure (PostgreSQL commits, then the connection drops before the acknowledgement). When the
   * retry finds one of them already stored, that is the failed attempt's own commit, not a second row.
   */
  private uncertain = new WeakSet<LedgerRow>();
  /** Rows recorded in this turn of the event loop, as JSON, that the journal has not been given yet. */
  private unjournaled: string[] = [];
  /** Resolves once `unjournaled` is in the journal (at the end of the turn). */
  private journaled: Promise<void> | undefined;
  private grouping: () => boolean = () => true;
  private flushing: Promise<void> | undefined;
  private journalError: Error | undefined;
  private storeError: Error | undefined;
  private readonly batchSize: number;
  private readonly maxBacklog: number;

  constructor(
    private readonly writer: LedgerWriter,
    private readonly journal: LedgerJournal | undefined,
    private readonly options: LedgerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.maxBacklog = options.maxBacklog ?? 100_000;
  }

  /** Writes the rows a previous process journaled and may not have stored (idempotent by request id). */
  async recover(): Promise<number> {
    if (!this.journal) return 0;
    const { rows, done } = this.journal.leftovers();
    if (rows.length > 0) await this.writer.replay(rows);
    done();
    return rows.length;
  }

  /**
   * Records a call. Never throws: a call's answer does not hang on its accounting. With a journal, the
   * row is appended at the end of the event-loop turn together with every other row recorded in it (one
   * write(2) for all: group commit), and the promise returned resolves once that write is done; the
   * caller releases the call's answer only after it, so the row is durable before the answer is final.
   * A write(2) per row cost the pure relay 3.5 µs of CPU per call (knocked out, paired, 10 rounds of
   * 2 s at 32 connections, load 10-13: `bun bench/relay-cpu.ts`); at 32 connections about 13 rows end
   * in one turn (strace: 836 journal writes for 11,236 calls). While `grouping` says no other call is
   * in flight, nothing would join the row in its turn and waiting for the turn's end is only latency
   * (a setImmediate: +16 µs at p50 with one connection, two paired runs), so it is written at once.
   */
  record(row: LedgerRow): Promise<void> | undefined {
    const line = JSON.stringify(row);
    this.queue.push(row);
    this.lines.push(line);
    if (this.queue.length >= this.batchSize) void this.flush();
    if (!this.journal) return undefined;
    this.unjournaled.push(line);
    if (!this.grouping()) {
      this.writeJournal();
      return undefined;
    }
    return (this.journaled ??= new Promise((resolve) =>
      setImmediate(() => {
        this.writeJournal();
        resolve();
      }),
    ));
  }

  /** Sets what says whether other calls are in flight, whose rows may end in the same turn (the server's pending requests). */
  groupWhile(othersInFlight: () => boolean): void {
    this.grouping = othersInFlight;
  }

  /** Appends the rows recorded since the last append, in one write. */
  private writeJournal(): void {
    const lines = this.unjournaled;
    this.unjournaled = [];
    this.journaled = undefined;
    if (lines.length === 0) return;
    try {
      this.journal!.append(lines.join("\n"));
      this.journalError = undefined;
    } catch (e) {
      // The rows stay in memory and go to the store at the next flush; until the journal can be
      // written again the ledger is unhealthy and no new billable call is admitted.
      this.journalError = e as Error;
    }
  }

  /** Hands every queued row to the store. One flush at a time; a flush asked for meanwhile runs after it. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    if (this.queue.length === 0 && !this.journalError) return Promise.resolve();
    this.flushing = this.writeQueued().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async writeQueued(): Promise<void> {
    if (this.journalError) {
      try {
        this.journal!.check();
        this.journalError = undefined;
      } catch {
        // Still refused: the rows below go to the store all the same.
      }
    }
    const rows = this.queue;
    const lines = this.lines;
    this.queue = [];
    this.lines = [];
    const segment = this.journal?.rotate();
    try {
      const refused = await this.writer.write(rows, lines);
      this.storeError = undefined;
      const rejected = refused.length > 0 ? this.notOwnCommits(rows, refused) : refused;
      if (rejected.length > 0) this.keep(rows, rejected);
      if (segment !== undefined) this.journal!.release(segment);
    } catch (e) {
      this.storeError = e as Error;
      for (const row of rows) this.uncertain.add(row);
      this.queue = rows.concat(this.queue);
      this.lines = lines.concat(this.lines);
      this.options.onStoreError?.(e as Error, this.queue.length);
    }
  }

  /** The refusals left once a retried row found stored by its own earlier, unacknowledged write is taken out. */
  private notOwnCommits(rows: LedgerRow[], refused: RejectedRow[]): RejectedRow[] {
    const retried = new Set<string>();
    for (const row of rows) if (this.uncertain.has(row)) retried.add(row.requestId);
    return retried.size === 0 ? refused : refused.filter((r) => !retried.delete(r.requestId));
  }

  private keep(rows: LedgerRow[], rejected: RejectedRow[]): void {
    if (this.journal) {
      const byId = new Map(rows.map((r) => [r.requestId, r]));
      for (const r of rejected) this.journal.keepRejected(byId.get(r.requestId)!, r.reason);
    }
    this.options.onRejected?.(rejected);
  }

  /** Writes everything queued, as long as the store takes it; for shutdown. */
  async drain(): Promise<void> {
    await this.flush();
    while (this.queue.length > 0 && !this.storeError) await this.flush();
  }

  /** Why new billable calls must be refused now, or undefined when the ledger can record them. */
  get problem(): string | undefined {
    if (this.journalError) return `the usage journal cannot be written (${this.journalError.message})`;
    if (this.queue.length >= this.maxBacklog) return `${this.queue.length} usage rows wait for the store (${this.storeError?.message ?? "busy"})`;
    return undefined;
  }

  /** False while the store refuses writes, even before the backlog reaches its bound: what /health reports. */
  get healthy(): boolean {
    return this.problem === undefined && this.storeError === undefined;
  }

  get pending(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    this.writeJournal();
    await this.drain();
    this.journal?.close();
    await this.writer.close();
  }
}
