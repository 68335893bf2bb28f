import type { Database } from "bun:sqlite";
import { counterConnection, retryWhileBusy, type BusyState } from "./busy";

export type BudgetPeriod = "daily" | "monthly" | "total";

export interface BudgetRow {
  id: string;
  app_id: string;
  name: string;
  limit_micros: number;
  period: BudgetPeriod;
  created_at: number;
  updated_at: number;
}

export interface SpendRow {
  spent_micros: number;
  reserved_micros: number;
}

export interface RunRow {
  app_id: string;
  id: string;
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_micros: number;
  reserved_micros: number;
  max_cost_micros: number | null;
  max_calls: number | null;
  max_repeats: number | null;
  last_request_hash: string | null;
  repeat_count: number;
  status: "active" | "tripped" | "closed";
  trip_reason: string | null;
  created_at: number;
  updated_at: number;
}

/** The limits a run is held to: its own, else the operator's defaults. */
export interface RunLimits {
  maxCostMicros: number;
  maxCalls: number;
  maxRepeats: number;
}

/** Money a call holds before its outcome is known: the row that lets a restart settle it. */
export interface Reservation {
  requestId: string;
  kind: "budget" | "run";
  /** The budget's id, or the run's app id and id joined by RUN_SEP. */
  target: string;
  period: string;
  micros: number;
}

export const RUN_SEP = "\u001f";

/**
 * One statement checks and reserves: a first reservation of a window inserts (when it fits the limit),
 * a later one adds to the row only while spent + reserved + this stays within the limit, read in the
 * same statement so a PATCH racing the calls is honoured too. ?1 budget id, ?2 window, ?3 micro-dollars.
 */
export const RESERVE_BUDGET_SQL = `INSERT INTO budget_spend (budget_id, period, spent_micros, reserved_micros)
     SELECT id, ?2, 0, ?3 FROM budgets WHERE id = ?1 AND ?3 <= limit_micros
   ON CONFLICT (budget_id, period) DO UPDATE SET reserved_micros = budget_spend.reserved_micros + excluded.reserved_micros
     WHERE budget_spend.spent_micros + budget_spend.reserved_micros + excluded.reserved_micros <= (SELECT limit_micros FROM budgets WHERE id = excluded.budget_id)
   RETURNING spent_micros, reserved_micros`;

/**
 * Every statement of the budgets and agent runs, run as they are on SQLite and on PostgreSQL (`?N` as
 * `$N`): portable SQL (INSERT ... ON CONFLICT with qualified columns, RETURNING, CASE rather than
 * SQLite's two-argument max).
 */
