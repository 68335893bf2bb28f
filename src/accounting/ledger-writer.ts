import type { SqliteStore } from "../store/db";
import type { Sql } from "postgres";
import { pgText } from "../store/postgres";
import { ROLLUP_UPSERT_SQL, rollupParams } from "../store/usage-daily";
import { answerById, openWriterConnection, startWriteThread, type ThreadReply } from "../store/write-thread";
import { bind, COLUMN_NAMES, prepareLedgerInserts, WIDTH, writeBatch, type LedgerRow, type RejectedRow } from "./ledger-sql";

/** Where the ledger's rows go: the store, written off the event loop in the gateway. */
export interface LedgerWriter {
  /**
   * Resolves with the rows the store refused; rejects when the store itself failed: nothing written,
   * or, when only the answer was lost (a PostgreSQL commit whose acknowledgement never came), all of it.
   * `json`, when given, holds each row's JSON in order (the ledger makes it once, for its journal).
   */
  write(rows: LedgerRow[], json?: readonly string[]): Promise<RejectedRow[]>;
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

type Reply = ThreadReply<{ rejected: RejectedRow[] }>;

/**
 * What the writer thread is sent: a batch to write goes as the rows' JSON joined into one string, which
 * crosses to the thread as one copy; the rows as objects cost a structured clone each (4.6 µs a row on
 * the event loop against 0.02 for the text, 20-row batches, bun, this machine loaded), a tenth of what
 * the relay adds per call. A replay (once, at start) goes as rows.
 */
type Sent = { op: "write"; json: string } | { op: "replay"; rows: LedgerRow[] } | { op: "close" };
type Request = Sent & { id: number };

/**
 * Writes on a thread of its own with its own SQLite connection, so a store that is slow, locked by
 * another process or failing never holds the event loop: an external write lock of 12 s used to freeze
 * every request, `/health` included (issue 23).
 */
export function threadWriter(dbPath: string, busyTimeoutMs: number): LedgerWriter {
  const thread = startWriteThread<Sent, { rejected: RejectedRow[] }>(WORKER, { dbPath, busyTimeoutMs }, "ledger writer");
  const send = async (request: Sent) => (await thread.send(request)).rejected ?? [];
  return {
    write: (rows, json) => send({ op: "write", json: (json ?? rows.map((r) => JSON.stringify(r))).join(",") }),
    replay: async (rows) => void (await send({ op: "replay", rows })),
    // The thread closes its connection first: the last connection to close checkpoints the WAL away.
    close: async () => {
      await send({ op: "close" }).catch(() => undefined);
      thread.terminate();
    },
  };
}

/** The writer thread's side: one connection, the same statements as the inline writer. */
export function serveLedgerWrites(dbPath: string, busyTimeoutMs: number, post: (r: Reply) => void) {
  // The journal, not this connection's commit, is what makes a row survive a killed process.
  const sqlite = openWriterConnection(dbPath, busyTimeoutMs);
  const inserts = prepareLedgerInserts(sqlite);
  return answerById<Request, { rejected: RejectedRow[] }>(post, (msg) => {
    if (msg.op === "close") sqlite.close();
    else if (msg.op === "replay") inserts.replay(msg.rows);
    else return { rejected: writeBatch(inserts, JSON.parse(`[${msg.json}]`) as LedgerRow[]) };
    return undefined;
  });
}

/** Rows per PostgreSQL statement: 500 rows of 27 parameters stay far under its limit of 65,535 parameters. */
const PG_ROWS_PER_STATEMENT = 500;

const pgInsert = (rows: number) => {
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) tuples.push(`(${Array.from({ length: WIDTH }, (_, c) => `$${r * WIDTH + c + 1}`).join(", ")})`);
  return `INSERT INTO usage_ledger (${COLUMN_NAMES.join(", ")}) VALUES ${tuples.join(", ")} ON CONFLICT (request_id) DO NOTHING RETURNING request_id`;
};

/**
 * Writes on PostgreSQL through the store's async pool: the event loop only builds the statements.
 * A batch is one transaction of multi-row INSERTs with ON CONFLICT (request_id) DO NOTHING: a row
 * whose request id is already stored (a second row for one call, as SQLite's constraint refuses it)
 * is returned as refused, the rest of the batch written; a replay of the journal skips them silently.
 */
export function postgresWriter(sql: Sql): LedgerWriter {
  const texts = new Map<number, string>();
  const textFor = (n: number) => texts.get(n) ?? (texts.set(n, pgInsert(n)), texts.get(n)!);
  const rollup = pgText(ROLLUP_UPSERT_SQL);
  const insert = (rows: LedgerRow[]): Promise<Set<string>> =>
    sql.begin(async (tx) => {
      const stored = new Set<string>();
      for (let i = 0; i < rows.length; i += PG_ROWS_PER_STATEMENT) {
        const chunk = rows.slice(i, i + PG_ROWS_PER_STATEMENT);
        const params: unknown[] = new Array(chunk.length * WIDTH);
        chunk.forEach((row, r) => bind(row, params, r * WIDTH));
        for (const r of await tx.unsafe<{ request_id: string }[]>(textFor(chunk.length), params as never[])) stored.add(r.request_id);
      }
      // The daily rollup takes what this transaction stored, as the SQLite writer's does: a request id's
      // first row in the batch (the one ON CONFLICT DO NOTHING kept), never a row refused or replayed.
      const first = new Set<string>();
      const added = rows.filter((r) => stored.has(r.requestId) && !first.has(r.requestId) && first.add(r.requestId));
      for (const p of rollupParams(added)) await tx.unsafe(rollup, p as never[]);
      return stored;
    }) as Promise<Set<string>>;
  return {
    write: async (rows) => {
      const stored = await insert(rows);
      const rejected: RejectedRow[] = [];
      // A request id stored by this batch takes its first row; any other row for it is refused.
      for (const row of rows) {
        if (stored.delete(row.requestId)) continue;
        rejected.push({ requestId: row.requestId, reason: "a usage row for this request id is already stored" });
      }
      return rejected;
    },
    replay: async (rows) => void (await insert(rows)),
    // The pool is the store's, closed with it.
    close: async () => undefined,
  };
}
