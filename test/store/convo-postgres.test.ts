import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { openPostgresStore } from "../../src/store/postgres";
import type { PostgresStore } from "../../src/store/db";
import { ConversationLeases } from "../../src/pipeline/context/lease";
import { ResponseStore } from "../../src/pipeline/responses/store";
import { PG_URL, requires } from "../support/services";

/**
 * The conversation lease and the Responses store through drizzle's PostgreSQL builder (what a
 * deployment on SVC_DATABASE_URL runs), on a database of this test's own, two connections as two nodes.
 */
const havePg = await requires("postgres");
const name = `svc_convo_${process.pid}_${Date.now()}`;
let admin: postgres.Sql;
let a: PostgresStore;
let b: PostgresStore;

beforeAll(async () => {
  if (!havePg) return;
  admin = postgres(PG_URL, { onnotice: () => {}, max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = `${PG_URL.replace(/\/[^/]*$/, "")}/${name}`;
  a = await openPostgresStore(url, { max: 2 });
  b = await openPostgresStore(url, { max: 2 });
});
afterAll(async () => {
  if (!havePg) return;
  await Promise.all([a?.close(), b?.close()]);
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`);
  await admin.end();
});

describe.skipIf(!havePg)("on PostgreSQL", () => {
  test("a conversation's lease: one holder across nodes, taken over once expired", async () => {
    const [la, lb] = [a, b].map((store) => new ConversationLeases(store, 1000)) as [ConversationLeases, ConversationLeases];
    // Each step: [node, holder, at, wins]; a release between the takeover and A's retry.
    for (const [node, holder, at, wins] of [
      [la, "A", 5000, true],
      [lb, "B", 5500, false],
      [lb, "B", 6001, true],
    ] as const)
      expect(await node.tryAcquire("app", "c", holder, at)).toBe(wins);
    await la.release("app", "c", "A");
    expect(await la.tryAcquire("app", "c", "A", 6100)).toBe(false);
    // Racing nodes: of 20 tries at once on a free conversation, exactly one wins.
    const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? la : lb).tryAcquire("app", "race", `h${i}`, 7000)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  test("a stored response is found from the other node, per app, until its TTL; bounded per app", async () => {
    const sa = new ResponseStore(a.db, { ttlMs: 1000, maxPerApp: 2, maxBytes: 100_000 });
    const sb = new ResponseStore(b.db, { ttlMs: 1000, maxPerApp: 2, maxBytes: 100_000 });
    const response = (id: string) => ({ id, output: [{ type: "message", id: `msg_${id}` }] });
    for (let i = 0; i < 3; i++) await sa.set("app", `resp_${i}`, [{ role: "user", content: `q${i}` }], response(`resp_${i}`), 100 + i);
    expect(await sb.messages("app", "resp_1", 200)).toEqual([{ role: "user", content: "q1" }]);
    expect(await sb.messages("other", "resp_1", 200)).toBeUndefined();
    expect((await sb.response("app", "resp_2", 200))?.id).toBe("resp_2");
    expect([...(await sb.items("app", ["msg_resp_0", "msg_nope"], 200)).keys()]).toEqual(["msg_resp_0"]);
    expect(await sb.messages("app", "resp_1", 1101)).toBeUndefined();
    await sb.trim("app", 300);
    expect(await sb.response("app", "resp_0", 300)).toBeUndefined();
    expect(await sb.delete("app", "resp_2")).toBe(true);
    expect(await sb.delete("app", "resp_2")).toBe(false);
  });
});