export const SPEND_SQL = {
  budget: "SELECT * FROM budgets WHERE id = ?1",
  budgets: "SELECT * FROM budgets WHERE app_id = ?1 ORDER BY created_at, id",
  insertBudget: "INSERT INTO budgets (id, app_id, name, limit_micros, period, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
  updateBudget: "UPDATE budgets SET name = coalesce(?2, name), limit_micros = coalesce(?3, limit_micros), updated_at = ?4 WHERE id = ?1 RETURNING *",
  deleteBudget: "DELETE FROM budgets WHERE id = ?1",
  deleteSpend: "DELETE FROM budget_spend WHERE budget_id = ?1",
  spend: "SELECT spent_micros, reserved_micros FROM budget_spend WHERE budget_id = ?1 AND period = ?2",
  reserveBudget: RESERVE_BUDGET_SQL,
  settleBudget:
    "UPDATE budget_spend SET reserved_micros = CASE WHEN reserved_micros > ?3 THEN reserved_micros - ?3 ELSE 0 END, spent_micros = spent_micros + ?4 WHERE budget_id = ?1 AND period = ?2",
  chargeBudget: `INSERT INTO budget_spend (budget_id, period, spent_micros, reserved_micros) VALUES (?1, ?2, ?3, 0)
         ON CONFLICT (budget_id, period) DO UPDATE SET spent_micros = budget_spend.spent_micros + excluded.spent_micros`,
  insertReservation: "INSERT INTO reservations (request_id, kind, target, period, micros, owner, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
  takeReservation: "DELETE FROM reservations WHERE request_id = ?1 AND kind = ?2 RETURNING micros",
  reservations: `SELECT request_id AS "requestId", kind, target, period, micros, owner FROM reservations`,
  ledgerCost: "SELECT cost_actual_usd FROM usage_ledger WHERE request_id = ?1",
  run: "SELECT * FROM agent_runs WHERE app_id = ?1 AND id = ?2",
  ensureRun: `INSERT INTO agent_runs (app_id, id, calls, prompt_tokens, completion_tokens, cost_micros, reserved_micros, repeat_count, status, created_at, updated_at)
         VALUES (?1, ?2, 0, 0, 0, 0, 0, 0, 'active', ?3, ?3) ON CONFLICT (app_id, id) DO NOTHING`,
  admitRun: "UPDATE agent_runs SET calls = calls + 1, last_request_hash = ?3, repeat_count = ?4, updated_at = ?5 WHERE app_id = ?1 AND id = ?2 RETURNING *",
  // The common case in one statement: the run is created or counted when it is active, under its
  // call limit, and this step does not repeat past max_repeats. A refusal goes to admitSlow, which
  // finds the reason and trips the run. ?5 and ?6 are the default call and repeat limits.
  admitFast: `INSERT INTO agent_runs (app_id, id, calls, prompt_tokens, completion_tokens, cost_micros, reserved_micros, last_request_hash, repeat_count, status, created_at, updated_at)
           VALUES (?1, ?2, 1, 0, 0, 0, 0, ?3, 1, 'active', ?4, ?4)
         ON CONFLICT (app_id, id) DO UPDATE SET calls = agent_runs.calls + 1,
           repeat_count = CASE WHEN agent_runs.last_request_hash = excluded.last_request_hash THEN agent_runs.repeat_count + 1 ELSE 1 END,
           last_request_hash = excluded.last_request_hash, updated_at = excluded.updated_at
         WHERE agent_runs.status = 'active' AND agent_runs.calls + 1 <= coalesce(agent_runs.max_calls, ?5)
           AND CASE WHEN agent_runs.last_request_hash = excluded.last_request_hash THEN agent_runs.repeat_count + 1 ELSE 1 END <= coalesce(agent_runs.max_repeats, ?6)
         RETURNING *`,
  tripRun: "UPDATE agent_runs SET status = 'tripped', trip_reason = ?3, updated_at = ?4 WHERE app_id = ?1 AND id = ?2 AND status = 'active' RETURNING *",
  unadmitRun: `UPDATE agent_runs SET calls = CASE WHEN calls > 0 THEN calls - 1 ELSE 0 END,
           repeat_count = CASE WHEN last_request_hash = ?3 AND repeat_count > 0 THEN repeat_count - 1 ELSE repeat_count END
         WHERE app_id = ?1 AND id = ?2`,
  reserveRun: `UPDATE agent_runs SET reserved_micros = reserved_micros + ?3
         WHERE app_id = ?1 AND id = ?2 AND status = 'active' AND cost_micros + reserved_micros + ?3 <= coalesce(max_cost_micros, ?4) RETURNING *`,
  settleRun: `UPDATE agent_runs SET reserved_micros = CASE WHEN reserved_micros > ?3 THEN reserved_micros - ?3 ELSE 0 END, cost_micros = cost_micros + ?4,
           prompt_tokens = prompt_tokens + ?5, completion_tokens = completion_tokens + ?6, updated_at = ?7
         WHERE app_id = ?1 AND id = ?2 RETURNING *`,
  putRun: `INSERT INTO agent_runs (app_id, id, calls, prompt_tokens, completion_tokens, cost_micros, reserved_micros, max_cost_micros, max_calls, max_repeats, repeat_count, status, created_at, updated_at)
         VALUES (?1, ?2, 0, 0, 0, 0, 0, ?3, ?4, ?5, 0, 'active', ?6, ?6)
         ON CONFLICT (app_id, id) DO UPDATE SET max_cost_micros = coalesce(excluded.max_cost_micros, agent_runs.max_cost_micros),
           max_calls = coalesce(excluded.max_calls, agent_runs.max_calls), max_repeats = coalesce(excluded.max_repeats, agent_runs.max_repeats), updated_at = excluded.updated_at
         RETURNING *`,
  resetRun: `UPDATE agent_runs SET calls = 0, prompt_tokens = 0, completion_tokens = 0, cost_micros = 0, last_request_hash = NULL, repeat_count = 0,
           status = 'active', trip_reason = NULL, updated_at = ?3 WHERE app_id = ?1 AND id = ?2 RETURNING *`,
  closeRun: "UPDATE agent_runs SET status = 'closed', updated_at = ?3 WHERE app_id = ?1 AND id = ?2 RETURNING *",
  // A run's snapshot from Redis (RedisRuns), taken only when newer than the row: write-backs in any order keep the newest.
  writeRun: `INSERT INTO agent_runs (app_id, id, calls, prompt_tokens, completion_tokens, cost_micros, reserved_micros, max_cost_micros, max_calls, max_repeats,
           last_request_hash, repeat_count, status, trip_reason, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
         ON CONFLICT (app_id, id) DO UPDATE SET calls = excluded.calls, prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
           cost_micros = excluded.cost_micros, reserved_micros = excluded.reserved_micros, max_cost_micros = excluded.max_cost_micros, max_calls = excluded.max_calls,
           max_repeats = excluded.max_repeats, last_request_hash = excluded.last_request_hash, repeat_count = excluded.repeat_count, status = excluded.status,
           trip_reason = excluded.trip_reason, updated_at = excluded.updated_at
         WHERE agent_runs.updated_at < excluded.updated_at`,
} as const;

