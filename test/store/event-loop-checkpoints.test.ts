import { afterAll, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { counterConnection } from "../../src/store/busy";
import { openStore } from "../../src/store/db";
import { openWriterConnection } from "../../src/store/write-thread";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * Commits 30 writes of ~100 pages each on `write`, then reads the WAL file's size in pages. SQLite's
 * automatic checkpoint (at 1,000 pages by default) lets the next commit start the WAL over, so the
 * file stays near 1,100 pages; with no checkpoint it grows past 3,000.
 */
function walPagesAfterWrites(write: (db: Database) => Database): number {
  const dir = mkdtempSync(join(tmpdir(), "svc-ckpt-"));
  dirs.push(dir);
  const store = openStore(dir);
  const db = write(store.sqlite);
  db.run("CREATE TABLE IF NOT EXISTS scratch (b BLOB)");
  const page = db.query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
  for (let i = 0; i < 30; i++) db.query("INSERT INTO scratch VALUES (randomblob(?))").run(100 * page);
  const pages = statSync(`${store.path}-wal`).size / page;
  if (db !== store.sqlite) db.close();
  void store.close();
  return pages;
}

describe("WAL checkpoints (issue 23: the store's writes never block the event loop)", () => {
  test("never run inside a commit on the event loop's connections: the store's own and the counters'", () => {
    expect(walPagesAfterWrites((main) => main)).toBeGreaterThan(2_500);
    expect(walPagesAfterWrites((main) => counterConnection(main.filename))).toBeGreaterThan(2_500);
  });

  test("run on a writer thread's connection, which keeps the WAL bounded", () => {
    expect(walPagesAfterWrites((main) => openWriterConnection(main.filename, 1_000))).toBeLessThan(1_500);
  });
});
