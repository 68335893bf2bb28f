import { describe, expect, test } from "bun:test";
import { call, runCli } from "../support/gateway-process";
import { OFF, rigPerFile, waitForKey } from "../completions/support";
import { waitUntil } from "../support/wait";

const rig = rigPerFile({ SVC_PROVIDER_RETRIES: "0" });

/** gpt-4o-2024-05-13 at $5 per million tokens both ways; the mock answers 9 tokens to a prompt of its words + 7: 22 tokens, $0.00011. */
const CALL_MICROS = 110;
const explicit = (text: string, extra: Record<string, unknown> = {}) => ({
  model: "gpt-4o-2024-05-13",
  max_tokens: 9,
  messages: [{ role: "user", content: text }],
  svc_options: { ...OFF, ...extra },
});

async function createBudget(key: string, limitUsd: number, url = rig.gw.url): Promise<any> {
  const r = await call(`${url}/api/budgets`, key, { body: { name: "team", limit_usd: limitUsd, period: "total" } });
  expect(r.status).toBe(201);
  return r.json();
}
const budget = async (id: string) => (await (await call(`${rig.gw.url}/api/budgets/${id}`, rig.admin.key)).json()) as any;
/** The budget once every call's settle has landed (a settle the store was busy for finishes on a timer). */
const settled = (id: string) => waitUntil("the budget's reservations to settle", async () => ((b) => (b.reserved_usd === 0 ? b : undefined))(await budget(id)));

async function keyWith(body: Record<string, unknown>): Promise<any> {
  const r = await call(`${rig.gw.url}/api/keys`, rig.admin.key, { body: { name: "k", app_id: rig.admin.app_id, ...body } });
  expect(r.status).toBe(201);
  const k = (await r.json()) as any;
  await waitForKey(rig.gw.url, k.key);
  return k;
}

