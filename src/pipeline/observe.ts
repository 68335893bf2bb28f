import type { LedgerRow } from "../accounting/ledger";
import { UpstreamFailure, type Attempt } from "../providers/call";
import type { SavingSource } from "../metrics/metrics";
import type { Services } from "./services";
import type { Call, CallEnd } from "./call";

type Ended = Exclude<CallEnd, { kind: "refused" }>;

/** The upstream attempts a call made: on the call once the provider answered, on the failure otherwise. */
export function attemptsOf(call: Call, end: Ended): readonly Attempt[] {
  if (call.attempts) return call.attempts;
  return end.kind === "failed" && end.error instanceof UpstreamFailure ? end.error.attempts : [];
}

/**
 * The model label of a call: the one that served it, else the one it was routed to, else what it
 * asked for; a model the catalog does not list (served by name, or unknown) is "other".
 */
function modelOf(s: Pick<Services, "metrics">, call: Call, end: Ended): string {
  if (end.kind !== "failed") return s.metrics.modelLabel(end.outcome.served.id);
  return s.metrics.modelLabel(call.plan?.candidates[0]?.id ?? call.req.model);
}

/** Records a settled call in the Prometheus metrics, from its ledger row and the marks the runner left on it. */
export function observeCall(s: Pick<Services, "metrics">, call: Call, end: Ended, row: LedgerRow): void {
  const m = s.metrics;
  m.countCompletion(call.route, row.status, modelOf(s, call, end), row.cacheHit, row.latencyMs / 1000);
  m.observeOverhead(Math.max(0, row.overheadMs) / 1000);
  const { opened, admitted, optimized, lookedUp } = call.marks;
  m.observeStage("admit", (admitted - opened) / 1000);
  if (optimized) m.observeStage("optimize", (optimized - admitted) / 1000);
  if (lookedUp) m.observeStage("cache_lookup", (lookedUp - optimized) / 1000);
  const attempts = attemptsOf(call, end);
  let upstreamMs = 0;
  for (let i = 0; i < attempts.length; i++) {
    m.countAttempt(attempts[i]!, attempts[i - 1]);
    upstreamMs += attempts[i]!.ms;
  }
  if (attempts.length > 0) m.observeStage("upstream", (end.kind === "failed" ? upstreamMs : end.outcome.upstreamMs) / 1000);
  if (end.kind === "failed") return;
  const { savedTokens, costs } = end.priced;
  m.countCost(costs.cost_actual_usd);
  // The same split as svc_meta.saved_by_source and the ledger's columns.
  const tokens: Partial<Record<SavingSource, number>> = savedTokens;
  for (const source of Object.keys(costs.saved_by_source) as SavingSource[]) m.countSaving(source, costs.saved_by_source[source], tokens[source] ?? 0);
}
