/**
 * What the budget and agent-run checks add to a call, in one process on real SQLite stores (WAL, as
 * the gateway runs it): every stage of the completion path (admission, the `planned` reservations, the
 * commit that settles the cost) for a call with `budget_id`, one with `budget_id` and `agent_run_id`,
 * against the same path for a call with neither (the baseline: quota only), interleaved call by call so
 * machine noise hits all alike. Figures are per call on the event loop; the added time is the
 * difference of the medians.
 *
 * Each kind of call has a store of its own, as if a process served only that kind: a call's settles are
 * written in the transaction of its process's next reservation (SqliteSpendStore's riding settles), so
 * with one shared store a call would pay for the settles of whichever kind came before it. The first
 * column is until the answer could go out, which includes the settles of the call before it; the
 * second, after the end of the event loop's turn, adds what is left of the call's own (handing them to
 * the store, or writing them alone once no reservation came within 5 ms).
 *
 * `--against <tree>` runs another checkout's code (its src/, e.g. main's worktree) in the same process,
 * call by call between this tree's, each with stores of its own: same-run ratios under any load.
 *
 *   bun bench/budget-guard.ts [--calls 5000] [--rounds 5] [--against ../main]
 *
 * Prints markdown.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { KeyEntry } from "../src/auth/key-record";
import type { Outcome, Plan, Priced } from "../src/pipeline/call";
import type { CompletionRequest } from "../src/pipeline/request";
import type { Stage } from "../src/pipeline/stage";
import { median, percentile } from "./lib/stats";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { calls: { type: "string", default: "5000" }, rounds: { type: "string", default: "5" }, against: { type: "string" } },
});
const CALLS = Number(flags.calls);
const ROUNDS = Number(flags.rounds);

/** A tree's modules: this checkout's, or the one `--against` names. */
async function load(root: string) {
  const from = <T>(path: string): Promise<T> => import(join(root, "src", path));
  return {
    ...(await from<typeof import("../src/store/db")>("store/db")),
    ...(await from<typeof import("../src/store/spend-store")>("store/spend-store")),
    ...(await from<typeof import("../src/store/counters")>("store/counters")),
    ...(await from<typeof import("../src/accounting/budgets")>("accounting/budgets")),
    ...(await from<typeof import("../src/accounting/settle-queue")>("accounting/settle-queue")),
    ...(await from<typeof import("../src/accounting/agent-runs")>("accounting/agent-runs")),
    ...(await from<typeof import("../src/accounting/costs")>("accounting/costs")),
    ...(await from<typeof import("../src/auth/quota")>("auth/quota")),
    ...(await from<typeof import("../src/auth/plans")>("auth/plans")),
    ...(await from<typeof import("../src/catalog/catalog")>("catalog/catalog")),
    ...(await from<typeof import("../src/metrics/metrics")>("metrics/metrics")),
    ...(await from<typeof import("../src/tokens/count")>("tokens/count")),
    ...(await from<typeof import("../src/pipeline/call")>("pipeline/call")),
    ...(await from<typeof import("../src/pipeline/stage")>("pipeline/stage")),
    ...(await from<typeof import("../src/pipeline/stages/quota")>("pipeline/stages/quota")),
    ...(await from<typeof import("../src/pipeline/stages/budget")>("pipeline/stages/budget")),
    ...(await from<typeof import("../src/pipeline/stages/agent-run")>("pipeline/stages/agent-run")),
  };
}
type Lib = Awaited<ReturnType<typeof load>>;

const key = { id: "key_bench", appId: "app_bench", type: "test", plan: "free", scopes: ["complete"] } as unknown as KeyEntry;
const KINDS = ["none", "budget", "both", "limited"] as const;
type Kind = (typeof KINDS)[number];

