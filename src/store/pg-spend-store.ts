import type { Sql, TransactionSql } from "postgres";
import { onPostgres, pgText } from "./postgres";
import {
  admission,
  costLimitReason,
  settleEach,
  SPEND_SQL,
  stoppedReason,
  type BudgetReserved,
  type BudgetRow,
  type Reservation,
  type RunAdmission,
  type RunLimits,
  type RunReservation,
  type RunRow,
  type Settle,
  type SpendRow,
  type SpendStore,
  writeRunParams,
} from "./spend-store";

type Name = keyof typeof SPEND_SQL;
const TEXT = Object.fromEntries(Object.entries(SPEND_SQL).map(([k, v]) => [k, pgText(v)])) as Record<Name, string>;
/** The run's row locked for the rest of the transaction: the slow admission path decides on it. */
const RUN_FOR_UPDATE = `${TEXT.run} FOR UPDATE`;

type Runner = Sql | TransactionSql;

/**
 * Budgets and agent runs on PostgreSQL, shared by every node, with the SQLite store's statements:
 * a reservation is the conditional upsert (PostgreSQL locks the conflicting row and re-reads it
 * before the WHERE) plus its reservation row in one transaction; a settle deletes the reservation
 * row first (RETURNING what it held), so it happens once whichever node gets there; the slow
 * admission path holds the run's row (SELECT ... FOR UPDATE) while it decides. So N nodes refuse
 * exactly where one would. A failure refuses the call (StoreUnavailableError, 503); a settle the
 * store cannot take now is kept and retried at each flush, never dropped.
 */
export class PgSpendStore implements SpendStore {
  problem: string | undefined;
  private owed: (() => Promise<unknown>)[] = [];

  constructor(private readonly sql: Sql) {}

  private q<T>(name: Name, params: unknown[], on: Runner = this.sql): Promise<T[]> {
    return on.unsafe(TEXT[name], params as never[]) as unknown as Promise<T[]>;
  }

  private async one<T>(name: Name, params: unknown[], on: Runner = this.sql): Promise<T | undefined> {
    return (await this.q<T>(name, params, on))[0];
  }

  /** `undo` gives back what the operation took for a call refused because it answered too late (onPostgres). */
  private run_<T>(op: () => Promise<T>, undo?: (late: T) => Promise<unknown>): Promise<T> {
    return onPostgres(this, op, undo);
  }

  private tx<T>(fn: (tx: TransactionSql) => Promise<T>, undo?: (late: T) => Promise<unknown>): Promise<T> {
    return this.run_(() => this.sql.begin(fn) as Promise<T>, undo);
  }

  // ---- budgets ----
  budget(id: string): Promise<BudgetRow | undefined> {
    return this.run_(() => this.one<BudgetRow>("budget", [id]));
  }

  budgets(appId: string): Promise<BudgetRow[]> {
    return this.run_(() => this.q<BudgetRow>("budgets", [appId]));
  }

  async spend(budgetId: string, period: string): Promise<SpendRow> {
    return (await this.run_(() => this.one<SpendRow>("spend", [budgetId, period]))) ?? { spent_micros: 0, reserved_micros: 0 };
  }

  async createBudget(b: Omit<BudgetRow, "updated_at">): Promise<void> {
    await this.run_(() => this.q("insertBudget", [b.id, b.app_id, b.name, b.limit_micros, b.period, b.created_at]));
  }

  updateBudget(id: string, name: string | null, limitMicros: number | null, now: number): Promise<BudgetRow | undefined> {
    return this.run_(() => this.one<BudgetRow>("updateBudget", [id, name, limitMicros, now]));
  }

  async deleteBudget(id: string): Promise<void> {
    await this.tx(async (tx) => {
      await this.q("deleteBudget", [id], tx);
      await this.q("deleteSpend", [id], tx);
    });
  }

