import type { RunContext } from "./machine";
import type { LatencySummary, WrkSummary } from "./measure";

/** The targets a run compares. `relayInfo` is the relay with the access log on (SVC_LOG_LEVEL=info). */
export type TargetName = "mock" | "proxy" | "relay" | "miss" | "hit" | "portkey" | "relayInfo";

export const TARGET_LABELS: Record<TargetName, string> = {
  mock: "mock upstream (direct)",
  proxy: "bare Bun proxy (floor)",
  relay: "svc, every stage off (pure relay)",
  miss: "svc, every stage on, cache miss",
  hit: "svc, every stage on, cache hit",
  portkey: "Portkey gateway (pure relay)",
  relayInfo: "svc pure relay, SVC_LOG_LEVEL=info",
};

export interface SweepPoint {
  connections: number;
  rps: number;
  p99Us: number;
  errors: number;
}

export interface StreamSummary {
  ttftP50Ms: number;
  ttftP99Ms: number;
  totalP50Ms: number;
  samples: number;
}

/** Seconds between full collections in the soak: enough readings to fit each half; each pauses the gateway (gcMs, reported). */
export const HEAP_EVERY_S = 10;

/** One GET /debug/heap of the soak, `s` seconds into its segment. */
export interface HeapReading {
  s: number;
  heapMiB: number;
  rssMiB: number;
  gcMs: number;
}

export interface SoakSegment {
  target: TargetName;
  seconds: number;
  requests: number;
  errors: number;
  startMiB: number;
  endMiB: number;
  maxMiB: number;
  /** Least-squares slope over the second half of the segment, after warm-up growth has settled. */
  slopeMiBPerMin: number;
  /** Slope of the lowest RSS of each 5-second window over the second half: growth that survives garbage collection. */
  floorSlopeMiBPerMin: number;
  samples: { s: number; rssMiB: number }[];
  /** GET /debug/heap every HEAP_EVERY_S: the event loop's live heap after a full collection, and RSS right after it. */
  afterGc: HeapReading[];
  /**
   * Least-squares slope of the live heap after collection over the second half, under load: a leak of
   * the event loop's objects. NaN when too few readings were taken to fit one.
   */
  heapSlopeMiBPerMin: number;
  /** The same for RSS read right after each collection (workers and native memory included). */
  rssAfterGcSlopeMiBPerMin: number;
}

export interface AuthCase {
  label: string;
  status: number;
  rps: number;
  p50Us: number;
  p99Us: number;
  /** Concurrency-1 latency, ms. */
  c1: LatencySummary;
}

export interface Goal {
  goal: string;
  measured: string;
  met: boolean | undefined;
}

export interface BenchSettings {
  command: string;
  rounds: number;
  wrkSeconds: number;
  soakSeconds: number;
  mockLatencyMs: number;
  streamLatencyMs: number;
  chunkDelayMs: number;
  p99BoundMs: number;
  promptTokens: number;
  pinning: string;
}

export interface BenchResults {
  context: RunContext;
  settings: BenchSettings;
  notes: string[];
  latency: Partial<Record<TargetName, LatencySummary>>;
  throughput: Partial<Record<TargetName, WrkSummary>>;
  sweep: Partial<Record<TargetName, SweepPoint[]>>;
  ttft: Partial<Record<TargetName, StreamSummary>>;
  streams: Partial<Record<TargetName, { levels: SweepPoint[]; sustained: number }>>;
  peakMiB: Partial<Record<TargetName, number>>;
  soak: SoakSegment[];
  auth: AuthCase[];
  goals: Goal[];
}
