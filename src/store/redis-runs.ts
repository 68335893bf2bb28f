import { Script, type RedisLink } from "./redis";
import {
  admission,
  costLimitReason,
  RUN_SEP,
  stoppedReason,
  type Reservation,
  type RunAdmission,
  type RunLimits,
  type RunRow,
  type RunSettle,
  type SpendStore,
} from "./spend-store";

/** A run idle this long leaves Redis; its next call seeds it again from the store (written back by then). */
const RUN_TTL_MS = 40 * 86_400_000;
const NOT_SEEDED = -1;
/** A refusal trips the run only if nothing changed it since it was read; else the admission is tried again, at most this often. */
const TRIES = 5;

/** The run's fields in its Redis hash; a null is kept as "". */
const FIELDS = [
  "calls",
  "prompt_tokens",
  "completion_tokens",
  "cost_micros",
  "reserved_micros",
  "max_cost_micros",
  "max_calls",
  "max_repeats",
  "last_request_hash",
  "repeat_count",
  "status",
  "trip_reason",
  "created_at",
  "updated_at",
] as const;
const NULLABLE = new Set<string>(["max_cost_micros", "max_calls", "max_repeats", "last_request_hash", "trip_reason"]);
const TEXT = new Set<string>(["last_request_hash", "status", "trip_reason"]);

/**
 * Every change moves `updated_at` past its last value (the clock, or one more when the clock is not
 * ahead): the run's version. A refusal trips only the version it read, and the store takes a written-back
 * snapshot only when it is newer than its row, so write-backs from several nodes in any order keep the newest.
 */
const BUMP = `local function bump(now)
  local v = tonumber(redis.call('HGET', KEYS[1], 'updated_at'))
  now = tonumber(now)
  if now <= v then now = v + 1 end
  redis.call('HSET', KEYS[1], 'updated_at', now)
end
`;
/**
 * Lua: takes a call's reservation (field `f`) out of the reservations hash `h` and lowers the held
 * total (`field` of hash `total`, never below 0) by what it held; returns that (0 when it was gone).
 * Taking the reservation out first settles a call once, whoever gets there (the call, or a sweep).
 */
export const RELEASE = `local function release(h, f, total, field)
  local v = redis.call('HGET', h, f)
  if not v then return 0 end
  redis.call('HDEL', h, f)
  local held = tonumber(string.match(v, '^%d+'))
  if held > 0 and redis.call('HINCRBY', total, field, -held) < 0 then redis.call('HSET', total, field, 0) end
  return held
end
`;
const script = (body: string) => new Script(`if redis.call('EXISTS', KEYS[1]) == 0 then return {${NOT_SEEDED}} end\n${BUMP}${body}`);
const ROW = "unpack(redis.call('HGETALL', KEYS[1]))";

/** ARGV hash, now, default max calls, default max repeats. {1, row} counted, {0, row} refused (the caller trips the run). */
const ADMIT = script(`local r = redis.call('HMGET', KEYS[1], 'status', 'calls', 'last_request_hash', 'repeat_count', 'max_calls', 'max_repeats')
local repeats = 1
if r[3] == ARGV[1] then repeats = tonumber(r[4]) + 1 end
local calls = tonumber(r[2]) + 1
if r[1] ~= 'active' or calls > (tonumber(r[5]) or tonumber(ARGV[3])) or repeats > (tonumber(r[6]) or tonumber(ARGV[4])) then return {0, ${ROW}} end
redis.call('HSET', KEYS[1], 'calls', calls, 'repeat_count', repeats, 'last_request_hash', ARGV[1])
bump(ARGV[2])
return {1, ${ROW}}`);

/** ARGV hash, now: a call that produced nothing gives back its call and its repeat. */
const UNADMIT = script(`local r = redis.call('HMGET', KEYS[1], 'calls', 'last_request_hash', 'repeat_count')
local calls = tonumber(r[1])
if calls > 0 then redis.call('HSET', KEYS[1], 'calls', calls - 1) end
if r[2] == ARGV[1] and tonumber(r[3]) > 0 then redis.call('HSET', KEYS[1], 'repeat_count', tonumber(r[3]) - 1) end
bump(ARGV[2])
return {1, ${ROW}}`);

/** ARGV reason, now, the version the refusal read. {1, row} tripped, {0, row} changed meanwhile (or not active). */
const TRIP = script(`local r = redis.call('HMGET', KEYS[1], 'status', 'updated_at')
if r[1] ~= 'active' or r[2] ~= ARGV[3] then return {0, ${ROW}} end
redis.call('HSET', KEYS[1], 'status', 'tripped', 'trip_reason', ARGV[1])
bump(ARGV[2])
return {1, ${ROW}}`);