describe("a key's default budget", () => {
  test("calls naming no budget_id are charged on it; one naming a budget is charged on that; PATCH unbinds", async () => {
    const team = await createBudget(rig.admin.key, 1);
    const other = await createBudget(rig.admin.key, 1);
    const k = await keyWith({ budget_id: team.id });
    expect(k.budget_id).toBe(team.id);
    rig.openai.reset();
    expect((await call(`${rig.gw.url}/v1/complete`, k.key, { body: explicit("alpha beta gamma delta epsilon one") })).status).toBe(200);
    expect(Math.round((await settled(team.id)).spent_usd * 1e6)).toBe(CALL_MICROS);
    expect((await call(`${rig.gw.url}/v1/complete`, k.key, { body: explicit("alpha beta gamma delta epsilon two", { budget_id: other.id }) })).status).toBe(
      200,
    );
    expect(Math.round((await settled(other.id)).spent_usd * 1e6)).toBe(CALL_MICROS);
    expect(Math.round((await settled(team.id)).spent_usd * 1e6)).toBe(CALL_MICROS);

    const unbound = await call(`${rig.gw.url}/api/keys/${k.id}`, rig.admin.key, { method: "PATCH", body: { budget_id: null } });
    expect(unbound.status).toBe(200);
    expect(((await unbound.json()) as any).budget_id).toBeNull();
    expect((await call(`${rig.gw.url}/v1/complete`, k.key, { body: explicit("alpha beta gamma delta epsilon three") })).status).toBe(200);
    expect(Math.round((await settled(team.id)).spent_usd * 1e6)).toBe(CALL_MICROS);
    const listed = ((await (await call(`${rig.gw.url}/api/keys`, rig.admin.key)).json()) as any).data.find((x: any) => x.id === k.id);
    expect(listed.budget_id).toBeNull();
  });

  test("a spent default budget refuses the key's calls with 402 before any provider call", async () => {
    // Room for one call's worst case (about 200 µ$) and not for a second after it.
    const small = await createBudget(rig.admin.key, (CALL_MICROS + 150) / 1e6);
    const k = await keyWith({ budget_id: small.id });
    rig.openai.reset();
    expect((await call(`${rig.gw.url}/v1/complete`, k.key, { body: explicit("alpha beta gamma delta epsilon one") })).status).toBe(200);
    await settled(small.id);
    const refused = await call(`${rig.gw.url}/v1/complete`, k.key, { body: explicit("alpha beta gamma delta epsilon two") });
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as any).error.code).toBe("BUDGET_EXCEEDED");
    expect(rig.openai.requests.length).toBe(1);
  });

  test("binding checks the budget: another app's or an unknown one is 404, a bad value 400, a non-admin 403", async () => {
    const otherAdmin = await rig.gw.cliKey(["--admin", "--app", "other-app"]);
    await waitForKey(rig.gw.url, otherAdmin.key);
    const theirs = await createBudget(otherAdmin.key, 1);
    const k = await keyWith({});
    expect(k.budget_id).toBeNull();
    for (const budget_id of [theirs.id, "bud_nope"]) {
      const r = await call(`${rig.gw.url}/api/keys/${k.id}`, rig.admin.key, { method: "PATCH", body: { budget_id } });
      expect(r.status).toBe(404);
      expect(((await r.json()) as any).error).toMatchObject({ code: "NOT_FOUND", param: "budget_id" });
      const created = await call(`${rig.gw.url}/api/keys`, rig.admin.key, { body: { name: "k", app_id: rig.admin.app_id, budget_id } });
      expect(created.status).toBe(404);
    }
    for (const body of [{ budget_id: 5 }, { budget_id: "" }, {}, { budget_id: null, name: "x" }]) {
      const r = await call(`${rig.gw.url}/api/keys/${k.id}`, rig.admin.key, { method: "PATCH", body });
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).error.code).toBe("VALIDATION_ERROR");
    }
    const mine = await createBudget(rig.admin.key, 1);
    // Another app's admin cannot bind this app's key; a key without admin cannot bind at all.
    expect((await call(`${rig.gw.url}/api/keys/${k.id}`, otherAdmin.key, { method: "PATCH", body: { budget_id: theirs.id } })).status).toBe(403);
    expect((await call(`${rig.gw.url}/api/keys/${k.id}`, k.key, { method: "PATCH", body: { budget_id: mine.id } })).status).toBe(403);
    expect((await call(`${rig.gw.url}/api/keys/key_nope`, rig.admin.key, { method: "PATCH", body: { budget_id: mine.id } })).status).toBe(404);
  });

  test("deleting the budget unbinds its keys, whose calls then go through uncapped", async () => {
    const team = await createBudget(rig.admin.key, 1);
    const k = await keyWith({ budget_id: team.id });
    expect((await call(`${rig.gw.url}/api/budgets/${team.id}`, rig.admin.key, { method: "DELETE" })).status).toBe(200);
    const listed = ((await (await call(`${rig.gw.url}/api/keys`, rig.admin.key)).json()) as any).data.find((x: any) => x.id === k.id);
    expect(listed.budget_id).toBeNull();
    expect((await call(`${rig.gw.url}/v1/complete`, k.key, { body: explicit("alpha beta gamma delta epsilon one") })).status).toBe(200);
  });

  test("the CLI creates a key bound to a budget and rebinds it; a running gateway picks the change up", async () => {
    const team = await createBudget(rig.admin.key, 1);
    const created = await rig.gw.cliKey(["--app", rig.admin.app_id, "--budget", team.id]);
    expect(created.budget_id).toBe(team.id);
    await waitForKey(rig.gw.url, created.key);
    expect((await call(`${rig.gw.url}/v1/complete`, created.key, { body: explicit("alpha beta gamma delta epsilon one") })).status).toBe(200);
    expect(Math.round((await settled(team.id)).spent_usd * 1e6)).toBe(CALL_MICROS);

    const bad = await runCli(["keys", "update", created.id, "--budget", "bud_nope"], rig.gw.env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("NOT_FOUND");
    const none = await runCli(["keys", "update", created.id, "--budget", "none", "--json"], rig.gw.env);
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout).budget_id).toBeNull();
    // The server sees the change at its next key sync (SVC_KEY_SYNC_MS, 100 ms in tests): then calls are no longer charged.
    await waitUntil("the unbinding to reach the gateway", async () => {
      const before = Math.round((await settled(team.id)).spent_usd * 1e6);
      expect((await call(`${rig.gw.url}/v1/complete`, created.key, { body: explicit("alpha beta gamma delta epsilon more") })).status).toBe(200);
      return Math.round((await settled(team.id)).spent_usd * 1e6) === before;
    });
  });
});

