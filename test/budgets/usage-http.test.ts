import { describe, expect, test } from "bun:test";
import { call } from "../support/gateway-process";
import { OFF, rigPerFile, waitForKey } from "../completions/support";

const rig = rigPerFile();

const complete = (key: string, model: string, text: string, options: Record<string, unknown> = {}) =>
  call(`${rig.gw.url}/v1/complete`, key, { body: { model, max_tokens: 9, messages: [{ role: "user", content: text }], svc_options: { ...OFF, ...options } } });

const sumOf = (by: Record<string, number>) => Object.values(by).reduce((a, b) => a + b, 0);

/** The usage rows once the ledger's writer has stored `calls` rows for the app (it writes every flush interval). */
async function usage(key: string, query: string, calls: number): Promise<any> {
  for (let i = 0; ; i++) {
    const r = await call(`${rig.gw.url}/api/usage?${query}`, key);
    expect(r.status).toBe(200);
    const body = (await r.json()) as any;
    const total = body.rows.reduce((a: number, x: any) => a + x.calls, 0);
    if (total >= calls || i === 200) return body;
    await Bun.sleep(25);
  }
}

describe("savings by source", () => {
  test("svc_meta.saved_by_source names routing and cache savings and sums to saved_usd", async () => {
    // auto with routing off is priced on the baseline (gpt-4o) and served by the default model (gpt-4o-mini).
    const routed = ((await (await complete(rig.admin.key, "auto", "savings by routing please")).json()) as any).svc_meta;
    expect(routed.saved_by_source.routing).toBeGreaterThan(0);
    expect(routed.saved_by_source).toMatchObject({ compression: 0, cache: 0, prompt_cache: 0, conversation: 0 });
    expect(sumOf(routed.saved_by_source)).toBeCloseTo(routed.saved_usd, 12);

    const first = await complete(rig.admin.key, "gpt-4o-2024-05-13", "the same question for the cache", { cache: true });
    expect(first.status).toBe(200);
    const hit = ((await (await complete(rig.admin.key, "gpt-4o-2024-05-13", "the same question for the cache", { cache: true })).json()) as any).svc_meta;
    expect(hit.cache_hit).toBe(true);
    expect(hit.saved_by_source.cache).toBe(hit.cost_original_usd);
    expect(sumOf(hit.saved_by_source)).toBeCloseTo(hit.saved_usd, 12);
  });
});

describe("GET /api/usage", () => {
  test("aggregates by model, budget, agent run, key and day; pages; CSV; scoped to the app", async () => {
    const admin = await rig.gw.cliKey(["--admin", "--app", "usage-app"]);
    await waitForKey(rig.gw.url, admin.key);
    const budget = (await (await call(`${rig.gw.url}/api/budgets`, admin.key, { body: { name: "u", limit_usd: 10, period: "total" } })).json()) as any;
    for (let i = 0; i < 3; i++) expect((await complete(admin.key, "gpt-4o-2024-05-13", `question number ${i}`, { budget_id: budget.id })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await complete(admin.key, "gpt-4o-mini", `other question ${i}`, { agent_run_id: "run-u" })).status).toBe(200);

    const byModel = await usage(admin.key, "group_by=model", 5);
    expect(byModel.rows.map((r: any) => [r.group, r.calls])).toEqual([
      ["gpt-4o-2024-05-13", 3],
      ["gpt-4o-mini-2024-07-18", 2],
    ]);
    const row = byModel.rows[0];
    // Three calls of 3 words + 7 prompt tokens (the mock's count) and a six-token answer at $5 per million.
    expect(row.sent_tokens).toBe(3 * 10);
    expect(row.cost_actual_usd).toBeCloseTo((3 * 16 * 5) / 1e6, 12);
    expect(row.cache_hits).toBe(0);
    expect(sumOf(row.saved_by_source)).toBeCloseTo(row.saved_usd, 12);

    const byBudget = await usage(admin.key, "group_by=budget", 5);
    expect(byBudget.rows).toContainEqual(expect.objectContaining({ group: budget.id, calls: 3 }));
    expect(byBudget.rows).toContainEqual(expect.objectContaining({ group: null, calls: 2 }));
    const byRun = await usage(admin.key, "group_by=agent_run", 5);
    expect(byRun.rows).toContainEqual(expect.objectContaining({ group: "run-u", calls: 2 }));
    const byKey = await usage(admin.key, "group_by=key", 5);
    expect(byKey.rows).toEqual([expect.objectContaining({ group: admin.id, calls: 5 })]);
    const byDay = await usage(admin.key, "group_by=day", 5);
    expect(byDay.rows).toEqual([expect.objectContaining({ group: new Date().toISOString().slice(0, 10), calls: 5 })]);

    // Pages of one group each, in group order.
    const p1 = await usage(admin.key, "group_by=model&limit=1", 0);
    expect(p1.rows.map((r: any) => r.group)).toEqual(["gpt-4o-2024-05-13"]);
    expect(p1.next_cursor).toBeString();
    const p2 = await usage(admin.key, `group_by=model&limit=1&cursor=${p1.next_cursor}`, 0);
    expect(p2.rows.map((r: any) => r.group)).toEqual(["gpt-4o-mini-2024-07-18"]);
    expect(p2.next_cursor).toBeNull();

    // A time range that excludes the calls.
    const old = await usage(admin.key, "group_by=model&from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z", 0);
    expect(old.rows).toEqual([]);

    const csv = await call(`${rig.gw.url}/api/usage?group_by=model&format=csv`, admin.key);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toStartWith("group,calls,errors,original_tokens,sent_tokens,cost_original_usd");
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 2).join(","))).toEqual(["gpt-4o-2024-05-13,3", "gpt-4o-mini-2024-07-18,2"]);

    // The rig's own app never sees usage-app's calls.
    const mine = await usage(rig.admin.key, "group_by=key", 0);
    expect(mine.rows.map((r: any) => r.group)).not.toContain(admin.id);
  });

  test("bad parameters are 400 naming the field", async () => {
    for (const [query, field] of [
      ["group_by=week", "group_by"],
      ["from=yesterday", "from"],
      ["from=2026-02-01&to=2026-01-01", "from"],
      ["format=xml", "format"],
      ["limit=0", "limit"],
      ["limit=5000", "limit"],
      ["cursor=%25%25", "cursor"],
    ]) {
      const r = await call(`${rig.gw.url}/api/usage?${query}`, rig.admin.key);
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).error.param).toBe(field);
    }
    expect((await call(`${rig.gw.url}/api/usage`, undefined)).status).toBe(401);
  });
});
