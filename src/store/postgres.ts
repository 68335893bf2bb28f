import type { Sql } from "postgres";
import { listMigrations } from "./db";

/**
 * The same versioned migrations on PostgreSQL, for deployments that outgrow one machine: the DDL is
 * written once in portable SQL, so both databases hold the same schema.
 */
export async function migratePostgres(sql: Sql): Promise<number[]> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`;
  const done = new Set((await sql<{ version: string }[]>`SELECT version FROM schema_migrations`).map((r) => Number(r.version)));
  const applied: number[] = [];
  for (const m of listMigrations()) {
    if (done.has(m.version)) continue;
    await sql.begin(async (tx) => {
      await tx.unsafe(m.sql);
      await tx`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, ${m.name}, ${Date.now()})`;
    });
    applied.push(m.version);
  }
  return applied;
}