describe("auto routing fitted to a budget", () => {
  /**
   * With only OpenAI configured, `auto` routes to gpt-4o-mini ($0.15/$0.60 per million) or gpt-4o-2024-05-13
   * ($5/$5), and a call served by the cheaper model may fall back to the dearer one. With max_tokens 1000 the
   * worst case is about $0.0052 on gpt-4o and $0.0006 on gpt-4o-mini: a $0.002 budget covers only the latter.
   */
  const auto = (text: string, extra: Record<string, unknown> = {}) => ({
    model: "auto",
    max_tokens: 1000,
    messages: [{ role: "user", content: text }],
    svc_options: { ...OFF, route: true, ...extra },
  });
  const LONG = "Write a 1500-word essay about the history of lighthouses on the Atlantic coast.";

  test("without a budget the long-output prompt goes to the balanced model", async () => {
    const r = await call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body: auto(LONG) });
    expect(r.status).toBe(200);
    const body = (await r.json()) as any;
    expect(body.model).toBe("gpt-4o-2024-05-13");
    expect(body.svc_meta.routing_reason).toBe("long_output");
    expect(body.svc_meta.budget_fit).toBeUndefined();
  });

  test("a budget that cannot cover it: served by the capable cheaper model, and svc_meta says so", async () => {
    const b = await createBudget(rig.admin.key, 0.002);
    rig.openai.reset();
    const r = await call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body: auto(LONG, { budget_id: b.id }) });
    expect(r.status).toBe(200);
    const body = (await r.json()) as any;
    expect(body.model).toBe("gpt-4o-mini-2024-07-18");
    expect(body.svc_meta.routing_reason).toBe("budget_fit");
    expect(body.svc_meta.budget_fit).toEqual({ instead_of: "gpt-4o-2024-05-13", reason: "long_output" });
    expect(rig.openai.requests.map((x: any) => x.body.model)).toEqual(["gpt-4o-mini-2024-07-18"]);
    const after = await settled(b.id);
    // Charged its cost rounded up to the micro-dollar.
    expect(body.svc_meta.cost_actual_usd).toBeGreaterThan(0);
    expect(Math.round(after.spent_usd * 1e6)).toBe(Math.ceil(body.svc_meta.cost_actual_usd * 1e6));
  });

  test("a call routing sends to the cheap model keeps it; only the fallbacks the budget cannot cover are dropped", async () => {
    const b = await createBudget(rig.admin.key, 0.002);
    const r = await call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body: auto("hello there, how are you today?", { budget_id: b.id }) });
    expect(r.status).toBe(200);
    const body = (await r.json()) as any;
    expect(body.model).toBe("gpt-4o-mini-2024-07-18");
    expect(body.svc_meta.routing_reason).not.toBe("budget_fit");
    expect(body.svc_meta.budget_fit).toBeUndefined();
  });

  test("a model the client names is never switched: 402; and a budget no capable model fits is 402", async () => {
    const b = await createBudget(rig.admin.key, 0.002);
    const named = await call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body: { ...auto(LONG, { budget_id: b.id }), model: "gpt-4o-2024-05-13" } });
    expect(named.status).toBe(402);
    const tiny = await createBudget(rig.admin.key, 0.0001);
    const none = await call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body: auto(LONG, { budget_id: tiny.id }) });
    expect(none.status).toBe(402);
    expect(((await none.json()) as any).error.code).toBe("BUDGET_EXCEEDED");
  });
});

