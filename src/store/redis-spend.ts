import { randomBytes } from "node:crypto";
import { Script, type RedisLink } from "./redis";
import { RedisRuns, RELEASE, RUN_FIELD } from "./redis-runs";
import {
  RUN_SEP,
  type BudgetReserved,
  type BudgetRow,
  type Reservation,
  type RunLimits,
  type RunReservation,
  type RunRow,
  type Settle,
  type SpendRow,
  type SpendStore,
} from "./spend-store";

/** A window's spend lives this long in Redis after its last seed; past it, it is seeded again from the store (up to date by then). */
const SPEND_TTL_MS = 40 * 86_400_000;
/** A node that has not said it is alive for this long is gone: its reservations are settled by the others. */
const NODE_TTL_MS = 10_000;
/** How often a node looks for reservations of nodes that are gone. */
const SWEEP_MS = 5_000;
const NOT_SEEDED = -1;

/**
 * KEYS[1] the window's spend hash, KEYS[2] this node's reservations, KEYS[3] the set of nodes holding
 * reservations; ARGV micros, limit, request id, reservation record, node. {1, spent, reserved} after
 * reserving, {0, spent, reserved} when it does not fit, {-1} when Redis has no spend for the window.
 */
const RESERVE = new Script(`if redis.call('EXISTS', KEYS[1]) == 0 then return {${NOT_SEEDED}, 0, 0} end
local spent = tonumber(redis.call('HGET', KEYS[1], 'spent'))
local reserved = tonumber(redis.call('HGET', KEYS[1], 'reserved'))
local m = tonumber(ARGV[1])
if spent + reserved + m > tonumber(ARGV[2]) then return {0, spent, reserved} end
reserved = redis.call('HINCRBY', KEYS[1], 'reserved', m)
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
redis.call('SADD', KEYS[3], ARGV[5])
return {1, spent, reserved}`);

/**
 * KEYS[1] the reservations holding the call, KEYS[2] the window's spend hash; ARGV request id, cost,
 * orphan (1: charge what was held, only if it still was). Taking the reservation out first settles a
 * call once, whoever gets there. 1, or -1 when Redis has no spend for the window.
 */
const SETTLE = new Script(`if redis.call('EXISTS', KEYS[2]) == 0 then return ${NOT_SEEDED} end
${RELEASE}local held = release(KEYS[1], ARGV[1], KEYS[2], 'reserved')
local cost = tonumber(ARGV[2])
if ARGV[3] == '1' then cost = held end
if cost > 0 then redis.call('HINCRBY', KEYS[2], 'spent', cost) end
return cost`);

/** KEYS[1] the window's spend hash; ARGV spent, reserved, ttl. Seeds once: a window Redis has is never lowered by the store's older figure. */
const SEED = new Script(`if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'spent', ARGV[1], 'reserved', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`);

/**
 * Budget reservations in Redis, and agent runs' counters and reservations (RedisRuns), over the store's
 * SpendStore (SQLite or PostgreSQL), which keeps the budgets themselves, every budget's spend and every
 * run's row as the source a value Redis lacks is seeded from. A reservation and
 * its settle are each one Lua script: spent + reserved + this ≤ the limit is checked and held
 * atomically, so N nodes refuse exactly where one would, without a store commit on the call's path
 * (two per budgeted call on the store alone). The limit is read from the store at every reservation,
 * so a PATCH is honoured by the next call.
 *
 * Durability: each node adds what its calls cost to the store once a flush (one additive statement per
 * budget window), and a window Redis lacks is seeded from the store; so a Redis that loses its data
 * misses at most one flush of spend. A node that dies mid-call leaves its reservations in Redis under
 * its name; once its heartbeat lapses (10 s) another node settles them in full (the provider may have
 * answered). Redis unreachable: reservations fail with StoreUnavailableError, a 503 for the budgeted
 * call; settles that cannot reach Redis are kept and retried at each flush.
 */
