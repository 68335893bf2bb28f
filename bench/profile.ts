/**
 * Where the gateway spends its CPU under load: runs `svc serve` under `bun --cpu-prof`, drives one
 * configuration with wrk at 32 connections, stops the server and lists the functions with the most
 * self time (main thread; worker threads write profiles of their own, summarised alongside).
 *
 *   bun bench/profile.ts [--config relay|miss|hit] [--seconds 10] [--connections 32] [--out bench/results] [--raw]
 *
 * `--connections 1` profiles one request at a time, where a miss's optimizer runs on the event loop
 * (Optimizer.runsInline) and what follows the answer lands on the next request's time.
 *
 * Writes <out>/profile-<config>.md; with --raw also the .cpuprofile files, for call stacks in Chrome DevTools.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { runContext } from "./lib/machine";
import { corePlan, ROOT, stopAll } from "./lib/processes";
import { gatewaySpecs, startGateway, startMock } from "./lib/targets";
import { loadWorkload, writeWrkInputs } from "./lib/workload";
import { ensureWrk, runWrk } from "./lib/wrk";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    config: { type: "string", default: "miss" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    out: { type: "string", default: join(ROOT, "bench", "results") },
    raw: { type: "boolean", default: false },
  },
});
const config = flags.config as "relay" | "miss" | "hit";
if (!["relay", "miss", "hit"].includes(config)) throw new Error("--config must be relay, miss or hit");

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (ms) per function and per file of one .cpuprofile. */
function selfTimes(p: CpuProfile): { byFunction: Map<string, number>; byFile: Map<string, number>; totalMs: number } {
  const frames = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    const f = frames.get(id);
    if (!f) return;
    total += ms;
    const file = f.url ? relative(ROOT, f.url.replace(/^file:\/\//, "")) : "(native)";
    const fn = `${f.functionName || "(anonymous)"}  ${file}:${f.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
  });
  return { byFunction, byFile, totalMs: total };
}

function top(m: Map<string, number>, total: number, n: number): string[] {
  return [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `| ${((v / total) * 100).toFixed(1)}% | ${v.toFixed(0)} | \`${k.replace(/\|/g, "\\|")}\` |`);
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "svc-profile-"));
  const profDir = join(work, "prof");
  try {
    const cores = corePlan();
    const wrk = await ensureWrk((l) => console.log(l));
    const w = loadWorkload(300);
    const { sentencesFile } = writeWrkInputs(work, w);
    const mock = await startMock(work, cores.servers, { latencyMs: 0, chunkDelayMs: 0 });
    const gw = await startGateway(work, cores.servers, mock.url, "warn", "svc-prof", ["--cpu-prof", `--cpu-prof-dir=${profDir}`]);
    const spec = gatewaySpecs(gw, w, false)[config];
    const r = await runWrk(wrk, spec, { connections: Number(flags.connections), durationS: Number(flags.seconds), cores: cores.client }, work, {
      file: sentencesFile,
      perPrompt: w.sentencesPerPrompt,
    });
    await gw.stop();
    await mock.stop();
    const out: string[] = [
      `# CPU profile of svc under load: ${config}`,
      "",
      `- ${runContext().date}, commit ${runContext().commit}; \`bun bench/profile.ts ${process.argv.slice(2).join(" ")}\``,
      `- wrk, ${flags.connections} connections, ${flags.seconds}s: ${r.rps.toFixed(0)} req/s, p50 ${r.latencyUs.p50} µs, p99 ${r.latencyUs.p99} µs, ${r.errors} errors`,
      "",
    ];
    for (const file of readdirSync(profDir).filter((f) => f.endsWith(".cpuprofile"))) {
      const t = selfTimes(JSON.parse(readFileSync(join(profDir, file), "utf8")) as CpuProfile);
      out.push(
        `## ${file} (${(t.totalMs / 1000).toFixed(1)} s sampled)`,
        "",
        "| self % | self ms | function |",
        "|---|---|---|",
        ...top(t.byFunction, t.totalMs, 25),
        "",
      );
      out.push("| self % | self ms | file |", "|---|---|---|", ...top(t.byFile, t.totalMs, 12), "");
    }
    mkdirSync(flags.out, { recursive: true });
    if (flags.raw) for (const file of readdirSync(profDir)) copyFileSync(join(profDir, file), join(flags.out, `${config}-${file}`));
    const path = join(flags.out, `profile-${config}.md`);
    writeFileSync(path, out.join("\n"));
    console.log(`wrote ${path}`);
  } finally {
    await stopAll();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`profile failed: ${(e as Error).stack ?? e}\n`);
  process.exitCode = 1;
});
