import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db";
import { SqliteSpendStore } from "../../src/store/spend-store";

// Another connection holding the write lock (in the gateway: the ledger's writer thread on the same
// file) puts the riding settles on the busy timers. A read must wait for them: a run's GET right after
// its calls were answered showed the cost of one call of five.
for (const when of ["before", "after"] as const)
  test(`a run read ${when} its settles' own write found another connection's write lock includes them`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-spend-read-"));
    const store = openStore(dir);
    const spend = new SqliteSpendStore(store.path);
    const locker = new Database(store.path);
    try {
      const now = Date.now();
      await spend.putRun("app", "run", null, null, null, now);
      locker.run("BEGIN IMMEDIATE");
      const settled = spend.settleMany([
        { kind: "run", requestId: "req_1", appId: "app", id: "run", reserved: false, now, costMicros: 110, promptTokens: 3, completionTokens: 5 },
      ]);
      setTimeout(() => locker.run("COMMIT"), 100);
      // After: the riding settles' timer (5 ms) has already tried the store and left the write on the busy timers.
      if (when === "after") await Bun.sleep(30);
      expect((await spend.run("app", "run"))?.cost_micros).toBe(110);
      await settled;
    } finally {
      locker.close();
      await spend.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
