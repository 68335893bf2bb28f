import { withoutWaiting } from "../store/no-wait";
import { and, eq, gt, sql, asc } from "drizzle-orm";
import { serialized, writeAll, type Store } from "../store/db";
import { apiKeys } from "../store/schema";
import { NO_RUN_LIMITS, type KeyEntry, type KeyRunLimits } from "./key-record";

/** Storage of key records. Every change bumps `sync_seq` so other processes on the store see it. */
type Row = typeof apiKeys.$inferSelect;

const toEntry = (r: Row): KeyEntry => ({
  id: r.id,
  name: r.name,
  appId: r.appId,
  type: r.type,
  prefix: r.prefix,
  last4: r.last4,
  hash: r.hash,
  status: r.status,
  scopes: r.scopes,
  plan: r.plan,
  createdAt: r.createdAt,
  lastUsedAt: r.lastUsedAt,
  revokedAt: r.revokedAt,
  budgetId: r.budgetId,
  // The shared NO_RUN_LIMITS when the key sets none: agent runs take the operator's limits as they are.
  runLimits:
    r.runMaxCostMicros === null && r.runMaxCalls === null && r.runMaxRepeats === null
      ? NO_RUN_LIMITS
      : { maxCostMicros: r.runMaxCostMicros, maxCalls: r.runMaxCalls, maxRepeats: r.runMaxRepeats },
});

const runColumns = (l: KeyRunLimits) => ({ runMaxCostMicros: l.maxCostMicros, runMaxCalls: l.maxCalls, runMaxRepeats: l.maxRepeats });

/** The advisory lock key changes take turns under on PostgreSQL ("svkey"). */
const KEY_CHANGES_LOCK = 0x73766b6579;

const nextSeq = sql`(SELECT COALESCE(MAX(${apiKeys.syncSeq}), 0) + 1 FROM ${apiKeys})`;

export class KeyRepository {
  constructor(private readonly store: Store) {}

  private get db() {
    return this.store.db;
  }

  // Changes take turns (serialized): each commits a sync_seq above every one committed before it, so a
  // node that read up to n never misses a change committed later with a number below n.
  async insert(k: KeyEntry): Promise<void> {
    const { runLimits, ...rest } = k;
    await serialized(
      this.store,
      KEY_CHANGES_LOCK,
      async (tx) => void (await tx.insert(apiKeys).values({ ...rest, ...runColumns(runLimits), syncSeq: nextSeq })),
    );
  }

  /** A key's defaults: its budget and its agent-run limits. */
  async setDefaults(id: string, budgetId: string | null, runLimits: KeyRunLimits): Promise<void> {
    await serialized(
      this.store,
      KEY_CHANGES_LOCK,
      async (tx) =>
        void (await tx
          .update(apiKeys)
          .set({ budgetId, ...runColumns(runLimits), syncSeq: nextSeq })
          .where(eq(apiKeys.id, id))),
    );
  }

  /** Keys bound to a budget being deleted go back to no default; their ids. */
  async unbindBudget(budgetId: string): Promise<string[]> {
    return serialized(this.store, KEY_CHANGES_LOCK, async (tx) =>
      (await tx.update(apiKeys).set({ budgetId: null, syncSeq: nextSeq }).where(eq(apiKeys.budgetId, budgetId)).returning({ id: apiKeys.id })).map((r) => r.id),
    );
  }

  async revoke(id: string, at: number): Promise<void> {
    await serialized(
      this.store,
      KEY_CHANGES_LOCK,
      async (tx) => void (await tx.update(apiKeys).set({ status: "revoked", revokedAt: at, syncSeq: nextSeq }).where(eq(apiKeys.id, id))),
    );
  }

  async get(id: string): Promise<KeyEntry | undefined> {
    const [r] = await this.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    return r && toEntry(r);
  }

  async listByApp(appId: string): Promise<KeyEntry[]> {
    return (await this.db.select().from(apiKeys).where(eq(apiKeys.appId, appId)).orderBy(asc(apiKeys.createdAt))).map(toEntry);
  }

  /** Rows changed after `seq`, with the highest seq seen. */
  async changedSince(seq: number): Promise<{ entries: KeyEntry[]; seq: number }> {
    const rows = await this.db.select().from(apiKeys).where(gt(apiKeys.syncSeq, seq)).orderBy(asc(apiKeys.syncSeq));
    return { entries: rows.map(toEntry), seq: rows.length ? rows[rows.length - 1]!.syncSeq : seq };
  }

  /**
   * last_used_at only moves forward, and without touching sync_seq: it is not a change other nodes must act on.
   * On SQLite without waiting for another process's write lock (the caller keeps the uses for its next flush).
   */
  async touchMany(used: { id: string; at: number }[]): Promise<void> {
    if (used.length === 0) return;
    const write = () =>
      writeAll(this.store, (tx) =>
        // In id order, so two nodes flushing the same keys lock their rows in one order (PostgreSQL).
        [...used]
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .map((u) =>
            tx
              .update(apiKeys)
              .set({ lastUsedAt: u.at })
              .where(and(eq(apiKeys.id, u.id), sql`COALESCE(${apiKeys.lastUsedAt}, 0) < ${u.at}`)),
          ),
      );
    await (this.store.dialect === "sqlite" ? withoutWaiting(this.store.sqlite, write) : write());
  }
}
