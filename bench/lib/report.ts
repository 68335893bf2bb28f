import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderChart } from "./chart";
import { FLAT_MIB_PER_MIN } from "./goals";
import { BOUNDED_ENTRIES } from "./targets";
import { HEAP_EVERY_S, TARGET_LABELS, type BenchResults, type TargetName } from "./results";

const ORDER: TargetName[] = ["mock", "proxy", "relay", "miss", "hit", "portkey", "relayInfo"];
const us = (ms: number | undefined) => (ms === undefined || Number.isNaN(ms) ? "–" : `${Math.round(ms * 1000)}`);
const signedUs = (ms: number | undefined) => (ms === undefined || Number.isNaN(ms) ? "–" : `${ms >= 0 ? "+" : ""}${Math.round(ms * 1000)}`);
const n0 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "–" : x.toFixed(0));
const fixed = (x: number, digits = 2) => (Number.isNaN(x) ? "–" : x.toFixed(digits));

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
}

/** The run as a markdown page: context first, then the goals, then every table behind them. */
export function renderMarkdown(r: BenchResults, chartFile: string): string {
  const c = r.context;
  const s = r.settings;
  const out: string[] = [];
  out.push(`# svc latency-overhead benchmark`, "");
  out.push(`- Date: ${c.date}`);
  out.push(`- Commit: ${c.commit}${c.dirty ? " with uncommitted changes in src/ or workers/ (the shared working tree)" : ""}`);
  out.push(`- Machine: ${c.cores} cores, ${c.cpuModel}, ${c.memoryGiB.toFixed(1)} GiB RAM, Linux ${c.kernel}, Bun ${c.bun}`);
  out.push(`- Command: \`${s.command}\``);
  out.push(`- Pinning: ${s.pinning}`);
  out.push(
    `- Load: wrk (1 thread, closed loop) for throughput and percentiles under load; a Bun client timing each request with performance.now() for concurrency 1 and time to first token. ${s.rounds} rounds per measurement, targets interleaved within each round; figures are medians over rounds (p99 at concurrency 1 pools all samples).`,
  );
  out.push(
    `- Workload: one user message of ~${s.promptTokens} tokens (o200k) built from STS Benchmark sentences; the cache-miss configuration draws a fresh prompt per request. Mock latency ${s.mockLatencyMs} ms for latency and throughput; ${s.streamLatencyMs} ms to first byte and ${s.chunkDelayMs} ms between chunks for streaming.`,
  );
  out.push("", `![latency, throughput and time to first token per configuration](${chartFile})`, "");
  out.push("## Goals", "");
  out.push(
    table(
      ["goal", "measured", "met"],
      r.goals.map((g) => [g.goal, g.measured, g.met === undefined ? "not measured" : g.met ? "yes" : "**no**"]),
    ),
    "",
  );

  const lat = r.latency;
  out.push("## Latency at concurrency 1 (µs)", "");
  out.push(
    table(
      ["target", "p50", "p99", "added p50 vs bare proxy", "added p99 vs bare proxy", "added p50 vs mock", "samples"],
      ORDER.filter((n) => lat[n]).map((n) => {
        const x = lat[n]!;
        return [
          TARGET_LABELS[n],
          us(x.p50),
          us(x.p99),
          signedUs(lat.proxy && x.p50 - lat.proxy.p50),
          signedUs(lat.proxy && x.p99 - lat.proxy.p99),
          signedUs(lat.mock && x.p50 - lat.mock.p50),
          String(x.samples),
        ];
      }),
    ),
    "",
  );

  const tp = r.throughput;
  out.push(`## Throughput at 32 connections (wrk, ${s.wrkSeconds}s × ${s.rounds} rounds)`, "");
  out.push(
    table(
      ["target", "req/s", "% of bare proxy", "p50 µs", "p99 µs", "errors", "cache hits / responses"],
      ORDER.filter((n) => tp[n]).map((n) => {
        const x = tp[n]!;
        return [
          TARGET_LABELS[n],
          n0(x.rps),
          tp.proxy ? `${((x.rps / tp.proxy.rps) * 100).toFixed(0)}%` : "–",
          n0(x.p50Us),
          n0(x.p99Us),
          String(x.errors),
          x.responses === undefined ? "" : `${x.cacheHits} / ${x.responses}`,
        ];
      }),
    ),
    "",
  );

  for (const n of ORDER) if (tp[n]?.errorSample) out.push(`First failed answer from ${TARGET_LABELS[n]}: \`${tp[n]!.errorSample}\``, "");

  out.push(`## Concurrency sweep (closed loop; highest throughput with p99 under ${s.p99BoundMs} ms)`, "");
  const sweepNames = ORDER.filter((n) => r.sweep[n]?.length);
  const levels = r.sweep[sweepNames[0]!]?.map((p) => p.connections) ?? [];
  out.push(
    table(
      ["target", `best req/s with p99 < ${s.p99BoundMs} ms`, ...levels.map((l) => `c=${l}: req/s, p99 ms`)],
      sweepNames.map((n) => {
        const pts = r.sweep[n]!;
        const ok = pts.filter((p) => p.errors === 0 && p.p99Us / 1000 < s.p99BoundMs);
        const best = ok.length ? ok.reduce((a, b) => (b.rps > a.rps ? b : a)) : undefined;
        return [
          TARGET_LABELS[n],
          best ? `${n0(best.rps)} (c=${best.connections})` : "none",
          ...pts.map((p) => `${n0(p.rps)}, ${(p.p99Us / 1000).toFixed(1)}${p.errors ? ` (${p.errors} err)` : ""}`),
        ];
      }),
    ),
    "",
  );

  out.push("## Streaming", "");
  out.push(
    table(
      [
        "target",
        "TTFT p50 ms",
        "TTFT p99 ms",
        "added TTFT p50 vs bare proxy (µs)",
        "added TTFT p50 vs mock (µs)",
        "whole stream p50 ms",
        "streams sustained at once",
      ],
      ORDER.filter((n) => r.ttft[n]).map((n) => {
        const x = r.ttft[n]!;
        const st = r.streams[n];
        return [
          TARGET_LABELS[n],
          x.ttftP50Ms.toFixed(2),
          x.ttftP99Ms.toFixed(2),
          signedUs(r.ttft.proxy && x.ttftP50Ms - r.ttft.proxy.ttftP50Ms),
          signedUs(r.ttft.mock && x.ttftP50Ms - r.ttft.mock.ttftP50Ms),
          x.totalP50Ms.toFixed(1),
          st ? String(st.sustained) : "–",
        ];
      }),
    ),
    "",
  );
  const streamNames = ORDER.filter((n) => r.streams[n]);
  if (streamNames.length) {
    out.push(
      "Streams at once (wrk, each connection one stream after another): streams completed per second, p99 of a whole stream, errors. Sustained = the most open streams with no error and a p99 within twice the mock's own p99 at the same number of open streams.",
      "",
    );
    const lv = r.streams[streamNames[0]!]!.levels.map((l) => l.connections);
    out.push(
      table(
        ["target", ...lv.map((l) => `${l} open`)],
        streamNames.map((n) => [
          TARGET_LABELS[n],
          ...r.streams[n]!.levels.map((l) => `${n0(l.rps)}/s, p99 ${(l.p99Us / 1000).toFixed(0)} ms, ${l.errors} err`),
        ]),
      ),
      "",
    );
  }

  out.push("## Memory (RSS)", "");
  out.push(
    table(
      ["process", "peak RSS MiB (VmHWM)"],
      ORDER.filter((n) => r.peakMiB[n] !== undefined).map((n) => [TARGET_LABELS[n], r.peakMiB[n]!.toFixed(1)]),
    ),
    "",
  );
  if (r.soak.length) {
    out.push(
      `Soak of the gateway at 32 connections, one segment per configuration. RSS is sampled every second; it saws up and down by tens of MiB between garbage collections, so its floor (the lowest RSS of each 5-second window, fitted over the segment's second half) and raw least-squares slope are shown for scale. Every ${HEAP_EVERY_S} s the soak asks the gateway for a full collection (GET /debug/heap) and reads the event loop's live heap and the process's RSS right after it: flat = the live heap after collection grows under ${FLAT_MIB_PER_MIN} MiB/min over the segment's second half, fitted over the readings taken under load ("–" when there were too few to fit). The workers' heaps are not in that figure; their growth would show in the RSS after collection. The gateway runs with the response cache and the optimizer memo bounded to ${BOUNDED_ENTRIES.toLocaleString("en")} entries, so both reach their bound within the soak: what still grows after that is a leak.`,
      "",
    );
    out.push(
      table(
        [
          "configuration",
          "seconds",
          "requests",
          "errors",
          "RSS start MiB",
          "RSS end MiB",
          "RSS max MiB",
          "RSS floor slope, 2nd half, MiB/min",
          "RSS raw slope, 2nd half, MiB/min",
          "live heap after GC, start → end MiB",
          "live heap slope, 2nd half, MiB/min",
          "RSS after GC slope, 2nd half, MiB/min",
          "longest GC pause ms",
        ],
        r.soak.map((x) => [
          TARGET_LABELS[x.target],
          String(x.seconds),
          String(x.requests),
          String(x.errors),
          x.startMiB.toFixed(1),
          x.endMiB.toFixed(1),
          x.maxMiB.toFixed(1),
          fixed(x.floorSlopeMiBPerMin),
          fixed(x.slopeMiBPerMin),
          x.afterGc.length ? `${x.afterGc[0]!.heapMiB.toFixed(1)} → ${x.afterGc.at(-1)!.heapMiB.toFixed(1)}` : "not read",
          fixed(x.heapSlopeMiBPerMin),
          fixed(x.rssAfterGcSlopeMiBPerMin),
          x.afterGc.length ? fixed(Math.max(...x.afterGc.map((g) => g.gcMs)), 1) : "–",
        ]),
      ),
      "",
    );
  }

  if (lat.relay && lat.relayInfo && tp.relay && tp.relayInfo) {
    out.push("## Access log cost (SVC_LOG_LEVEL=info vs warn, pure relay)", "");
    out.push(
      table(
        ["", "warn", "info", "difference"],
        [
          ["p50 at concurrency 1, µs", us(lat.relay.p50), us(lat.relayInfo.p50), signedUs(lat.relayInfo.p50 - lat.relay.p50)],
          ["req/s at 32 connections", n0(tp.relay.rps), n0(tp.relayInfo.rps), `${(((tp.relayInfo.rps - tp.relay.rps) / tp.relay.rps) * 100).toFixed(1)}%`],
        ],
      ),
      "",
    );
  }

  if (r.auth.length) {
    out.push("## Auth", "");
    out.push(
      "There is no switch that turns auth off, so the same route is measured with a valid key and with keys refused at each step: a well-formed unknown key is hashed and refused from memory; a malformed key fails its checksum before any hashing; no header is refused at once. The valid-key row minus the no-header row bounds what a successful key check costs (hash, index lookup, quota-free route); /health is unauthenticated but queries the DB, so it is shown for scale, not as the pair.",
      "",
    );
    out.push(
      table(
        ["request", "status", "req/s at 32 conn", "p50 µs", "p99 µs", "p50 µs at c=1", "p99 µs at c=1"],
        r.auth.map((a) => [a.label, String(a.status), n0(a.rps), n0(a.p50Us), n0(a.p99Us), us(a.c1.p50), us(a.c1.p99)]),
      ),
      "",
    );
  }
  if (r.notes.length) out.push("## Notes", "", ...r.notes.map((n) => `- ${n}`), "");
  return out.join("\n");
}

/** Writes latest.{md,svg,json} and dated copies of the markdown and chart into `dir`; returns the paths written. */
export function writeResults(dir: string, r: BenchResults): string[] {
  const stamp = r.context.date.slice(0, 16).replace(/[:T]/g, "-");
  const written: string[] = [];
  for (const name of ["latest", stamp]) {
    const files: [string, string][] = [
      ["md", renderMarkdown(r, `${name}.svg`)],
      ["svg", renderChart(r)],
    ];
    // The raw figures for tools; only the latest, the dated markdown keeps the history.
    if (name === "latest") files.push(["json", JSON.stringify(r, null, 1)]);
    for (const [ext, text] of files) {
      const path = join(dir, `${name}.${ext}`);
      writeFileSync(path, text);
      written.push(path);
    }
  }
  return written;
}
