import { ApiError } from "../core/errors";
import { StoreUnavailableError, type Counters } from "../store/counters";
import type { KeyEntry } from "./key-record";
import type { Plans } from "./plans";

/** A consumed call that can be given back if the call fails (a failed call is never counted). */
export interface QuotaTicket {
  keyId: string;
  period: string;
}

/**
 * Call limits: test keys get a number of calls per UTC day, live keys their plan's monthly quota.
 * Every consume is one atomic check-and-increment in the store, so the limit holds however many
 * calls race and however many gateway processes share the store.
 */
export class Quota {
  /** Refunds the store could not take yet (locked): retried at each flush, so a failed call is never counted. */
  private owed: QuotaTicket[] = [];

  constructor(
    private readonly counters: Counters,
    private readonly plans: Plans,
    private readonly testDailyCalls: number,
  ) {}

  async consume(key: KeyEntry, now: number): Promise<QuotaTicket> {
    const d = new Date(now);
    const test = key.type === "test";
    const period = periodOf(key, now);
    const limit = test ? this.testDailyCalls : this.plans.monthlyCalls(key.plan);
    let count: number | undefined;
    try {
      count = await this.counters.addWithin(key.id, period, 1, limit);
    } catch (e) {
      if (e instanceof StoreUnavailableError) throw new ApiError("STORE_UNAVAILABLE", `call limits cannot be checked now (${e.message}); retry shortly`, { retryAfterS: 2 });
      throw e;
    }
    if (count === undefined) {
      const reset = test ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      const retryAfterS = (reset - now) / 1000;
      throw test
        ? new ApiError("RATE_LIMITED", `test keys allow ${limit} calls per UTC day; the limit resets at ${new Date(reset).toISOString()}`, { retryAfterS })
        : new ApiError("QUOTA_EXCEEDED", `plan '${key.plan}' allows ${limit} calls per month; the quota resets at ${new Date(reset).toISOString()}`, { retryAfterS });
    }
    return { keyId: key.id, period };
  }

  refund(t: QuotaTicket): void {
    this.counters.subtract(t.keyId, t.period, 1).catch(() => this.owed.push(t));
  }

  used(key: KeyEntry, period: string): number {
    return this.counters.read(key.id, period);
  }

  /** Gives back the refunds a locked store refused earlier. */
  flush(): void {
    const owed = this.owed;
    this.owed = [];
    for (const t of owed) this.refund(t);
  }
}

/** `d:YYYY-MM-DD` (UTC day) for test keys, `m:YYYY-MM` for live keys. */
export function periodOf(key: KeyEntry, now: number): string {
  const iso = new Date(now).toISOString();
  return key.type === "test" ? `d:${iso.slice(0, 10)}` : `m:${iso.slice(0, 7)}`;
}
