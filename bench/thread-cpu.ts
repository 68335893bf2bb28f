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
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT, stopAll } from "./lib/processes";
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
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const us = (Number(fields[11]) + Number(fields[12])) * 10_000;
    const group = groupOf(name, tid === String(pid));
    groups.set(group, (groups.get(group) ?? 0) + us);
  }
  return groups;
}

async function send(spec: LoadSpec, prompt: string): Promise<void> {
  const body = spec.body.replace(PROMPT_SLOT, JSON.stringify(prompt).slice(1, -1));
  const r = await fetch(spec.url, { method: "POST", headers: { ...spec.headers, "content-type": "application/json" }, body });
  if (!r.ok) throw new Error(`${spec.url} answered ${r.status}: ${await r.text()}`);
  await r.arrayBuffer();
}

const work = mkdtempSync(join(tmpdir(), "svc-thread-cpu-"));
try {
  const w = loadWorkload(300);
  const mock = await startMock(work, undefined, { latencyMs: 0, chunkDelayMs: 0 });
  const gw = await startGateway(work, undefined, mock.url, flags["log-level"], "svc", [], resolve(flags.tree));
  const specs = gatewaySpecs(gw, w, false);
  const configs = [
    { name: "pure relay", spec: specs.relay, n: Number(flags.requests) },
    { name: "cache hit", spec: specs.hit, n: Number(flags.requests) },
    { name: "cache miss (every stage on)", spec: specs.miss, n: Number(flags["miss-requests"]) },
  ];
  const rows: { name: string; perGroup: Map<string, number> }[] = [];
  let seed = 0;
  for (const c of configs) {
    // Fresh prompts for the miss (the relay and hit bodies have no slot, so the prompt is ignored).
    for (let i = 0; i < Number(flags.warm); i++) await send(c.spec, variedPrompt(w, ++seed));
    const before = cpuByGroup(gw.pid);
    for (let i = 0; i < c.n; i++) await send(c.spec, variedPrompt(w, ++seed));
    const after = cpuByGroup(gw.pid);
    rows.push({ name: c.name, perGroup: new Map([...after].map(([g, us]) => [g, (us - (before.get(g) ?? 0)) / c.n])) });
  }
  const groups = [...new Set(rows.flatMap((r) => [...r.perGroup.keys()]))].filter((g) => rows.some((r) => (r.perGroup.get(g) ?? 0) > 0));
  console.log(`# CPU per request by thread (µs), one request at a time\n\n${flags.warm} warm-up requests per configuration; tree ${resolve(flags.tree)}; SVC_LOG_LEVEL=${flags["log-level"]}.\n`);
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
