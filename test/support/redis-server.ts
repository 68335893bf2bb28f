import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A Redis of a test's or benchmark's own (never the shared one): started daemonized, killed by its pid. */
export interface OwnRedis {
  url: string;
  port: number;
  /** `kill -9`: the Redis is gone at once, as in a crash. */
  kill(): void;
  /** Starts it again on the same port, empty (no persistence). */
  restart(): void;
}

/** `redis-server` on PATH, or undefined with nothing to start. */
export const haveRedisServer = Bun.which("redis-server") !== null;

/** Starts `redis-server` on `port` (a free one: test/support/free-port.ts) without persistence, its pid file in `dir`. */
export function startOwnRedis(port: number, dir: string): OwnRedis {
  const pidFile = join(dir, `redis-${port}.pid`);
  const start = () => {
    const args = ["--port", String(port), "--save", "", "--appendonly", "no", "--daemonize", "yes", "--pidfile", pidFile, "--dir", dir];
    const r = Bun.spawnSync(["redis-server", ...args]);
    if (r.exitCode !== 0) throw new Error(`redis-server did not start: ${r.stderr.toString()}`);
  };
  start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => process.kill(Number(readFileSync(pidFile, "utf8").trim()), "SIGKILL"),
    restart: start,
  };
}
