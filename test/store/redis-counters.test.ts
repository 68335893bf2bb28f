import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteCounters } from "../../src/store/counters";
import { openStore } from "../../src/store/db";
import { RedisLink } from "../../src/store/redis";
import { RedisCounters } from "../../src/store/redis-counters";
import { REDIS_URL, requires } from "../support/services";

const haveRedis = await requires("redis");
const quiet = { warn() {}, info() {} };

describe.skipIf(!haveRedis)("Redis counters over the store's", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-redis-counters-"));
  const db = join(dir, "svc.db");
  const prefix = `svc-test-${randomBytes(6).toString("hex")}`;
  let links: RedisLink[];
  let durable: SqliteCounters;
  beforeAll(async () => {
    openStore(dir).close();
    durable = new SqliteCounters(db);
    links = [new RedisLink(REDIS_URL, prefix, quiet), new RedisLink(REDIS_URL, prefix, quiet)];
    await Promise.all(links.map((l) => l.ready));
  });
  afterAll(async () => {
    const keys = (await links[0]!.send("KEYS", [`${prefix}:*`])) as string[];
    if (keys.length > 0) await links[0]!.send("DEL", keys);
    await Promise.all(links.map((l) => l.close()));
    durable.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("add-within-limit is exact across two nodes racing, and a first use is seeded from the store", async () => {
    await durable.raiseTo("k1", "p", 40);
    const nodes = links.map((l) => new RedisCounters(l, new SqliteCounters(db)));
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => nodes[i % 2]!.addWithin("k1", "p", 1, 100)));
    expect(results.filter((r) => r !== undefined).length).toBe(60);
    expect(new Set(results.filter((r) => r !== undefined)).size).toBe(60);
    expect(await nodes[0]!.addWithin("k1", "p", 1, 100)).toBeUndefined();
    await nodes[1]!.subtract("k1", "p", 5);
    expect(await nodes[0]!.addWithin("k1", "p", 5, 100)).toBe(100);
  });

  test("seeding never lowers Redis; the write-back never lowers the store", async () => {
    const a = new RedisCounters(links[0]!, durable);
    expect(await a.addWithin("k2", "p", 10, 1000)).toBe(10);
    await a.writeBack();
    expect(await durable.read("k2", "p")).toBe(10);
    // A second node seeding later with an older store value: Redis keeps its own.
    await durable.raiseTo("k2", "p", 3);
    const b = new RedisCounters(links[1]!, durable);
    expect(await b.addWithin("k2", "p", 1, 1000)).toBe(11);
    // Refunds lower Redis, never the store (which only ever refuses early).
    await a.subtract("k2", "p", 5);
    await a.writeBack();
    await b.writeBack();
    expect(await durable.read("k2", "p")).toBe(11);
  });

  test("a Redis that lost the counter is re-seeded from what was written back", async () => {
    const a = new RedisCounters(links[0]!, durable);
    expect(await a.addWithin("k3", "p", 7, 1000)).toBe(7);
    await a.writeBack();
    await links[0]!.send("DEL", [links[0]!.key("ctr", "k3", "p")]);
    expect(await a.addWithin("k3", "p", 1, 1000)).toBe(8);
    expect(await a.addWithin("k3", "p", 993, 1000)).toBeUndefined();
  });
});
