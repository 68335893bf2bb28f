import { randomBytes } from "node:crypto";
import { ApiError } from "../core/errors";
import { StoreUnavailableError } from "../store/busy";
import type { BudgetPeriod, BudgetRow, RunAdmission, RunReservation, SpendStore } from "../store/spend-store";
import { SettleQueue } from "./settle-queue";

export const BUDGET_PERIODS: readonly BudgetPeriod[] = ["daily", "monthly", "total"];

/** USD → integer micro-dollars; costs are rounded up so a budget is never charged less than was spent. */
export const toMicros = (usd: number) => Math.ceil(Math.round(usd * 1e10) / 1e4);
export const toUsd = (micros: number) => micros / 1e6;

/** The contract's budget record. */
export interface BudgetView {
  id: string;
  name: string;
  app_id: string;
  limit_usd: number;
  period: BudgetPeriod;
  spent_usd: number;
  reserved_usd: number;
  remaining_usd: number;
  resets_at: string | null;
  created_at: string;
}

/** A reservation a call holds on a budget until it settles. */
export interface BudgetHold {
  budgetId: string;
  window: string;
  requestId: string;
  micros: number;
}

export interface ReserveOptions {
  /** The call named the budget (svc_options.budget_id), rather than its key's default (which names the error's field). */
  named: boolean;
  /** Given what the budget has left, a smaller worst case to reserve instead (micro-dollars), if the call can have one. */
  refit?: (leftMicros: number) => number | undefined;
  /** The call's agent run holds the same worst case on its cost limit (AgentRuns.jointly): reserved with the budget's. */
  run?: JointRun;
}

/** A run's reservation made in the budget's transaction, and what the run does with the answer (throws when it refused). */
export interface JointRun {
  reservation: RunReservation;
  answered(a: RunAdmission): void;
}

/** The window a period's spend is counted in at `now` ('' for total), and when it ends (UTC). */
export function windowOf(period: BudgetPeriod, now: number): { window: string; resetsAt: number | null } {
  const d = new Date(now);
  const iso = d.toISOString();
  if (period === "daily") return { window: `d:${iso.slice(0, 10)}`, resetsAt: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) };
  if (period === "monthly") return { window: `m:${iso.slice(0, 7)}`, resetsAt: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
  return { window: "", resetsAt: null };
}

export function storeUnavailable(e: unknown, what: string): unknown {
  return e instanceof StoreUnavailableError
    ? new ApiError("STORE_UNAVAILABLE", `${what} cannot be checked now (${e.message}); retry shortly`, { retryAfterS: 2 })
    : e;
}

/**
 * Budgets of an app: limits in micro-dollars per period window, spend and in-flight reservations kept
 * by atomic statements of the store (SpendStore), so concurrent calls and several processes can never
 * take more than the limit between them.
 */
export class Budgets {
  private readonly identities = new Map<string, Pick<BudgetRow, "app_id" | "period">>();

  constructor(
    private readonly store: SpendStore,
    /** Who holds a reservation: a restart settles the reservations of owners that are gone. */
    private readonly owner: string,
    private readonly now: () => number = Date.now,
    /** Shared with the agent runs: one commit after each turn for both. */
    private readonly settles = new SettleQueue(store),
  ) {}

  async create(appId: string, name: string, limitMicros: number, period: BudgetPeriod): Promise<BudgetView> {
    const row: BudgetRow = {
      id: `bud_${randomBytes(12).toString("base64url")}`,
      app_id: appId,
      name,
      limit_micros: limitMicros,
      period,
      created_at: this.now(),
      updated_at: this.now(),
    };
    await this.store.createBudget(row);
    return this.view(row);
  }

  async list(appId: string): Promise<BudgetView[]> {
    return Promise.all((await this.store.budgets(appId)).map((b) => this.view(b)));
  }

  async exists(appId: string, id: string): Promise<boolean> {
    return (await this.store.budget(id))?.app_id === appId;
  }

  async get(appId: string, id: string): Promise<BudgetView> {
    return this.view(await this.owned(appId, id));
  }

  async update(appId: string, id: string, patch: { name?: string; limitMicros?: number }): Promise<BudgetView> {
    await this.owned(appId, id);
    const row = await this.store.updateBudget(id, patch.name ?? null, patch.limitMicros ?? null, this.now());
    if (!row) throw notFound(id);
    return this.view(row);
  }

  async remove(appId: string, id: string): Promise<BudgetView> {
    const view = await this.get(appId, id);
    await this.store.deleteBudget(id);
    this.identities.delete(id);
    return view;
  }

