/**
 * Where one request's CPU goes, by thread: the event loop, the optimizer workers, and the runtime's own
 * threads (JIT compilers, garbage-collector helpers, the allocator's scavenger). One request at a time
 * after a warm-up, for the pure relay, a cache hit and a cache miss; CPU time (user + system) of each
 * thread from /proc/<pid>/task, so a busy shared machine slows the run but barely moves the figures,
 * unlike wall-clock profiles, whose samples land wherever a thread was preempted.
 *
 *   bun bench/thread-cpu.ts [--requests 2000] [--miss-requests 500] [--warm 1500] [--tree /path] [--log-level warn]
 *
 * Linux counts CPU in 10 ms ticks: with N requests a row is exact to 10 ms / N (5 µs at 2,000).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { fromLoadSpec, timeRequests } from "./lib/client";
import { cpuTimeUs, ROOT, stopAll } from "./lib/processes";
import { gatewaySpecs, startGateway, startMock } from "./lib/targets";
import { loadWorkload, PROMPT_SLOT, variedPrompt } from "./lib/workload";
import type { LoadSpec } from "./lib/wrk";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    requests: { type: "string", default: "2000" },
    "miss-requests": { type: "string", default: "500" },
    warm: { type: "string", default: "1500" },
    tree: { type: "string", default: ROOT },
    "log-level": { type: "string", default: "warn" },
  },
});

/** Thread names as the runtime sets them, folded into the groups a reader acts on. */
function groupOf(name: string, isMain: boolean): string {
  if (isMain) return "event loop";
  if (name === "Worker") return "optimizer workers";
  if (/JIT|WarmUp/i.test(name)) return "JIT compilers";
  if (/Heap|ollector|GC/i.test(name)) return "garbage collector";
  if (/scavenger/i.test(name)) return "allocator";
  return `other (${name})`;
}

/** CPU µs so far of every thread of `pid`, by group. */
function cpuByGroup(pid: number): Map<string, number> {
  const groups = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let thread: { name: string; us: number };
    try {
      thread = cpuTimeUs(`/proc/${pid}/task/${tid}/stat`);
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const group = groupOf(thread.name, tid === String(pid));
    groups.set(group, (groups.get(group) ?? 0) + thread.us);
  }
  return groups;
}

const work = mkdtempSync(join(tmpdir(), "svc-thread-cpu-"));
try {
  const w = loadWorkload(300);
  const mock = await startMock(work, undefined, { latencyMs: 0, chunkDelayMs: 0 });
  const gw = await startGateway(work, undefined, mock.url, flags["log-level"], "svc", [], resolve(flags.tree));
  const specs = gatewaySpecs(gw, w, false);
  // Fresh prompts for the miss (the relay and hit bodies have no slot, so they are sent as they are).
  const client = (spec: LoadSpec) => fromLoadSpec(spec, (i) => spec.body.replace(PROMPT_SLOT, JSON.stringify(variedPrompt(w, i)).slice(1, -1)));
  const configs = [
    { name: "pure relay", target: client(specs.relay), n: Number(flags.requests) },
    { name: "cache hit", target: client(specs.hit), n: Number(flags.requests) },
    { name: "cache miss (every stage on)", target: client(specs.miss), n: Number(flags["miss-requests"]) },
  ];
  const rows: { name: string; perGroup: Map<string, number> }[] = [];
  const warm = Number(flags.warm);
  let seed = 0;
  for (const c of configs) {
    await timeRequests(c.target, warm, seed);
    const before = cpuByGroup(gw.pid);
    await timeRequests(c.target, c.n, seed + warm);
    const after = cpuByGroup(gw.pid);
    seed += warm + c.n;
    rows.push({ name: c.name, perGroup: new Map([...after].map(([g, us]) => [g, (us - (before.get(g) ?? 0)) / c.n])) });
  }
  const groups = [...new Set(rows.flatMap((r) => [...r.perGroup.keys()]))].filter((g) => rows.some((r) => (r.perGroup.get(g) ?? 0) > 0));
  console.log(
    `# CPU per request by thread (µs), one request at a time\n\n${flags.warm} warm-up requests per configuration; tree ${resolve(flags.tree)}; SVC_LOG_LEVEL=${flags["log-level"]}.\n`,
  );
  console.log(`| configuration | ${groups.join(" | ")} | total |`);
  console.log(`|---|${groups.map(() => "---:").join("|")}|---:|`);
  for (const r of rows) {
    const total = groups.reduce((n, g) => n + (r.perGroup.get(g) ?? 0), 0);
    console.log(`| ${r.name} | ${groups.map((g) => (r.perGroup.get(g) ?? 0).toFixed(0)).join(" | ")} | ${total.toFixed(0)} |`);
  }
} finally {
  await stopAll();
  rmSync(work, { recursive: true, force: true });
}