  reserveBudget(r: Reservation, owner: string, now: number, run?: RunReservation): Promise<BudgetReserved | undefined> {
    return this.tx(
      async (tx) => {
        const spend = await this.one<SpendRow>("reserveBudget", [r.target, r.period, r.micros], tx);
        if (!spend) return undefined;
        await this.q("insertReservation", [r.requestId, r.kind, r.target, r.period, r.micros, owner, now], tx);
        if (!run) return { spend };
        const a = await this.reserveRunIn(tx, run.r, run.appId, run.id, run.defaultMaxMicros, owner, now);
        if (!a.ok) {
          await this.q("takeReservation", [r.requestId, r.kind], tx);
          await this.q("settleBudget", [r.target, r.period, r.micros, 0], tx);
        }
        return { spend, run: a };
      },
      // Too late: what the transaction holds is given back (a run that refused released the budget's in it).
      async (late) => {
        if (!late || late.run?.ok === false) return;
        await this.settleBudget(r.requestId, r.target, r.period, 0);
        if (late.run && run) await this.settleRun(run.r.requestId, run.appId, run.id, 0, 0, 0, now);
      },
    );
  }

  settleBudget(requestId: string, budgetId: string, period: string, costMicros: number): Promise<void> {
    return this.settleMany([{ kind: "budget", requestId, budgetId, period, costMicros }]);
  }

  /** Several calls' settles in one transaction, each releasing its reservation once (deleted first) and adding its cost. */
  async settleMany(settles: readonly Settle[]): Promise<void> {
    await this.settleNowOrLater(() =>
      this.tx(async (tx) => {
        for (const x of settles) {
          if (x.kind === "run") {
            const held = x.reserved ? ((await this.one<{ micros: number }>("takeReservation", [x.requestId, "run"], tx))?.micros ?? 0) : 0;
            await this.q("settleRun", [x.appId, x.id, held, x.costMicros, x.promptTokens, x.completionTokens, x.now], tx);
            continue;
          }
          const held = (await this.one<{ micros: number }>("takeReservation", [x.requestId, "budget"], tx))?.micros ?? 0;
          if (held > 0) await this.q("settleBudget", [x.budgetId, x.period, held, x.costMicros], tx);
          else if (x.costMicros > 0) await this.q("chargeBudget", [x.budgetId, x.period, x.costMicros], tx);
        }
      }),
    );
  }

  // ---- agent runs ----
  run(appId: string, id: string): Promise<RunRow | undefined> {
    return this.run_(() => this.one<RunRow>("run", [appId, id]));
  }

  async admitRun(appId: string, id: string, hash: string, limits: RunLimits, now: number): Promise<RunAdmission> {
    // One autocommit statement in the common case, as on SQLite (bench/budget-guard.ts).
    const unadmit = async (admitted: boolean) => admitted && this.unadmitRun(appId, id, hash);
    const run = await this.run_(
      () => this.one<RunRow>("admitFast", [appId, id, hash, now, limits.maxCalls, limits.maxRepeats]),
      (late) => unadmit(late !== undefined),
    );
    if (run) return { ok: true, run };
    return this.tx(
      async (tx): Promise<RunAdmission> => {
        await this.q("ensureRun", [appId, id, now], tx);
        const locked = (await tx.unsafe<RunRow[]>(RUN_FOR_UPDATE, [appId, id]))[0]!;
        if (locked.status !== "active") return { ok: false, run: locked, reason: stoppedReason(locked) };
        const { repeats, reason } = admission(locked, hash, limits);
        if (reason) return { ok: false, run: (await this.one<RunRow>("tripRun", [appId, id, reason, now], tx)) ?? locked, reason };
        return { ok: true, run: (await this.one<RunRow>("admitRun", [appId, id, hash, repeats, now], tx))! };
      },
      (late) => unadmit(late.ok),
    );
  }

  async unadmitRun(appId: string, id: string, hash: string): Promise<void> {
    await this.settleNowOrLater(() => this.run_(() => this.q("unadmitRun", [appId, id, hash])));
  }

