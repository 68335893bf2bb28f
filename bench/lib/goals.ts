import type { BenchResults, Goal } from "./results";

/** A soak segment counts as flat when the live heap after full collections grows less than this over its second half. */
export const FLAT_MIB_PER_MIN = 1;

const us = (ms: number) => `${Math.round(ms * 1000)} µs`;

function goal(goal: string, measured: number | undefined, met: (x: number) => boolean, show: (x: number) => string): Goal {
  if (measured === undefined || Number.isNaN(measured)) return { goal, measured: "not measured", met: undefined };
  return { goal, measured: show(measured), met: met(measured) };
}

/** The project's stated overhead goals, each checked against this run's figures. */
export function evaluateGoals(r: BenchResults): Goal[] {
  const lat = r.latency;
  const tp = r.throughput;
  const added = (a: "relay" | "miss", p: "p50" | "p99") => (lat[a] && lat.proxy ? lat[a]![p] - lat.proxy[p] : undefined);
  const ttftAdded = (a: "relay" | "miss") => (r.ttft[a] && r.ttft.proxy ? r.ttft[a]!.ttftP50Ms - r.ttft.proxy.ttftP50Ms : undefined);
  const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined ? a / b : undefined);
  const segments = r.soak;
  // A segment without a heap slope leaves the goal unmeasured rather than met.
  const heapSlopes = segments.map((s) => s.heapSlopeMiBPerMin);
  const worstSlope = segments.length > 0 && heapSlopes.every(Number.isFinite) ? Math.max(...heapSlopes) : undefined;
  return [
    goal("pure relay adds < 100 µs at p50 over the bare proxy", added("relay", "p50"), (x) => x < 0.1, us),
    goal(
      "pure relay keeps ≥ 80% of the bare proxy's throughput (32 connections)",
      ratio(tp.relay?.rps, tp.proxy?.rps),
      (x) => x >= 0.8,
      (x) => `${(x * 100).toFixed(0)}%`,
    ),
    goal("every stage on, cache miss, ~300-token prompt: adds < 1 ms at p50", added("miss", "p50"), (x) => x < 1, us),
    goal("every stage on, cache miss: adds < 3 ms at p99", added("miss", "p99"), (x) => x < 3, us),
    goal("cache hit answers in < 500 µs at p50, end to end", lat.hit?.p50, (x) => x < 0.5, us),
    goal(
      "every stage on (cache miss) throughput ≥ Portkey's as a pure relay",
      ratio(tp.miss?.rps, tp.portkey?.rps),
      (x) => x >= 1,
      (x) => `${x.toFixed(2)}× Portkey`,
    ),
    goal("added time to first token < 1 ms (pure relay)", ttftAdded("relay"), (x) => x < 1, us),
    goal("added time to first token < 1 ms (every stage on, cache miss)", ttftAdded("miss"), (x) => x < 1, us),
    goal(
      `memory flat over the soak (the event loop's live heap after a full collection grows < ${FLAT_MIB_PER_MIN} MiB/min in every segment's second half)`,
      worstSlope,
      (x) => x < FLAT_MIB_PER_MIN,
      (x) => `worst ${x.toFixed(2)} MiB/min`,
    ),
  ];
}
