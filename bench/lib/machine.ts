import { cpus, totalmem, release } from "node:os";
import { ROOT } from "./processes";

/** Where and on what a run happened: printed into every result file. */
export interface RunContext {
  date: string;
  commit: string;
  /** Uncommitted changes in the tree the run measured (other developers' work in progress included). */
  dirty: boolean;
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  bun: string;
}

function git(args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  return r.exitCode === 0 ? r.stdout.toString().trim() : "";
}

export function runContext(): RunContext {
  return {
    date: new Date().toISOString(),
    commit: git(["rev-parse", "--short=12", "HEAD"]) || "unknown",
    dirty: git(["status", "--porcelain", "--untracked-files=no", "--", "src", "workers"]) !== "",
    cpuModel: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memoryGiB: totalmem() / 2 ** 30,
    kernel: release(),
    bun: Bun.version,
  };
}