/** writeRun's parameters, in its order. */
export const writeRunParams = (r: RunRow): (string | number | null)[] => [
  r.app_id,
  r.id,
  r.calls,
  r.prompt_tokens,
  r.completion_tokens,
  r.cost_micros,
  r.reserved_micros,
  r.max_cost_micros,
  r.max_calls,
  r.max_repeats,
  r.last_request_hash,
  r.repeat_count,
  r.status,
  r.trip_reason,
  r.created_at,
  r.updated_at,
];

/** A call's budget reservation replaced by what it cost (0 for a failed call). */
export interface BudgetSettle {
  kind: "budget";
  requestId: string;
  budgetId: string;
  period: string;
  costMicros: number;
}

/** What a call added to its run. */
export interface RunCharge {
  costMicros: number;
  promptTokens: number;
  completionTokens: number;
}

/** A call's cost and tokens added to its run, releasing the run's reservation first when the call held one (`reserved`). */
export interface RunSettle extends RunCharge {
  kind: "run";
  requestId: string;
  appId: string;
  id: string;
  reserved: boolean;
  now: number;
}

/** A call's worst case held on its agent run's cost limit too, in the budget reservation's transaction (SpendStore.reserveBudget). */
export interface RunReservation {
  r: Reservation;
  appId: string;
  id: string;
  defaultMaxMicros: number;
}

/** A budget reservation that fit, and the run's answer when one was asked for with it. */
export interface BudgetReserved {
  spend: SpendRow;
  run?: RunAdmission;
}

/** What calls that ended leave to write: gathered per event-loop turn and written together (SettleQueue). */
export type Settle = BudgetSettle | RunSettle;

export type RunAdmission = { ok: true; run: RunRow } | { ok: false; run: RunRow; reason: string };

/** Whether an active run takes one more call with this step's hash: the repeat count it would reach, and why not when it does not. */
export function admission(run: RunRow, hash: string, limits: RunLimits): { repeats: number; reason: string | undefined } {
  const maxCalls = run.max_calls ?? limits.maxCalls;
  const maxRepeats = run.max_repeats ?? limits.maxRepeats;
  const repeats = run.last_request_hash === hash ? run.repeat_count + 1 : 1;
  const reason =
    repeats > maxRepeats
      ? `loop detected: the same request ${repeats} times in a row (max_repeats ${maxRepeats})`
      : run.calls + 1 > maxCalls
        ? `call limit reached: ${run.calls} calls (max_calls ${maxCalls})`
        : undefined;
  return { repeats, reason };
}

/** Why a run refused a reservation of `micros`. */
export function costLimitReason(run: RunRow, micros: number, defaultMax: number): string {
  const max = run.max_cost_micros ?? defaultMax;
  return `cost limit reached: $${run.cost_micros / 1e6} spent, $${run.reserved_micros / 1e6} held by calls in flight, this call may cost $${micros / 1e6} (max_cost_usd ${max / 1e6})`;
}

/** The reason a stopped run refuses every call. */
export function stoppedReason(run: RunRow): string {
  return run.status === "closed" ? "the run is closed" : (run.trip_reason ?? "the run's guard tripped");
}

