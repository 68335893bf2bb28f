import { afterAll, describe, test } from "bun:test";
import { RedisClient } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RedisLink } from "../../src/store/redis";
import { haveRedisServer, startOwnRedis } from "../support/redis-server";
import { waitUntil } from "../support/wait";
import { freePort } from "../support/free-port";

/**
 * A subscription asked for while the connection drops (a node starting as Redis goes away: the cache's
 * peers subscribe during start-up) is kept and made on the next connection, instead of failing the
 * start: "svc serve exited with 1 before listening: redis: Connection closed" was seen in
 * test/scale/redis-loss.test.ts.
 */
if (!haveRedisServer) console.log("[skip] the Redis subscription test needs redis-server on PATH to start a Redis of its own");

const dir = mkdtempSync(join(tmpdir(), "svc-redis-sub-"));
const PORT = freePort();
const quiet = { info() {}, warn() {} };

describe.skipIf(!haveRedisServer)("a Redis subscription asked for as the connection drops", () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("does not throw, and is made once Redis is back", async () => {
    const server = startOwnRedis(PORT, dir);
    // A daemonised redis-server is still starting when its start command returns; on a loaded machine
    // that took seconds.
    const link = await waitUntil(
      "a first connection",
      async () => {
        const l = new RedisLink(server.url, "sub", quiet);
        await l.ready;
        if (l.healthy) return l;
        await l.close();
        return undefined;
      },
      { tries: 300, everyMs: 50 },
    );
    try {
      const got: string[] = [];
      server.kill();
      await link.subscribe("news", (m) => got.push(m));
      server.restart();
      const publisher = await waitUntil("Redis back", async () => {
        const c = new RedisClient(server.url, { autoReconnect: false, connectionTimeout: 1000 });
        try {
          await c.connect();
          return c;
        } catch {
          c.close();
          return undefined;
        }
      });
      await waitUntil("the subscription made on the new connection", async () => {
        await publisher.publish("sub:news", "hello");
        return got.includes("hello");
      });
      publisher.close();
    } finally {
      await link.close();
      try {
        server.kill();
      } catch {}
    }
  }, 30_000);
});
