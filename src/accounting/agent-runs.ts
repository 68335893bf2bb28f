import { ApiError } from "../core/errors";
import type { ChatMessage } from "../core/messages";
import { NO_RUN_LIMITS, type KeyRunLimits } from "../auth/key-record";
import { RUN_SEP, type RunAdmission, type RunLimits, type RunReservation, type RunRow, type SpendStore } from "../store/spend-store";
import { toUsd, type JointRun } from "./budgets";
import { SettleQueue } from "./settle-queue";

/** The contract's agent-run record. */
export interface RunView {
  id: string;
  status: RunRow["status"];
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  limits: { max_cost_usd: number | null; max_calls: number | null; max_repeats: number };
  trip_reason: string | null;
}

/** svc_meta.agent_run and the totals in an AGENT_GUARD error. */
export interface RunTotals {
  id: string;
  calls: number;
  cost_usd: number;
  status: RunRow["status"];
  /** The call went out with the wrap-up instruction (WRAP_UP): the run is near a limit. */
  wrap_up?: true;
}

/**
 * Added, as a last system message, to the calls of a run near its call or cost limit when the operator
 * asks for it (SVC_AGENT_RUN_WRAP_UP_AT): an agent told it is about to be stopped can finish with an
 * answer rather than be cut off by the guard mid-task.
 */
export const WRAP_UP =
  "This agent run is close to the call or cost limit its operator set, after which further calls are refused. Wrap up: give your final answer now, with the best result you have.";

/** What a call holds on a run between admission and its settle. */
export interface RunHold {
  appId: string;
  id: string;
  hash: string;
  requestId: string;
  /** The run's totals when the call was admitted: svc_meta's fallback while the store is busy at the settle. */
  admitted: RunTotals;
  /** The limits the run is held to where it sets none (the key's, else the operator's). */
  limits: RunLimits;
  /** The run had a cost limit when the call was admitted: only then is the call's worst case reserved. */
  limited: boolean;
  /** The run is near a limit and the operator asked for the wrap-up instruction: the call carries WRAP_UP. */
  wrapUp: boolean;
  /** Set once the call's worst-case cost is reserved. */
  micros?: number;
}

/** A limit the operator leaves unset: large enough never to bind, small enough for integer SQL arithmetic. */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

/**
 * The step a request repeats in an agent loop: from the last assistant message on (its tool calls
 * and the tool results that answer them), or the whole request when no assistant message is in it
 * yet. A loop resends a growing history, so hashing the whole request would never see a repeat;
 * hashing the last step sees the same tool call with the same result coming round again.
 */
export function stepHash(messages: readonly ChatMessage[]): string {
  let from = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "assistant") {
      from = i;
      break;
    }
  }
  let canonical = "";
  for (let i = from; i < messages.length; i++) {
    const m = messages[i]!;
    // Canonical: role, content, tool calls (id dropped: clients mint a fresh one per step) and the
    // answered tool's name, each length-prefixed so no two different steps hash alike.
    const calls = m.tool_calls?.map((c) => `${c.function.name}(${c.function.arguments})`).join("|") ?? "";
    for (const part of [m.role, m.content, calls, m.name ?? ""]) canonical += `${part.length}:${part};`;
  }
  // The same SHA-256 as node:crypto's createHash fed part by part (the hashes runs hold stay valid), in
  // one native call: 0.3 µs a step against 3.5-5 (bun, this machine loaded), on every call of a run.
  return Bun.SHA256.hash(canonical, "base64url");
}

export function totalsOf(r: RunRow): RunTotals {
  return { id: r.id, calls: r.calls, cost_usd: toUsd(r.cost_micros), status: r.status };
}

export class GuardError extends ApiError {
  constructor(
    reason: string,
    readonly totals: RunTotals,
  ) {
    super("AGENT_GUARD", `agent run '${totals.id}' stopped: ${reason}; POST /api/agent-runs/{id}/reset to continue it`, {
      fields: { agent_run: totals, reason },
    });
  }
}

/**
 * Agent runs: calls, tokens and cost accumulate per run in the store, and a guard refuses calls past
 * the run's cost or call limit or when the same step repeats (429 AGENT_GUARD with the totals).
 */
export class AgentRuns {
  /** The operator's defaults, 0 (no limit) read as UNLIMITED. */
  private readonly defaults: RunLimits;

  constructor(
    private readonly store: SpendStore,
    defaults: RunLimits,
    private readonly owner: string,
    /** SVC_AGENT_RUN_WRAP_UP_AT: the share of a limit from which calls carry WRAP_UP (0: never). */
    private readonly wrapUpAt = 0,
    private readonly now: () => number = Date.now,
    /** Shared with the budgets: one commit after each turn for both. */
    private readonly settles = new SettleQueue(store),
  ) {
    this.defaults = { maxCostMicros: defaults.maxCostMicros || UNLIMITED, maxCalls: defaults.maxCalls || UNLIMITED, maxRepeats: defaults.maxRepeats };
  }

  /** At admission: counts the call into its run, or refuses it when the run is stopped or this call trips it. */
  async admit(appId: string, id: string, requestId: string, messages: readonly ChatMessage[], key: KeyRunLimits = NO_RUN_LIMITS): Promise<RunHold> {
    const hash = stepHash(messages);
    const limits = this.limitsFor(key);
    const a = await this.store.admitRun(appId, id, hash, limits, this.now());
    refuseUnless(a);
    const maxCost = a.run.max_cost_micros ?? limits.maxCostMicros;
    return { appId, id, hash, requestId, admitted: totalsOf(a.run), limits, limited: maxCost !== UNLIMITED, wrapUp: this.nearLimit(a.run, limits, maxCost) };
  }

