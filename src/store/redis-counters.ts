import type { Counters, DurableCounters } from "./counters";
import { Script, type RedisLink } from "./redis";

/** The script's answer when Redis has no value for the counter (first use, expired, or Redis restarted empty). */
const NOT_SEEDED = -1;
const REFUSED = -2;

/** Counters of monthly periods must outlive their month; a seed or write-back renews it. */
const COUNTER_TTL_MS = 40 * 86_400_000;

/** KEYS[1] counter; ARGV by, limit. The new value, NOT_SEEDED, or REFUSED when it would pass the limit. */
const ADD = new Script(`local v = redis.call('GET', KEYS[1])
if not v then return ${NOT_SEEDED} end
if tonumber(v) + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return ${REFUSED} end
return redis.call('INCRBY', KEYS[1], ARGV[1])`);

/** KEYS[1] counter; ARGV by. The new value (never below 0), or NOT_SEEDED. */
const SUBTRACT = new Script(`local v = redis.call('GET', KEYS[1])
if not v then return ${NOT_SEEDED} end
local n = tonumber(v) - tonumber(ARGV[1])
if n < 0 then n = 0 end
redis.call('SET', KEYS[1], n, 'KEEPTTL')
return n`);

/**
 * KEYS[1] counter; ARGV durable value, ttl ms. Sets the counter to max(Redis, durable): seeding is
 * idempotent, and several nodes seeding at once, or a node seeding late with an older durable value,
 * can never lower what Redis counted.
 */
const SEED = new Script(`local v = redis.call('GET', KEYS[1])
if v and tonumber(v) >= tonumber(ARGV[1]) then return tonumber(v) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return tonumber(ARGV[1])`);

/**
 * Counters in Redis, shared by every node, over the durable store's (SQLite or PostgreSQL), which
 * stays the source of truth. Each change is one Lua script, atomic in Redis, so N nodes refuse exactly
 * where one would. A counter Redis lacks is seeded from the store with max(Redis, store). Each node
 * writes back the latest value it saw of every counter it changed at each flush, as "raise to at least"
 * (idempotent, order-free), so a Redis that restarts empty is re-seeded with everything counted up to
 * the last flush (`SVC_FLUSH_MS`, 1 s): with Redis persistence off, at most that much of the counted
 * calls can be lost; with AOF (appendfsync everysec) Redis keeps them itself. Refunds lower Redis but
 * not the store (a store value above the truth only ever refuses early, never gives a call twice).
 *
 * Redis unreachable: every change fails with StoreUnavailableError, which quota turns into a 503
 * with Retry-After; counting in the store instead would not be exact while other nodes count in Redis.
 */
export class RedisCounters implements Counters {
  /** The last value Redis answered for each counter this node touched: `read` needs no round trip for them. */
  private readonly known = new Map<string, number>();
  private readonly dirty = new Set<string>();

  constructor(
    private readonly redis: RedisLink,
    private readonly durable: DurableCounters,
  ) {}

  /** The durable store's problem; Redis's own is /health's `redis` check. */
  get problem(): string | undefined {
    return this.durable.problem;
  }

  async addWithin(name: string, period: string, by: number, limit: number): Promise<number | undefined> {
    if (by > limit) return undefined;
    const key = this.key(name, period);
    let got = (await this.redis.run(ADD, [key], [by, limit])) as number;
    if (got === NOT_SEEDED) {
      await this.seed(key, name, period);
      got = (await this.redis.run(ADD, [key], [by, limit])) as number;
    }
    if (got < 0) return undefined;
    this.note(name, period, got);
    return got;
  }

  async subtract(name: string, period: string, by: number): Promise<void> {
    const key = this.key(name, period);
    let got = (await this.redis.run(SUBTRACT, [key], [by])) as number;
    if (got === NOT_SEEDED) {
      await this.seed(key, name, period);
      got = (await this.redis.run(SUBTRACT, [key], [by])) as number;
    }
    if (got >= 0) this.known.set(slotOf(name, period), got);
  }

  async read(name: string, period: string): Promise<number> {
    return this.known.get(slotOf(name, period)) ?? this.durable.read(name, period);
  }

  /** Writes back every counter this node raised since the last write-back; kept for the next one when the store refuses. */
  async writeBack(): Promise<void> {
    const slots = [...this.dirty];
    this.dirty.clear();
    await Promise.all(
      slots.map(async (slot) => {
        const [name, period] = slot.split("|") as [string, string];
        try {
          await this.durable.raiseTo(name, period, this.known.get(slot) ?? 0);
        } catch {
          this.dirty.add(slot);
        }
      }),
    );
  }

  async close(): Promise<void> {
    await this.writeBack();
    await this.durable.close();
  }

  private key(name: string, period: string): string {
    return this.redis.key("ctr", name, period);
  }

  private async seed(key: string, name: string, period: string): Promise<void> {
    await this.redis.run(SEED, [key], [await this.durable.read(name, period), COUNTER_TTL_MS]);
  }

  private note(name: string, period: string, value: number): void {
    const slot = slotOf(name, period);
    this.known.set(slot, value);
    this.dirty.add(slot);
  }
}

const slotOf = (name: string, period: string) => `${name}|${period}`;
