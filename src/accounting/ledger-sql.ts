import type { Database } from "bun:sqlite";
import { getTableColumns } from "drizzle-orm";
import { usageLedger } from "../store/schema";
import { ROLLUP_UPSERT_SQL, rollupParams } from "../store/usage-daily";

export type LedgerRow = typeof usageLedger.$inferInsert;

/** A row the store refused (a second row for one request id): kept aside, the rest of its batch written. */
export interface RejectedRow {
  requestId: string;
  reason: string;
}

const columns = Object.entries(getTableColumns(usageLedger));
const KEYS = columns.map(([key]) => key);
// Boolean columns are the only ones whose driver value differs from the JS value (drizzle stores
// them as 0/1); converting inline spares a drizzle mapToDriverValue call per column per row.
const BOOLEAN = columns.map(([, c]) => c.columnType === "SQLiteBoolean");
export const WIDTH = KEYS.length;
/** The ledger's column names in binding order. */
export const COLUMN_NAMES = columns.map(([, c]) => c.name);
const TUPLE = `(${KEYS.map(() => "?").join(", ")})`;
const insertSql = (verb: string, rows: number) => `${verb} INTO usage_ledger (${COLUMN_NAMES.join(", ")}) VALUES ${Array(rows).fill(TUPLE).join(", ")}`;

/**
 * Rows per INSERT statement: one statement per row spends most of its time crossing into SQLite
 * (about 3.2 µs a row against 2.5 µs in statements of 20 to 100 rows, bench of 10,000-row flushes);
 * 50 rows keep the statement's 1,100 parameters far under SQLite's limit of 32,766.
 */
const ROWS_PER_STATEMENT = 50;

export interface LedgerInserts {
  /** Writes a batch in one transaction; a refused row fails the whole batch (then use `eachRow`). */
  all(rows: LedgerRow[]): void;
  /** The slow path, row by row: a refused row costs only itself and is returned. */
  eachRow(rows: LedgerRow[]): RejectedRow[];
  /** Replay of the journal after a crash: rows already in the store are skipped, not refused. */
  replay(rows: LedgerRow[]): void;
}

/**
 * The ledger's insert statements, prepared once (the query builder costs more per row than the insert
 * itself at thousands of calls a second). Used by the writer thread and by the inline writer alike.
 * Each transaction adds the rows it stored to the daily rollup (`usage_daily`), so the rollup never
 * holds a row the ledger lacks or misses one it holds.
 */
export function prepareLedgerInserts(sqlite: Database): LedgerInserts {
  // Each statement is handed its parameter array as one argument, not spread into 1,350 arguments: the
  // spread cost the writer thread 1.7-2.5 µs a row of the 4.2-5.1 its inserts took (median of 140
  // interleaved 200-row transactions, three runs, bun 1.4.5; the rows a relayed call writes, one per call).
  const many = sqlite.prepare(insertSql("INSERT", ROWS_PER_STATEMENT));
  const one = sqlite.prepare(insertSql("INSERT", 1));
  const oneOrIgnore = sqlite.prepare(insertSql("INSERT OR IGNORE", 1));
  const params: unknown[] = new Array(ROWS_PER_STATEMENT * WIDTH);
  const single: unknown[] = new Array(WIDTH);
  const upsert = sqlite.prepare(ROLLUP_UPSERT_SQL);
  const rollup = (rows: LedgerRow[]) => {
    for (const p of rollupParams(rows)) upsert.run(p as never);
  };
  const all = sqlite.transaction((rows: LedgerRow[]) => {
    let i = 0;
    for (; i + ROWS_PER_STATEMENT <= rows.length; i += ROWS_PER_STATEMENT) {
      for (let r = 0; r < ROWS_PER_STATEMENT; r++) bind(rows[i + r]!, params, r * WIDTH);
      many.run(params as never);
    }
    for (; i < rows.length; i++) {
      bind(rows[i]!, single, 0);
      one.run(single as never);
    }
    rollup(rows);
  });
  // A refused statement undoes its own row and leaves the transaction open for the others.
  const eachRow = sqlite.transaction((rows: LedgerRow[]) => {
    const rejected: RejectedRow[] = [];
    const stored: LedgerRow[] = [];
    for (const row of rows) {
      bind(row, single, 0);
      try {
        one.run(single as never);
        stored.push(row);
      } catch (e) {
        rejected.push({ requestId: row.requestId, reason: (e as Error).message });
      }
    }
    rollup(stored);
    return rejected;
  });
  const replay = sqlite.transaction((rows: LedgerRow[]) => {
    const stored: LedgerRow[] = [];
    for (const row of rows) {
      bind(row, single, 0);
      if (oneOrIgnore.run(single as never).changes > 0) stored.push(row);
    }
    rollup(stored);
  });
  return { all: (rows) => all(rows), eachRow: (rows) => eachRow(rows), replay: (rows) => replay(rows) };
}

/**
 * Writes a batch: in one go, or row by row when the batch was refused. Throws only when the store
 * itself fails (disk full, locked, I/O error): the caller keeps the rows and tries again.
 */
export function writeBatch(inserts: LedgerInserts, rows: LedgerRow[]): RejectedRow[] {
  try {
    inserts.all(rows);
    return [];
  } catch (e) {
    if (!isRowRefusal(e)) throw e;
    return inserts.eachRow(rows);
  }
}

/** A constraint failure belongs to a row; anything else (busy, full, I/O) is the store's. */
function isRowRefusal(e: unknown): boolean {
  const code = (e as { code?: string }).code ?? "";
  return code.startsWith("SQLITE_CONSTRAINT");
}

/** A row's values in COLUMN_NAMES order, written into `into` from `at` (booleans as the 0/1 both databases store). */
export function bind(row: LedgerRow, into: unknown[], at: number): void {
  const r = row as Record<string, unknown>;
  for (let c = 0; c < WIDTH; c++) {
    const v = r[KEYS[c]!];
    into[at + c] = v === undefined || v === null ? null : BOOLEAN[c] ? (v ? 1 : 0) : v;
  }
}