export class RedisSpendStore implements SpendStore {
  /** What this node's settles added to each window since the last write-back, "budgetId|window" → micros. */
  private readonly unwritten = new Map<string, number>();
  /** Settles Redis could not take: retried at each flush, never dropped. */
  private owed: { requestId: string; budgetId: string; period: string; costMicros: number }[] = [];
  /** Run changes (settles, given-back calls) Redis could not take: retried at each flush, never dropped. */
  private owedRuns: (() => Promise<unknown>)[] = [];
  private lastSweep = 0;
  /** Set once this node's heartbeat is in Redis: never reserve before it (another node would take the reservation for a dead node's). */
  private announced = false;
  /** Agent runs' counters and reservations, in Redis too. */
  private readonly runs: RedisRuns;

  constructor(
    private readonly redis: RedisLink,
    private readonly durable: SpendStore,
    /** This node's name: its reservations and heartbeat. */
    readonly node: string,
  ) {
    this.runs = new RedisRuns(redis, durable, { reservations: this.reservationsKey(node), nodes: redis.key("spend-nodes"), node });
  }

  get problem(): string | undefined {
    return this.durable.problem;
  }

  // ---- budgets: their rows in the store, their spend in Redis ----
  budget(id: string) {
    return this.durable.budget(id);
  }

  budgets(appId: string) {
    return this.durable.budgets(appId);
  }

  /** The window's spend and reservations: Redis's when it has them (the store's lag by a flush). */
  async spend(budgetId: string, period: string): Promise<SpendRow> {
    const got = (await this.redis.send("HMGET", [this.spendKey(budgetId, period), "spent", "reserved"])) as (string | null)[];
    if (got[0] === null) return this.durable.spend(budgetId, period);
    return { spent_micros: Number(got[0]), reserved_micros: Number(got[1] ?? 0) };
  }

  createBudget(b: Omit<BudgetRow, "updated_at">) {
    return this.durable.createBudget(b);
  }

  updateBudget(id: string, name: string | null, limitMicros: number | null, now: number) {
    return this.durable.updateBudget(id, name, limitMicros, now);
  }

  async deleteBudget(id: string): Promise<void> {
    await this.durable.deleteBudget(id);
    const d = new Date().toISOString();
    await this.redis.send(
      "DEL",
      ["", `d:${d.slice(0, 10)}`, `m:${d.slice(0, 7)}`].map((w) => this.spendKey(id, w)),
    );
  }

  /** With `run`, the run's reservation after the budget's: each atomic in Redis, not both in one step; a run that refuses releases the budget's. */
  async reserveBudget(r: Reservation, owner: string, now: number, run?: RunReservation): Promise<BudgetReserved | undefined> {
    const spend = await this.reserveSpend(r, now);
    if (!spend || !run) return spend && { spend };
    const a = await this.reserveRun(run.r, run.appId, run.id, run.defaultMaxMicros, owner, now);
    if (!a.ok) await this.settleBudget(r.requestId, r.target, r.period, 0);
    return { spend, run: a };
  }

  private async reserveSpend(r: Reservation, now: number): Promise<SpendRow | undefined> {
    const budget = await this.durable.budget(r.target);
    if (!budget || r.micros > budget.limit_micros) return undefined;
    if (!this.announced) await this.alive();
    const keys = [this.spendKey(r.target, r.period), this.reservationsKey(this.node), this.redis.key("spend-nodes")];
    const args = [r.micros, budget.limit_micros, r.requestId, `${r.micros}|${r.target}|${r.period}|${now}`, this.node];
    let got = (await this.redis.run(RESERVE, keys, args)) as [number, number, number];
    if (got[0] === NOT_SEEDED) {
      await this.seed(r.target, r.period);
      got = (await this.redis.run(RESERVE, keys, args)) as [number, number, number];
    }
    return got[0] === 1 ? { spent_micros: got[1], reserved_micros: got[2] } : undefined;
  }