  reserveRun(r: Reservation, appId: string, id: string, defaultMaxMicros: number, owner: string, now: number): Promise<RunAdmission> {
    return this.tx(
      (tx) => this.reserveRunIn(tx, r, appId, id, defaultMaxMicros, owner, now),
      async (late) => late.ok && this.settleRun(r.requestId, appId, id, 0, 0, 0, now),
    );
  }

  private async reserveRunIn(
    tx: TransactionSql,
    r: Reservation,
    appId: string,
    id: string,
    defaultMaxMicros: number,
    owner: string,
    now: number,
  ): Promise<RunAdmission> {
    const got = await this.one<RunRow>("reserveRun", [appId, id, r.micros, defaultMaxMicros], tx);
    if (got) {
      await this.q("insertReservation", [r.requestId, r.kind, r.target, r.period, r.micros, owner, now], tx);
      return { ok: true, run: got };
    }
    const run = (await this.one<RunRow>("run", [appId, id], tx))!;
    const reason = costLimitReason(run, r.micros, defaultMaxMicros);
    const tripped = run.status === "active" ? await this.one<RunRow>("tripRun", [appId, id, reason, now], tx) : undefined;
    return { ok: false, run: tripped ?? run, reason };
  }

  settleRun(
    requestId: string,
    appId: string,
    id: string,
    costMicros: number,
    promptTokens: number,
    completionTokens: number,
    now: number,
  ): Promise<RunRow | undefined> {
    return this.settleNowOrLater(() =>
      this.settleTx(requestId, "run", (held, tx) => this.one<RunRow>("settleRun", [appId, id, held, costMicros, promptTokens, completionTokens, now], tx)),
    );
  }

  async putRun(appId: string, id: string, maxCostMicros: number | null, maxCalls: number | null, maxRepeats: number | null, now: number): Promise<RunRow> {
    return (await this.run_(() => this.one<RunRow>("putRun", [appId, id, maxCostMicros, maxCalls, maxRepeats, now])))!;
  }

  resetRun(appId: string, id: string, now: number): Promise<RunRow | undefined> {
    return this.run_(() => this.one<RunRow>("resetRun", [appId, id, now]));
  }

  closeRun(appId: string, id: string, now: number): Promise<RunRow | undefined> {
    return this.run_(() => this.one<RunRow>("closeRun", [appId, id, now]));
  }

  async writeRuns(rows: readonly RunRow[]): Promise<void> {
    await this.tx(async (tx) => {
      for (const r of rows) await this.q("writeRun", writeRunParams(r), tx);
    });
  }

  // ---- nodes that stopped ----
  async settleOrphans(dead: (owner: string) => boolean, now: number): Promise<number> {
    const all = await this.run_(() => this.q<Reservation & { owner: string }>("reservations", []));
    const orphans = all.filter((r) => dead(r.owner));
    return settleEach(this, orphans, (requestId) => this.run_(() => this.one<{ cost_actual_usd: number }>("ledgerCost", [requestId])), now);
  }

  flush(): void {
    const owed = this.owed;
    this.owed = [];
    for (const op of owed) void this.settleNowOrLater(op);
  }

  /** The pool is the store's, closed with it. */
  async close(): Promise<void> {}

  /** Deleting the reservation row first makes a settle happen once, whoever gets there (the call, or another node settling a dead one's calls). */
  private settleTx<T>(requestId: string, kind: "budget" | "run", apply: (held: number, tx: TransactionSql) => Promise<T>): Promise<T> {
    return this.tx(async (tx) => {
      const held = (await this.one<{ micros: number }>("takeReservation", [requestId, kind], tx))?.micros ?? 0;
      return apply(held, tx);
    });
  }

  /** A settle the store cannot take now is kept for a later flush: it cannot fail a call that was answered. */
  private settleNowOrLater<T>(op: () => Promise<T>): Promise<T | undefined> {
    return op().catch(() => {
      this.owed.push(op);
      return undefined;
    });
  }
}
