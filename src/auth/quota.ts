import { ApiError } from "../core/errors";
import { StoreUnavailableError, type Counters } from "../store/counters";
import type { KeyEntry } from "./key-record";
import type { Plans } from "./plans";

/** A consumed call that can be given back if the call fails (a failed call is never counted). */
export interface QuotaTicket {
  keyId: string;
  period: string;
}

/** Longest Retry-After sent for a quota that resets hours away. */
export const MAX_RETRY_AFTER_S = 60;

/**
 * Calls a process takes from the store at once, as a share of what is left: with 1/64 of the remainder
 * no process can hold more than a sliver of a key's calls, and a key with fewer than 128 calls left is
 * counted one call at a time in the store, exactly. Far from the limit a call costs a decrement in memory
 * instead of an upsert: `bun bench/ledger-quota.ts` measured the upsert at about 120 µs a call (mean, on a
 * loaded 2-core machine, with the ledger's writer thread contending for the write lock).
 */
const LEASE_SHARE = 64;
const MAX_LEASE = 1000;

/** Calls this process took from the store and has not used yet, for one key and period. */
interface Lease {
  left: number;
  /** The last time a call was taken from it (the clock of `consume`). */
  usedAt: number;
}

/**
 * Call limits: test keys get a number of calls per UTC day, live keys their plan's monthly quota.
 * Counts live in the store, changed only by its atomic add-within-limit, so the limit holds however many
 * calls race and however many gateway processes share the store: a process never uses a call the store
 * did not give it. It takes calls in small leases (see LEASE_SHARE) and gives back what a lease did not
 * use at the next flush after a second idle, so a quiet process does not keep calls another needs; a
 * process killed with leased calls loses them (counted, never given to anyone: conservative).
 */
export class Quota {
  private readonly leases = new Map<string, Lease>();
  /**
   * Lease takes on their way, per key and period: with a store that answers later (Redis, PostgreSQL),
   * concurrent calls on a key without a lease would each take a whole lease (a 3-node test's 500 calls
   * took 156 calls each, 26,000 of a 10,000 quota, and refused the rest); they wait for the one on its
   * way. Noted before the store's first read, so no call of a burst gets past it.
   */
  private readonly taking = new Map<string, Promise<void>>();
  /** Calls to give back that a locked store refused: retried at each flush, so a failed call is never counted. */
  private owed: { keyId: string; period: string; calls: number }[] = [];

  constructor(
    private readonly counters: Counters,
    private readonly plans: Plans,
    private readonly testDailyCalls: number,
    /** Leases unused this long go back to the store at a flush. */
    private readonly leaseIdleMs = 1000,
  ) {}

  /**
   * Takes one call. Answered at once, not as a promise, while this process holds a lease with calls
   * left, which is nearly every call: an asynchronous stage hook costs every call a turn of the event
   * loop (async consume was 0.65% of the relay's event-loop samples under load, bun --cpu-prof).
   */
  consume(key: KeyEntry, now: number): QuotaTicket | Promise<QuotaTicket> {
    const period = periodOf(key, now);
    const slot = `${key.id}|${period}`;
    const lease = this.leases.get(slot);
    if (lease && lease.left > 0) {
      lease.left--;
      lease.usedAt = now;
      return { keyId: key.id, period };
    }
    return this.consumeFromStore(key, now, period, slot);
  }

  private async consumeFromStore(key: KeyEntry, now: number, period: string, slot: string): Promise<QuotaTicket> {
    for (;;) {
      const lease = this.leases.get(slot);
      if (lease && lease.left > 0) {
        lease.left--;
        lease.usedAt = now;
        return { keyId: key.id, period };
      }
      const taking = this.taking.get(slot);
      if (!taking) break;
      // Another call of this process is taking a lease for the slot: use it rather than take one more.
      // 150 calls at once on three PostgreSQL nodes took 64 leases of 156 when the take was noted only
      // after the store's read, and refused a fresh 10,000-call key (test/store/postgres-nodes.test.ts).
      await taking;
    }
    const take = this.take(key, period, slot, now);
    const mine = take.then(
      () => undefined,
      () => undefined,
    );
    this.taking.set(slot, mine);
    try {
      return await take;
    } finally {
      if (this.taking.get(slot) === mine) this.taking.delete(slot);
    }
  }

