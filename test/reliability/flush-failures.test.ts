import { expect, test } from "bun:test";
import { flushAll } from "../../src/gateway";
import type { Logger } from "../../src/log/logger";

// A key-usage write on a full disk rejected inside a flush nobody awaited, and Bun ended the gateway on
// the unhandled rejection (a full-disk test saw ECONNRESET mid-run). Every flushable's failure, thrown
// or rejected, is logged under its name, and the flushables after it still run.
test("a flushable that throws or rejects is logged by name and the others still flush", async () => {
  const logged: string[] = [];
  const log = { error: (_fields: unknown, message: string) => void logged.push(message), flush: () => undefined } as unknown as Logger;
  const ran: string[] = [];
  flushAll({
    log,
    flushables: [
      { name: "rejects", flush: () => Promise.reject(new Error("SQLITE_FULL: database or disk is full")) },
      {
        name: "throws",
        flush: () => {
          throw new Error("disk I/O error");
        },
      },
      { name: "fine", flush: () => void ran.push("fine") },
    ],
  });
  await Bun.sleep(0);
  expect(ran).toEqual(["fine"]);
  expect(logged.sort()).toEqual(["flush of rejects failed", "flush of throws failed"]);
});