describe("a key's agent-run limits", () => {
  const step = (key: string, run: string, i: number) =>
    call(`${rig.gw.url}/v1/complete`, key, { body: explicit(`alpha beta gamma delta epsilon s${i}`, { agent_run_id: run }) });

  test("a key's call limit holds its calls' runs where the run sets none; PATCH null goes back to the operator's", async () => {
    const k = await keyWith({ agent_run_limits: { max_calls: 2 } });
    expect(k.agent_run_limits).toEqual({ max_cost_usd: null, max_calls: 2, max_repeats: null });
    const run = `run-${crypto.randomUUID()}`;
    expect((await step(k.key, run, 1)).status).toBe(200);
    expect((await step(k.key, run, 2)).status).toBe(200);
    const third = await step(k.key, run, 3);
    expect(third.status).toBe(429);
    expect(((await third.json()) as any).error).toMatchObject({ code: "AGENT_GUARD", reason: expect.stringContaining("max_calls 2") });
    // The admin key sets no limits: its runs take the operator's (none).
    const free = `run-${crypto.randomUUID()}`;
    for (let i = 0; i < 3; i++) expect((await step(rig.admin.key, free, i)).status).toBe(200);

    const patched = await call(`${rig.gw.url}/api/keys/${k.id}`, rig.admin.key, {
      method: "PATCH",
      body: { agent_run_limits: { max_calls: null, max_cost_usd: 5 } },
    });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as any).agent_run_limits).toEqual({ max_cost_usd: 5, max_calls: null, max_repeats: null });
    const fresh = `run-${crypto.randomUUID()}`;
    for (let i = 0; i < 3; i++) expect((await step(k.key, fresh, i)).status).toBe(200);
    const seen = (await (await call(`${rig.gw.url}/api/agent-runs/${fresh}`, k.key)).json()) as any;
    expect(seen.limits).toEqual({ max_cost_usd: 5, max_calls: null, max_repeats: 3 });
  });

  test("a run's own limits win over the key's", async () => {
    const k = await keyWith({ agent_run_limits: { max_calls: 1 } });
    const run = `run-${crypto.randomUUID()}`;
    expect((await call(`${rig.gw.url}/api/agent-runs/${run}`, rig.admin.key, { method: "PUT", body: { max_calls: 3 } })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await step(k.key, run, i)).status).toBe(200);
    expect((await step(k.key, run, 3)).status).toBe(429);
  });

  test("the CLI sets and clears a key's run limits", async () => {
    const k = await keyWith({});
    const set = await runCli(["keys", "update", k.id, "--run-max-calls", "2", "--run-max-cost-usd", "1.5", "--json"], rig.gw.env);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout).agent_run_limits).toEqual({ max_cost_usd: 1.5, max_calls: 2, max_repeats: null });
    const cleared = await runCli(["keys", "update", k.id, "--run-max-calls", "none", "--json"], rig.gw.env);
    expect(JSON.parse(cleared.stdout).agent_run_limits).toEqual({ max_cost_usd: 1.5, max_calls: null, max_repeats: null });
    const bad = await runCli(["keys", "update", k.id, "--run-max-repeats", "0"], rig.gw.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--run-max-repeats");
  });

  test("bad limits are a 400 naming the field", async () => {
    const k = await keyWith({});
    const cases: [unknown, string][] = [
      [{ agent_run_limits: { max_calls: 0 } }, "agent_run_limits.max_calls"],
      [{ agent_run_limits: { max_repeats: 1.5 } }, "agent_run_limits.max_repeats"],
      [{ agent_run_limits: { max_cost_usd: -1 } }, "agent_run_limits.max_cost_usd"],
      [{ agent_run_limits: { color: 1 } }, "agent_run_limits.color"],
      [{ agent_run_limits: 5 }, "agent_run_limits"],
    ];
    for (const [body, param] of cases) {
      const r = await call(`${rig.gw.url}/api/keys/${k.id}`, rig.admin.key, { method: "PATCH", body });
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).error.param).toBe(param);
    }
  });
});
