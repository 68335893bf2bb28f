import { describe, expect, test } from "bun:test";
import { startOpenAIMock } from "../mocks/openai-mock";
import { call, startGateway } from "../support/gateway-process";
import { bodyFor, CALL_MICROS, readSse, rigPerFile, six, waitForKey } from "../completions/support";

// Retries off: a planned provider failure is one failed call, not one retried into a success.
const rig = rigPerFile({ SVC_PROVIDER_RETRIES: "0" });

async function createBudget(key: string, limitUsd: number, period = "total", url = rig.gw.url) {
  const r = await call(`${url}/api/budgets`, key, { body: { name: "team", limit_usd: limitUsd, period } });
  expect(r.status).toBe(201);
  return (await r.json()) as any;
}
/** The budget once no call holds a reservation (a release the store was too busy for finishes on a timer). */
async function settledBudget(id: string, key = rig.admin.key, url = rig.gw.url) {
  for (let i = 0; ; i++) {
    const b = await getBudget(id, key, url);
    if (b.reserved_usd === 0 || i === 100) return b;
    await Bun.sleep(20);
  }
}
const getBudget = async (id: string, key = rig.admin.key, url = rig.gw.url) => (await (await call(`${url}/api/budgets/${id}`, key)).json()) as any;

describe("budget endpoints", () => {
  test("create answers 201 with the contract's shape; list, get, patch and delete", async () => {
    const b = await createBudget(rig.admin.key, 12.5, "monthly");
    expect(b.id).toMatch(/^bud_/);
    expect(b).toMatchObject({ name: "team", app_id: rig.admin.app_id, limit_usd: 12.5, period: "monthly", spent_usd: 0, reserved_usd: 0, remaining_usd: 12.5 });
    const now = new Date();
    expect(b.resets_at).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    expect(Date.parse(b.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const total = await createBudget(rig.admin.key, 1, "total");
    expect(total.resets_at).toBeNull();
    const daily = await createBudget(rig.admin.key, 1, "daily");
    expect(daily.resets_at).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString());

    const list = (await (await call(`${rig.gw.url}/api/budgets`, rig.admin.key)).json()) as any;
    expect(list.data.map((x: any) => x.id)).toEqual(expect.arrayContaining([b.id, total.id, daily.id]));
    expect(await getBudget(b.id)).toEqual(b);

    const patched = await call(`${rig.gw.url}/api/budgets/${b.id}`, rig.admin.key, { method: "PATCH", body: { limit_usd: 20, name: "renamed" } });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id: b.id, name: "renamed", limit_usd: 20, remaining_usd: 20 });

    const del = await call(`${rig.gw.url}/api/budgets/${b.id}`, rig.admin.key, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect((await call(`${rig.gw.url}/api/budgets/${b.id}`, rig.admin.key)).status).toBe(404);
  });

  test("bad input is a 400 naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ name: "x", limit_usd: -1, period: "total" }, "limit_usd"],
      [{ name: "x", limit_usd: 1e12, period: "total" }, "limit_usd"],
      [{ name: "x", limit_usd: "5", period: "total" }, "limit_usd"],
      [{ name: "x", limit_usd: 5, period: "weekly" }, "period"],
      [{ limit_usd: 5, period: "daily" }, "name"],
      [{ name: "x", limit_usd: 5, period: "daily", color: "red" }, "color"],
      [[1, 2], "body"],
    ];
    for (const [body, field] of cases) {
      const r = await call(`${rig.gw.url}/api/budgets`, rig.admin.key, { body });
      expect(r.status).toBe(400);
      const e = ((await r.json()) as any).error;
      expect(e.code).toBe("VALIDATION_ERROR");
      expect(e.param).toBe(field);
    }
    const b = await createBudget(rig.admin.key, 1);
    const bad = await call(`${rig.gw.url}/api/budgets/${b.id}`, rig.admin.key, { method: "PATCH", body: { limit_usd: -5 } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.param).toBe("limit_usd");
  });

  test("another app's budget is 404 everywhere; a key without admin reads but cannot change", async () => {
    const b = await createBudget(rig.admin.key, 1);
    const other = await rig.gw.cliKey(["--admin", "--app", "other-app"]);
    const reader = await rig.gw.cliKey(["--app", rig.admin.app_id]);
    await waitForKey(rig.gw.url, other.key);
    await waitForKey(rig.gw.url, reader.key);
    const base = `${rig.gw.url}/api/budgets/${b.id}`;
    for (const [method, body] of [["GET"], ["PATCH", { limit_usd: 2 }], ["DELETE"]] as const) {
      const r = await call(base, other.key, { method, body });
      expect(r.status).toBe(404);
      expect(((await r.json()) as any).error.code).toBe("NOT_FOUND");
    }
    expect(((await (await call(`${rig.gw.url}/api/budgets`, other.key)).json()) as any).data).toEqual([]);
    const used = await call(`${rig.gw.url}/v1/complete`, other.key, { body: bodyFor("hello there", { budget_id: b.id }) });
    expect(used.status).toBe(404);
    expect(((await used.json()) as any).error.param).toBe("svc_options.budget_id");

    expect((await call(base, reader.key)).status).toBe(200);
    expect((await call(base, reader.key, { method: "PATCH", body: { limit_usd: 2 } })).status).toBe(403);
    expect((await call(`${rig.gw.url}/api/budgets`, reader.key, { body: { name: "x", limit_usd: 1, period: "total" } })).status).toBe(403);
  });
});

