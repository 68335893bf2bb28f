import type { Database } from "bun:sqlite";
import { prepareLedgerInserts, type LedgerRow } from "../../src/accounting/ledger-sql";

export const SEED_MODELS = ["gpt-4o-mini-2024-07-18", "gpt-4o-2024-05-13", "claude-3-haiku-20240307", "claude-3-5-sonnet-20241022", "gemini-1.5-flash-002"];
export const SEED_APP = "seed-app";
const OTHER_APPS = ["seed-other-1", "seed-other-2"];
const DAY_MS = 86_400_000;

export interface SeedTotals {
  calls: number;
  cacheHits: number;
  originalTokens: number;
  sentTokens: number;
  costActualUsd: number;
  byKey: Map<string, number>;
  byModel: Map<string, number>;
}

/**
 * `rows` ledger rows over the `days` days before `now`, 80% of them for SEED_APP over 20 keys and 5
 * models (a fifth of them cache hits), the rest for two other apps, written in one transaction with
 * the ledger's own prepared inserts. Deterministic (a fixed LCG), and returns SEED_APP's totals.
 */
export function seedLedger(sqlite: Database, rows: number, now: number, days = 90): SeedTotals {
  let state = 12345;
  const rand = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
  const totals: SeedTotals = { calls: 0, cacheHits: 0, originalTokens: 0, sentTokens: 0, costActualUsd: 0, byKey: new Map(), byModel: new Map() };
  const inserts = prepareLedgerInserts(sqlite);
  const batch: LedgerRow[] = [];
  for (let i = 0; i < rows; i++) {
    const app = rand() < 0.8 ? SEED_APP : OTHER_APPS[i % 2]!;
    const keyId = `key_seed${Math.floor(rand() * 20)}`;
    const model = SEED_MODELS[Math.floor(rand() * SEED_MODELS.length)]!;
    const cacheHit = rand() < 0.2;
    const original = 50 + Math.floor(rand() * 1000);
    const sent = cacheHit ? 0 : Math.floor(original * (0.5 + rand() * 0.5));
    const costOriginal = original * 3e-6;
    const costActual = cacheHit ? 0 : sent * 1.5e-7;
    const createdAt = now - 1 - Math.floor(rand() * days * DAY_MS);
    batch.push({
      requestId: `svc_req_seed${i}`,
      keyId,
      appId: app,
      model,
      modelRequested: model,
      provider: "openai",
      promptTokens: sent,
      completionTokens: 50,
      originalTokens: original,
      costOriginalUsd: costOriginal,
      costActualUsd: costActual,
      savedUsd: costOriginal - costActual,
      cacheHit,
      status: 200,
      errorCode: null,
      latencyMs: 100 + rand() * 900,
      overheadMs: rand() * 5,
      stream: false,
      createdAt,
    });
    if (app === SEED_APP) {
      totals.calls++;
      totals.cacheHits += cacheHit ? 1 : 0;
      totals.originalTokens += original;
      totals.sentTokens += sent;
      totals.costActualUsd += costActual;
      totals.byKey.set(keyId, (totals.byKey.get(keyId) ?? 0) + 1);
      totals.byModel.set(model, (totals.byModel.get(model) ?? 0) + 1);
    }
  }
  sqlite.run("BEGIN");
  try {
    // One transaction for the whole table: the ledger's batch insert runs as a savepoint inside it.
    for (let i = 0; i < batch.length; i += 100_000) inserts.all(batch.slice(i, i + 100_000));
    sqlite.run("COMMIT");
  } catch (e) {
    sqlite.run("ROLLBACK");
    throw e;
  }
  sqlite.run("ANALYZE");
  return totals;
}