/**
 * Settles reservations whose holder is gone: each charged what the ledger recorded for its call
 * (`recorded`) when the row made it to the store, else conservatively the whole reservation (the
 * provider may have answered and been paid). Returns how many were settled.
 */
export async function settleEach(
  store: Pick<SpendStore, "settleBudget" | "settleRun">,
  orphans: readonly Reservation[],
  recorded: (requestId: string) => Maybe<{ cost_actual_usd: number } | undefined>,
  now: number,
): Promise<number> {
  for (const r of orphans) {
    const row = await recorded(r.requestId);
    const cost = row ? Math.ceil(row.cost_actual_usd * 1e6) : r.micros;
    if (r.kind === "budget") await store.settleBudget(r.requestId, r.target, r.period, cost);
    else {
      const [appId, id] = r.target.split(RUN_SEP) as [string, string];
      await store.settleRun(r.requestId, appId, id, cost, 0, 0, now);
    }
  }
  return orphans.length;
}

/**
 * The longest a settle waits to ride in the next reservation's transaction (SqliteSpendStore):
 * its reservation is held that much longer, which can only refuse a call early, never let one overspend,
 * and is a few percent of the time a provider call holds it anyway.
 */
const RIDE_MS = 5;

const noop = () => undefined;

/** A value now, or a promise of it: the SQLite store answers at once whenever it is free, others after a round trip. */
export type Maybe<T> = T | Promise<T>;

/**
 * Budgets and agent runs, shared by every gateway process on one store: each reservation checks and
 * holds in one atomic step, so N processes refuse exactly where one would. Implemented on SQLite
 * (SqliteSpendStore) and on PostgreSQL; a settle never fails an answered call (what the store cannot
 * take now is kept and retried at `flush`).
 */
export interface SpendStore {
  /** Why the last change failed, until one succeeds again: what /health reports. */
  readonly problem: string | undefined;
  budget(id: string): Maybe<BudgetRow | undefined>;
  budgets(appId: string): Maybe<BudgetRow[]>;
  spend(budgetId: string, period: string): Maybe<SpendRow>;
  createBudget(b: Omit<BudgetRow, "updated_at">): Promise<void>;
  updateBudget(id: string, name: string | null, limitMicros: number | null, now: number): Promise<BudgetRow | undefined>;
  deleteBudget(id: string): Promise<void>;
  /**
   * The window's spend and reservations after this one, or undefined when it does not fit. With `run`,
   * once the budget's fits, the run's too, in the same transaction where the store has one: a run that
   * refuses (and trips) releases the budget's.
   */
  reserveBudget(r: Reservation, owner: string, now: number, run?: RunReservation): Promise<BudgetReserved | undefined>;
  /** Releases the call's reservation and adds what it cost (0 for a failed call). */
  settleBudget(requestId: string, budgetId: string, period: string, costMicros: number): Maybe<void>;
  /** The settles of the calls that ended in one event-loop turn, budgets' and runs', in one transaction: one commit for them all. */
  settleMany(settles: readonly Settle[]): Maybe<void>;
  run(appId: string, id: string): Maybe<RunRow | undefined>;
  /** Counts a call into the run (creating it) unless it is not active, would pass its call limit, or repeats too often; those trip it. */
  admitRun(appId: string, id: string, hash: string, limits: RunLimits, now: number): Maybe<RunAdmission>;
  /** A refused or failed call is not counted: its call and its repeat are given back. */
  unadmitRun(appId: string, id: string, hash: string): Maybe<void>;
  reserveRun(r: Reservation, appId: string, id: string, defaultMaxMicros: number, owner: string, now: number): Maybe<RunAdmission>;
  /** Releases the call's reservation and adds its cost and tokens; the run's totals after. */
  settleRun(
    requestId: string,
    appId: string,
    id: string,
    costMicros: number,
    promptTokens: number,
    completionTokens: number,
    now: number,
  ): Maybe<RunRow | undefined>;
  putRun(appId: string, id: string, maxCostMicros: number | null, maxCalls: number | null, maxRepeats: number | null, now: number): Promise<RunRow>;
  resetRun(appId: string, id: string, now: number): Promise<RunRow | undefined>;
  closeRun(appId: string, id: string, now: number): Promise<RunRow | undefined>;
  /** Runs as Redis has them (RedisRuns' write-back), each taken only when newer than the stored row. */
  writeRuns(rows: readonly RunRow[]): Promise<void>;
  /**
   * Settles the reservations of owners that died mid-call: charged what the ledger recorded for the
   * call when its row made it to the store, else conservatively the whole reservation (the provider
   * may have answered and been paid). Returns how many were settled.
   */
  settleOrphans(dead: (owner: string) => boolean, now: number): Promise<number>;
  /** Retries the settles the store refused earlier. */
  flush(): void;
  close(): Promise<void>;
}

