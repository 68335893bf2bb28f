/**
 * What the budget and agent-run checks add to a call, in one process on a real SQLite store (WAL, as
 * the gateway runs it): every stage of the completion path (admission, the `planned` reservations, the
 * commit that settles the cost) for a call with `budget_id`, one with `budget_id` and `agent_run_id`,
 * against the same path for a call with neither (the baseline: quota only), interleaved call by call so
 * machine noise hits all alike. Figures are per call on the event loop; the added time is the
 * difference of the medians.
 *
 *   bun bench/budget-guard.ts [--calls 5000] [--rounds 5]
 *
 * Prints markdown.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openStore } from "../src/store/db";
import { SqliteSpendStore } from "../src/store/spend-store";
import { SqliteCounters } from "../src/store/counters";
import { Budgets } from "../src/accounting/budgets";
import { SettleQueue } from "../src/accounting/settle-queue";
import { AgentRuns } from "../src/accounting/agent-runs";
import { Quota } from "../src/auth/quota";
import { Plans } from "../src/auth/plans";
import { Catalog } from "../src/catalog/catalog";
import { Metrics } from "../src/metrics/metrics";
import { loadVocabularies } from "../src/tokens/count";
import type { KeyEntry } from "../src/auth/key-record";
import { openCall, type Outcome, type Plan, type Priced } from "../src/pipeline/call";
import type { CompletionRequest } from "../src/pipeline/request";
import { admit, commit, planned, type Stage } from "../src/pipeline/stage";
import { quotaStage } from "../src/pipeline/stages/quota";
import { budgetStage } from "../src/pipeline/stages/budget";
import { agentRunStage } from "../src/pipeline/stages/agent-run";
import { priceCall } from "../src/accounting/costs";
import { median, percentile } from "./lib/stats";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { calls: { type: "string", default: "5000" }, rounds: { type: "string", default: "5" } },
});
const CALLS = Number(flags.calls);
const ROUNDS = Number(flags.rounds);

const dir = mkdtempSync(join(tmpdir(), "svc-bench-budget-"));
const store = openStore(dir);
const db = join(dir, "svc.db");
const spend = new SqliteSpendStore(db);
const counters = new SqliteCounters(db);
const catalog = Catalog.load();
const settles = new SettleQueue(spend);
loadVocabularies(["o200k"]);
const services = {
  catalog,
  // A test key: its daily limit (1e9 here) never binds.
  quota: new Quota(counters, Plans.load(), 1e9),
  budgets: new Budgets(spend, String(process.pid), Date.now, settles),
  agentRuns: new AgentRuns(spend, { maxCostMicros: 0, maxCalls: 0, maxRepeats: 3 }, String(process.pid), 0, Date.now, settles),
  metrics: new Metrics(),
};
// In the gateway's order (STAGES): the budget plans before the agent run, and reserves the run's cost limit with its own.
const stages: Stage[] = [quotaStage(services), budgetStage(services), agentRunStage(services)] as Stage[];
const key = { id: "key_bench", appId: "app_bench", type: "test", plan: "free", scopes: ["complete"] } as unknown as KeyEntry;
const budget = await services.budgets.create(key.appId, "bench", 1e15, "total");
const model = catalog.resolve("gpt-4o");

let n = 0;
/**
 * One call through admission, the reservations and the commit: µs until the answer could go out, and
 * µs until the work the commit left for the end of the event loop's turn (the budget's settle) is done.
 */
