import { withoutWaiting } from "../store/no-wait";
import { and, eq, gt, sql, asc } from "drizzle-orm";
import type { Db } from "../store/db";
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

const nextSeq = sql`(SELECT COALESCE(MAX(${apiKeys.syncSeq}), 0) + 1 FROM ${apiKeys})`;

export class KeyRepository {
  constructor(private readonly db: Db) {}

  insert(k: KeyEntry): void {
    const { runLimits, ...rest } = k;
    this.db
      .insert(apiKeys)
      .values({ ...rest, ...runColumns(runLimits), syncSeq: nextSeq })
      .run();
  }

  revoke(id: string, at: number): void {
    this.db.update(apiKeys).set({ status: "revoked", revokedAt: at, syncSeq: nextSeq }).where(eq(apiKeys.id, id)).run();
  }

  /** A key's defaults: its budget and its agent-run limits. */
  setDefaults(id: string, budgetId: string | null, runLimits: KeyRunLimits): void {
    this.db
      .update(apiKeys)
      .set({ budgetId, ...runColumns(runLimits), syncSeq: nextSeq })
      .where(eq(apiKeys.id, id))
      .run();
  }

  /** Keys bound to a budget being deleted go back to no default; their ids. */
  unbindBudget(budgetId: string): string[] {
    return this.db
      .update(apiKeys)
      .set({ budgetId: null, syncSeq: nextSeq })
      .where(eq(apiKeys.budgetId, budgetId))
      .returning({ id: apiKeys.id })
      .all()
      .map((r) => r.id);
  }

  get(id: string): KeyEntry | undefined {
    const r = this.db.select().from(apiKeys).where(eq(apiKeys.id, id)).get();
    return r && toEntry(r);
  }

  listByApp(appId: string): KeyEntry[] {
    return this.db.select().from(apiKeys).where(eq(apiKeys.appId, appId)).orderBy(asc(apiKeys.createdAt)).all().map(toEntry);
  }

  /** Rows changed after `seq`, with the highest seq seen. */
  changedSince(seq: number): { entries: KeyEntry[]; seq: number } {
    const rows = this.db.select().from(apiKeys).where(gt(apiKeys.syncSeq, seq)).orderBy(asc(apiKeys.syncSeq)).all();
    return { entries: rows.map(toEntry), seq: rows.length ? rows[rows.length - 1]!.syncSeq : seq };
  }

  /** last_used_at only moves forward, and without touching sync_seq: it is not a change other nodes must act on. */
  touchMany(used: { id: string; at: number }[]): void {
    if (used.length === 0) return;
    withoutWaiting(this.db.$client, () =>
      this.db.transaction((tx) => {
        for (const u of used) {
          tx.update(apiKeys)
            .set({ lastUsedAt: u.at })
            .where(and(eq(apiKeys.id, u.id), sql`COALESCE(${apiKeys.lastUsedAt}, 0) < ${u.at}`))
            .run();
        }
      }),
    );
  }
}