/**
 * Budgets and agent runs in the store, every change one transaction of atomic statements on a
 * connection that never blocks the event loop (busy_timeout 0, waits on timers): a reservation is a
 * conditional `UPDATE ... WHERE spent + reserved + ? <= limit` plus its reservation row, so N gateway
 * processes on one store refuse exactly where one would. The statements are portable SQL (INSERT ...
 * ON CONFLICT with qualified columns, RETURNING, CASE rather than SQLite's two-argument max), so the
 * design carries over to PostgreSQL, where BEGIN IMMEDIATE becomes a row lock (SELECT ... FOR UPDATE).
 */
export class SqliteSpendStore implements SpendStore, BusyState {
  problem: string | undefined;
  /** Settles the store could not take (locked past the waits, or failing): retried at each flush, never dropped. */
  private owed: (() => unknown)[] = [];
  /**
   * Settles handed over (settleMany) and not written yet: they ride in the transaction of this process's
   * next reservation, written before it, or go alone after RIDE_MS (with the others handed over by then). A commit is most of
   * what a settle costs, and the next call's transaction writes the same pages (the budget's spend row,
   * the run's row, the reservations' b-tree) once for both: bench/budget-guard.ts, calls back to back,
   * the settle's own commit was 15-20 µs of every budgeted call's event-loop time.
   */
  private riding: Settle[] = [];
  private rode: PromiseWithResolvers<void> | undefined;
  private rideTimer: ReturnType<typeof setTimeout> | undefined;
  /** The last riding write the store was too busy to take at once, until it is written (reads wait for it). */
  private stillRiding: Promise<void> | undefined;
  private readonly sqlite: Database;
  private readonly q;
  /** One write transaction: the riding settles, then the body. */
  private readonly tx: (settles: readonly Settle[], body: () => unknown) => unknown;
  private readonly settleTx;
  private readonly writeRunsTx;
  private readonly reserve;
  private readonly admitSlow;
  private readonly reserveRunBody;

