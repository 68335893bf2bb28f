import { Database } from "bun:sqlite";
import { sql, type SQL } from "drizzle-orm";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Sql } from "postgres";
import * as schema from "./schema";
import { BUSY_TIMEOUT_MS, isBusy, noCheckpoints } from "./no-wait";

/** drizzle over bun:sqlite, with the connection underneath (`$client`) for what drizzle does not say (pragmas). */
export type SqliteDb = BunSQLiteDatabase<typeof schema> & { $client: Database };

/**
 * The query builder every store user shares, on either database. Typed as SQLite's because the tables
 * are (schema.ts is the one drizzle definition: the portable DDL stores booleans as 0/1 integers and
 * lists as JSON text on both engines, exactly what its sqlite-core columns map); on PostgreSQL the same
 * builders run over postgres.js (openPostgresStore). So code that runs on both only awaits a query,
 * never calls SQLite's synchronous `.run()`, `.get()`, `.all()` — the tests run each store user on both
 * databases (test/store/dialects.test.ts) — and goes through `Store.dialect` for what differs
 * (transactions, upsert targets).
 */
export type Db = SqliteDb;

export type Dialect = "sqlite" | "postgres";

interface StoreBase {
  readonly db: Db;
  /** Closes the connection(s); resolves when they are closed. */
  close(): Promise<void>;
}

/** The embedded store: one SQLite file in the data directory, shared by the processes of one machine. */
export interface SqliteStore extends StoreBase {
  readonly dialect: "sqlite";
  readonly sqlite: Database;
  /** The database file, for the connections of their own (counters, spend, the ledger's writer thread). */
  readonly path: string;
}

/** PostgreSQL (SVC_DATABASE_URL): one database shared by every gateway node. */
export interface PostgresStore extends StoreBase {
  readonly dialect: "postgres";
  readonly sql: Sql;
}

export type Store = SqliteStore | PostgresStore;

/**
 * An upsert's conflict target. drizzle's SQLite dialect writes the target's columns table-qualified
 * (`on conflict ("t"."a", "t"."b")`), which SQLite takes and PostgreSQL refuses ("syntax error at or near
 * ','"; test/store/schema-portability.test.ts runs the generated statements on both): bare names there.
 * drizzle's PostgreSQL builder takes the columns themselves and writes them bare.
 */
export function conflictTarget(dialect: Dialect, ...columns: SQLiteColumn[]): SQLiteColumn[] {
  return dialect === "postgres" ? columns : (columns.map((c) => sql.identifier(c.name)) as unknown as SQLiteColumn[]);
}

/** A built statement: SQLite runs it with `.run()`, PostgreSQL when it is awaited. */
export type Statement = { run(): unknown } & PromiseLike<unknown>;

/**
 * Runs the statements `build` makes, in order, in one transaction: SQLite's synchronous one (nothing
 * else runs on the connection meanwhile), PostgreSQL's on one connection of the pool.
 */
export async function writeAll(store: Store, build: (tx: Db) => Iterable<Statement>): Promise<void> {
  if (store.dialect === "sqlite") {
    store.db.transaction((tx) => {
      for (const q of build(tx as unknown as Db)) q.run();
    });
    return;
  }
  await store.db.transaction(async (tx) => {
    for (const q of build(tx as unknown as Db)) await q;
  });
}

/**
 * Runs `fn` alone among the store's users that name the same `lock`: on PostgreSQL in a transaction
 * holding that advisory lock (other nodes' turns wait for its commit), on SQLite as it is (its writers
 * take turns already). For a number read and written back, like the keys' sync_seq: two nodes must not
 * take the same one, nor commit them out of order.
 */
export async function serialized<T>(store: Store, lock: number, fn: (tx: Db) => Promise<T>): Promise<T> {
  if (store.dialect === "sqlite") return fn(store.db);
  return store.db.transaction(async (tx) => {
    await (tx as unknown as { execute(q: SQL): Promise<unknown> }).execute(sql`SELECT pg_advisory_xact_lock(${lock})`);
    return fn(tx as unknown as Db);
  });
}

