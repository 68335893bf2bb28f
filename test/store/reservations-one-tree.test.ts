import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { listMigrations, migrate } from "../../src/store/db";

test("migration 0010 keeps SQLite's reservations in one b-tree (WITHOUT ROWID, no owner index) and keeps the ones in flight", () => {
  // A store as 0001-0009 left it, with a call's reservation in flight; then the rest.
  const db = new Database(":memory:", { strict: true });
  db.run("CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
  for (const m of listMigrations("sqlite").filter((x) => x.version < 10)) {
    db.run(m.sql);
    db.run("INSERT INTO schema_migrations VALUES (?, ?, 0)", [m.version, m.name]);
  }
  db.run("INSERT INTO reservations VALUES ('svc_req_1', 'budget', 'bud_1', '', 700, '4242', 5)");
  expect(migrate(db)).toContain(10);
  const ddl = db.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE name = 'reservations'").get()!.sql;
  expect(ddl).toContain("WITHOUT ROWID");
  expect(db.query("SELECT name FROM sqlite_master WHERE tbl_name = 'reservations' AND type = 'index' AND sql IS NOT NULL").all()).toEqual([]);
  expect(db.query("SELECT * FROM reservations").all()).toEqual([
    { request_id: "svc_req_1", kind: "budget", target: "bud_1", period: "", micros: 700, owner: "4242", created_at: 5 },
  ]);
  db.close();
});

test("PostgreSQL runs the portable form of 0010; SQLite its own", () => {
  const portable = listMigrations().find((m) => m.version === 10)!;
  const sqlite = listMigrations("sqlite").find((m) => m.version === 10)!;
  expect(portable.name).toBe(sqlite.name);
  expect(portable.sql).not.toContain("WITHOUT ROWID");
  expect(sqlite.sql).toContain("WITHOUT ROWID");
});