  /** Never fails an answered call: what Redis cannot take now is retried at the next flush. */
  async settleBudget(requestId: string, budgetId: string, period: string, costMicros: number): Promise<void> {
    try {
      await this.settle(this.reservationsKey(this.node), requestId, budgetId, period, costMicros, false);
    } catch {
      this.owed.push({ requestId, budgetId, period, costMicros });
    }
  }

  /** The turn's settles (SettleQueue gathers them): each its own script call here, sent together. */
  async settleMany(settles: readonly Settle[]): Promise<void> {
    await Promise.all(settles.map((x) => (x.kind === "budget" ? this.settleBudget(x.requestId, x.budgetId, x.period, x.costMicros) : this.settleRunOrOwe(x))));
  }

  // ---- agent runs: in Redis (RedisRuns) ----
  run(appId: string, id: string) {
    return this.runs.run(appId, id);
  }

  admitRun(appId: string, id: string, hash: string, limits: RunLimits, now: number) {
    return this.runs.admit(appId, id, hash, limits, now);
  }

  /** Never fails a call: what Redis cannot take now is retried at the next flush. */
  async unadmitRun(appId: string, id: string, hash: string): Promise<void> {
    const op = () => this.runs.unadmit(appId, id, hash, Date.now());
    await op().catch(() => this.owedRuns.push(op));
  }

  async reserveRun(r: Reservation, appId: string, id: string, defaultMaxMicros: number, _owner: string, now: number) {
    if (!this.announced) await this.alive();
    return this.runs.reserve(r, appId, id, defaultMaxMicros, now);
  }

  async settleRun(requestId: string, appId: string, id: string, costMicros: number, promptTokens: number, completionTokens: number, now: number) {
    return this.settleRunOrOwe({ kind: "run", requestId, appId, id, costMicros, promptTokens, completionTokens, now, reserved: true });
  }

