import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { LedgerRow } from "./ledger-sql";

const SEGMENT = /^(\d{12})\.jsonl$/;

/**
 * The ledger's write-ahead journal: every row is appended to the open segment (one write(2), about
 * 3 µs with its JSON) before the call's answer is final, so a process killed with `kill -9` leaves its
 * rows in the operating system's hands. A segment is closed at each flush and deleted once the store
 * holds all of its rows; whatever segments are left at start were not written and are replayed.
 * There is no fsync per row: the journal survives the process, not a power cut.
 *
 * Several gateway processes may share a data directory, so each journals in a folder named by its pid;
 * at start a process replays the folders of processes that are gone (and its own pid's, which a
 * container restart reuses).
 */
export class LedgerJournal {
  private seq: number;
  private fd: number | undefined;
  private readonly dir: string;

  constructor(
    private readonly root: string,
    private readonly pid = process.pid,
    private readonly alive: (pid: number) => boolean = processAlive,
  ) {
    this.dir = join(root, String(pid));
    this.seq = Math.max(0, ...segments(this.dir));
  }

  /**
   * Rows that processes now gone journaled and may not have stored; `done` removes them once the
   * store holds them.
   */
  leftovers(): { rows: LedgerRow[]; done(): void } {
    const rows: LedgerRow[] = [];
    const folders = (existsSync(this.root) && statSync(this.root).isDirectory() ? readdirSync(this.root) : [])
      .filter((f) => /^\d+$/.test(f) && (Number(f) === this.pid || !this.alive(Number(f))))
      .map((f) => join(this.root, f));
    const own = segments(this.dir);
    for (const folder of folders) {
      for (const s of segments(folder)) {
        for (const line of readFileSync(segmentPath(folder, s), "utf8").split("\n")) {
          // A line cut by the crash (the process died inside write) is not a row the client was answered with.
          if (line.length === 0) continue;
          try {
            rows.push(JSON.parse(line) as LedgerRow);
          } catch {}
        }
      }
    }
    return {
      rows,
      done: () => {
        for (const folder of folders) if (folder !== this.dir) rmSync(folder, { recursive: true, force: true });
        this.release(own.length ? own[own.length - 1]! : 0);
      },
    };
  }

  /** Keeps a row the store refused, with the reason, beside the journal: never discarded. */
  keepRejected(row: LedgerRow, reason: string): void {
    mkdirSync(this.root, { recursive: true });
    appendFileSync(join(this.root, "rejected.jsonl"), JSON.stringify({ reason, row }) + "\n");
  }

  /** Appends one row, as its JSON; throws when the disk refuses (full, read-only), and the caller keeps the row. */
  append(json: string): void {
    this.write(json + "\n");
  }

  /** Throws unless a line can be written now (an empty line, which replay skips). */
  check(): void {
    this.write("\n");
  }

  private write(line: string): void {
    if (this.fd === undefined) {
      mkdirSync(this.dir, { recursive: true });
      this.fd = openSync(this.path(++this.seq), "a");
    }
    writeSync(this.fd, line);
  }

  /** Closes the open segment: rows appended after this go to a new one. Returns the last closed segment. */
  rotate(): number {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
    return this.seq;
  }

  /** The store holds every row of segments up to `seq`. */
  release(seq: number): void {
    for (const s of segments(this.dir)) {
      if (s > seq) continue;
      if (s === this.seq && this.fd !== undefined) continue;
      unlinkSync(this.path(s));
    }
  }

  close(): void {
    this.rotate();
  }

  private path(seq: number): string {
    return segmentPath(this.dir, seq);
  }
}

function segmentPath(dir: string, seq: number): string {
  return join(dir, `${String(seq).padStart(12, "0")}.jsonl`);
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, under another user.
    return (e as { code?: string }).code === "EPERM";
  }
}

function segments(dir: string): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((f) => SEGMENT.exec(f)?.[1])
    .filter((s): s is string => s !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}
