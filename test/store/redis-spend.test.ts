import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db";
import { RedisLink } from "../../src/store/redis";
import { RedisSpendStore } from "../../src/store/redis-spend";
import { SqliteSpendStore, type SpendStore } from "../../src/store/spend-store";
import { REDIS_URL, requires } from "../support/services";

const haveRedis = await requires("redis");
const quiet = { warn() {}, info() {} };

describe.skipIf(!haveRedis)("budget reservations in Redis over the store's", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-redis-spend-"));
  const prefix = `svc-test-${randomBytes(6).toString("hex")}`;
  let link: RedisLink;
  let durable: SpendStore;
  let budgetN = 0;
  const newBudget = async (limitMicros: number) => {
    const id = `bud_test${budgetN++}`;
    await durable.createBudget({ id, app_id: "app", name: id, limit_micros: limitMicros, period: "total", created_at: Date.now() });
    return id;
  };
  const reservation = (target: string, micros: number) => ({
    requestId: `req_${randomBytes(6).toString("hex")}`,
    kind: "budget" as const,
    target,
    period: "",
    micros,
  });

  beforeAll(async () => {
    openStore(dir).close();
    durable = new SqliteSpendStore(join(dir, "svc.db"));
    link = new RedisLink(REDIS_URL, prefix, quiet);
    await link.ready;
  });
  afterAll(async () => {
    const keys = (await link.send("KEYS", [`${prefix}:*`])) as string[];
    if (keys.length > 0) await link.send("DEL", keys);
    await link.close();
    await durable.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("three nodes racing: exactly what fits is reserved; settles add what the calls cost, written back to the store", async () => {
    const id = await newBudget(5000);
    const nodes = ["a", "b", "c"].map((n) => new RedisSpendStore(link, durable, `${prefix}-${n}`));
    await Promise.all(nodes.map((n) => n.alive()));
    const tries = Array.from({ length: 200 }, (_, i) => ({ node: nodes[i % 3]!, r: reservation(id, 100) }));
    const got = await Promise.all(tries.map(({ node, r }) => node.reserveBudget(r, "owner", Date.now())));
    const held = tries.filter((_, i) => got[i] !== undefined);
    expect(held.length).toBe(50);
    expect(await nodes[0]!.spend(id, "")).toEqual({ spent_micros: 0, reserved_micros: 5000 });
    await Promise.all(held.map(({ node, r }) => node.settleBudget(r.requestId, id, "", 80)));
    expect(await nodes[1]!.spend(id, "")).toEqual({ spent_micros: 4000, reserved_micros: 0 });
    expect(await durable.spend(id, "")).toEqual({ spent_micros: 0, reserved_micros: 0 });
    for (const n of nodes) await n.flushAsync();
    expect(await durable.spend(id, "")).toEqual({ spent_micros: 4000, reserved_micros: 0 });
  });

  test("a window Redis lost is seeded from the store; the limit is the store's at every reservation", async () => {
    const id = await newBudget(1000);
    const node = new RedisSpendStore(link, durable, `${prefix}-seed`);
    await node.alive();
    const r = reservation(id, 600);
    expect(await node.reserveBudget(r, "owner", Date.now())).toEqual({ spend: { spent_micros: 0, reserved_micros: 600 } });
    await node.settleBudget(r.requestId, id, "", 600);
    await node.flushAsync();
    await link.send("DEL", [link.key("spend", id, "")]);
    expect(await node.reserveBudget(reservation(id, 500), "owner", Date.now())).toBeUndefined();
    await durable.updateBudget(id, null, 2000, Date.now());
    expect(await node.reserveBudget(reservation(id, 500), "owner", Date.now())).toEqual({ spend: { spent_micros: 600, reserved_micros: 500 } });
  });

  test("a node that stops saying it is alive has its reservations settled in full by another, once", async () => {
    const id = await newBudget(1000);
    const gone = new RedisSpendStore(link, durable, `${prefix}-gone`);
    const other = new RedisSpendStore(link, durable, `${prefix}-other`);
    await other.alive();
    for (let i = 0; i < 3; i++) expect(await gone.reserveBudget(reservation(id, 100), "owner", Date.now())).toBeDefined();
    // It dies: its heartbeat lapses.
    await link.send("DEL", [link.key("spend-node", gone.node)]);
    expect(await other.settleOrphans(() => false, Date.now())).toBe(3);
    expect(await other.settleOrphans(() => false, Date.now())).toBe(0);
    expect(await other.spend(id, "")).toEqual({ spent_micros: 300, reserved_micros: 0 });
  });
});
