import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { PG_URL, requires } from "../support/services";

/**
 * postgres.js 3.4.9 flushes small writes from an immediate; when the server ends a connection under a
 * transaction, the transaction's own ROLLBACK is flushed after the socket is gone and threw a
 * TypeError out of every caller's reach, which ended the process: a gateway node died when PostgreSQL
 * did (test/scale/postgres-loss.test.ts, about one run in six). patches/postgres+3.4.9.patch, applied
 * by `npm install` (postinstall: patch-package), settles the write as CONNECTION_CLOSED instead.
 */
const havePg = await requires("postgres");

describe.skipIf(!havePg)("the PostgreSQL driver when the server ends a connection under a transaction", () => {
  test("the transaction rejects with CONNECTION_CLOSED, the process lives on and the pool answers again", async () => {
    const proc = Bun.spawn([process.execPath, join(import.meta.dir, "pg-dead-socket-child.ts")], {
      env: { ...process.env, PG_URL },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(err).not.toContain("TypeError");
    expect(code).toBe(0);
    expect(JSON.parse(out.trim())).toEqual({ ended: "CONNECTION_CLOSED", after: 1 });
  }, 30_000);
});
