import postgres from "postgres";
import { PG_URL } from "./services";

/**
 * A fresh PostgreSQL database for one test file, created here and dropped by `drop`: files running at
 * once never share a table. Names start with SVC_TEST_PG_DB_PREFIX (default svc_test_), so a shared
 * server's operator can tell them apart.
 */
export async function freshDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const prefix = process.env.SVC_TEST_PG_DB_PREFIX ?? "svc_test_";
  const name = `${prefix}${label}_${process.pid}_${Date.now().toString(36)}`.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  const admin = postgres(PG_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
