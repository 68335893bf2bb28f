import { Database } from "bun:sqlite";
import { sql } from "drizzle-orm";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as schema from "./schema";
import { BUSY_TIMEOUT_MS } from "./no-wait";

/** drizzle over bun:sqlite, with the connection underneath (`$client`) for what drizzle does not say (pragmas). */
export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export interface Store {
  sqlite: Database;
  db: Db;
  close(): void;
}

/**
 * An upsert's conflict target as bare column names. drizzle's SQLite dialect writes the target's
 * columns table-qualified (`on conflict ("t"."a", "t"."b")`), which SQLite takes and PostgreSQL refuses
 * ("syntax error at or near ','"; test/store/schema-portability.test.ts runs the generated statements on both).
 */
export function conflictTarget(...columns: SQLiteColumn[]): SQLiteColumn[] {
  return columns.map((c) => sql.identifier(c.name)) as unknown as SQLiteColumn[];
}

const MIGRATIONS_DIR = join(import.meta.dir, "migrations");

/** Versioned migrations: `NNNN_name.sql`, applied in order, each once, each in its own transaction. */
export function listMigrations(): { version: number; name: string; sql: string }[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f.slice(5, -4), sql: readFileSync(join(MIGRATIONS_DIR, f), "utf8") }));
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
  for (const m of listMigrations()) {
    if (done.has(m.version)) continue;
    sqlite.transaction(() => {
      sqlite.run(m.sql);
      sqlite.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [m.version, m.name, Date.now()]);
    })();
    applied.push(m.version);
  }
  return applied;
}

/**
 * Opens (creating if needed) the embedded SQLite store in WAL mode so the CLI and a running server
 * can share it: readers never block the writer, and a busy writer waits instead of failing.
 */
export function openStore(dataDir: string): Store {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new Database(join(dataDir, "svc.db"), { create: true, strict: true });
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.run("PRAGMA foreign_keys = ON");
  migrate(sqlite);
  const db = drizzle({ client: sqlite, schema });
  return {
    sqlite,
    db,
    close() {
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