/**
 * KEYS[2] this node's reservations, KEYS[3] the nodes holding reservations; ARGV micros, default max
 * cost, reservation field, record, node, now. {1, row} held, {0, row} past the cost limit.
 */
const RESERVE = script(`local r = redis.call('HMGET', KEYS[1], 'status', 'cost_micros', 'reserved_micros', 'max_cost_micros')
local m = tonumber(ARGV[1])
if r[1] ~= 'active' or tonumber(r[2]) + tonumber(r[3]) + m > (tonumber(r[4]) or tonumber(ARGV[2])) then return {0, ${ROW}} end
redis.call('HINCRBY', KEYS[1], 'reserved_micros', m)
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
redis.call('SADD', KEYS[3], ARGV[5])
bump(ARGV[6])
return {1, ${ROW}}`);

/**
 * KEYS[2] the reservations that may hold the call; ARGV field, cost, prompt tokens, completion tokens,
 * now, orphan (1: charge what was held). Taking the reservation out first settles it once, whoever gets there.
 */
const SETTLE = script(`${RELEASE}local held = release(KEYS[2], ARGV[1], KEYS[1], 'reserved_micros')
local cost = tonumber(ARGV[2])
if ARGV[6] == '1' then cost = held end
redis.call('HINCRBY', KEYS[1], 'cost_micros', cost)
redis.call('HINCRBY', KEYS[1], 'prompt_tokens', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'completion_tokens', ARGV[4])
bump(ARGV[5])
return {1, ${ROW}}`);

/** ARGV now, then field/value pairs: an operator's change (limits, reset, close). */
const APPLY = script(`if #ARGV > 1 then redis.call('HSET', KEYS[1], unpack(ARGV, 2)) end
bump(ARGV[1])
return {1, ${ROW}}`);

/** ARGV ttl, then the row's field/value pairs. Seeds once: a run Redis has is never replaced by the store's older row. */
const SEED = new Script(`if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`);

/** A run reservation's field in a node's reservations hash is this and the request id: a call may hold a budget's and a run's. */
export const RUN_FIELD = "run:";

/**
 * Agent runs in Redis, shared by every node, over the store (SQLite or PostgreSQL), which keeps each
 * run's row as the source a run Redis lacks is seeded from. Every change is one Lua script on the
 * run's hash (admission: status, call limit and repeats checked and counted at once; a cost
 * reservation: cost + held + this within the limit, and its record in this node's reservations), so
 * N nodes refuse exactly where one would, with no store commit on a call's path.
 *
 * Durability as the budgets' in Redis: each node writes back the runs it changed at every flush, as
 * snapshots the store takes only when newer than its row (`updated_at`, the run's version), so write-backs
 * in any order, and a seed repeated by several nodes, are idempotent. A Redis that restarts empty is
 * seeded again from the store: what changed since the last flush (`SVC_FLUSH_MS`) is lost with it.
 * Reservations live only in Redis (a snapshot's reserved_micros is 0, a seed starts from 0): a node
 * that dies mid-call leaves them under its name, settled in full by another once its heartbeat lapses.
 */
export class RedisRuns {
  /** Runs changed since the last write-back, "appId RUN_SEP id" → the latest row Redis answered. */
  private readonly dirty = new Map<string, RunRow>();

  constructor(
    private readonly redis: RedisLink,
    private readonly durable: SpendStore,
    /** This node's reservations hash and the set of nodes holding reservations. */
    private readonly holds: { reservations: string; nodes: string; node: string },
  ) {}

  async run(appId: string, id: string): Promise<RunRow | undefined> {
    const got = (await this.redis.send("HGETALL", [this.key(appId, id)])) as Record<string, string> | string[];
    const flat = Array.isArray(got) ? got : Object.entries(got).flat();
    return flat.length > 0 ? rowOf(appId, id, flat) : this.durable.run(appId, id);
  }

  async admit(appId: string, id: string, hash: string, limits: RunLimits, now: number): Promise<RunAdmission> {
    for (let i = 1; ; i++) {
      const [code, run] = await this.script(ADMIT, appId, id, now, [], [hash, now, limits.maxCalls, limits.maxRepeats]);
      if (code === 1) return { ok: true, run };
      const reason = run.status === "active" ? admission(run, hash, limits).reason! : stoppedReason(run);
      const tripped = run.status === "active" ? await this.trip(run, reason, now) : run;
      if (tripped || i === TRIES) return { ok: false, run: tripped ?? run, reason };
    }
  }

  async unadmit(appId: string, id: string, hash: string, now: number): Promise<void> {
    await this.script(UNADMIT, appId, id, now, [], [hash, now]);
  }