  /**
   * Reserves `micros` for a call, or refuses it (402) before any provider call. When it does not fit,
   * `refit` is asked once, with what the budget has left, for a smaller worst case (the call served by
   * cheaper models) to reserve instead. A budget that is not the app's is 404 NOT_FOUND.
   */
  async reserve(appId: string, id: string, requestId: string, micros: number, opts: ReserveOptions = { named: true }): Promise<BudgetHold> {
    const b = this.identities.get(id) ?? (await this.identity(id));
    if (!b || b.app_id !== appId) throw missing(id, opts.named);
    const { window, resetsAt } = windowOf(b.period, this.now());
    const take = (m: number, run?: RunReservation) =>
      this.store.reserveBudget({ requestId, kind: "budget", target: id, period: window, micros: m }, this.owner, this.now(), run);
    const got = await take(micros, opts.run?.reservation);
    if (got) {
      // A run that refused released the budget's reservation with its own: the call is refused (AGENT_GUARD).
      if (got.run) opts.run!.answered(got.run);
      return { budgetId: id, window, requestId, micros };
    }
    const row = await this.store.budget(id);
    if (!row) {
      this.identities.delete(id);
      throw missing(id, opts.named);
    }
    const s = await this.store.spend(id, window);
    const left = Math.max(0, row.limit_micros - s.spent_micros - s.reserved_micros);
    const smaller = opts.refit?.(left);
    if (smaller !== undefined && smaller <= left && (await take(smaller))) return { budgetId: id, window, requestId, micros: smaller };
    throw new ApiError(
      "BUDGET_EXCEEDED",
      `budget '${row.name}' (${id}) has $${toUsd(left)} left of $${toUsd(row.limit_micros)} ${row.period === "total" ? "in total" : `this ${row.period === "daily" ? "day" : "month"}`}; this call may cost up to $${toUsd(smaller ?? micros)}` +
        (resetsAt === null ? "" : `; it resets at ${new Date(resetsAt).toISOString()}`),
      resetsAt === null ? {} : { retryAfterS: (resetsAt - this.now()) / 1000 },
    );
  }

  /**
   * A budget's app and period, which never change (PATCH changes the name and limit, which the
   * reservation reads in its own statement): kept after the first read, so a call's reservation is
   * one transaction and no query. A deleted budget refuses the reservation, which drops it from here.
   */
  private async identity(id: string): Promise<Pick<BudgetRow, "app_id" | "period"> | undefined> {
    const row = await this.store.budget(id);
    if (!row) return undefined;
    const b = { app_id: row.app_id, period: row.period };
    this.identities.set(id, b);
    return b;
  }

  /**
   * The call's outcome is known: its reservation is replaced by what it cost (0 for a failed call),
   * after the event loop's turn with the turn's other settles (SettleQueue). Resolves once written.
   */
  settle(hold: BudgetHold, costMicros: number): Promise<void> {
    return this.settles.add({ kind: "budget", requestId: hold.requestId, budgetId: hold.budgetId, period: hold.window, costMicros });
  }

  /** Writes the settles gathered so far, the agent runs' with them (at a flush or shutdown). */
  flush(): void | Promise<void> {
    return this.settles.flush();
  }

  private async owned(appId: string, id: string): Promise<BudgetRow> {
    const b = await this.store.budget(id);
    if (!b || b.app_id !== appId) throw notFound(id);
    return b;
  }

  private async view(b: BudgetRow): Promise<BudgetView> {
    const { window, resetsAt } = windowOf(b.period, this.now());
    const s = await this.store.spend(b.id, window);
    return {
      id: b.id,
      name: b.name,
      app_id: b.app_id,
      limit_usd: toUsd(b.limit_micros),
      period: b.period,
      spent_usd: toUsd(s.spent_micros),
      reserved_usd: toUsd(s.reserved_micros),
      remaining_usd: toUsd(Math.max(0, b.limit_micros - s.spent_micros - s.reserved_micros)),
      resets_at: resetsAt === null ? null : new Date(resetsAt).toISOString(),
      created_at: new Date(b.created_at).toISOString(),
    };
  }
}

function missing(id: string, named: boolean): ApiError {
  return named
    ? new ApiError("NOT_FOUND", `svc_options.budget_id: no budget '${id}'`, { param: "svc_options.budget_id" })
    : new ApiError("NOT_FOUND", `the key's default budget '${id}' no longer exists`, { param: "budget_id" });
}

function notFound(id: string): ApiError {
  return new ApiError("NOT_FOUND", `no budget '${id}'`);
}