  constructor(dbPath: string) {
    const db = (this.sqlite = counterConnection(dbPath));
    this.q = {
      budget: db.prepare<BudgetRow, [string]>(SPEND_SQL.budget),
      budgets: db.prepare<BudgetRow, [string]>(SPEND_SQL.budgets),
      insertBudget: db.prepare<unknown, [string, string, string, number, string, number]>(SPEND_SQL.insertBudget),
      updateBudget: db.prepare<BudgetRow, [string, string | null, number | null, number]>(SPEND_SQL.updateBudget),
      deleteBudget: db.prepare<unknown, [string]>(SPEND_SQL.deleteBudget),
      deleteSpend: db.prepare<unknown, [string]>(SPEND_SQL.deleteSpend),
      spend: db.prepare<SpendRow, [string, string]>(SPEND_SQL.spend),
      reserveBudget: db.prepare<SpendRow, [string, string, number]>(SPEND_SQL.reserveBudget),
      settleBudget: db.prepare<unknown, [string, string, number, number]>(SPEND_SQL.settleBudget),
      chargeBudget: db.prepare<unknown, [string, string, number]>(SPEND_SQL.chargeBudget),
      insertReservation: db.prepare<unknown, [string, string, string, string, number, string, number]>(SPEND_SQL.insertReservation),
      takeReservation: db.prepare<{ micros: number }, [string, string]>(SPEND_SQL.takeReservation),
      reservations: db.prepare<Reservation & { owner: string }, []>(SPEND_SQL.reservations),
      ledgerCost: db.prepare<{ cost_actual_usd: number }, [string]>(SPEND_SQL.ledgerCost),
      run: db.prepare<RunRow, [string, string]>(SPEND_SQL.run),
      ensureRun: db.prepare<unknown, [string, string, number]>(SPEND_SQL.ensureRun),
      admitRun: db.prepare<RunRow, [string, string, string, number, number]>(SPEND_SQL.admitRun),
      admitFast: db.prepare<RunRow, [string, string, string, number, number, number]>(SPEND_SQL.admitFast),
      tripRun: db.prepare<RunRow, [string, string, string, number]>(SPEND_SQL.tripRun),
      unadmitRun: db.prepare<unknown, [string, string, string]>(SPEND_SQL.unadmitRun),
      reserveRun: db.prepare<RunRow, [string, string, number, number]>(SPEND_SQL.reserveRun),
      settleRun: db.prepare<RunRow, [string, string, number, number, number, number, number]>(SPEND_SQL.settleRun),
      putRun: db.prepare<RunRow, [string, string, number | null, number | null, number | null, number]>(SPEND_SQL.putRun),
      resetRun: db.prepare<RunRow, [string, string, number]>(SPEND_SQL.resetRun),
      closeRun: db.prepare<RunRow, [string, string, number]>(SPEND_SQL.closeRun),
      writeRun: db.prepare<unknown, (string | number | null)[]>(SPEND_SQL.writeRun),
    };
    const q = this.q;
    this.reserve = (r: Reservation, owner: string, now: number, run: RunReservation | undefined): BudgetReserved | undefined => {
      const spend = q.reserveBudget.get(r.target, r.period, r.micros);
      if (!spend) return undefined;
      q.insertReservation.run(r.requestId, r.kind, r.target, r.period, r.micros, owner, now);
      if (!run) return { spend };
      const a = this.reserveRunBody(run.r, run.appId, run.id, run.defaultMaxMicros, owner, now);
      if (!a.ok) {
        q.takeReservation.get(r.requestId, r.kind);
        q.settleBudget.run(r.target, r.period, r.micros, 0);
      }
      return { spend, run: a };
    };
    // Deleting the reservation row first makes a settle happen once, whoever gets there (the call, or a
    // restart settling a dead process's calls).
    this.settleTx = db.transaction((requestId: string, kind: "budget" | "run", apply: (held: number) => RunRow | undefined) => {
      const held = q.takeReservation.get(requestId, kind)?.micros ?? 0;
      return apply(held);
    }).immediate;
    this.tx = db.transaction((settles: readonly Settle[], body: () => unknown) => {
      for (const x of settles) {
        if (x.kind === "run") {
          const held = x.reserved ? (q.takeReservation.get(x.requestId, "run")?.micros ?? 0) : 0;
          q.settleRun.run(x.appId, x.id, held, x.costMicros, x.promptTokens, x.completionTokens, x.now);
          continue;
        }
        const held = q.takeReservation.get(x.requestId, "budget")?.micros ?? 0;
        if (held > 0) q.settleBudget.run(x.budgetId, x.period, held, x.costMicros);
        else if (x.costMicros > 0) q.chargeBudget.run(x.budgetId, x.period, x.costMicros);
      }
      return body();
    }).immediate;
    this.admitSlow = (appId: string, id: string, hash: string, limits: RunLimits, now: number): RunAdmission => {
      q.ensureRun.run(appId, id, now);
      const run = q.run.get(appId, id)!;
      if (run.status !== "active") return { ok: false, run, reason: stoppedReason(run) };
      const { repeats, reason } = admission(run, hash, limits);
      if (reason) return { ok: false, run: q.tripRun.get(appId, id, reason, now) ?? run, reason };
      return { ok: true, run: q.admitRun.get(appId, id, hash, repeats, now)! };
    };
    this.writeRunsTx = db.transaction((rows: readonly RunRow[]) => {
      for (const r of rows) q.writeRun.run(...writeRunParams(r));
    }).immediate;
    this.reserveRunBody = (r: Reservation, appId: string, id: string, defaultMax: number, owner: string, now: number): RunAdmission => {
      const got = q.reserveRun.get(appId, id, r.micros, defaultMax);
      if (got) {
        q.insertReservation.run(r.requestId, r.kind, r.target, r.period, r.micros, owner, now);
        return { ok: true, run: got };
      }
      const run = q.run.get(appId, id)!;
      const reason = costLimitReason(run, r.micros, defaultMax);
      return { ok: false, run: (run.status === "active" && q.tripRun.get(appId, id, reason, now)) || run, reason };
    };
  }

  /** `body` in one write transaction, after the riding settles: they are written once it commits. */
  private inTx<T>(body: () => T): T {
    const settles = this.riding;
    const value = this.tx(settles, body) as T;
    if (settles.length > 0) this.landed();
    return value;
  }

