import type { LedgerRow } from "../../src/accounting/ledger";
import type { KeyEntry } from "../../src/auth/key-record";
import type { CacheRow } from "../../src/pipeline/cache/persistence";

/** Rows the store tests write: a key, a ledger row and a cache entry of app `app`, with ids tagged by the test. */

export const key = (id: string, type: "test" | "live", createdAt: number, app = "app_p"): KeyEntry => ({
  id,
  name: `name ${id}`,
  appId: app,
  type,
  prefix: `svc_${type}_ab`,
  last4: "wxyz",
  hash: `hash_${id}`,
  status: "active",
  scopes: ["complete"],
  plan: "free",
  createdAt,
  lastUsedAt: null,
  revokedAt: null,
  budgetId: null,
  runLimits: { maxCostMicros: null, maxCalls: null, maxRepeats: null },
});

/** Every fourth call failed upstream (no model, 502), every third a cache hit, every second streamed. */
export function ledgerRow(i: number, tag = "p"): LedgerRow {
  return {
    requestId: `svc_req_${tag}${String(i).padStart(4, "0")}`,
    keyId: `key_${tag}1`,
    appId: `app_${tag}`,
    model: i % 4 === 0 ? null : "gpt-4o-mini-2024-07-18",
    modelRequested: "auto",
    provider: i % 4 === 0 ? null : "openai",
    promptTokens: 10 + i,
    completionTokens: i,
    originalTokens: 20 + i,
    costOriginalUsd: i / 1e6,
    costActualUsd: i / 4e6,
    savedUsd: (3 * i) / 4e6,
    cacheHit: i % 3 === 0,
    status: i % 4 === 0 ? 502 : 200,
    errorCode: i % 4 === 0 ? "UPSTREAM_ERROR" : null,
    latencyMs: i + 0.125,
    overheadMs: 0.5,
    stream: i % 2 === 0,
    budgetId: null,
    conversationId: undefined,
    agentRunId: null,
    createdAt: 1_790_000_000_000 + i,
  };
}

export function cacheRow(id: string, exactKey: string, expiresAt: number, createdAt: number, app = "app_p"): CacheRow {
  return {
    id,
    appId: app,
    exactKey,
    scopeKey: "scope",
    model: "gpt-4o-mini-2024-07-18",
    promptText: `prompt ${id}`,
    contextHash: "ctx",
    embedding: "AACAPwAAAEA=",
    response: JSON.stringify({ id }),
    createdAt,
    expiresAt,
    hits: 0,
    lastHitAt: null,
  };
}
