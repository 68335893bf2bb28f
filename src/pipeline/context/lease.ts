import { and, eq, sql } from "drizzle-orm";
import { ApiError } from "../../core/errors";
import { conflictTarget, type Store } from "../../store/db";
import { conversationLeases } from "../../store/schema";

/** First wait between two tries for a held lease, doubled up to the cap: a conversation's call takes 0.1 to 30 s. */
const FIRST_WAIT_MS = 5;
const MAX_WAIT_MS = 100;

/**
 * One call at a time per conversation across every gateway process on one store: a lease row per
 * (app_id, conversation_id), taken by a compare-and-set (an insert that, on conflict, takes the row
 * over only when its lease has expired) and deleted by its holder when the call settles. While the call
 * runs its holder renews the lease every third of `ttlMs`, so a call may run as long as it needs, and a
 * holder that dies leaves a lease that expires within `ttlMs`: a crash locks a conversation for at most
 * that long. Portable SQL (SQLite and PostgreSQL: test/store/schema-portability).
 */
export class ConversationLeases {
  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
  ) {}

  private get db() {
    return this.store.db;
  }

  /** Takes the conversation's lease for `holder`, waiting while another holds it; the returned function gives it back. */
  async acquire(appId: string, id: string, holder: string, signal?: AbortSignal): Promise<() => Promise<void>> {
    let wait = FIRST_WAIT_MS;
    while (!(await this.tryAcquire(appId, id, holder, Date.now()))) {
      await sleepOrAbort(wait, signal);
      wait = Math.min(MAX_WAIT_MS, wait * 2);
    }
    // Renewed by the same compare-and-set (a holder's own lease is always extended). A renewal that
    // fails leaves the lease to expire; the commit still writes only over the row it read.
    let renewing: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      renewing = this.tryAcquire(appId, id, holder, Date.now()).catch(() => false);
    }, this.ttlMs / 3);
    timer.unref?.();
    return async () => {
      clearInterval(timer);
      // A renewal still on its way would otherwise put the row back after the delete.
      await renewing;
      await this.release(appId, id, holder);
    };
  }

  /** One compare-and-set: true when `holder` holds the lease now (it was free, expired, or already this holder's). */
  async tryAcquire(appId: string, id: string, holder: string, now: number): Promise<boolean> {
    const won = await this.db
      .insert(conversationLeases)
      .values({ appId, id, holder, expiresAt: now + this.ttlMs })
      .onConflictDoUpdate({
        target: conflictTarget(this.store.dialect, conversationLeases.appId, conversationLeases.id),
        set: { holder: sql`excluded.holder`, expiresAt: sql`excluded.expires_at` },
        setWhere: sql`${conversationLeases.expiresAt} < ${now} OR ${conversationLeases.holder} = ${holder}`,
      })
      .returning({ holder: conversationLeases.holder });
    return won[0]?.holder === holder;
  }

  async release(appId: string, id: string, holder: string): Promise<void> {
    await this.db
      .delete(conversationLeases)
      .where(and(eq(conversationLeases.appId, appId), eq(conversationLeases.id, id), eq(conversationLeases.holder, holder)));
  }
}

function sleepOrAbort(ms: number, signal?: AbortSignal): Promise<void> {
  const closed = () => new ApiError("VALIDATION_ERROR", "client closed the request while it waited for the conversation");
  if (signal?.aborted) return Promise.reject(closed());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(t);
      reject(closed());
    };
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
