import { Database } from "bun:sqlite";
import type { SqliteStore } from "../store/db";
import { prepareLedgerInserts, writeBatch, type LedgerRow, type RejectedRow } from "./ledger-sql";

/** Where the ledger's rows go: the store, written off the event loop in the gateway. */
export interface LedgerWriter {
  /** Resolves with the rows the store refused; rejects when the store itself failed (nothing written). */
  write(rows: LedgerRow[]): Promise<RejectedRow[]>;
  /** Rows a crash may have written already: written unless present. */
  replay(rows: LedgerRow[]): Promise<void>;
  close(): Promise<void>;
}

/** Writes on the caller's thread, for the CLI and for tests that read the store right after a flush. */
export function inlineWriter(store: SqliteStore): LedgerWriter {
  const inserts = prepareLedgerInserts(store.sqlite);
  return {
    write: async (rows) => writeBatch(inserts, rows),
    replay: async (rows) => inserts.replay(rows),
    close: async () => undefined,
  };
}

const WORKER = new URL("../../workers/ledger-writer.worker.ts", import.meta.url).href;

type Reply = { id: number; rejected?: RejectedRow[]; error?: string; code?: string };

/**
 * Writes on a thread of its own with its own SQLite connection, so a store that is slow, locked by
 * another process or failing never holds the event loop: an external write lock of 12 s used to freeze
 * every request, `/health` included (issue 23).
 */
export function threadWriter(dbPath: string, busyTimeoutMs: number): LedgerWriter {
  const worker = new Worker(WORKER, { workerData: { dbPath, busyTimeoutMs } } as WorkerOptions);
  const waiting = new Map<number, { resolve: (r: RejectedRow[]) => void; reject: (e: Error) => void }>();
  let next = 0;
  worker.onmessage = (ev: MessageEvent<Reply>) => {
    const w = waiting.get(ev.data.id);
    if (!w) return;
    waiting.delete(ev.data.id);
    if (ev.data.error !== undefined) w.reject(Object.assign(new Error(ev.data.error), { code: ev.data.code }));
    else w.resolve(ev.data.rejected ?? []);
  };
  worker.onerror = (ev) => {
    for (const w of waiting.values()) w.reject(new Error(`ledger writer failed: ${ev.message}`));
    waiting.clear();
  };
  // An idle writer must not keep the process alive; a pending write does.
  worker.unref();
  const send = (op: "write" | "replay" | "close", rows: LedgerRow[]) =>
    new Promise<RejectedRow[]>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, op, rows });
    }).finally(() => {
      if (waiting.size === 0) worker.unref();
    });
  return {
    write: (rows) => send("write", rows),
    replay: async (rows) => void (await send("replay", rows)),
    // The thread closes its connection first: the last connection to close checkpoints the WAL away.
    close: async () => {
      await send("close", []).catch(() => undefined);
      worker.terminate();
    },
  };
}

/** The writer thread's side: one connection, the same statements as the inline writer. */
export function serveLedgerWrites(dbPath: string, busyTimeoutMs: number, post: (r: Reply) => void) {
  const sqlite = new Database(dbPath, { strict: true });
  sqlite.run(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  // Per connection, like the store's own (synchronous FULL would fsync every batch): the journal, not
  // this commit, is what makes a row survive a killed process.
  sqlite.run("PRAGMA synchronous = NORMAL");
  const inserts = prepareLedgerInserts(sqlite);
  return (msg: { id: number; op: "write" | "replay" | "close"; rows: LedgerRow[] }) => {
    try {
      if (msg.op === "close") {
        sqlite.close();
        post({ id: msg.id });
      } else if (msg.op === "replay") {
        inserts.replay(msg.rows);
        post({ id: msg.id });
      } else post({ id: msg.id, rejected: writeBatch(inserts, msg.rows) });
    } catch (e) {
      post({ id: msg.id, error: (e as Error).message, code: (e as { code?: string }).code });
    }
  };
}