/** The SQLite connection of a store that must be SQLite here (benchmarks and tests of SQLite). */
export function sqliteOf(store: Store, what: string): Database {
  if (store.dialect !== "sqlite") throw new Error(`${what} needs the SQLite store`);
  return store.sqlite;
}

const MIGRATIONS_DIR = join(import.meta.dir, "migrations");

/**
 * Versioned migrations: `NNNN_name.sql`, applied in order, each once, each in its own transaction. A
 * `NNNN_name.sqlite.sql` beside one is what SQLite runs instead, where its storage wants other DDL than
 * the portable form (WITHOUT ROWID).
 */
export function listMigrations(dialect?: "sqlite"): { version: number; name: string; sql: string }[] {
  const files = readdirSync(MIGRATIONS_DIR);
  return files
    .filter((f) => /^\d{4}_[^.]+\.sql$/.test(f))
    .sort()
    .map((f) => {
      const own = dialect && `${f.slice(0, -4)}.${dialect}.sql`;
      const sql = readFileSync(join(MIGRATIONS_DIR, own && files.includes(own) ? own : f), "utf8");
      return { version: Number(f.slice(0, 4)), name: f.slice(5, -4), sql };
    });
}

export function migrate(sqlite: Database): number[] {
  sqlite.run("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
  const done = new Set(
    sqlite
      .query<{ version: number }, []>("SELECT version FROM schema_migrations")
      .all()
      .map((r) => r.version),
  );
  const applied: number[] = [];
  const isApplied = sqlite.query<{ version: number }, [number]>("SELECT version FROM schema_migrations WHERE version = ?");
  for (const m of listMigrations("sqlite")) {
    if (done.has(m.version)) continue;
    // Processes opening one data directory together migrate together: each takes the write lock first
    // (BEGIN IMMEDIATE) and reads the version again under it, so a migration another one applied in
    // the meantime is skipped, not run twice ("table api_keys already exists" killed the second of two
    // gateways started at once).
    const ran = sqlite
      .transaction(() => {
        if (isApplied.get(m.version)) return false;
        sqlite.run(m.sql);
        sqlite.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [m.version, m.name, Date.now()]);
        return true;
      })
      .immediate();
    if (ran) applied.push(m.version);
  }
  return applied;
}

/**
 * Opens (creating if needed) the embedded SQLite store in WAL mode so the CLI and a running server
 * can share it: readers never block the writer, and a busy writer waits instead of failing.
 */
export function openStore(dataDir: string): SqliteStore {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "svc.db");
  const sqlite = new Database(path, { create: true, strict: true });
  // The busy timeout first: switching a new file to WAL takes a lock that another process opening it may hold.
  sqlite.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // SQLite does not always call the busy handler for that switch (not where waiting could deadlock
  // against a process that holds the file's shared lock): one of six processes opening a new store at
  // once still got SQLITE_BUSY here in CI (test/store/migrate-together.test.ts). It is retried within the
  // busy timeout; this runs once, at start-up, so the synchronous wait blocks nothing else.
  const giveUpAt = performance.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      sqlite.run("PRAGMA journal_mode = WAL");
      break;
    } catch (e) {
      if (!isBusy(e) || performance.now() > giveUpAt) throw e;
      Bun.sleepSync(5);
    }
  }
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("PRAGMA foreign_keys = ON");
  noCheckpoints(sqlite);
  migrate(sqlite);
  const db = drizzle({ client: sqlite, schema });
  return {
    dialect: "sqlite",
    sqlite,
    db,
    path,
    async close() {
      // Another connection finishing its last write (the ledger's writer thread, just closed) makes a
      // checkpoint busy: retried for up to half a second, so a clean stop leaves an empty WAL.
      for (let i = 0; i < 50; i++) {
        const r = sqlite.query<{ busy: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)").get();
        if (!r?.busy) break;
        Bun.sleepSync(10);
      }
      sqlite.close();
    },
  };
}
