import { chownSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/** A PostgreSQL of a test's own (never the shared one), in a directory of its own, on its own port. */
export interface OwnPostgres {
  url: string;
  /** An immediate shutdown: every connection is cut at once, as in a crash. */
  crash(): void;
  /** Starts it again on the same data (what it had committed is still there). */
  restart(): void;
}

const BIN = ["15", "16", "17", "14"].map((v) => `/usr/lib/postgresql/${v}/bin`).find((d) => existsSync(join(d, "pg_ctl")));

/** Why a PostgreSQL of the test's own cannot be had here, or undefined when it can. */
export const ownPostgresMissing: string | undefined = !BIN
  ? "no PostgreSQL server binaries under /usr/lib/postgresql"
  : process.getuid?.() === 0 && Bun.spawnSync(["id", "-u", "postgres"]).exitCode !== 0
    ? "running as root without a postgres user to run the server as"
    : undefined;

/** initdb and pg_ctl refuse root: as root they run as the postgres user, who owns the directory. */
function asServerUser(args: string[]): string[] {
  return process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--", ...args] : args;
}

function run(args: string[]): void {
  const r = Bun.spawnSync(asServerUser(args), { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${args[0]} failed: ${r.stderr.toString()}${r.stdout.toString()}`);
}

/** initdb (trust auth, no fsync: a test's throwaway data) and a start on 127.0.0.1:`port`. */
export function startOwnPostgres(port: number, dir: string): OwnPostgres {
  mkdirSync(dir, { recursive: true });
  if (process.getuid?.() === 0) {
    const uid = Number(Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString());
    const gid = Number(Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  run([join(BIN!, "initdb"), "-D", data, "-A", "trust", "-U", "postgres"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run([join(BIN!, "pg_ctl"), "-D", data, "-o", options, "-l", join(dir, "log"), "-w", "start"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    crash: () => run([join(BIN!, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]),
    restart: start,
  };
}