  /** Takes this call, and a lease of calls after it when far from the limit, from the store. */
  private async take(key: KeyEntry, period: string, slot: string, now: number): Promise<QuotaTicket> {
    const test = key.type === "test";
    const limit = test ? this.testDailyCalls : this.plans.monthlyCalls(key.plan);
    let count: number | undefined;
    try {
      // The read too can find the store gone (PostgreSQL down): a 503 like the write's, not a 500.
      const known = await this.counters.read(key.id, period);
      const take = Math.min(MAX_LEASE, Math.max(1, Math.floor((limit - known) / LEASE_SHARE)));
      count = await this.counters.addWithin(key.id, period, take, limit);
      // Near the limit a whole lease may not fit where one call still does.
      if (count === undefined && take > 1) count = await this.counters.addWithin(key.id, period, 1, limit);
      else if (count !== undefined && take > 1) this.leases.set(slot, { left: (this.leases.get(slot)?.left ?? 0) + take - 1, usedAt: now });
    } catch (e) {
      if (e instanceof StoreUnavailableError)
        throw new ApiError("STORE_UNAVAILABLE", `call limits cannot be checked now (${e.message}); retry shortly`, { retryAfterS: 2 });
      throw e;
    }
    if (count === undefined) {
      const d = new Date(now);
      const reset = test ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      // The wait runs to hours: the SDKs must not sleep through it (openai v6 slept 15 h on Retry-After:
      // 55811). x-should-retry: false stops their retries, Retry-After is capped for clients that honour
      // only it, and the message says when the limit resets.
      const extra = { retryAfterS: Math.min(MAX_RETRY_AFTER_S, (reset - now) / 1000), shouldRetry: false };
      throw test
        ? new ApiError("RATE_LIMITED", `test keys allow ${limit} calls per UTC day; the limit resets at ${new Date(reset).toISOString()}`, extra)
        : new ApiError("QUOTA_EXCEEDED", `plan '${key.plan}' allows ${limit} calls per month; the quota resets at ${new Date(reset).toISOString()}`, extra);
    }
    return { keyId: key.id, period };
  }

  /** Gives a failed call back: to this process's lease when it holds one for the period, else to the store. */
  refund(t: QuotaTicket): void {
    const lease = this.leases.get(`${t.keyId}|${t.period}`);
    if (lease) lease.left++;
    else this.giveBack(t.keyId, t.period, 1);
  }

  /** Calls used in a period: the store's count less what this process holds unused. */
  async used(key: KeyEntry, period: string): Promise<number> {
    return (await this.counters.read(key.id, period)) - (this.leases.get(`${key.id}|${period}`)?.left ?? 0);
  }

  /** Gives back the refunds a locked store refused earlier, and the leases idle for `leaseIdleMs`. */
  flush(now = Date.now()): void {
    this.returnLeases((lease) => now - lease.usedAt >= this.leaseIdleMs);
  }

  /** At shutdown: every unused call goes back to the store before the store closes. */
  async close(): Promise<void> {
    await Promise.all(this.returnLeases(() => true));
  }

  private returnLeases(due: (lease: Lease) => boolean): Promise<void>[] {
    const owed = this.owed;
    this.owed = [];
    for (const [slot, lease] of this.leases) {
      if (!due(lease)) continue;
      this.leases.delete(slot);
      const [keyId, period] = slot.split("|") as [string, string];
      if (lease.left > 0) owed.push({ keyId, period, calls: lease.left });
    }
    return owed.map((o) => this.giveBack(o.keyId, o.period, o.calls));
  }

  private giveBack(keyId: string, period: string, calls: number): Promise<void> {
    return this.counters.subtract(keyId, period, calls).catch(() => void this.owed.push({ keyId, period, calls }));
  }
}

const DAY_MS = 86_400_000;
/** The UTC day the last call fell in and its two period names: every call asks, the answer changes once a day. */
let today = { from: 0, to: 0, day: "", month: "" };

/** `d:YYYY-MM-DD` (UTC day) for test keys, `m:YYYY-MM` for live keys. */
export function periodOf(key: KeyEntry, now: number): string {
  if (now < today.from || now >= today.to) {
    const iso = new Date(now).toISOString();
    const from = now - (now % DAY_MS);
    today = { from, to: from + DAY_MS, day: `d:${iso.slice(0, 10)}`, month: `m:${iso.slice(0, 7)}` };
  }
  return key.type === "test" ? today.day : today.month;
}