  /** The riding settles are written: the next ones start a new batch. */
  private landed(): void {
    this.riding = [];
    clearTimeout(this.rideTimer);
    this.rideTimer = undefined;
    const rode = this.rode;
    this.rode = undefined;
    rode?.resolve();
  }

  /** Writes the riding settles now, alone (RIDE_MS passed, a read, a flush): kept for a later flush when the store refuses them. */
  /**
   * Reads once the riding settles are written. When another connection holds the write lock (the
   * ledger's writer thread writes the same file) they are written on the busy timers, and a read that
   * did not wait for them missed the cost of calls already answered: a run's GET right after five
   * concurrent calls showed one call's cost (test/budgets/agent-runs-http.test.ts: once in a whole-suite run under unshare -n).
   */
  private afterRiding<T>(read: () => T): Maybe<T> {
    const written = this.writeRiding() ?? this.stillRiding;
    return written instanceof Promise ? written.then(read) : read();
  }

  private writeRiding(): void | Promise<void> {
    if (this.riding.length === 0) return;
    const settles = this.riding;
    const rode = this.rode;
    this.riding = [];
    this.rode = undefined;
    clearTimeout(this.rideTimer);
    this.rideTimer = undefined;
    const written = this.settleNowOrLater(() => void this.tx(settles, noop));
    if (!(written instanceof Promise)) return rode?.resolve();
    const done = written.then(() => {
      rode?.resolve();
      if (this.stillRiding === done) this.stillRiding = undefined;
    });
    this.stillRiding = done;
    return done;
  }

  // ---- budgets ----
  budget(id: string): BudgetRow | undefined {
    return this.q.budget.get(id) ?? undefined;
  }

  budgets(appId: string): BudgetRow[] {
    return this.q.budgets.all(appId);
  }

  /** What this process settled is read back: the riding settles are written first. */
  spend(budgetId: string, period: string): Maybe<SpendRow> {
    return this.afterRiding(() => this.q.spend.get(budgetId, period) ?? { spent_micros: 0, reserved_micros: 0 });
  }

  async createBudget(b: Omit<BudgetRow, "updated_at">): Promise<void> {
    await retryWhileBusy(this, () => this.q.insertBudget.run(b.id, b.app_id, b.name, b.limit_micros, b.period, b.created_at));
  }

  async updateBudget(id: string, name: string | null, limitMicros: number | null, now: number): Promise<BudgetRow | undefined> {
    return retryWhileBusy(this, () => this.q.updateBudget.get(id, name, limitMicros, now) ?? undefined);
  }

  async deleteBudget(id: string): Promise<void> {
    await retryWhileBusy(this, () => {
      this.q.deleteBudget.run(id);
      this.q.deleteSpend.run(id);
    });
  }

  /**
   * The window's spend and reservations after this one, or undefined when it does not fit; with `run`, the
   * run's reservation in the same transaction (one commit for both: bench/budget-guard.ts, a run with a
   * cost limit, 8 µs of the call's 33 for its reservations).
   */
  async reserveBudget(r: Reservation, owner: string, now: number, run?: RunReservation): Promise<BudgetReserved | undefined> {
    return retryWhileBusy(this, () => this.inTx(() => this.reserve(r, owner, now, run)));
  }

  /** Releases the call's reservation and adds what it cost (0 for a failed call). */
  settleBudget(requestId: string, budgetId: string, period: string, costMicros: number): void | Promise<void> {
    // Now, not riding: a restart settles the orphans one after another.
    return this.settleNowOrLater(() => void this.tx([{ kind: "budget", requestId, budgetId, period, costMicros }], noop));
  }

  /** Settles several calls in one transaction, the next reservation's, else alone after RIDE_MS; resolves once written. */
  settleMany(settles: readonly Settle[]): Promise<void> {
    for (const x of settles) this.riding.push(x);
    this.rideTimer ??= setTimeout(() => void this.writeRiding(), RIDE_MS);
    return (this.rode ??= Promise.withResolvers<void>()).promise;
  }

  // ---- agent runs ----
  /** What this process settled is read back: the riding settles are written first. */
  run(appId: string, id: string): Maybe<RunRow | undefined> {
    return this.afterRiding(() => this.q.run.get(appId, id) ?? undefined);
  }

