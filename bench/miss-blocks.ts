/**
 * How a cache miss's time at concurrency 1 settles after a start, block by block: one gateway, the bare
 * proxy beside it, an optional burst of misses at 8 connections first (bench/run.ts warms its targets
 * with wrk at 8 connections, where the misses' model tasks go to the worker pool and the event loop's
 * own optimizer, which runs a lone short miss, stays cold), then misses one at a time in blocks, each
 * block of the gateway followed by one of the proxy. Prints each block's p50 over the proxy's, and the
 * mean time of each pipeline step over the timed misses from the gateway's own histograms
 * (svc_stage_duration_seconds, svc_overhead_seconds in GET /metrics).
 *
 *   bun bench/miss-blocks.ts [--tree .] [--burst-s 4] [--warm 0] [--requests 600] [--block 50]
 *
 * bench/run.ts times concurrency 1 after its wrk warm-up and 1,000 requests one at a time per target
 * (it timed after 100 until the blocks here showed that those fall in the cold part of this curve).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { fromLoadSpec, timeRequests } from "./lib/client";
import { corePlan, stopAll } from "./lib/processes";
import { percentile } from "./lib/stats";
import { gatewaySpecs, startBareProxy, startGateway, startMock, type GatewayService } from "./lib/targets";
import { loadWorkload, PROMPT_SLOT, requestBody, variedPrompt } from "./lib/workload";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    tree: { type: "string", default: "." },
    "burst-s": { type: "string", default: "4" },
    warm: { type: "string", default: "0" },
    requests: { type: "string", default: "600" },
    block: { type: "string", default: "50" },
  },
});
const block = Math.max(1, Number(flags.block));

/** Sum and count of each step histogram, from the gateway's Prometheus text. */
async function stepTotals(gw: GatewayService): Promise<Map<string, { sum: number; count: number }>> {
  const text = await (await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${gw.key}` } })).text();
  const out = new Map<string, { sum: number; count: number }>();
  for (const line of text.split("\n")) {
    const m = /^(svc_stage_duration_seconds|svc_overhead_seconds)_(sum|count)(?:\{stage="([^"]+)"\})? (\S+)$/.exec(line);
    if (!m) continue;
    const name = m[3] ?? "overhead (all)";
    const entry = out.get(name) ?? { sum: 0, count: 0 };
    entry[m[2] as "sum" | "count"] = Number(m[4]);
    out.set(name, entry);
  }
  return out;
}

const cores = corePlan();
const work = mkdtempSync(join(tmpdir(), "svc-miss-blocks-"));
try {
  const w = loadWorkload(300);
  const mock = await startMock(work, cores.servers, { latencyMs: 0, chunkDelayMs: 0 });
  const proxy = await startBareProxy(work, cores.servers, mock.url);
  const gw = await startGateway(work, cores.servers, mock.url, "warn", "svc-blocks", [], resolve(flags.tree));
  const miss = gatewaySpecs(gw, w, false).miss;
  const gateway = fromLoadSpec(miss, (i) => miss.body.replace(PROMPT_SLOT, JSON.stringify(variedPrompt(w, i)).slice(1, -1)));
  const bare = fromLoadSpec({ url: `${proxy.url}/v1/chat/completions`, headers: {}, body: JSON.stringify(requestBody("openai", w.fixedPrompt)) });
  await timeRequests(bare, 200, 0);
  let burst = 0;
  const end = performance.now() + Number(flags["burst-s"]) * 1000;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() < end) await timeRequests(gateway, 1, 2_000_000_000 + burst++);
    }),
  );
  await timeRequests(gateway, Number(flags.warm), 1_000_000_000);
  const before = await stepTotals(gw);
  const n = Number(flags.requests);
  console.log(`# Cache misses one at a time after a burst of ${burst} at 8 connections and ${flags.warm} warm-up misses (${cores.description})\n`);
  console.log("| misses | gateway p50 µs | bare proxy p50 µs | added p50 µs |");
  console.log("|---|---:|---:|---:|");
  const all: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < n; i += block) {
    const g = await timeRequests(gateway, Math.min(block, n - i), i);
    const b = await timeRequests(bare, Math.min(block, n - i), i);
    all.push(...g);
    floor.push(...b);
    const p50 = (xs: number[]) => percentile(xs, 50) * 1000;
    console.log(`| ${i + 1}-${i + g.length} | ${p50(g).toFixed(0)} | ${p50(b).toFixed(0)} | ${(p50(g) - p50(b)).toFixed(0)} |`);
  }
  console.log(
    `| all ${n} | ${(percentile(all, 50) * 1000).toFixed(0)} | ${(percentile(floor, 50) * 1000).toFixed(0)} | ${((percentile(all, 50) - percentile(floor, 50)) * 1000).toFixed(0)} |`,
  );
  const after = await stepTotals(gw);
  console.log("\n| step (gateway's histograms, timed misses) | mean µs |\n|---|---:|");
  for (const [name, a] of after) {
    const b = before.get(name) ?? { sum: 0, count: 0 };
    if (a.count > b.count) console.log(`| ${name} | ${(((a.sum - b.sum) / (a.count - b.count)) * 1e6).toFixed(0)} |`);
  }
} finally {
  await stopAll();
  rmSync(work, { recursive: true, force: true });
}
