import type { KeyType } from "./key-format";

export type KeyStatus = "active" | "revoked";
export const SCOPES = ["admin", "complete"] as const;
export type Scope = (typeof SCOPES)[number];

/** A key as the gateway holds it in memory: everything but the value, which is never kept. */
export interface KeyEntry {
  id: string;
  name: string;
  appId: string;
  type: KeyType;
  prefix: string;
  last4: string;
  hash: string;
  status: KeyStatus;
  scopes: string[];
  plan: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** The budget a call made with this key is charged on when it names none (svc_options.budget_id). */
  budgetId: string | null;
  /** The key's defaults for the agent runs its calls name; null fields: the operator's. */
  runLimits: KeyRunLimits;
}

/** An agent run's limits a key sets for its calls' runs (a run's own, from PUT, win); null: the operator's default. */
export interface KeyRunLimits {
  maxCostMicros: number | null;
  maxCalls: number | null;
  maxRepeats: number | null;
}

export const NO_RUN_LIMITS: KeyRunLimits = Object.freeze({ maxCostMicros: null, maxCalls: null, maxRepeats: null });

/** The record as the API and CLI show it (CONTRACT.md "Keys"); never carries the value or hash. */
export interface KeyRecordView {
  id: string;
  name: string;
  app_id: string;
  type: KeyType;
  prefix: string;
  last4: string;
  status: KeyStatus;
  scopes: string[];
  plan: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The key's default budget: calls that name no `svc_options.budget_id` reserve and spend on it. */
  budget_id: string | null;
  /** The key's defaults for its calls' agent runs (null: the operator's); a run's own limits win. */
  agent_run_limits: { max_cost_usd: number | null; max_calls: number | null; max_repeats: number | null };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function viewOf(k: KeyEntry): KeyRecordView {
  return {
    id: k.id,
    name: k.name,
    app_id: k.appId,
    type: k.type,
    prefix: k.prefix,
    last4: k.last4,
    status: k.status,
    scopes: k.scopes,
    plan: k.plan,
    created_at: iso(k.createdAt)!,
    last_used_at: iso(k.lastUsedAt),
    revoked_at: iso(k.revokedAt),
    budget_id: k.budgetId,
    agent_run_limits: {
      max_cost_usd: k.runLimits.maxCostMicros === null ? null : k.runLimits.maxCostMicros / 1e6,
      max_calls: k.runLimits.maxCalls,
      max_repeats: k.runLimits.maxRepeats,
    },
  };
}
