/**
 * The latency-overhead benchmark: the gateway beside a bare Bun proxy (the floor), the mock upstream
 * itself and the Portkey gateway, measured in one run on loopback so machine noise hits all alike.
 *
 *   bun bench/run.ts [--quick] [--soak-s 180] [--p99-bound-ms 10] [--no-peers] [--out bench/results]
 *
 * Writes bench/results/latest.{md,svg,json} and dated copies. See bench/README.md for what each figure means.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fromLoadSpec, timeStreams, type ClientTarget } from "./lib/client";
import { runContext } from "./lib/machine";
import { interleavedLatency, interleavedWrk, roundOrder, summarizeLatency, summarizeWrk, warmUp, type WrkContext } from "./lib/measure";
import { corePlan, memoryOf, ROOT, stopAll, type Service } from "./lib/processes";
import { writeResults } from "./lib/report";
import {
  HEAP_EVERY_S,
  TARGET_LABELS,
  type AuthCase,
  type HeapReading,
  type BenchResults,
  type SoakSegment,
  type SweepPoint,
  type TargetName,
} from "./lib/results";
import { fittedSlopePerMin, floorSlope, median, percentile, slope } from "./lib/stats";
import { gatewaySpecs, portkeyHeaders, startBareProxy, startGateway, startMock, startPortkey, type GatewayService } from "./lib/targets";
import { PROMPT_SLOT, loadWorkload, requestBody, variedPrompt, writeWrkInputs, type Workload } from "./lib/workload";
import { ensureWrk, runWrk, type LoadSpec, type WrkResult } from "./lib/wrk";
import { evaluateGoals } from "./lib/goals";
import { generateKey } from "../src/auth/key-format";
import type { HeapReport } from "../src/http/routes/debug";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    quick: { type: "boolean", default: false },
    "soak-s": { type: "string" },
    "p99-bound-ms": { type: "string", default: "10" },
    "mock-latency-ms": { type: "string", default: "0" },
    "stream-latency-ms": { type: "string", default: "20" },
    "chunk-delay-ms": { type: "string", default: "5" },
    "no-peers": { type: "boolean", default: false },
    "keep-logs": { type: "boolean", default: false },
    out: { type: "string", default: join(ROOT, "bench", "results") },
  },
});

const quick = flags.quick;
const ROUNDS = quick ? 2 : 3;
const WRK_S = quick ? 2 : 5;
const SWEEP_S = quick ? 1 : 2;
const SOAK_S = Number(flags["soak-s"] ?? (quick ? 30 : 180));
const P99_BOUND_MS = Number(flags["p99-bound-ms"]);
const C1_PER_ROUND = quick ? 100 : 300;
/**
 * Requests one at a time to each target before concurrency 1 is timed. The wrk warm-up runs 8
 * connections, whose misses' model tasks go to the worker pool; a lone short miss runs on the event
 * loop's own optimizer, which that warm-up leaves cold: after 100 lone misses, blocks of 50 took
 * 2.0-2.3 ms p50 over the bare proxy and settled near 0.9 ms only after about 500
 * (`bun bench/miss-blocks.ts`). A gateway serving one request at a time is warmed by those requests.
 */
const C1_WARM = 1000;
const TTFT_PER_ROUND = quick ? 10 : 25;
const SWEEP_LEVELS = [1, 4, 16, 32, 64, 128];
const STREAM_LEVELS = quick ? [64, 256] : [64, 256, 1024];
const CONNECTIONS = 32;
/**
 * Seconds of wrk load on every target before anything is timed: a fresh gateway's JIT needs thousands
 * of requests before a request's cost settles (`bun bench/thread-cpu.ts` after 500 and 1,500
 * requests: a miss cost 6.5 and 5.3 ms of CPU), and steady state is what a production gateway runs in.
 */
const WARM_S = quick ? 4 : 8;

const say = (line: string) => process.stdout.write(`[bench] ${line}\n`);
const cores = corePlan();
/**
 * Every target's warm-up: WARM_S seconds of wrk, nothing recorded. Streams wait on the mock (about 83 ms
 * each at 20 ms to first byte and 5 ms between chunks), so 8 connections gave a gateway only ~800
 * streamed misses, too few for its JIT. 32 connections bring the streaming phase near the thousands of
 * requests the first phase's 8 connections give: a miss's added time to first token went from +3.4 ms
 * (bench/results/2026-11-25-21-57.md, 8 connections) to +3.0 ms (2026-11-25-22-28.md, 32).
 */