  /** The limits a run is held to where it sets none: the calling key's, else the operator's. */
  private limitsFor(key: KeyRunLimits): RunLimits {
    if (key === NO_RUN_LIMITS) return this.defaults;
    return {
      maxCostMicros: key.maxCostMicros ?? this.defaults.maxCostMicros,
      maxCalls: key.maxCalls ?? this.defaults.maxCalls,
      maxRepeats: key.maxRepeats ?? this.defaults.maxRepeats,
    };
  }

  /** The run (this call counted) has used `wrapUpAt` of its call limit, or of its cost limit with the calls in flight. */
  private nearLimit(r: RunRow, limits: RunLimits, maxCost: number): boolean {
    if (this.wrapUpAt === 0) return false;
    const maxCalls = r.max_calls ?? limits.maxCalls;
    return (
      (maxCalls !== UNLIMITED && r.calls >= this.wrapUpAt * maxCalls) || (maxCost !== UNLIMITED && r.cost_micros + r.reserved_micros >= this.wrapUpAt * maxCost)
    );
  }

  /**
   * Once the call's worst case is known: reserves it against the run's cost limit. A run without one
   * (the default) holds nothing: the reservation and its settle were a transaction each, 40 of a run
   * call's 90 µs in bench/budget-guard.ts, for a limit that cannot bind. A limit set between this call's
   * admission and here binds from the next call.
   */
  async reserve(hold: RunHold, micros: number): Promise<void> {
    if (!hold.limited || hold.micros !== undefined) return;
    const { r, appId, id, defaultMaxMicros } = reservationOf(hold, micros);
    refuseUnless(await this.store.reserveRun(r, appId, id, defaultMaxMicros, this.owner, this.now()));
    hold.micros = micros;
  }

  /**
   * The same reservation for the call's budget to make in its own transaction (Budgets.reserve), when
   * the run has a cost limit: one commit for both. Undefined when the run holds nothing.
   */
  jointly(hold: RunHold, micros: number): JointRun | undefined {
    if (!hold.limited || hold.micros !== undefined) return undefined;
    return {
      reservation: reservationOf(hold, micros),
      answered: (a) => {
        refuseUnless(a);
        hold.micros = micros;
      },
    };
  }

  /**
   * An answer went out: its cost and tokens join the run after the event loop's turn, with the turn's
   * other settles (SettleQueue), so the answer waits for no commit. Returns the run's totals as this
   * call leaves them: the run at its admission (this call counted) plus this call's cost. Calls of the
   * run settling meanwhile are in the store's totals, not in this figure; the limits never read it.
   */
  settle(hold: RunHold, costMicros: number, promptTokens: number, completionTokens: number): RunTotals {
    const { appId, id, requestId } = hold;
    void this.settles.add({
      kind: "run",
      requestId,
      appId,
      id,
      reserved: hold.micros !== undefined,
      costMicros,
      promptTokens,
      completionTokens,
      now: this.now(),
    });
    const totals = { ...hold.admitted, cost_usd: toUsd(Math.round(hold.admitted.cost_usd * 1e6) + costMicros) };
    return hold.wrapUp ? { ...totals, wrap_up: true } : totals;
  }

  /** No answer went out: the call is not counted, and its reservation is released. */
  release(hold: RunHold): void {
    void this.store.unadmitRun(hold.appId, hold.id, hold.hash);
    if (hold.micros !== undefined) void this.store.settleRun(hold.requestId, hold.appId, hold.id, 0, 0, 0, this.now());
  }

  /** The run, its limits as a call with `key` would be held to them. */
  async get(appId: string, id: string, key: KeyRunLimits = NO_RUN_LIMITS): Promise<RunView> {
    return this.view(await this.existing(appId, id), this.limitsFor(key));
  }

  async put(appId: string, id: string, limits: { maxCostMicros?: number; maxCalls?: number; maxRepeats?: number }): Promise<RunView> {
    return this.view(await this.store.putRun(appId, id, limits.maxCostMicros ?? null, limits.maxCalls ?? null, limits.maxRepeats ?? null, this.now()));
  }

  async reset(appId: string, id: string): Promise<RunView> {
    return this.view((await this.store.resetRun(appId, id, this.now())) ?? (await this.existing(appId, id)));
  }

  async close(appId: string, id: string): Promise<RunView> {
    return this.view((await this.store.closeRun(appId, id, this.now())) ?? (await this.existing(appId, id)));
  }

  private async existing(appId: string, id: string): Promise<RunRow> {
    const r = await this.store.run(appId, id);
    if (!r) throw new ApiError("NOT_FOUND", `no agent run '${id}'`);
    return r;
  }

  private view(r: RunRow, defaults = this.defaults): RunView {
    const limited = (n: number) => (n === UNLIMITED ? null : n);
    const maxCost = r.max_cost_micros ?? limited(defaults.maxCostMicros);
    return {
      id: r.id,
      status: r.status,
      calls: r.calls,
      prompt_tokens: r.prompt_tokens,
      completion_tokens: r.completion_tokens,
      cost_usd: toUsd(r.cost_micros),
      limits: {
        max_cost_usd: maxCost === null ? null : toUsd(maxCost),
        max_calls: r.max_calls ?? limited(defaults.maxCalls),
        max_repeats: r.max_repeats ?? defaults.maxRepeats,
      },
      trip_reason: r.trip_reason,
    };
  }
}

function reservationOf(hold: RunHold, micros: number): RunReservation {
  const r = { requestId: hold.requestId, kind: "run" as const, target: hold.appId + RUN_SEP + hold.id, period: "", micros };
  return { r, appId: hold.appId, id: hold.id, defaultMaxMicros: hold.limits.maxCostMicros };
}

function refuseUnless(a: RunAdmission): void {
  if (!a.ok) throw new GuardError(a.reason, totalsOf(a.run));
}
