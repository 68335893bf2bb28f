import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pinned } from "./processes";

const SCRIPT = join(import.meta.dir, "..", "wrk", "post.lua");

/**
 * wrk from the Debian packages: a C load generator with an event loop, so one thread on one core
 * drives a Bun server on the other core without itself being the limit. Installed on demand.
 */
export async function ensureWrk(say: (line: string) => void): Promise<string> {
  const found = Bun.which("wrk");
  if (found) return found;
  say("wrk is not installed; installing the Debian package: apt-get install -y wrk");
  const run = (cmd: string[]) => Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  let r = run(["apt-get", "install", "-y", "wrk"]);
  if (r.exitCode !== 0) {
    run(["apt-get", "update"]);
    r = run(["apt-get", "install", "-y", "wrk"]);
  }
  const installed = Bun.which("wrk");
  if (!installed) throw new Error(`could not install wrk (apt-get install -y wrk exited ${r.exitCode}): ${r.stderr.toString().slice(-500)}`);
  return installed;
}

/** One load target: a URL, its headers and the body it is sent. */
export interface LoadSpec {
  url: string;
  /** POST unless said otherwise; a GET sends no body. */
  method?: "GET" | "POST";
  headers: Record<string, string>;
  /** The body; may contain PROMPT_SLOT, replaced by a fresh prompt per request. */
  body: string;
}

export interface WrkRun {
  connections: number;
  durationS: number;
  /** Cores for taskset; undefined = not pinned. */
  cores: string | undefined;
  /** Count responses that say "cache_hit":true (makes wrk read bodies, so only where it matters). */
  countCacheHits?: boolean;
  timeoutS?: number;
}

export interface WrkResult {
  requests: number;
  rps: number;
  /** Socket errors and non-2xx answers together. */
  errors: number;
  latencyUs: { p50: number; p90: number; p99: number; p999: number; max: number; mean: number };
  cacheHits?: number;
  responses?: number;
  /** The first non-2xx answer (status and start of body), when responses were read. */
  errorSample?: string;
}

interface BenchJson {
  requests: number;
  duration_us: number;
  errors: Record<"connect" | "read" | "write" | "status" | "timeout", number>;
  latency_us: WrkResult["latencyUs"];
  counted: boolean;
  cache_hits: number;
  responses: number;
  error_sample: string;
}

/** Runs wrk once (one thread, `connections` open connections, closed loop) and parses its result line. */
export async function runWrk(wrk: string, spec: LoadSpec, run: WrkRun, workDir: string, sentences: { file: string; perPrompt: number }): Promise<WrkResult> {
  const bodyFile = join(workDir, `body-${Bun.hash(spec.body).toString(36)}.json`);
  writeFileSync(bodyFile, spec.body);
  const cmd = pinned(run.cores, [
    wrk,
    "-t1",
    `-c${run.connections}`,
    `-d${run.durationS}s`,
    `--timeout`,
    `${run.timeoutS ?? 10}s`,
    "--latency",
    "-s",
    SCRIPT,
    spec.url,
  ]);
  const env = {
    ...process.env,
    BENCH_METHOD: spec.method ?? "POST",
    BENCH_BODY_FILE: bodyFile,
    BENCH_SENTENCES: sentences.file,
    BENCH_PER_PROMPT: String(sentences.perPrompt),
    BENCH_HEADERS: Object.entries(spec.headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join("\n"),
    BENCH_COUNT_HITS: run.countCacheHits ? "1" : "0",
  };
  const proc = Bun.spawn(cmd, { env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const line = out.split("\n").find((l) => l.startsWith("BENCHJSON "));
  if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}) against ${spec.url}:\n${out}\n${err}`);
  const j = JSON.parse(line.slice("BENCHJSON ".length)) as BenchJson;
  const errors = j.errors.connect + j.errors.read + j.errors.write + j.errors.status + j.errors.timeout;
  const result: WrkResult = { requests: j.requests, rps: j.requests / (j.duration_us / 1e6), errors, latencyUs: j.latency_us };
  if (j.counted) {
    result.cacheHits = j.cache_hits;
    result.responses = j.responses;
    if (j.error_sample) result.errorSample = j.error_sample;
  }
  return result;
}
