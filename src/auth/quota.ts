import { sql } from "drizzle-orm";
import { and, eq } from "drizzle-orm";
import { conflictTarget, type Db } from "../store/db";
import { usageCounters } from "../store/schema";
import { ApiError } from "../http/errors";
import type { KeyEntry } from "./key-record";
import type { Plans } from "./plans";

/** A consumed call that can be given back if the call fails (a failed call is never counted). */
export interface QuotaTicket {
  slot: string;
}

interface Counter {
  keyId: string;
  period: string;
  calls: number;
  /** Calls not yet written to the store (may be negative after refunds). */
  pending: number;
}

/**
 * Call limits: test keys get a number of calls per UTC day, live keys their plan's monthly quota.
 * The count lives in memory, so consuming is one synchronous check-and-increment on the event loop
 * and exact however many calls race; the store receives the increments in batches.
 */
export class Quota {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly db: Db,
    private readonly plans: Plans,
    private readonly testDailyCalls: number,
    /** Epoch ms; injected so tests can cross a UTC day or month boundary. */
    private readonly clock: () => number = Date.now,
  ) {}

  consume(key: KeyEntry, now: number = this.clock()): QuotaTicket {
    const d = new Date(now);
    const test = key.type === "test";
    const period = test ? `d:${d.toISOString().slice(0, 10)}` : `m:${d.toISOString().slice(0, 7)}`;
    const slot = `${key.id}|${period}`;
    let c = this.counters.get(slot);
    if (!c) {
      const row = this.db
        .select({ calls: usageCounters.calls })
        .from(usageCounters)
        .where(and(eq(usageCounters.keyId, key.id), eq(usageCounters.period, period)))
        .get();
      c = { keyId: key.id, period, calls: row?.calls ?? 0, pending: 0 };
      this.counters.set(slot, c);
    }
    const limit = test ? this.testDailyCalls : this.plans.monthlyCalls(key.plan);
    if (c.calls >= limit) {
      const reset = test
        ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
        : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      const retryAfterS = (reset - now) / 1000;
      throw test
        ? new ApiError("RATE_LIMITED", `test keys allow ${limit} calls per UTC day; the limit resets at ${new Date(reset).toISOString()}`, { retryAfterS })
        : new ApiError("QUOTA_EXCEEDED", `plan '${key.plan}' allows ${limit} calls per month; the quota resets at ${new Date(reset).toISOString()}`, { retryAfterS });
    }
    c.calls++;
    c.pending++;
    return { slot };
  }

  refund(t: QuotaTicket): void {
    const c = this.counters.get(t.slot);
    if (!c) return;
    c.calls--;
    c.pending--;
  }

  used(key: KeyEntry, period: string): number {
    return this.counters.get(`${key.id}|${period}`)?.calls ?? 0;
  }

  /** Adds pending increments to the store; increments (not totals) so several nodes sum correctly. */
  flush(): void {
    const dirty = [...this.counters.values()].filter((c) => c.pending !== 0);
    if (dirty.length === 0) return;
    this.db.transaction((tx) => {
      for (const c of dirty) {
        tx.insert(usageCounters)
          .values({ keyId: c.keyId, period: c.period, calls: c.pending })
          .onConflictDoUpdate({ target: conflictTarget(usageCounters.keyId, usageCounters.period), set: { calls: sql`${usageCounters.calls} + ${c.pending}` } })
          .run();
      }
    });
    for (const c of dirty) c.pending = 0;
    // Old periods are finished: drop them from memory (every counter has just been written, so none holds pending calls).
    for (const [slot, c] of this.counters) if (!slot.endsWith(this.currentSuffix(c))) this.counters.delete(slot);
  }

  private currentSuffix(c: Counter): string {
    const iso = new Date(this.clock()).toISOString();
    return c.period.startsWith("d:") ? `d:${iso.slice(0, 10)}` : `m:${iso.slice(0, 7)}`;
  }
}