  async putRun(appId: string, id: string, maxCostMicros: number | null, maxCalls: number | null, maxRepeats: number | null, now: number) {
    const limits = { max_cost_micros: maxCostMicros, max_calls: maxCalls, max_repeats: maxRepeats };
    // null keeps the run's own limit, as the store's putRun does.
    return this.runs.apply(appId, id, Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== null)), now);
  }

  async resetRun(appId: string, id: string, now: number) {
    if (!(await this.runs.run(appId, id))) return undefined;
    const cleared = {
      calls: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      cost_micros: 0,
      last_request_hash: null,
      repeat_count: 0,
      status: "active",
      trip_reason: null,
    };
    return this.runs.apply(appId, id, cleared, now);
  }

  async closeRun(appId: string, id: string, now: number) {
    if (!(await this.runs.run(appId, id))) return undefined;
    return this.runs.apply(appId, id, { status: "closed" }, now);
  }

  writeRuns(rows: readonly RunRow[]) {
    return this.durable.writeRuns(rows);
  }

  private async settleRunOrOwe(x: Settle & { kind: "run" }): Promise<RunRow | undefined> {
    const op = () => this.runs.settle(x);
    return op().catch(() => {
      this.owedRuns.push(op);
      return undefined;
    });
  }

  // ---- restarts and write-back ----
  /** The store's own reservations (runs, and budgets of a time before Redis), then Redis's of nodes that are gone. */
  async settleOrphans(dead: (owner: string) => boolean, now: number): Promise<number> {
    const inStore = await this.durable.settleOrphans(dead, now);
    return inStore + (await this.sweep(now));
  }

  /**
   * At each flush: says this node is alive, retries the settles Redis refused, adds what this node's
   * calls cost to the store, and every few seconds settles the reservations of nodes that are gone.
   */
  flush(): void {
    void this.flushAsync().catch(() => undefined);
  }

  async flushAsync(now = Date.now()): Promise<void> {
    this.durable.flush();
    try {
      await this.alive();
      const owed = this.owed;
      this.owed = [];
      for (const o of owed) await this.settleBudget(o.requestId, o.budgetId, o.period, o.costMicros);
      const owedRuns = this.owedRuns;
      this.owedRuns = [];
      for (const op of owedRuns) await op().catch(() => this.owedRuns.push(op));
    } finally {
      this.writeBack();
      await this.runs.writeBack();
    }
    if (now - this.lastSweep >= SWEEP_MS) await this.sweep(now);
  }

  /** Says this node is alive: before its first reservation, then at every flush (a node silent for NODE_TTL_MS is gone). */
  async alive(): Promise<void> {
    await this.redis.send("SET", [this.redis.key("spend-node", this.node), "1", "PX", String(NODE_TTL_MS)]);
    this.announced = true;
  }

  async close(): Promise<void> {
    this.writeBack();
    await this.runs.writeBack().catch(() => undefined);
    await this.durable.close();
  }

  private writeBack(): void {
    for (const [slot, micros] of this.unwritten) {
      const [budgetId, period] = slot.split("|") as [string, string];
      // A request id no reservation has: the store adds the cost to the window (and keeps it for its own retry when it is busy).
      void this.durable.settleBudget(`svc_wb_${randomBytes(8).toString("hex")}`, budgetId, period, micros);
    }
    this.unwritten.clear();
  }

  /** Settles, in full, the reservations of nodes whose heartbeat lapsed. */
  private async sweep(now: number): Promise<number> {
    this.lastSweep = now;
    let settled = 0;
    const nodes = (await this.redis.send("SMEMBERS", [this.redis.key("spend-nodes")])) as string[];
    for (const node of nodes) {
      if (node === this.node || (await this.redis.send("EXISTS", [this.redis.key("spend-node", node)])) === 1) continue;
      const held = (await this.redis.send("HGETALL", [this.reservationsKey(node)])) as Record<string, string> | string[];
      const entries: [string, string][] = Array.isArray(held)
        ? Array.from({ length: held.length / 2 }, (_, i) => [held[2 * i]!, held[2 * i + 1]!])
        : Object.entries(held);
      for (const [field, record] of entries) {
        const [, target, period] = record.split("|") as [string, string, string];
        if (field.startsWith(RUN_FIELD)) {
          const [appId, id] = target.split(RUN_SEP) as [string, string];
          const x = { requestId: field.slice(RUN_FIELD.length), appId, id, costMicros: 0, promptTokens: 0, completionTokens: 0, now, reserved: true };
          await this.runs.settle(x, this.reservationsKey(node), true);
        } else await this.settle(this.reservationsKey(node), field, target, period, 0, true);
        settled++;
      }
      await this.redis.send("SREM", [this.redis.key("spend-nodes"), node]);
    }
    return settled;
  }

  private async settle(reservations: string, requestId: string, budgetId: string, period: string, costMicros: number, orphan: boolean): Promise<void> {
    const keys = [reservations, this.spendKey(budgetId, period)];
    const args = [requestId, costMicros, orphan ? 1 : 0];
    let charged = (await this.redis.run(SETTLE, keys, args)) as number;
    if (charged === NOT_SEEDED) {
      await this.seed(budgetId, period);
      charged = (await this.redis.run(SETTLE, keys, args)) as number;
    }
    if (charged > 0) {
      const slot = `${budgetId}|${period}`;
      this.unwritten.set(slot, (this.unwritten.get(slot) ?? 0) + charged);
    }
  }

  private async seed(budgetId: string, period: string): Promise<void> {
    const s = await this.durable.spend(budgetId, period);
    await this.redis.run(SEED, [this.spendKey(budgetId, period)], [s.spent_micros, s.reserved_micros, SPEND_TTL_MS]);
  }

  private spendKey(budgetId: string, period: string): string {
    return this.redis.key("spend", budgetId, period);
  }

  private reservationsKey(node: string): string {
    return this.redis.key("reservations", node);
  }
}
