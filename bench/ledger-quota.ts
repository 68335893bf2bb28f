/**
 * What the durable ledger and the store-backed call limits cost a call, next to what the same work
 * cost in memory, measured in one run: per call, `Quota.consume` (an atomic upsert in SQLite per lease) and
 * `Ledger.record` (one journal append; the writer thread stores batches), against an in-memory count
 * and a queue push. Calls run one after another on the event loop, as the relay's would.
 *
 *   bun bench/ledger-quota.ts [--calls 20000] [--rounds 3]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Ledger, type LedgerRow } from "../src/accounting/ledger";
import { LedgerJournal } from "../src/accounting/ledger-journal";
import { threadWriter } from "../src/accounting/ledger-writer";
import type { KeyEntry } from "../src/auth/key-record";
import { Plans } from "../src/auth/plans";
import { Quota } from "../src/auth/quota";
import { SqliteCounters } from "../src/store/counters";
import { openStore } from "../src/store/db";
import { median } from "./lib/stats";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { calls: { type: "string", default: "20000" }, rounds: { type: "string", default: "3" } },
});
const CALLS = Number(flags.calls);

const key = { id: "key_bench", appId: "app", type: "live", plan: "enterprise", scopes: ["complete"] } as unknown as KeyEntry;
const row = (i: number): LedgerRow => ({
  requestId: `svc_req_${Date.now()}_${i}_${Math.random()}`,
  keyId: key.id,
  appId: key.appId,
  model: "gpt-4o-mini-2024-07-18",
  modelRequested: "gpt-4o-mini",
  provider: "openai",
  promptTokens: 300,
  completionTokens: 40,
  originalTokens: 320,
  costOriginalUsd: 0.0001,
  costActualUsd: 0.00005,
  savedUsd: 0.00005,
  cacheHit: false,
  status: 200,
  errorCode: null,
  latencyMs: 1.2,
  overheadMs: 0.3,
  stream: false,
  budgetId: null,
  conversationId: null,
  agentRunId: null,
  createdAt: Date.now(),
});

/** Per-call µs of `fn`, timed over `CALLS` calls one after another. */
async function perCall(fn: (i: number) => unknown): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const r = fn(i);
    if (r instanceof Promise) await r;
  }
  return ((performance.now() - t0) * 1000) / CALLS;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "svc-ledger-quota-"));
  const store = openStore(dir);
  const plans = Plans.load();
  const counters = new SqliteCounters(join(dir, "svc.db"));
  const quota = new Quota(counters, plans, 1_000_000_000);
  const ledger = new Ledger(threadWriter(join(dir, "svc.db"), 5000), new LedgerJournal(join(dir, "journal")));
  const inMemory = new Map<string, number>();
  const queue: LedgerRow[] = [];
  const results: Record<string, number[]> = {
    "quota: in memory": [],
    "quota: store, leased": [],
    "ledger: queue push": [],
    "ledger: journal + writer thread": [],
  };
  for (let round = 0; round < Number(flags.rounds); round++) {
    results["quota: in memory"]!.push(await perCall(() => inMemory.set(key.id, (inMemory.get(key.id) ?? 0) + 1)));
    results["quota: store, leased"]!.push(await perCall(() => quota.consume(key, Date.now())));
    results["ledger: queue push"]!.push(await perCall((i) => queue.push(row(i))));
    queue.length = 0;
    results["ledger: journal + writer thread"]!.push(await perCall((i) => ledger.record(row(i))));
    await ledger.flush();
  }
  console.log(`| per call, ${CALLS} calls x ${flags.rounds} rounds | median µs |\n|---|---|`);
  for (const [name, xs] of Object.entries(results)) console.log(`| ${name} | ${median(xs).toFixed(2)} |`);
  await ledger.close();
  counters.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
