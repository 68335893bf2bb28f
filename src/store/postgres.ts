import postgres, { type Sql } from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { listMigrations, type Db, type PostgresStore } from "./db";
import * as schema from "./schema";
import { StoreUnavailableError, type BusyState } from "./busy";

/**
 * The key of the advisory lock migrations run under: several nodes starting together apply each
 * migration once, the others wait and then find it done. Any constant works; this one spells "svcmigr".
 */
const MIGRATION_LOCK = 0x7376636d69677200n;

/**
 * The same versioned migrations on PostgreSQL, for deployments that outgrow one machine: the DDL is
 * written once in portable SQL, so both databases hold the same schema. Runs under a session advisory
 * lock on one connection of the pool, so N processes starting at once apply each migration once (even
 * `CREATE TABLE IF NOT EXISTS` races otherwise: two sessions both pass the check and one fails on
 * pg_type's unique index).
 */
export async function migratePostgres(sql: Sql): Promise<number[]> {
  const conn = await sql.reserve();
  try {
    await conn`SELECT pg_advisory_lock(${MIGRATION_LOCK.toString()}::bigint)`;
    try {
      await conn`CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`;
      const done = new Set((await conn<{ version: string }[]>`SELECT version FROM schema_migrations`).map((r) => Number(r.version)));
      const applied: number[] = [];
      for (const m of listMigrations()) {
        if (done.has(m.version)) continue;
        await conn.unsafe("BEGIN");
        try {
          await conn.unsafe(m.sql);
          await conn`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, ${m.name}, ${Date.now()})`;
          await conn.unsafe("COMMIT");
        } catch (e) {
          await conn.unsafe("ROLLBACK");
          throw e;
        }
        applied.push(m.version);
      }
      return applied;
    } finally {
      await conn`SELECT pg_advisory_unlock(${MIGRATION_LOCK.toString()}::bigint)`;
    }
  } finally {
    conn.release();
  }
}

/** Connections per process: enough for the call path's few statements per call, a fraction of PostgreSQL's default 100 for several nodes. */
const POOL_SIZE = 10;

/**
 * A postgres.js pool on `url`. BIGINT (int8) comes back as a JS number, as SQLite's INTEGER does: the
 * store's BIGINTs are epoch milliseconds, counts and micro-dollars, all far below 2^53.
 */
export function postgresClient(url: string, options: { max?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? POOL_SIZE,
    onnotice: () => undefined,
    // A node that cannot reach PostgreSQL says so within seconds (503 to calls that need it, /health), rather than after the default 30 s.
    connect_timeout: 5,
    types: { bigint: { to: 20, from: [20], serialize: (v: number) => String(v), parse: (v: string) => Number(v) } },
  } as postgres.Options<Record<string, postgres.PostgresType>>);
}

/** Opens the store on PostgreSQL (SVC_DATABASE_URL), applying the migrations it lacks. */
export async function openPostgresStore(url: string, options: { max?: number } = {}): Promise<PostgresStore> {
  const sql = postgresClient(url, options);
  try {
    await migratePostgres(sql);
  } catch (e) {
    await sql.end({ timeout: 1 });
    throw e;
  }
  // The one drizzle schema (see Db in db.ts) over postgres.js.
  const db = drizzle({ client: sql, schema }) as unknown as Db;
  return {
    dialect: "postgres",
    sql,
    db,
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}

/** A statement written with SQLite's `?N` (or bare `?`) parameters, as PostgreSQL's `$N`: the store's raw SQL is written once for both. */
export function pgText(text: string): string {
  let n = 0;
  return text.replace(/\?(\d+)?/g, (_, numbered: string | undefined) => `$${numbered ?? ++n}`);
}

/**
 * Runs a PostgreSQL operation for a call: a failure (unreachable, timed out, refused) is a
 * StoreUnavailableError the call path answers with 503 and Retry-After, and `state.problem` says why
 * until an operation succeeds again (what /health reports). An operation that took something for the
 * call (a counted call, a reservation) passes `undo`: if it lands after the call was refused for
 * being slow, `undo` gives back what it took, so a refused call is never left counted.
 */
export async function onPostgres<T>(state: BusyState, op: () => Promise<T>, undo?: (late: T) => Promise<unknown>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let late = false;
  const running = op();
  try {
    // With the server gone, postgres.js let the fourth call after the loss wait past 8 s on a pool
    // connection (test/scale/postgres-loss.test.ts); a call is refused after CALL_STORE_TIMEOUT_MS instead.
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        late = true;
        reject(new Error(`no answer within ${CALL_STORE_TIMEOUT_MS} ms`));
      }, CALL_STORE_TIMEOUT_MS);
    });
    const value = await Promise.race([running, timedOut]);
    state.problem = undefined;
    return value;
  } catch (e) {
    if (late)
      running
        .then(
          (value) => undo?.(value),
          () => undefined,
        )
        .catch(() => undefined);
    state.problem = `PostgreSQL failed: ${(e as Error).message}`;
    throw new StoreUnavailableError(state.problem);
  } finally {
    clearTimeout(timer);
  }
}

/** How long a call waits on one PostgreSQL operation before it is refused with 503. */
const CALL_STORE_TIMEOUT_MS = 2000;