type Kind = "none" | "budget" | "both" | "limited";
async function oneCall(kind: Kind): Promise<[number, number]> {
  const i = n++;
  const messages = [{ role: "user" as const, content: `Summarize the quarterly report for region ${i} in three bullet points.` }];
  const req: CompletionRequest = {
    messages,
    model: model.id,
    max_tokens: 256,
    stream: false,
    params: {},
    svc_options: {
      compress: false,
      route: false,
      cache: false,
      cache_nondeterministic: false,
      score: false,
      mask_pii: false,
      max_aggressiveness: 0.5,
      skip_rules: [],
      ...(kind !== "none" && { budget_id: budget.id }),
      ...(kind === "both" && { agent_run_id: `run-${i % 50}` }),
      ...(kind === "limited" && { agent_run_id: `limited-${i % 50}` }),
    },
  };
  const t0 = performance.now();
  const call = openCall(key, req, { requestId: `svc_req_${i}`, t0, signal: new AbortController().signal, route: "/v1/complete" });
  await admit(call, stages);
  const plan = { opt: { messages }, candidates: [model], requested: model, reason: "explicit_model" } as unknown as Plan;
  await planned(call, plan);
  const out: Outcome = {
    served: model,
    choices: [],
    usage: { prompt_tokens: 20, completion_tokens: 100 },
    reason: "explicit_model",
    cacheHit: false,
    upstreamMs: 0,
    simulated: false,
    cacheable: false,
  };
  const costs = priceCall(catalog, { requested: model, served: model, originalPromptTokens: 20, sentPromptTokens: 20, completionTokens: 100, cacheHit: false });
  const priced = { costs, originalPromptTokens: 20, totalMs: 0, overheadMs: 0, meta: {} } as unknown as Priced;
  commit(call, out, priced);
  const answered = performance.now();
  await new Promise((resolve) => setImmediate(resolve));
  return [(answered - t0) * 1000, (performance.now() - t0) * 1000];
}

const KINDS: Kind[] = ["none", "budget", "both", "limited"];
// Runs with a cost limit of their own: their calls reserve the worst case on the run too.
for (let i = 0; i < 50; i++) await services.agentRuns.put(key.appId, `limited-${i}`, { maxCostMicros: 1e15 });
for (let i = 0; i < 800; i++) await oneCall(KINDS[i % KINDS.length]!);
const fresh = (): Record<Kind, number[]> => ({ none: [], budget: [], both: [], limited: [] });
const medians = fresh();
const withSettle = fresh();
for (let r = 0; r < ROUNDS; r++) {
  const t = fresh();
  const w = fresh();
  for (let i = 0; i < CALLS; i++) {
    // Rotate which goes first, so none always runs on a warmer cache.
    for (let k = 0; k < KINDS.length; k++) {
      const kind = KINDS[(i + k) % KINDS.length]!;
      const [answered, settled] = await oneCall(kind);
      t[kind].push(answered);
      w[kind].push(settled);
    }
  }
  for (const k of KINDS) {
    medians[k].push(median(t[k]));
    withSettle[k].push(median(w[k]));
  }
  if (r === ROUNDS - 1)
    console.log(
      `last round p99 µs: baseline ${percentile(t.none, 99).toFixed(1)}, budget ${percentile(t.budget, 99).toFixed(1)}, budget + agent run ${percentile(t.both, 99).toFixed(1)}, with a run cost limit ${percentile(t.limited, 99).toFixed(1)}`,
    );
}
const added = (k: Kind) => medians[k].map((m, r) => m - medians.none[r]!);
const addedWithSettle = (k: Kind) => withSettle[k].map((m, r) => m - withSettle.none[r]!);
const view = await services.budgets.get(key.appId, budget.id);
console.log(`\n## Budget and agent-run checks per call (${CALLS} calls of each kind × ${ROUNDS} rounds, interleaved)\n`);
console.log(
  "| call | p50 µs until the answer can go out (median of rounds) | added to the baseline (goal ≤ 50) | p50 µs with the settle after the turn | added |\n|---|---|---|---|---|",
);
const row = (label: string, k: Kind) =>
  `| ${label} | ${median(medians[k]).toFixed(1)} | ${k === "none" ? "" : median(added(k)).toFixed(1)} | ${median(withSettle[k]).toFixed(1)} | ${k === "none" ? "" : median(addedWithSettle(k)).toFixed(1)} |`;
console.log(row("baseline: quota stage only", "none"));
console.log(row("with budget_id", "budget"));
console.log(row("with budget_id and agent_run_id (no run cost limit: the default)", "both"));
console.log(row("with budget_id and agent_run_id, the run with a cost limit", "limited"));
console.log(
  `\nrounds' added p50, budget: ${added("budget")
    .map((x) => x.toFixed(1))
    .join(", ")} µs; both: ${added("both")
    .map((x) => x.toFixed(1))
    .join(", ")} µs; with a run cost limit: ${added("limited")
    .map((x) => x.toFixed(1))
    .join(", ")} µs. Budget spent $${view.spent_usd}, reserved $${view.reserved_usd} after the run; load average ${loadavg()[0]!.toFixed(1)}`,
);
spend.close();
counters.close();
store.close();
rmSync(dir, { recursive: true, force: true });
