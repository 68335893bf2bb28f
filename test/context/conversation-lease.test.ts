import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type SqliteStore } from "../../src/store/db";
import { ConversationLeases } from "../../src/pipeline/context/lease";
import { startOpenAIMock } from "../mocks/openai-mock";
import { call, startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { waitForKey } from "../completions/support";

/**
 * One call at a time per conversation across gateway processes (issue 28): a lease row in the store,
 * taken by compare-and-set. Without it, two processes each plan a call from the same stored turns, and
 * one of them answers without the other's question and answer.
 */
type Msg = { role: string; content: string };

describe("ConversationLeases on two connections to one store", () => {
  let dir: string;
  let a: SqliteStore;
  let b: SqliteStore;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-convo-lease-"));
    a = openStore(dir);
    b = openStore(dir);
  });
  afterAll(() => {
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("held by one holder until released or expired; per conversation and per app", async () => {
    const la = new ConversationLeases(a, 1000);
    const lb = new ConversationLeases(b, 1000);
    expect(await la.tryAcquire("app", "c", "A", 10_000)).toBe(true);
    expect(await lb.tryAcquire("app", "c", "B", 10_500)).toBe(false);
    // The same holder again (a retried admission) keeps it; other conversations and apps are free.
    expect(await la.tryAcquire("app", "c", "A", 10_600)).toBe(true);
    expect(await lb.tryAcquire("app", "other", "B", 10_600)).toBe(true);
    expect(await lb.tryAcquire("app2", "c", "B", 10_600)).toBe(true);
    await la.release("app", "c", "A");
    expect(await lb.tryAcquire("app", "c", "B", 10_700)).toBe(true);
    // B "dies" holding it: A gets it once it expired (B's lease ran to 11_700), not before.
    expect(await la.tryAcquire("app", "c", "A", 11_699)).toBe(false);
    expect(await la.tryAcquire("app", "c", "A", 11_701)).toBe(true);
    // B's late release does not free A's lease.
    await lb.release("app", "c", "B");
    expect(await lb.tryAcquire("app", "c", "B", 11_800)).toBe(false);
  });

  test("acquire waits for the holder, and gives up when the client goes away", async () => {
    const la = new ConversationLeases(a, 60_000);
    const lb = new ConversationLeases(b, 60_000);
    const release = await la.acquire("app", "w", "A");
    let got = false;
    const waiting = lb.acquire("app", "w", "B").then((r) => ((got = true), r));
    await Bun.sleep(50);
    expect(got).toBe(false);
    await release();
    const releaseB = await waiting;
    expect(got).toBe(true);
    const gone = new AbortController();
    const third = la.acquire("app", "w", "C", gone.signal);
    gone.abort();
    await expect(third).rejects.toThrow("client closed");
    await releaseB();
  });

  test("a held lease is renewed while its call runs, however long, and is free once given back", async () => {
    const la = new ConversationLeases(a, 1000);
    const lb = new ConversationLeases(b, 1000);
    const release = await la.acquire("app", "renewed", "A");
    await Bun.sleep(2500);
    expect(await lb.tryAcquire("app", "renewed", "B", Date.now())).toBe(false);
    await release();
    await Bun.sleep(500);
    expect(await lb.tryAcquire("app", "renewed", "B", Date.now())).toBe(true);
  });
});

describe("two gateway processes, one conversation", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-convo-lease-gw-"));
  const openai = startOpenAIMock({ apiKey: "sk-mock" });
  const env = { OPENAI_API_KEY: "sk-mock", OPENAI_BASE_URL: `${openai.url}/v1` };
  let gws: GatewayProcess[] = [];
  let admin: KeyCreated;
  beforeAll(async () => {
    gws = await Promise.all([startGateway(env, { dataDir }), startGateway(env, { dataDir })]);
    admin = await gws[0]!.cliKey(["--admin", "--app", "app-a"]);
    for (const gw of gws) await waitForKey(gw.url, admin.key);
  }, 90_000);
  afterAll(async () => {
    await Promise.all(gws.map((g) => g.stop()));
    openai.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("calls at once on both processes run one after another: each sees every earlier turn, none is lost", async () => {
    openai.latencyMs = 200;
    try {
      const before = openai.requests.length;
      const calls = Array.from({ length: 6 }, (_, i) =>
        call(`${gws[i % 2]!.url}/v1/complete`, admin.key, {
          body: {
            model: "gpt-4o-mini",
            messages: [{ role: "user", content: `Question number ${i} about the Analytical Engine?` }],
            svc_options: { cache: false, route: false, compress: false, conversation_id: "c-two-nodes" },
          },
        }),
      );
      const statuses = (await Promise.all(calls)).map((r) => r.status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      const sent = openai.requests
        .slice(before)
        .map((r) => (r.body as { messages: Msg[] }).messages)
        .sort((x, y) => x.length - y.length);
      // Serialised: the k-th call carries the 2k turns before it, each call's history the one before plus its question and answer.
      expect(sent.map((m) => m.length)).toEqual([1, 3, 5, 7, 9, 11]);
      for (let k = 1; k < sent.length; k++) {
        expect(sent[k]!.slice(0, sent[k - 1]!.length)).toEqual(sent[k - 1]!);
        expect(sent[k]![sent[k - 1]!.length]!.role).toBe("assistant");
      }
      const view = (await (await call(`${gws[1]!.url}/api/conversations/c-two-nodes`, admin.key)).json()) as { turns: number };
      expect(view.turns).toBe(12);
    } finally {
      openai.latencyMs = 0;
    }
  });
});