  /** Counts a call into the run (creating it) unless it is not active, would pass its call limit, or repeats too often; those trip it. */
  admitRun(appId: string, id: string, hash: string, limits: RunLimits, now: number): RunAdmission | Promise<RunAdmission> {
    return retryWhileBusy(this, (): RunAdmission => {
      // One autocommit statement instead of a transaction of three (bench/budget-guard.ts). The riding
      // settles wait for the call's reservation, whose pages they change too (the admission's is the run's
      // row alone): riding here wrote the budget's row and the reservations twice a call, about 5 µs more.
      // Unless one is this run's: the totals the admission reads (svc_meta.agent_run) include every call
      // of the run this process answered, as an agent calling again at once expects.
      const fast = () => this.q.admitFast.get(appId, id, hash, now, limits.maxCalls, limits.maxRepeats);
      const run = this.riding.some((x) => x.kind === "run" && x.id === id && x.appId === appId) ? this.inTx(fast) : fast();
      return run ? { ok: true, run } : this.inTx(() => this.admitSlow(appId, id, hash, limits, now));
    });
  }

  /** A refused or failed call is not counted: its call and its repeat are given back. */
  unadmitRun(appId: string, id: string, hash: string): void | Promise<void> {
    return this.settleNowOrLater(() => void this.q.unadmitRun.run(appId, id, hash));
  }

  reserveRun(r: Reservation, appId: string, id: string, defaultMaxMicros: number, owner: string, now: number): RunAdmission | Promise<RunAdmission> {
    return retryWhileBusy(this, () => this.inTx(() => this.reserveRunBody(r, appId, id, defaultMaxMicros, owner, now)));
  }

  /** Releases the call's reservation and adds its cost and tokens; the run's totals after. */
  settleRun(
    requestId: string,
    appId: string,
    id: string,
    costMicros: number,
    promptTokens: number,
    completionTokens: number,
    now: number,
  ): RunRow | undefined | Promise<RunRow | undefined> {
    return this.settleNowOrLater(() =>
      this.settleTx(requestId, "run", (held) => this.q.settleRun.get(appId, id, held, costMicros, promptTokens, completionTokens, now) ?? undefined),
    );
  }

  async putRun(appId: string, id: string, maxCostMicros: number | null, maxCalls: number | null, maxRepeats: number | null, now: number): Promise<RunRow> {
    return retryWhileBusy(this, () => this.q.putRun.get(appId, id, maxCostMicros, maxCalls, maxRepeats, now)!);
  }

  async resetRun(appId: string, id: string, now: number): Promise<RunRow | undefined> {
    return retryWhileBusy(this, () => this.q.resetRun.get(appId, id, now) ?? undefined);
  }

  async closeRun(appId: string, id: string, now: number): Promise<RunRow | undefined> {
    return retryWhileBusy(this, () => this.q.closeRun.get(appId, id, now) ?? undefined);
  }

  async writeRuns(rows: readonly RunRow[]): Promise<void> {
    await retryWhileBusy(this, () => this.writeRunsTx(rows));
  }

  // ---- restarts ----
  /**
   * Settles the reservations of processes that died mid-call: charged what the ledger recorded for
   * the call when its row made it to the store, else conservatively the whole reservation (the
   * provider may have answered and been paid). Returns how many were settled.
   */
  async settleOrphans(dead: (owner: string) => boolean, now: number): Promise<number> {
    const orphans = this.q.reservations.all().filter((r) => dead(r.owner));
    return settleEach(this, orphans, (requestId) => this.q.ledgerCost.get(requestId) ?? undefined, now);
  }

  /** Writes the riding settles, and retries the settles the store refused earlier. */
  flush(): void {
    void this.writeRiding();
    const owed = this.owed;
    this.owed = [];
    for (const op of owed) void this.settleNowOrLater(op);
  }

  async close(): Promise<void> {
    await this.writeRiding();
    this.sqlite.close();
  }

  /** A settle happens now when the store is free, else on timers, else at a later flush: it cannot fail a call that was answered. */
  private settleNowOrLater<T>(op: () => T): T | undefined | Promise<T | undefined> {
    const owe = () => {
      this.owed.push(op);
      return undefined;
    };
    try {
      const r = retryWhileBusy(this, op);
      return r instanceof Promise ? r.catch(owe) : r;
    } catch {
      return owe();
    }
  }
}