describe("budgets under concurrency", () => {
  // Fits 50 calls' actual cost and not 51.
  const LIMIT_USD = (50 * CALL_MICROS + CALL_MICROS / 2) / 1e6;

  test("200 concurrent calls against a budget that fits 50: at most 50 succeed, no provider call for the refused, spend exact", async () => {
    const b = await createBudget(rig.admin.key, LIMIT_USD);
    rig.openai.reset();
    rig.openai.latencyMs = 30;
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body: bodyFor(six(i), { budget_id: b.id }) })),
    );
    const ok = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 402);
    expect(ok + refused.length).toBe(200);
    expect(ok).toBeLessThanOrEqual(50);
    expect(ok).toBeGreaterThan(25);
    expect(((await refused[0]!.json()) as any).error.code).toBe("BUDGET_EXCEEDED");
    expect(rig.openai.requests.length).toBe(ok);
    const after = await settledBudget(b.id);
    expect(after.reserved_usd).toBe(0);
    expect(Math.round(after.spent_usd * 1e6)).toBe(ok * CALL_MICROS);
    expect(after.spent_usd).toBeLessThanOrEqual(LIMIT_USD);
  }, 60_000);

  test("the same with the provider failing half the calls: failures release their reservations and cost nothing", async () => {
    const b = await createBudget(rig.admin.key, LIMIT_USD);
    rig.openai.reset();
    rig.openai.latencyMs = 30;
    // Calls with an even number fail at the provider. Ten waves of 20 concurrent calls: were a
    // failure's reservation kept, the failures of the first waves would hold the budget shut far
    // short of 50 successes (about 15); released, the successes fill it.
    rig.openai.failWhen = (text) => (Number(text.split(" z")[1]) % 2 === 0 ? 500 : undefined);
    let ok = 0;
    let failed = 0;
    for (let wave = 0; wave < 10; wave++) {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body: bodyFor(six(wave * 20 + i), { budget_id: b.id }) })),
      );
      ok += results.filter((r) => r.status === 200).length;
      failed += results.filter((r) => r.status === 502).length;
      expect(results.every((r) => [200, 402, 502].includes(r.status))).toBe(true);
    }
    expect(failed).toBeGreaterThan(20);
    expect(ok + failed).toBe(rig.openai.requests.length);
    expect(ok).toBeLessThanOrEqual(50);
    expect(ok).toBeGreaterThanOrEqual(40);
    const after = await settledBudget(b.id);
    expect(after.reserved_usd).toBe(0);
    expect(Math.round(after.spent_usd * 1e6)).toBe(ok * CALL_MICROS);
    expect(after.spent_usd).toBeLessThanOrEqual(LIMIT_USD);
  }, 60_000);

  test("two gateway processes on one data directory share the limit exactly", async () => {
    const b = await createBudget(rig.admin.key, LIMIT_USD);
    rig.openai.reset();
    rig.openai.latencyMs = 30;
    const second = await startGateway(rig.gw.env, { dataDir: rig.gw.dataDir });
    try {
      await waitForKey(second.url, rig.admin.key);
      const send = (i: number) => call(`${i % 2 ? second.url : rig.gw.url}/v1/complete`, rig.admin.key, { body: bodyFor(six(i), { budget_id: b.id }) });
      // A first wave of 20 (10 a node, well inside the budget) makes sure both processes serve calls; the
      // other 180 then race across both for what is left. All 200 at once could let one node take it all.
      const first = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i)));
      const results = [...first, ...(await Promise.all(Array.from({ length: 180 }, (_, i) => send(20 + i))))];
      const ok = results.filter((r) => r.status === 200);
      expect(ok.length + results.filter((r) => r.status === 402).length).toBe(200);
      expect(ok.length).toBeLessThanOrEqual(50);
      expect(ok.length).toBeGreaterThan(25);
      // Both processes answered some of them.
      expect(results.filter((r, i) => r.status === 200 && i % 2 === 1).length).toBeGreaterThan(0);
      expect(results.filter((r, i) => r.status === 200 && i % 2 === 0).length).toBeGreaterThan(0);
      const after = await settledBudget(b.id, rig.admin.key, second.url);
      expect(after.reserved_usd).toBe(0);
      expect(Math.round(after.spent_usd * 1e6)).toBe(ok.length * CALL_MICROS);
    } finally {
      second.proc.kill("SIGTERM");
      await second.finished();
    }
  }, 120_000);

  test("a stream is charged what it cost; a spent budget refuses the next call before the provider", async () => {
    // Room for two calls' cost and one call's worst case (about 200 µ$), not for a third.
    const b = await createBudget(rig.admin.key, (CALL_MICROS * 3 + 50) / 1e6);
    rig.openai.reset();
    const s = await call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body: { ...bodyFor(six(1), { budget_id: b.id }), stream: true } });
    expect(s.status).toBe(200);
    const frames = await readSse(s);
    expect(frames.at(-1)).toBe("[DONE]");
    expect(Math.round((await getBudget(b.id)).spent_usd * 1e6)).toBe(CALL_MICROS);
    expect((await call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body: bodyFor(six(2), { budget_id: b.id }) })).status).toBe(200);
    const before = rig.openai.requests.length;
    const third = await call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body: bodyFor(six(3), { budget_id: b.id }) });
    expect(third.status).toBe(402);
    expect(rig.openai.requests.length).toBe(before);
    // Raising the limit lets calls through again.
    await call(`${rig.gw.url}/api/budgets/${b.id}`, rig.admin.key, { method: "PATCH", body: { limit_usd: 1 } });
    expect((await call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body: bodyFor(six(3), { budget_id: b.id }) })).status).toBe(200);
  });
});

