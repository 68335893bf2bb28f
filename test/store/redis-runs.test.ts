import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db";
import { PgSpendStore } from "../../src/store/pg-spend-store";
import { openPostgresStore } from "../../src/store/postgres";
import { RedisLink } from "../../src/store/redis";
import { RedisSpendStore } from "../../src/store/redis-spend";
import { RUN_SEP, SqliteSpendStore, type SpendStore } from "../../src/store/spend-store";
import { freshDatabase } from "../support/pg-database";
import { REDIS_URL, requires } from "../support/services";

// Agent runs' counters and reservations in Redis (issue 32), over each durable store: three nodes
// racing refuse exactly where one store would, the store gets what Redis counted at each flush, and a
// run Redis lost is seeded again from the store, idempotently.

const haveRedis = await requires("redis");
const havePg = await requires("postgres");
const quiet = { warn() {}, info() {} };
const unlimited = { maxCostMicros: Number.MAX_SAFE_INTEGER, maxCalls: Number.MAX_SAFE_INTEGER, maxRepeats: 3 };

async function durableStore(dialect: "sqlite" | "postgres"): Promise<{ spend: SpendStore; close(): Promise<void> }> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "svc-redis-runs-"));
    const store = openStore(dir);
    const spend = new SqliteSpendStore(store.path);
    return {
      spend,
      async close() {
        await spend.close();
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const db = await freshDatabase("redis_runs");
  const store = await openPostgresStore(db.url);
  return {
    spend: new PgSpendStore(store.sql),
    async close() {
      await store.close();
      await db.drop();
    },
  };
}

for (const dialect of ["sqlite", "postgres"] as const) {
  describe.skipIf(!haveRedis || (dialect === "postgres" && !havePg))(`agent runs in Redis over ${dialect}`, () => {
    const prefix = `svc-test-${randomBytes(6).toString("hex")}`;
    let link: RedisLink;
    let durable: { spend: SpendStore; close(): Promise<void> };
    let nodes: RedisSpendStore[];
    let n = 0;
    const runId = () => `run_${n++}`;
    const reservation = (appId: string, id: string, micros: number) => ({
      requestId: `req_${randomBytes(6).toString("hex")}`,
      kind: "run" as const,
      target: appId + RUN_SEP + id,
      period: "",
      micros,
    });

    beforeAll(async () => {
      durable = await durableStore(dialect);
      link = new RedisLink(REDIS_URL, prefix, quiet);
      await link.ready;
      nodes = ["a", "b", "c"].map((x) => new RedisSpendStore(link, durable.spend, `${prefix}-${x}`));
      await Promise.all(nodes.map((x) => x.alive()));
    });
    afterAll(async () => {
      const keys = (await link.send("KEYS", [`${prefix}:*`])) as string[];
      if (keys.length > 0) await link.send("DEL", keys);
      await link.close();
      await durable.close();
    });

    test("three nodes racing past max_calls: exactly max_calls admitted, the run tripped once; the store gets the counts at the flush", async () => {
      const id = runId();
      const limits = { ...unlimited, maxCalls: 40, maxRepeats: 1_000 };
      const got = await Promise.all(Array.from({ length: 120 }, (_, i) => nodes[i % 3]!.admitRun("app", id, `h${i}`, limits, Date.now())));
      expect(got.filter((a) => a.ok).length).toBe(40);
      const refused = got.filter((a) => !a.ok);
      expect(refused.every((a) => !a.ok && a.reason.startsWith("call limit reached: 40 calls"))).toBe(true);
      expect(await nodes[1]!.run("app", id)).toMatchObject({ calls: 40, status: "tripped" });
      expect(await durable.spend.run("app", id)).toBeUndefined();
      for (const x of nodes) await x.flushAsync();
      expect(await durable.spend.run("app", id)).toMatchObject({ calls: 40, status: "tripped", trip_reason: "call limit reached: 40 calls (max_calls 40)" });
    });

    test("the same step repeating trips the guard at max_repeats; a call given back is not counted", async () => {
      const id = runId();
      const [a, b] = nodes;
      expect((await a!.admitRun("app", id, "step", unlimited, Date.now())).ok).toBe(true);
      expect((await b!.admitRun("app", id, "step", unlimited, Date.now())).ok).toBe(true);
      await a!.unadmitRun("app", id, "step");
      expect(await b!.run("app", id)).toMatchObject({ calls: 1, repeat_count: 1 });
      expect((await a!.admitRun("app", id, "step", unlimited, Date.now())).ok).toBe(true);
      expect((await b!.admitRun("app", id, "step", unlimited, Date.now())).ok).toBe(true);
      const fourth = await a!.admitRun("app", id, "step", unlimited, Date.now());
      expect(fourth).toMatchObject({ ok: false, reason: "loop detected: the same request 4 times in a row (max_repeats 3)", run: { status: "tripped" } });
      // Stopped: a different step is refused too, with the trip's reason, until the run is reset.
      expect(await b!.admitRun("app", id, "other", unlimited, Date.now())).toMatchObject({ ok: false, reason: fourth.ok ? "" : fourth.reason });
      expect(await a!.resetRun("app", id, Date.now())).toMatchObject({ calls: 0, status: "active", trip_reason: null });
      expect(await durable.spend.run("app", id)).toMatchObject({ calls: 0, status: "active" });
      expect((await b!.admitRun("app", id, "step", unlimited, Date.now())).ok).toBe(true);
    });

    test("cost reservations racing on three nodes hold exactly what fits; settles add cost and tokens, written back", async () => {
      const id = runId();
      // A PUT that sets nothing creates the run with the defaults' limits, as the store's does.
      expect(await nodes[1]!.putRun("app", id, null, null, null, Date.now())).toMatchObject({ calls: 0, max_cost_micros: null, status: "active" });
      await nodes[0]!.putRun("app", id, 1_000, null, null, Date.now());
      expect(await durable.spend.run("app", id)).toMatchObject({ max_cost_micros: 1_000 });
      const tries = Array.from({ length: 30 }, (_, i) => ({ node: nodes[i % 3]!, r: reservation("app", id, 100) }));
      const got = await Promise.all(tries.map(({ node, r }) => node.reserveRun(r, "app", id, Number.MAX_SAFE_INTEGER, "owner", Date.now())));
      const held = tries.filter((_, i) => got[i]!.ok);
      expect(held.length).toBe(10);
      expect(await nodes[2]!.run("app", id)).toMatchObject({ reserved_micros: 1_000, cost_micros: 0, status: "tripped" });
      await Promise.all(held.map(({ node, r }) => node.settleRun(r.requestId, "app", id, 40, 3, 2, Date.now())));
      // A second settle of one call (a sweep racing it) changes nothing.
      await nodes[0]!.settleRun(held[0]!.r.requestId, "app", id, 0, 0, 0, Date.now());
      expect(await nodes[1]!.run("app", id)).toMatchObject({ reserved_micros: 0, cost_micros: 400, prompt_tokens: 30, completion_tokens: 20 });
      for (const x of nodes) await x.flushAsync();
      expect(await durable.spend.run("app", id)).toMatchObject({ reserved_micros: 0, cost_micros: 400, prompt_tokens: 30, max_cost_micros: 1_000 });
    });

    test("a run Redis lost is seeded from the store and counts on; seeding twice at once, or a stale write-back, changes nothing", async () => {
      const id = runId();
      for (let i = 0; i < 5; i++) expect((await nodes[i % 3]!.admitRun("app", id, `h${i}`, unlimited, Date.now())).ok).toBe(true);
      for (const x of nodes) await x.flushAsync();
      const stored = (await durable.spend.run("app", id))!;
      expect(stored.calls).toBe(5);
      await link.send("DEL", [link.key("run", "app", id)]);
      const again = await Promise.all(nodes.map((x, i) => x.admitRun("app", id, `again${i}`, unlimited, Date.now())));
      expect(again.every((a) => a.ok)).toBe(true);
      expect((await nodes[0]!.run("app", id))!.calls).toBe(8);
      // An older snapshot written late (a node slow to flush) never lowers the store's row.
      for (const x of nodes) await x.flushAsync();
      await durable.spend.writeRuns([stored]);
      expect((await durable.spend.run("app", id))!.calls).toBe(8);
    });

    test("a node that dies holding run reservations has them settled in full by another, once", async () => {
      const id = runId();
      const gone = new RedisSpendStore(link, durable.spend, `${prefix}-gone`);
      await gone.putRun("app", id, 10_000, null, null, Date.now());
      for (let i = 0; i < 3; i++)
        expect((await gone.reserveRun(reservation("app", id, 500), "app", id, Number.MAX_SAFE_INTEGER, "o", Date.now())).ok).toBe(true);
      await link.send("DEL", [link.key("spend-node", gone.node)]);
      expect(await nodes[0]!.settleOrphans(() => false, Date.now())).toBe(3);
      expect(await nodes[1]!.settleOrphans(() => false, Date.now())).toBe(0);
      expect(await nodes[2]!.run("app", id)).toMatchObject({ reserved_micros: 0, cost_micros: 1_500 });
    });
  });
}