const warmRun = (connections: number, timeoutS?: number) => ({ connections, durationS: WARM_S, cores: cores.client, timeoutS });
const work = mkdtempSync(join(tmpdir(), "svc-bench-"));
const notes: string[] = [];

let cleaning = false;
async function cleanup(): Promise<void> {
  if (cleaning) return;
  cleaning = true;
  await stopAll();
  if (flags["keep-logs"]) say(`server logs and data kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void cleanup().then(() => process.exit(130)));

/** Targets of one phase: every server is started against that phase's mock. */
interface Phase {
  mock: Service;
  proxy: Service;
  gateway?: GatewayService;
  portkey?: Service;
}

function specs(p: Phase, w: Workload, stream: boolean): Partial<Record<TargetName, LoadSpec>> {
  const body = JSON.stringify(requestBody("openai", w.fixedPrompt, stream));
  const out: Partial<Record<TargetName, LoadSpec>> = {
    mock: { url: `${p.mock.url}/chat/completions`, headers: {}, body },
    proxy: { url: `${p.proxy.url}/v1/chat/completions`, headers: {}, body },
  };
  if (p.gateway) Object.assign(out, gatewaySpecs(p.gateway, w, stream));
  if (p.portkey) out.portkey = { url: `${p.portkey.url}/v1/chat/completions`, headers: portkeyHeaders(p.mock.url), body };
  return out;
}

/** The concurrency-1 client's view of a target: cache-miss prompts vary per request, the rest are fixed. */
function clientTargets(s: Partial<Record<TargetName, LoadSpec>>, w: Workload, salt: number): Partial<Record<TargetName, ClientTarget>> {
  const out: Partial<Record<TargetName, ClientTarget>> = {};
  for (const [name, spec] of Object.entries(s) as [TargetName, LoadSpec][]) {
    out[name] =
      name === "miss" ? fromLoadSpec(spec, (i) => spec.body.replace(PROMPT_SLOT, JSON.stringify(variedPrompt(w, salt + i)).slice(1, -1))) : fromLoadSpec(spec);
  }
  return out;
}

async function startPhase(name: string, latencyMs: number, chunkDelayMs: number, portkey: Service | undefined): Promise<Phase> {
  const mock = await startMock(work, cores.servers, { latencyMs, chunkDelayMs }, `mock-${name}`);
  const proxy = await startBareProxy(work, cores.servers, mock.url, `bare-proxy-${name}`);
  const phase: Phase = { mock, proxy, portkey };
  try {
    phase.gateway = await startGateway(work, cores.servers, mock.url, "warn", `svc-${name}`);
  } catch (e) {
    const why = `the gateway did not start, so its figures are missing: ${(e as Error).message.split("\n").slice(0, 3).join(" ")}`;
    say(why);
    if (!notes.includes(why)) notes.push(why);
  }
  return phase;
}

/**
 * Checks that each configuration does what its name says before timing it (200s, misses miss, hits
 * hit) and drops, with a note, any that does not: a figure under a wrong name is worse than none.
 */
async function preflight(s: Partial<Record<TargetName, LoadSpec>>, w: Workload): Promise<void> {
  const clients = clientTargets(s, w, 900_000_000);
  for (const [name, t] of Object.entries(clients) as [TargetName, ClientTarget][]) {
    let problem: string | undefined;
    for (let i = 0; i < 3 && !problem; i++) {
      const res = await fetch(t.url, { method: "POST", headers: { "content-type": "application/json", ...t.headers }, body: t.body(i) });
      const text = await res.text();
      const hit = text.includes('"cache_hit":true');
      if (!res.ok) problem = `answered ${res.status}: ${text.slice(0, 200)}`;
      else if (name === "miss" && hit) problem = "hit the cache with a fresh prompt";
      else if (name === "hit" && i > 0 && !hit) problem = `a repeated request was not answered from the cache (svc_meta.cache_hit is not true on repeat ${i})`;
    }
    if (problem) {
      const why = `${TARGET_LABELS[name]} left out: ${problem}`;
      say(why);
      if (!notes.includes(why)) notes.push(why);
      delete s[name];
    }
  }
}

/**
 * Runs one section of the benchmark. A gateway that crashed is restarted for the next section (the
 * crash and its last output go into the notes), and a section that fails is noted and skipped, so one
 * failure costs one section rather than the whole run.
 */
async function section(title: string, p: Phase, s: Partial<Record<TargetName, LoadSpec>>, w: Workload, body: () => Promise<void>): Promise<void> {
  say(title);
  try {
    await body();
  } catch (e) {
    const why = `${title}: failed: ${(e as Error).message.split("\n").filter(Boolean).slice(0, 2).join(" ")}`;
    say(why);
    notes.push(why);
  }
  if (p.gateway && !p.gateway.alive()) {
    const tail = p.gateway
      .output()
      .split("\n")
      .filter((l) => l.includes("panic") || l.includes("terminate called") || l.includes("error:"))
      .slice(-3)
      .join(" | ");
    const why = `the gateway died during "${title}" (${p.gateway.exitStatus()}${tail ? `: ${tail.slice(0, 300)}` : ""}); restarted for the next section`;
    say(why);
    notes.push(why);
    p.gateway = await startGateway(work, cores.servers, p.mock.url, "warn", `${p.gateway.name}-restart${notes.length}`);
    const fresh = gatewaySpecs(p.gateway, w, s.relay?.body.includes('"stream":true') ?? false);
    for (const n of ["relay", "miss", "hit"] as const) if (s[n]) s[n] = fresh[n];
  }
}

function sample(svc: Service): number {
  return svc.alive() ? memoryOf(svc.pid).rssMiB : NaN;
}

/** RSS floor windows of the soak: a few garbage collections each at 32 connections. */
const FLOOR_WINDOW_S = 5;

const MiB = 1024 * 1024;

/** A heap slope is fitted only over this many readings under load, at least this far apart end to end. */
const MIN_HEAP_READINGS = 3;
const MIN_HEAP_SPAN_S = 30;

/** The gateway's heap after a full collection (GET /debug/heap), or undefined if it did not answer in time. */
async function heapAfterGc(gw: GatewayService, s: number): Promise<HeapReading | undefined> {
  try {
    const res = await fetch(`${gw.url}/debug/heap`, { headers: { authorization: `Bearer ${gw.key}` }, signal: AbortSignal.timeout(30_000) });
    if (!res.ok) return undefined;
    const r = (await res.json()) as HeapReport;
    return { s, heapMiB: r.heap_bytes / MiB, rssMiB: r.rss_bytes / MiB, gcMs: r.gc_ms };
  } catch {
    return undefined;
  }
}

/** MiB/min of `value` over readings taken under load; NaN for a --quick soak or a gateway that stopped answering. */
function heapSlope(readings: readonly HeapReading[], value: (r: HeapReading) => number): number {
  return fittedSlopePerMin(
    readings.map((r) => ({ s: r.s, value: value(r) })),
    MIN_HEAP_READINGS,
    MIN_HEAP_SPAN_S,
  );
}

/**
 * Sustained load on one configuration while the gateway's RSS is sampled every second and, every
 * HEAP_EVERY_S, its heap after a full collection.
 */
async function soak(ctx: WrkContext, target: TargetName, spec: LoadSpec, gw: GatewayService, seconds: number): Promise<SoakSegment> {
  const samples: { s: number; rssMiB: number }[] = [];
  const heapReads: Promise<HeapReading | undefined>[] = [];
  const t0 = performance.now();
  const elapsed = () => (performance.now() - t0) / 1000;
  const timer = setInterval(() => samples.push({ s: elapsed(), rssMiB: sample(gw) }), 1000);
  const heapTimer = setInterval(() => heapReads.push(heapAfterGc(gw, elapsed())), HEAP_EVERY_S * 1000);
  samples.push({ s: 0, rssMiB: sample(gw) });
  heapReads.push(heapAfterGc(gw, 0));
  const r = await runWrk(ctx.wrk, spec, { connections: CONNECTIONS, durationS: seconds, cores: cores.client }, ctx.workDir, ctx.sentences);
  clearInterval(timer);
  clearInterval(heapTimer);
  const loadEndS = elapsed();
  samples.push({ s: loadEndS, rssMiB: sample(gw) });
  heapReads.push(heapAfterGc(gw, loadEndS));
  const afterGc = (await Promise.all(heapReads)).filter((x) => x !== undefined);
  // The reading after the load stopped has no request in flight: shown, but not fitted.
  const lateGc = afterGc.filter((x) => x.s >= seconds / 2 && x.s < loadEndS);
  // A process that died mid-soak has no RSS: keep the samples taken while it lived.
  const alive = samples.filter((x) => Number.isFinite(x.rssMiB));
  samples.length = 0;
  samples.push(...alive);
  if (!samples.length) throw new Error("the gateway was not running during the soak");
  const late = samples.filter((x) => x.s >= seconds / 2);
  return {
    target,
    seconds,
    requests: r.requests,
    errors: r.errors,
    startMiB: samples[0]!.rssMiB,
    endMiB: samples.at(-1)!.rssMiB,
    maxMiB: Math.max(...samples.map((x) => x.rssMiB)),
    slopeMiBPerMin: slope(
      late.map((x) => x.s / 60),
      late.map((x) => x.rssMiB),
    ),
    floorSlopeMiBPerMin: floorSlope(
      late.map((x) => ({ s: x.s / 60, value: x.rssMiB })),
      FLOOR_WINDOW_S / 60,
    ),
    samples,
    afterGc,
    heapSlopeMiBPerMin: heapSlope(lateGc, (r) => r.heapMiB),
    rssAfterGcSlopeMiBPerMin: heapSlope(lateGc, (r) => r.rssMiB),
  };
}

async function authCases(ctx: WrkContext, gw: GatewayService, healthGet: LoadSpec): Promise<AuthCase[]> {
  const models = `${gw.url}/v1/models/gpt-4o-mini`;
  const cases: { label: string; status: number; spec: LoadSpec }[] = [
    {
      label: "GET /v1/models/gpt-4o-mini, valid key",
      status: 200,
      spec: { url: models, method: "GET", headers: { authorization: `Bearer ${gw.key}` }, body: "" },
    },
    {
      label: "same route, unknown well-formed key (refused from memory)",
      status: 401,
      spec: { url: models, method: "GET", headers: { authorization: `Bearer ${generateKey("live")}` }, body: "" },
    },
    {
      label: "same route, malformed key (checksum fails)",
      status: 401,
      spec: { url: models, method: "GET", headers: { authorization: "Bearer svc_live_notakeyatall" }, body: "" },
    },
    { label: "same route, no Authorization header", status: 401, spec: { url: models, method: "GET", headers: {}, body: "" } },
    { label: "GET /health, no auth (queries the DB)", status: 200, spec: healthGet },
  ];
  const specsByLabel = Object.fromEntries(cases.map((c, i) => [String(i), c.spec])) as Record<string, LoadSpec>;
  const runs = await interleavedWrk(ctx, specsByLabel, ROUNDS, () => ({ connections: CONNECTIONS, durationS: WRK_S, cores: cores.client }));
  const c1 = await interleavedLatency(
    Object.fromEntries(cases.map((c, i) => [String(i), { ...fromLoadSpec(c.spec), expectStatus: c.status }])) as Record<string, ClientTarget>,
    ROUNDS,
    C1_PER_ROUND,
    50,
  );
  return cases.map((c, i) => {
    const s = summarizeWrk(runs[String(i)]!);
    // Refusals are the point of these runs: wrk counts a 401 as a status error, so it is not a failure here.
    return { label: c.label, status: c.status, rps: s.rps, p50Us: s.p50Us, p99Us: s.p99Us, c1: summarizeLatency(c1[String(i)]!) };
  });
}

async function main(): Promise<void> {
  const context = runContext();
  say(
    `machine: ${context.cores} cores, ${context.cpuModel}, ${context.memoryGiB.toFixed(1)} GiB; commit ${context.commit}${context.dirty ? " (+ uncommitted changes)" : ""}`,
  );
  say(`pinning: ${cores.description}`);
  const wrk = await ensureWrk(say);
  // The relay guard is a speed check, so it runs here and when asked, not in a plain `npm test`.
  say("guard: SVC_BENCH_GUARD=1 bun test test/bench-guard/");
  const guard = Bun.spawnSync([process.execPath, "test", "--timeout", "120000", "test/bench-guard/"], {
    cwd: ROOT,
    env: { ...process.env, SVC_BENCH_GUARD: "1" },
    stdout: "inherit",
    stderr: "inherit",
  });
  if (guard.exitCode !== 0) notes.push(`the relay guard failed (SVC_BENCH_GUARD=1 bun test test/bench-guard/ exited ${guard.exitCode})`);
  const w = loadWorkload(300);
  const { sentencesFile } = writeWrkInputs(work, w);
  const ctx: WrkContext = { wrk, workDir: work, sentences: { file: sentencesFile, perPrompt: w.sentencesPerPrompt } };
  const results: BenchResults = {
    context,
    settings: {
      command: `bun bench/run.ts ${process.argv.slice(2).join(" ")}`.trim(),
      rounds: ROUNDS,
      wrkSeconds: WRK_S,
      soakSeconds: SOAK_S,
      mockLatencyMs: Number(flags["mock-latency-ms"]),
      streamLatencyMs: Number(flags["stream-latency-ms"]),
      chunkDelayMs: Number(flags["chunk-delay-ms"]),
      p99BoundMs: P99_BOUND_MS,
      promptTokens: w.fixedPromptTokens,
      pinning: cores.description,
    },
    notes,
    latency: {},
    throughput: {},
    sweep: {},
    ttft: {},
    streams: {},
    peakMiB: {},
    soak: [],
    auth: [],
    goals: [],
  };

  let portkey: Service | undefined;
  if (flags["no-peers"]) notes.push("peers skipped (--no-peers)");
  else {
    const pk = await startPortkey(work, cores.servers, say);
    if (pk.service) portkey = pk.service;
    else {
      say(`Portkey is left out: ${pk.reason}`);
      notes.push(`Portkey is left out: ${pk.reason}`);
    }
  }

  // Phase 1: an instant upstream, so every microsecond measured is the relay's own.
  say(`phase 1: mock latency ${results.settings.mockLatencyMs} ms`);
  const p1 = await startPhase("fast", results.settings.mockLatencyMs, 0, portkey);
  const s1 = specs(p1, w, false);
  let info: GatewayService | undefined;
  if (p1.gateway && s1.relay) {
    info = await startGateway(work, cores.servers, p1.mock.url, "info", "svc-fast-info");
    s1.relayInfo = { ...s1.relay!, url: `${info.url}/v1/complete`, headers: { authorization: `Bearer ${info.key}` } };
  }
  await preflight(s1, w);
  await section(`warm-up: ${WARM_S}s of wrk load per target`, p1, s1, w, () => warmUp(ctx, Object.values(s1), warmRun(8)));

  await section("concurrency-1 latency (interleaved rounds)", p1, s1, w, async () => {
    const c1 = await interleavedLatency(clientTargets(s1, w, 0) as Record<TargetName, ClientTarget>, ROUNDS, C1_PER_ROUND, C1_WARM);
    for (const [name, rounds] of Object.entries(c1) as [TargetName, number[][]][]) results.latency[name] = summarizeLatency(rounds);
  });

  // One section per round (and per sweep level): a gateway crash costs that round, not the measurement.
  const tpRuns: Partial<Record<TargetName, WrkResult[]>> = {};
  for (let round = 1; round <= ROUNDS; round++) {
    await section(`throughput at ${CONNECTIONS} connections, round ${round}/${ROUNDS} (wrk, ${WRK_S}s per target)`, p1, s1, w, async () => {
      for (const [n, spec] of roundOrder(Object.entries(s1) as [TargetName, LoadSpec][], round - 1)) {
        const r = await runWrk(
          wrk,
          spec,
          { connections: CONNECTIONS, durationS: WRK_S, cores: cores.client, countCacheHits: n === "miss" || n === "hit" },
          work,
          ctx.sentences,
        );
        (tpRuns[n] ??= []).push(r);
      }
    });
  }
  for (const [n, runs] of Object.entries(tpRuns) as [TargetName, WrkResult[]][]) results.throughput[n] = summarizeWrk(runs);

  const sweepTargets = (["proxy", "relay", "miss", "hit", "portkey"] as TargetName[]).filter((n) => s1[n]);
  for (const [level, connections] of SWEEP_LEVELS.entries()) {
    await section(`concurrency sweep: ${connections} connections (p99 bound ${P99_BOUND_MS} ms)`, p1, s1, w, async () => {
      for (const n of roundOrder(sweepTargets, level)) {
        const r = await runWrk(wrk, s1[n]!, { connections, durationS: SWEEP_S, cores: cores.client }, work, ctx.sentences);
        (results.sweep[n] ??= []).push({ connections, rps: r.rps, p99Us: r.latencyUs.p99, errors: r.errors });
      }
    });
  }

  await section("auth: valid, unknown and malformed keys on the same route; /health for scale", p1, s1, w, async () => {
    if (!p1.gateway) return;
    const health: LoadSpec = { url: `${p1.gateway.url}/health`, method: "GET", headers: {}, body: "" };
    results.auth = await authCases(ctx, p1.gateway, health);
  });

  const soaked = (["relay", "hit", "miss"] as TargetName[]).filter((n) => s1[n]);
  for (const n of soaked) {
    await section(
      `soak: ${TARGET_LABELS[n]}, ${Math.round(SOAK_S / soaked.length)}s, RSS every second, heap after a full collection every ${HEAP_EVERY_S} s`,
      p1,
      s1,
      w,
      async () => {
        if (p1.gateway) results.soak.push(await soak(ctx, n, s1[n]!, p1.gateway, Math.max(5, Math.round(SOAK_S / soaked.length))));
      },
    );
  }
  const processes: Partial<Record<TargetName, Service | undefined>> = { mock: p1.mock, proxy: p1.proxy, relay: p1.gateway, portkey, relayInfo: info };
  for (const [n, svc] of Object.entries(processes) as [TargetName, Service | undefined][]) if (svc?.alive()) results.peakMiB[n] = memoryOf(svc.pid).peakMiB;
  await Promise.all([p1.mock.stop(), p1.proxy.stop(), p1.gateway?.stop(), info?.stop()]);

  // Phase 2: a realistic stream (first byte after a delay, then chunks apart).
  say(`phase 2: streaming, mock latency ${results.settings.streamLatencyMs} ms, ${results.settings.chunkDelayMs} ms between chunks`);
  const p2 = await startPhase("stream", results.settings.streamLatencyMs, results.settings.chunkDelayMs, portkey);
  const s2 = specs(p2, w, true);
  // A configuration that failed its check in phase 1 stays out of phase 2 as well.
  for (const n of Object.keys(s2) as TargetName[]) if (!s1[n]) delete s2[n];
  await section(`warm-up: ${WARM_S}s of wrk load per target at 32 connections, streaming`, p2, s2, w, () => warmUp(ctx, Object.values(s2), warmRun(32, 30)));
  await section("time to first token (interleaved rounds)", p2, s2, w, async () => {
    const streamClients = clientTargets(s2, w, 500_000_000) as Record<TargetName, ClientTarget>;
    for (const t of Object.values(streamClients)) await timeStreams(t, 3, 800_000_000);
    const ttft = Object.fromEntries(Object.keys(streamClients).map((n) => [n, [] as { ttftMs: number; totalMs: number }[]]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const [n, t] of roundOrder(Object.entries(streamClients), r)) ttft[n]!.push(...(await timeStreams(t, TTFT_PER_ROUND, r * TTFT_PER_ROUND)));
    }
    for (const [n, xs] of Object.entries(ttft) as [TargetName, { ttftMs: number; totalMs: number }[]][]) {
      results.ttft[n] = {
        ttftP50Ms: median(xs.map((x) => x.ttftMs)),
        ttftP99Ms: percentile(
          xs.map((x) => x.ttftMs),
          99,
        ),
        totalP50Ms: median(xs.map((x) => x.totalMs)),
        samples: xs.length,
      };
    }
  });
  await section(`streams at once: ${STREAM_LEVELS.join(", ")} open streams`, p2, s2, w, async () => {
    const streamNames = (["mock", "proxy", "relay", "miss", "portkey"] as TargetName[]).filter((x) => s2[x]);
    const levels = Object.fromEntries(streamNames.map((n) => [n, [] as SweepPoint[]])) as Record<TargetName, SweepPoint[]>;
    for (const [level, connections] of STREAM_LEVELS.entries()) {
      for (const n of roundOrder(streamNames, level)) {
        const r = await runWrk(wrk, s2[n]!, { connections, durationS: WRK_S, cores: cores.client, timeoutS: 30 }, work, ctx.sentences);
        levels[n].push({ connections, rps: r.rps, p99Us: r.latencyUs.p99, errors: r.errors });
      }
    }
    // Sustained: every stream completed and the slowest 1% took at most twice what the mock alone took
    // at the same number of open streams, so a target is judged by what it adds, not by the mock's limit.
    for (const n of streamNames) {
      const ok = levels[n].filter((l, i) => l.errors === 0 && l.p99Us <= 2 * (levels.mock[i]?.p99Us ?? Infinity));
      results.streams[n] = { levels: levels[n], sustained: ok.length ? Math.max(...ok.map((l) => l.connections)) : 0 };
    }
  });
  await Promise.all([p2.mock.stop(), p2.proxy.stop(), p2.gateway?.stop()]);

  results.goals = evaluateGoals(results);
  mkdirSync(flags.out, { recursive: true });
  const written = writeResults(flags.out, results);
  say(`wrote ${written.join(", ")}`);
}

main()
  .catch((e) => {
    process.stderr.write(`[bench] failed: ${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
