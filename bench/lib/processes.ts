import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";

/** The checkout root: every service is started from here, the way a user runs it. */
export const ROOT = join(import.meta.dir, "..", "..");

/**
 * Which core runs what. On a 2-core machine the load generator gets core 0 and every server (mock,
 * proxy, gateway, peer) core 1, so the client never steals the servers' CPU and all targets share
 * their core with the same mock. With fewer cores nothing is pinned.
 */
export interface CorePlan {
  client: string | undefined;
  servers: string | undefined;
  description: string;
}

export function corePlan(): CorePlan {
  const cores = navigator.hardwareConcurrency;
  if (cores < 2 || !Bun.which("taskset")) return { client: undefined, servers: undefined, description: "not pinned (fewer than 2 cores or no taskset)" };
  const last = String(cores - 1);
  return { client: "0", servers: last, description: `load generator on core 0, servers (mock, proxy, gateway, peers) on core ${last} (taskset -c)` };
}

/** `cmd` prefixed with `taskset -c <cores>` when cores are given. taskset execs, so the pid is the program's. */
export function pinned(cores: string | undefined, cmd: string[]): string[] {
  return cores === undefined ? cmd : ["taskset", "-c", cores, ...cmd];
}

export interface Service {
  name: string;
  url: string;
  pid: number;
  /** Everything the service wrote so far (stdout then stderr), for error messages. */
  output(): string;
  /** False once the process has exited (crashed, or stopped). */
  alive(): boolean;
  /** How the process ended ("exit code 1", "signal SIGABRT"), or "running". */
  exitStatus(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  cmd: string[];
  env?: Record<string, string>;
  /** Where stdout and stderr go; files rather than pipes, so a chatty log never blocks the server on a full pipe. */
  logDir: string;
  /** The service's URL once it answers (found in its output or by probing), or undefined while it is not ready. */
  ready: (output: string) => string | undefined | Promise<string | undefined>;
  timeoutMs?: number;
}

const running = new Set<Subprocess>();

/** SIGTERM, then SIGKILL after a grace period; resolves when the process is gone. */
async function terminate(proc: Subprocess, graceMs = 5000): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill("SIGTERM");
  const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(graceMs).then(() => false)]);
  if (!exited) {
    proc.kill("SIGKILL");
    await proc.exited;
  }
}

/** Starts a server process and waits until its output names the URL it listens on. */
export async function startService(o: StartOptions): Promise<Service> {
  const outPath = join(o.logDir, `${o.name}.out`);
  const errPath = join(o.logDir, `${o.name}.err`);
  const proc = Bun.spawn(o.cmd, {
    cwd: ROOT,
    env: { ...process.env, ...o.env },
    stdin: "ignore",
    stdout: Bun.file(outPath),
    stderr: Bun.file(errPath),
  });
  running.add(proc);
  const output = () => [outPath, errPath].map((p) => (existsSync(p) ? readFileSync(p, "utf8") : "")).join("");
  const stop = async () => {
    await terminate(proc);
    running.delete(proc);
  };
  const deadline = performance.now() + (o.timeoutMs ?? 30_000);
  for (;;) {
    const url = await o.ready(output());
    if (url) {
      const exitStatus = () => (proc.signalCode ? `signal ${proc.signalCode}` : proc.exitCode !== null ? `exit code ${proc.exitCode}` : "running");
      return { name: o.name, url, pid: proc.pid, output, alive: () => exitStatus() === "running", exitStatus, stop };
    }
    if (proc.exitCode !== null || performance.now() > deadline) {
      await stop();
      const why = proc.exitCode !== null ? `exited with ${proc.exitCode}` : "did not get ready in time";
      throw new Error(`${o.name} ${why}:\n${output().slice(-2000)}`);
    }
    await Bun.sleep(50);
  }
}

/** Stops every service still running; safe to call more than once. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => terminate(p)));
  running.clear();
}

/** The first JSON line of `output` with a string field `field`, e.g. the mock's `{"url": ...}`. */
export function jsonLineField(output: string, field: string, mustInclude?: string): string | undefined {
  for (const line of output.split("\n")) {
    if (!line.startsWith("{") || (mustInclude && !line.includes(mustInclude))) continue;
    try {
      const value = (JSON.parse(line) as Record<string, unknown>)[field];
      if (typeof value === "string") return value;
    } catch {
      // a partial line still being written; the next poll reads it whole
    }
  }
  return undefined;
}

export interface Memory {
  /** Resident set size now, MiB. */
  rssMiB: number;
  /** Peak resident set size since start (VmHWM), MiB. */
  peakMiB: number;
}

/** RSS of one process from /proc (Linux); the gateway's worker threads live in the same process. */
export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMiB: kib("VmRSS") / 1024, peakMiB: kib("VmHWM") / 1024 };
}

/**
 * User plus system CPU time, µs, from a /proc stat file: `/proc/<pid>/stat` (every thread of the
 * process) or `/proc/<pid>/task/<tid>/stat` (one thread). Linux counts in 10 ms ticks.
 */
export function cpuTimeUs(statFile: string): { name: string; us: number } {
  const stat = readFileSync(statFile, "utf8");
  // The name is in parentheses and may itself hold spaces or parentheses; the fields follow the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), us: (Number(fields[11]) + Number(fields[12])) * 10_000 };
}

/** `url` once an HTTP request to `url + path` gets any answer, else undefined. */
export async function answers(url: string, path: string): Promise<string | undefined> {
  try {
    await (await fetch(url + path, { signal: AbortSignal.timeout(1000) })).arrayBuffer();
    return url;
  } catch {
    return undefined;
  }
}
