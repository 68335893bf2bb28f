import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listMigrations, openStore } from "../../src/store/db";

/**
 * Gateways started together on one data directory migrate one new SQLite store together. Each used to
 * read "nothing applied" and run migration 1, and all but one died with "table api_keys already
 * exists" (seen in CI: test/dropin/responses-store.test.ts starts two at once). Six processes open
 * each of three fresh stores at the same moment; every one opens it, and each migration is applied once.
 */
const OPEN = `import { openStore } from ${JSON.stringify(join(import.meta.dir, "../../src/store/db.ts"))};
await Bun.sleep(Number(process.env.START_AT) - Date.now());
openStore(process.env.DIR).close();`;

test("processes opening one new store at once all open it; each migration is applied once", async () => {
  for (let round = 0; round < 3; round++) {
    const dir = mkdtempSync(join(tmpdir(), "svc-migrate-together-"));
    try {
      // A common start time, so the processes' start-up (not the migration) is what they wait out.
      const startAt = String(Date.now() + 1500);
      const procs = Array.from({ length: 6 }, () =>
        Bun.spawn([process.execPath, "-e", OPEN], { env: { ...process.env, DIR: dir, START_AT: startAt }, stderr: "pipe", stdout: "ignore" }),
      );
      const results = await Promise.all(procs.map(async (p) => ({ code: await p.exited, err: await new Response(p.stderr).text() })));
      expect(results.filter((r) => r.code !== 0).map((r) => r.err)).toEqual([]);
      const store = openStore(dir);
      const versions = (store.sqlite.query("SELECT version FROM schema_migrations ORDER BY version").all() as { version: number }[]).map((r) => r.version);
      store.close();
      expect(versions).toEqual(listMigrations().map((m) => m.version));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}, 60_000);
