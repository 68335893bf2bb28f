/**
 * What the pure relay costs beside the bare proxy, in CPU per request: the mock, the bare proxy and
 * one gateway per source tree, all pinned to the servers' core, driven by wrk in interleaved rounds.
 * Per round and target: wrk at 32 connections (--connections) (throughput, and the target's CPU time from
 * /proc/<pid>/stat divided by the requests it answered, every thread of the process included), then
 * wrk at 1 connection (p50). Figures are medians over rounds, and medians of the per-round differences
 * to the proxy measured in the same round ("paired"), which is what to compare on a noisy machine.
 *
 *   bun bench/relay-cpu.ts [--rounds 7] [--seconds 4] [--c1-seconds 3] [--warm-seconds 8] [--connections 32] [--tree name=/path[:SVC_X=1,...] ...]
 *
 * `--c1-seconds 0` skips the concurrency-1 phase: on a loaded machine many short rounds (e.g. `--rounds 30
 * --seconds 1`) pair each target with its neighbours closer in time than a few long ones. With two trees
 * or more, each later tree's paired difference to the first is printed too (e.g. a branch against main).
 *
 * Without --tree the gateway of this checkout is measured. To compare commits, give each its own tree:
 *   git archive <commit> | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   bun bench/relay-cpu.ts --tree old=/tmp/old --tree new=.
 * The gateways run warm (--warm-seconds of load each before the first round): the JIT needs several
 * seconds of load before the relay's cost settles.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { corePlan, cpuTimeUs, stopAll } from "./lib/processes";
import { roundOrder } from "./lib/measure";
import { median } from "./lib/stats";
import { gatewaySpecs, startBareProxy, startGateway, startMock, treeSpec } from "./lib/targets";
import { loadWorkload, requestBody, writeWrkInputs } from "./lib/workload";
import { ensureWrk, runWrk, type LoadSpec } from "./lib/wrk";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    rounds: { type: "string", default: "7" },
    seconds: { type: "string", default: "4" },
    "c1-seconds": { type: "string", default: "3" },
    "warm-seconds": { type: "string", default: "8" },
    connections: { type: "string", default: "32" },
    tree: { type: "string", multiple: true, default: [] },
  },
});

/** User plus system time of a process and all its threads, µs (Linux clock ticks are 10 ms). */
const cpuUs = (pid: number) => cpuTimeUs(`/proc/${pid}/stat`).us;

interface Target {
  name: string;
  pid: number;
  spec: LoadSpec;
  cpuUs: number[];
  rps: number[];
  p50c1: number[];
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "svc-relay-cpu-"));
  try {
    const cores = corePlan();
    const wrk = await ensureWrk((l) => console.log(l));
    const w = loadWorkload(300);
    const { sentencesFile } = writeWrkInputs(work, w);
    const sentences = { file: sentencesFile, perPrompt: w.sentencesPerPrompt };
    const mock = await startMock(work, cores.servers, { latencyMs: 0, chunkDelayMs: 0 });
    const proxy = await startBareProxy(work, cores.servers, mock.url);
    const targets: Target[] = [];
    const add = (name: string, pid: number, spec: LoadSpec) => targets.push({ name, pid, spec, cpuUs: [], rps: [], p50c1: [] });
    add("proxy", proxy.pid, { url: `${proxy.url}/v1/chat/completions`, headers: {}, body: JSON.stringify(requestBody("openai", w.fixedPrompt)) });
    const trees = flags.tree.length > 0 ? flags.tree : ["svc=."];
    for (const t of trees) {
      const { name, path, env } = treeSpec(t);
      const gw = await startGateway(work, cores.servers, mock.url, "warn", name, [], path, { env });
      add(name, gw.pid, gatewaySpecs(gw, w, false).relay);
    }
    const run = (t: Target, connections: number, seconds: string) =>
      runWrk(wrk, t.spec, { connections, durationS: Number(seconds), cores: cores.client }, work, sentences);
    const connections = Number(flags.connections);
    const c1 = Number(flags["c1-seconds"]) > 0;
    for (const t of targets) await run(t, connections, flags["warm-seconds"]);
    const rounds = Number(flags.rounds);
    for (let round = 1; round <= rounds; round++) {
      for (const t of roundOrder(targets, round - 1)) {
        const before = cpuUs(t.pid);
        const r = await run(t, connections, flags.seconds);
        if (r.errors > 0) throw new Error(`${t.name}: ${r.errors} errors at ${connections} connections`);
        t.cpuUs.push((cpuUs(t.pid) - before) / r.requests);
        t.rps.push(r.rps);
        if (c1) t.p50c1.push((await run(t, 1, flags["c1-seconds"])).latencyUs.p50);
      }
      console.log(
        `round ${round}/${rounds}: ` +
          targets
            .map((t) => `${t.name} ${t.cpuUs.at(-1)!.toFixed(0)} µs/req ${t.rps.at(-1)!.toFixed(0)} req/s${c1 ? ` p50 ${t.p50c1.at(-1)} µs` : ""}`)
            .join(" | "),
      );
    }
    const floor = targets[0]!;
    const paired = (t: Target, f: (i: number) => number) => median(t.cpuUs.map((_, i) => f(i)));
    const p50 = (xs: number[]) => (c1 ? median(xs).toFixed(0) : "-");
    console.log(`\n| target | CPU µs/request | req/s at ${connections} conn. | p50 µs at 1 conn. | paired vs proxy: CPU µs | throughput | p50 µs |`);
    console.log(`|---|---|---|---|---|---|---|`);
    for (const t of targets) {
      const dCpu = paired(t, (i) => t.cpuUs[i]! - floor.cpuUs[i]!);
      const ratio = paired(t, (i) => t.rps[i]! / floor.rps[i]!);
      const dP50 = c1 ? `+${paired(t, (i) => t.p50c1[i]! - floor.p50c1[i]!).toFixed(0)}` : "-";
      console.log(
        `| ${t.name} | ${median(t.cpuUs).toFixed(1)} | ${median(t.rps).toFixed(0)} | ${p50(t.p50c1)} | +${dCpu.toFixed(1)} | ${(ratio * 100).toFixed(0)}% | ${dP50} |`,
      );
    }
    const [first, ...later] = targets.slice(1);
    for (const t of later) {
      const dCpu = paired(t, (i) => t.cpuUs[i]! - first!.cpuUs[i]!);
      const ratio = paired(t, (i) => t.rps[i]! / first!.rps[i]!);
      console.log(
        `\n${t.name} against ${first!.name}, paired per round: CPU ${dCpu >= 0 ? "+" : ""}${dCpu.toFixed(1)} µs/request, throughput ${(ratio * 100).toFixed(0)}%`,
      );
    }
  } finally {
    await stopAll();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`relay-cpu failed: ${(e as Error).stack ?? e}\n`);
  process.exitCode = 1;
});
