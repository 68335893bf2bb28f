/**
 * A cache miss with every stage on, one request at a time, for gateways of several source trees next to
 * the bare proxy, request by request in turn (each round starts with the next target), so a slow spell
 * of a loaded machine hits all alike: the same-run ratio of what a miss adds over the proxy is the
 * figure, not one absolute time. bench/run.ts measures one tree, in rounds of a hundred requests each.
 *
 *   bun bench/miss-trees.ts [--requests 2000] [--block 1] --tree main=/path[:SVC_X=1,SVC_Y=2] --tree branch=.
 *
 * `--block N` sends N requests in a row to each target per turn. With 1, what a gateway does after its
 * answer (a cache row written, the message memo filled) runs while the next target, often the proxy,
 * is timed; with 100, as in bench/run.ts, it lands on the gateway's own next request.
 *
 * To compare with another commit:
 *   git archive <commit> | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/node_modules && ln -s "$PWD/../shared" /tmp/shared
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { fromLoadSpec, timeRequests, type ClientTarget } from "./lib/client";
import { corePlan, stopAll } from "./lib/processes";
import { percentile } from "./lib/stats";
import { gatewaySpecs, startBareProxy, startGateway, startMock } from "./lib/targets";
import { loadWorkload, PROMPT_SLOT, requestBody, variedPrompt } from "./lib/workload";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    requests: { type: "string", default: "2000" },
    block: { type: "string", default: "1" },
    warm: { type: "string", default: "1500" },
    tree: { type: "string", multiple: true, default: [] },
  },
});
if (flags.tree.length === 0) throw new Error("give at least one --tree name=/path");

const cores = corePlan();
const work = mkdtempSync(join(tmpdir(), "svc-miss-trees-"));
try {
  const w = loadWorkload(300);
  const mock = await startMock(work, cores.servers, { latencyMs: 0, chunkDelayMs: 0 });
  const proxy = await startBareProxy(work, cores.servers, mock.url);
  const targets: { name: string; client: ClientTarget; ms: number[] }[] = [
    {
      name: "bare proxy",
      client: fromLoadSpec({ url: `${proxy.url}/v1/chat/completions`, headers: {}, body: JSON.stringify(requestBody("openai", w.fixedPrompt)) }),
      ms: [],
    },
  ];
  for (const spec of flags.tree) {
    const [name, rest] = spec.split(/=(.*)/s) as [string, string | undefined];
    if (!rest) throw new Error(`--tree wants name=/path, got '${spec}'`);
    const [path, settings] = rest.split(":") as [string, string | undefined];
    const env = Object.fromEntries(
      (settings ?? "")
        .split(",")
        .filter(Boolean)
        .map((kv) => kv.split("=") as [string, string]),
    );
    const gw = await startGateway(work, cores.servers, mock.url, "warn", `svc-${targets.length}-${name}`, [], resolve(path), { env });
    const miss = gatewaySpecs(gw, w, false).miss;
    // Every gateway gets prompts of its own: a prompt one gateway has seen would still be fresh to another, but not to itself.
    const salt = targets.length;
    const body = (i: number) => miss.body.replace(PROMPT_SLOT, JSON.stringify(variedPrompt(w, i * 16 + salt)).slice(1, -1));
    targets.push({ name, client: fromLoadSpec(miss, body), ms: [] });
  }
  // Warm-up (a gateway's JIT needs thousands of requests, see bench/run.ts), with prompts never timed.
  for (const t of targets) await timeRequests(t.client, Number(flags.warm), 1_000_000_000);
  const n = Number(flags.requests);
  const block = Math.max(1, Number(flags.block));
  for (let i = 0, turn = 0; i < n; i += block, turn++) {
    for (let k = 0; k < targets.length; k++) {
      const t = targets[(turn + k) % targets.length]!;
      t.ms.push(...(await timeRequests(t.client, Math.min(block, n - i), i)));
    }
  }
  const floor = targets[0]!;
  const added = (t: (typeof targets)[number], p: number) => (percentile(t.ms, p) - percentile(floor.ms, p)) * 1000;
  const first = targets[1]!;
  console.log(`# Cache miss, every stage on, one request at a time: ${n} per target, interleaved ${block} at a time (${cores.description})\n`);
  console.log(`| target | p50 µs | p90 µs | added p50 over the bare proxy µs | added p50 vs ${first.name} |`);
  console.log("|---|---:|---:|---:|---:|");
  for (const t of targets) {
    const ratio = t === floor ? "" : `${(added(t, 50) / added(first, 50)).toFixed(2)}x`;
    console.log(
      `| ${t.name} | ${(percentile(t.ms, 50) * 1000).toFixed(0)} | ${(percentile(t.ms, 90) * 1000).toFixed(0)} | ${added(t, 50).toFixed(0)} | ${ratio} |`,
    );
  }
} finally {
  await stopAll();
  rmSync(work, { recursive: true, force: true });
}