describe("restarts", () => {
  test("a process killed mid-call leaves its reservation; the next start charges it in full", async () => {
    const openai = startOpenAIMock({ apiKey: "sk-mock-openai" });
    const gw = await startGateway({ OPENAI_API_KEY: "sk-mock-openai", OPENAI_BASE_URL: `${openai.url}/v1` });
    try {
      const admin = await gw.cliKey(["--admin"]);
      await waitForKey(gw.url, admin.key);
      const b = await createBudget(admin.key, 1, "total", gw.url);
      openai.hang = true;
      const pending = call(`${gw.url}/v1/complete`, admin.key, { body: bodyFor(six(1), { budget_id: b.id }) }).catch(() => undefined);
      for (let i = 0; i < 200 && openai.requests.length === 0; i++) await Bun.sleep(20);
      expect(openai.requests.length).toBe(1);
      const held = await getBudget(b.id, admin.key, gw.url);
      expect(held.reserved_usd).toBeGreaterThan(CALL_MICROS / 1e6);
      gw.proc.kill("SIGKILL");
      await gw.finished();
      await pending;
      openai.hang = false;
      const again = await startGateway(gw.env, { dataDir: gw.dataDir });
      try {
        const after = await getBudget(b.id, admin.key, again.url);
        expect(after.reserved_usd).toBe(0);
        expect(after.spent_usd).toBe(held.reserved_usd);
        expect(again.logs().some((l) => l.includes("reservations of a process that stopped were settled"))).toBe(true);
      } finally {
        await again.stop();
      }
    } finally {
      openai.stop();
    }
  }, 120_000);
});