  async reserve(r: Reservation, appId: string, id: string, defaultMaxMicros: number, now: number): Promise<RunAdmission> {
    const record = `${r.micros}|${r.target}|${r.period}|${now}`;
    for (let i = 1; ; i++) {
      const args = [r.micros, defaultMaxMicros, RUN_FIELD + r.requestId, record, this.holds.node, now];
      const [code, run] = await this.script(RESERVE, appId, id, now, [this.holds.reservations, this.holds.nodes], args);
      if (code === 1) return { ok: true, run };
      const reason = run.status === "active" ? costLimitReason(run, r.micros, defaultMaxMicros) : stoppedReason(run);
      const tripped = run.status === "active" ? await this.trip(run, reason, now) : run;
      if (tripped || i === TRIES) return { ok: false, run: tripped ?? run, reason };
    }
  }

  /** A call's settle (its reservation, when it held one, taken from `reservations`: this node's, or a dead node's). */
  async settle(x: Omit<RunSettle, "kind">, reservations = this.holds.reservations, orphan = false): Promise<RunRow> {
    const args = [RUN_FIELD + x.requestId, x.costMicros, x.promptTokens, x.completionTokens, x.now, orphan ? 1 : 0];
    return (await this.script(SETTLE, x.appId, x.id, x.now, [reservations], args))[1];
  }

  /** An operator's change of the run: applied in Redis, then written through to the store before it is answered. */
  async apply(appId: string, id: string, fields: Partial<Record<(typeof FIELDS)[number], string | number | null>>, now: number): Promise<RunRow> {
    const pairs = Object.entries(fields).flatMap(([f, v]) => [f, v ?? ""]);
    const [, run] = await this.script(APPLY, appId, id, now, [], [now, ...pairs]);
    await this.writeBack();
    return run;
  }

  /** Writes the runs this node changed to the store (each a snapshot the store takes only if newer); kept for the next flush when it refuses. */
  async writeBack(): Promise<void> {
    if (this.dirty.size === 0) return;
    const rows = [...this.dirty.values()];
    this.dirty.clear();
    try {
      await this.durable.writeRuns(rows.map((r) => ({ ...r, reserved_micros: 0 })));
    } catch (e) {
      for (const r of rows) if (!this.dirty.has(slotOf(r.app_id, r.id))) this.dirty.set(slotOf(r.app_id, r.id), r);
      throw e;
    }
  }

  /** Trips the run if it is still as `run` was read; undefined when it changed meanwhile. */
  private async trip(run: RunRow, reason: string, now: number): Promise<RunRow | undefined> {
    const [code, after] = await this.script(TRIP, run.app_id, run.id, now, [], [reason, now, run.updated_at]);
    return code === 1 ? after : undefined;
  }

  /** Runs a script on the run's hash, seeding the hash from the store first when Redis lacks it. */
  private async script(s: Script, appId: string, id: string, now: number, keys: string[], args: (string | number)[]): Promise<[number, RunRow]> {
    const all = [this.key(appId, id), ...keys];
    let got = (await this.redis.run(s, all, args)) as [number, ...string[]];
    if (got[0] === NOT_SEEDED) {
      await this.seed(appId, id, now);
      got = (await this.redis.run(s, all, args)) as [number, ...string[]];
    }
    const run = rowOf(appId, id, got.slice(1) as string[]);
    this.dirty.set(slotOf(appId, id), run);
    return [got[0], run];
  }

  /** The store's row, or a new run: reservations start from none (they live only in Redis). */
  private async seed(appId: string, id: string, now: number): Promise<void> {
    const row = (await this.durable.run(appId, id)) ?? newRun(appId, id, now);
    const pairs = FIELDS.flatMap((f) => [f, f === "reserved_micros" ? 0 : (row[f] ?? "")]);
    await this.redis.run(SEED, [this.key(appId, id)], [RUN_TTL_MS, ...pairs]);
  }

  private key(appId: string, id: string): string {
    return this.redis.key("run", appId, id);
  }
}

const slotOf = (appId: string, id: string) => appId + RUN_SEP + id;

function newRun(appId: string, id: string, now: number): RunRow {
  return {
    app_id: appId,
    id,
    calls: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    cost_micros: 0,
    reserved_micros: 0,
    max_cost_micros: null,
    max_calls: null,
    max_repeats: null,
    last_request_hash: null,
    repeat_count: 0,
    status: "active",
    trip_reason: null,
    created_at: now,
    updated_at: now,
  };
}

/** A run's hash (flat field/value pairs) as the store's row. */
function rowOf(appId: string, id: string, flat: readonly string[]): RunRow {
  const row: Record<string, unknown> = { app_id: appId, id };
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const [f, v] = [flat[i]!, flat[i + 1]!];
    row[f] = NULLABLE.has(f) && v === "" ? null : TEXT.has(f) ? v : Number(v);
  }
  return row as unknown as RunRow;
}