/** A gateway's budget and agent-run services on a store of its own, with a budget that never binds. */
async function gateway(lib: Lib) {
  const { openStore, SqliteSpendStore, SqliteCounters, SettleQueue, Quota, Plans, Budgets, AgentRuns, Metrics, quotaStage, budgetStage, agentRunStage } = lib;
  const catalog = lib.Catalog.load();
  lib.loadVocabularies(["o200k"]);
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-budget-"));
  const store = openStore(dir);
  const db = join(dir, "svc.db");
  const spend = new SqliteSpendStore(db);
  const counters = new SqliteCounters(db);
  const settles = new SettleQueue(spend);
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
  const budget = await services.budgets.create(key.appId, "bench", 1e15, "total");
  const close = async () => {
    spend.close();
    counters.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  // Runs with a cost limit of their own: their calls reserve the worst case on the run too.
  for (let i = 0; i < 50; i++) await services.agentRuns.put(key.appId, `limited-${i}`, { maxCostMicros: 1e15 });
  return { lib, catalog, model: catalog.resolve("gpt-4o"), services, stages, budget, close };
}
type Gateway = Awaited<ReturnType<typeof gateway>>;

const TREES = [{ name: "this tree", root: join(import.meta.dir, "..") }, ...(flags.against ? [{ name: flags.against, root: resolve(flags.against) }] : [])];
const gateways: Record<Kind, Gateway>[] = [];
for (const t of TREES) {
  const lib = await load(t.root);
  const g = {} as Record<Kind, Gateway>;
  for (const k of KINDS) g[k] = await gateway(lib);
  gateways.push(g);
}

let n = 0;
/**
 * One call through admission, the reservations and the commit: µs until the answer could go out, and
 * µs until the work the commit left for the end of the event loop's turn (the settles) is done.
 */
async function oneCall(tree: number, kind: Kind): Promise<[number, number]> {
  const { lib, catalog, model, stages, budget } = gateways[tree]![kind];
  const { openCall, admit, planned, commit, priceCall } = lib;
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

const SLOTS = TREES.flatMap((_, tree) => KINDS.map((kind) => ({ tree, kind })));
for (let i = 0; i < 800; i++) for (const { tree, kind } of SLOTS) await oneCall(tree, kind);
const fresh = () => TREES.map(() => ({ none: [], budget: [], both: [], limited: [] }) as Record<Kind, number[]>);
const medians = fresh();
const withSettle = fresh();
for (let r = 0; r < ROUNDS; r++) {
  const t = fresh();
  const w = fresh();
  for (let i = 0; i < CALLS; i++) {
    // Rotate which goes first, so none always runs on a warmer cache.
    for (let k = 0; k < SLOTS.length; k++) {
      const { tree, kind } = SLOTS[(i + k) % SLOTS.length]!;
      const [answered, settled] = await oneCall(tree, kind);
      t[tree]![kind].push(answered);
      w[tree]![kind].push(settled);
    }
  }
  TREES.forEach((_, tree) => {
    for (const k of KINDS) {
      medians[tree]![k].push(median(t[tree]![k]));
      withSettle[tree]![k].push(median(w[tree]![k]));
    }
  });
  if (r === ROUNDS - 1)
    TREES.forEach((tr, tree) => {
      const p = (k: Kind) => percentile(t[tree]![k], 99).toFixed(1);
      console.log(
        `${tr.name}, last round p99 µs: baseline ${p("none")}, budget ${p("budget")}, budget + agent run ${p("both")}, with a run cost limit ${p("limited")}`,
      );
    });
}
/** Each round's p50 less the baseline's of the same tree and round. */
const addedOf = (m: Record<Kind, number[]>[], tree: number, k: Kind) => m[tree]![k].map((x, r) => x - m[tree]!.none[r]!);
const LABELS: Record<Kind, string> = {
  none: "baseline: quota stage only",
  budget: "with budget_id",
  both: "with budget_id and agent_run_id (no run cost limit: the default)",
  limited: "with budget_id and agent_run_id, the run with a cost limit",
};
for (const [tree, tr] of TREES.entries()) {
  console.log(`\n## ${tr.name}: budget and agent-run checks per call (${CALLS} calls of each kind × ${ROUNDS} rounds, interleaved)\n`);
  console.log(
    "| call | p50 µs until the answer can go out (median of rounds) | added to the baseline (goal ≤ 50) | p50 µs with the settle after the turn | added |\n|---|---|---|---|---|",
  );
  for (const k of KINDS) {
    const add = (m: Record<Kind, number[]>[]) => (k === "none" ? "" : median(addedOf(m, tree, k)).toFixed(1));
    console.log(
      `| ${LABELS[k]} | ${median(medians[tree]![k]).toFixed(1)} | ${add(medians)} | ${median(withSettle[tree]![k]).toFixed(1)} | ${add(withSettle)} |`,
    );
  }
  const rounds = (k: Kind) =>
    addedOf(medians, tree, k)
      .map((x) => x.toFixed(1))
      .join(", ");
  const views = await Promise.all(
    KINDS.filter((k) => k !== "none").map((k) => gateways[tree]![k].services.budgets.get(key.appId, gateways[tree]![k].budget.id)),
  );
  console.log(
    `\nrounds' added p50, budget: ${rounds("budget")} µs; both: ${rounds("both")} µs; with a run cost limit: ${rounds("limited")} µs. Budgets spent $${views.map((v) => v.spent_usd).join(", $")}, reserved $${views.map((v) => v.reserved_usd).join(", $")} after the run`,
  );
}
if (TREES.length > 1) {
  console.log(`\n## ${TREES[0]!.name} / ${TREES[1]!.name}: added p50 with the settle, same run (median of the rounds' ratios)\n`);
  console.log("| call | ratio |\n|---|---|");
  for (const k of KINDS.filter((x) => x !== "none")) {
    const ours = addedOf(withSettle, 0, k);
    const theirs = addedOf(withSettle, 1, k);
    console.log(`| ${LABELS[k]} | ${median(ours.map((x, r) => x / theirs[r]!)).toFixed(2)} |`);
  }
}
console.log(`\nload average ${loadavg()[0]!.toFixed(1)}`);
for (const g of gateways) for (const k of KINDS) await g[k].close();
