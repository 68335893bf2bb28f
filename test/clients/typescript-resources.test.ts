/**
 * The TypeScript client's /api/ resources against a real svc: each method is checked by what the
 * server did with it (a wrong path is a 404, a wrong body a 400, and every change is read back).
 */
import { describe, expect, test } from "bun:test";
import {
  BudgetExceededError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  Svc,
  type UsageRow,
} from "../../clients/typescript/src/index.ts";
import { waitForKey } from "../completions/support";
import { expectError, failure } from "./expect-error";
import { clientRigPerFile, MODELS } from "./rig";

const rig = clientRigPerFile();
const admin = () => new Svc({ apiKey: rig.admin.key, baseURL: rig.gw.url, maxRetries: 0 });
const APP = "clients-app";
const OFF = { compress: false, cache: false, route: false };
const ask = (content: string) => [{ role: "user" as const, content }];
/** A priced model and a short answer, so budgets and runs see a small known cost. */
const call = (svc: Svc, content: string, svc_options: Record<string, unknown> = {}) =>
  svc.complete({ model: MODELS.ok, max_tokens: 9, messages: ask(content), svc_options: { ...OFF, ...svc_options } });

/** A key of the rig's app without the admin scope. */
async function plainKey(): Promise<Svc> {
  const created = await admin().keys.create({ name: "reader", app_id: APP });
  return new Svc({ apiKey: created.key, baseURL: rig.gw.url, maxRetries: 0 });
}

describe("keys", () => {
  test("create with defaults → update (left out is kept, null unbinds) → read back in the list", async () => {
    const svc = admin();
    const b = await svc.budgets.create({ name: "key default", limit_usd: 3, period: "total" });
    const created = await svc.keys.create({ name: "bound", app_id: APP, budget_id: b.id, agent_run_limits: { max_calls: 5 } });
    expect(created).toMatchObject({ budget_id: b.id, agent_run_limits: { max_calls: 5 } });
    const changed = await svc.keys.update(created.id, { agent_run_limits: { max_calls: null, max_repeats: 4 } });
    expect(changed).toMatchObject({ budget_id: b.id, agent_run_limits: { max_calls: null, max_repeats: 4 } });
    expect((await svc.keys.update(created.id, { budget_id: null })).budget_id).toBeNull();
    expect((await svc.keys.list()).find((k) => k.id === created.id)!.budget_id).toBeNull();
    expectError(await failure(svc.keys.update(created.id, {})), InvalidRequestError, "VALIDATION_ERROR", 400);
    expectError(await failure(svc.keys.update("key_doesnotexist", { budget_id: null })), NotFoundError, "NOT_FOUND", 404);
  });
});

describe("budgets", () => {
  test("create → list → get → update → spend → delete, each read back", async () => {
    const svc = admin();
    const b = await svc.budgets.create({ name: "team", limit_usd: 12.5, period: "monthly" });
    expect(b.id).toStartWith("bud_");
    expect(b).toMatchObject({ name: "team", app_id: APP, limit_usd: 12.5, period: "monthly", spent_usd: 0, remaining_usd: 12.5 });
    expect(b.resets_at).not.toBeNull();
    expect((await svc.budgets.list()).map((x) => x.id)).toContain(b.id);
    expect(await svc.budgets.get(b.id)).toEqual(b);

    const updated = await svc.budgets.update(b.id, { name: "renamed", limit_usd: 20 });
    expect(updated).toMatchObject({ id: b.id, name: "renamed", limit_usd: 20, remaining_usd: 20 });
    expect(await svc.budgets.get(b.id)).toEqual(updated);

    await call(svc, "charged to the budget", { budget_id: b.id });
    let after = await svc.budgets.get(b.id);
    for (let i = 0; after.reserved_usd > 0 && i < 100; i++) after = await svc.budgets.get(b.id);
    expect(after.spent_usd).toBeGreaterThan(0);
    expect(after.remaining_usd).toBeCloseTo(20 - after.spent_usd, 9);

    const deleted = await svc.budgets.delete(b.id);
    expect(deleted).toMatchObject({ id: b.id, name: "renamed", deleted: true });
    expectError(await failure(svc.budgets.get(b.id)), NotFoundError, "NOT_FOUND", 404);
    expect((await svc.budgets.list()).map((x) => x.id)).not.toContain(b.id);
  });

  test("402 BUDGET_EXCEEDED from complete(), before any provider call; bad input and a non-admin key refused", async () => {
    const svc = admin();
    const tiny = await svc.budgets.create({ name: "one micro-dollar", limit_usd: 0.000001, period: "total" });
    const before = rig.openai.requests.length;
    expectError(await failure(call(svc, "too dear", { budget_id: tiny.id })), BudgetExceededError, "BUDGET_EXCEEDED", 402);
    expect(rig.openai.requests.length).toBe(before);

    const bad = await failure(svc.budgets.create({ name: "weekly", limit_usd: 1, period: "weekly" as "daily" }));
    expectError(bad, InvalidRequestError, "VALIDATION_ERROR", 400);
    expect(bad.param).toBe("period");
    const reader = await plainKey();
    expect((await reader.budgets.get(tiny.id)).id).toBe(tiny.id);
    expectError(await failure(reader.budgets.update(tiny.id, { limit_usd: 5 })), PermissionDeniedError, "FORBIDDEN", 403);
    expectError(await failure(reader.budgets.delete(tiny.id)), PermissionDeniedError, "FORBIDDEN", 403);
  });
});

describe("agent runs", () => {
  test("setLimits → calls counted in svc_meta.agent_run → the guard trips (AGENT_GUARD, not retried) → reset → close", async () => {
    // Characters a path must escape: the id is the client's own string.
    const id = `run α/${crypto.randomUUID()}?x#y`;
    const svc = new Svc({ apiKey: rig.admin.key, baseURL: rig.gw.url, maxRetries: 2 });
    const set = await svc.agentRuns.setLimits(id, { max_calls: 2, max_repeats: 5 });
    expect(set).toMatchObject({ id, status: "active", calls: 0, limits: { max_calls: 2, max_repeats: 5, max_cost_usd: null }, trip_reason: null });
    for (let i = 1; i <= 2; i++) {
      const r = await call(svc, `agent step ${i}`, { agent_run_id: id });
      expect(r.svc_meta.agent_run).toMatchObject({ id, calls: i, status: "active" });
    }
    const before = rig.openai.requests.length;
    const t0 = performance.now();
    const tripped = await failure(call(svc, "agent step 3", { agent_run_id: id }));
    expectError(tripped, RateLimitError, "AGENT_GUARD", 429);
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(rig.openai.requests.length).toBe(before);
    expect((tripped.body as { error: { agent_run: { calls: number } } }).error.agent_run.calls).toBe(2);

    const run = await svc.agentRuns.get(id);
    expect(run).toMatchObject({ id, status: "tripped", calls: 2 });
    expect(run.prompt_tokens).toBeGreaterThan(0);
    expect(run.cost_usd).toBeGreaterThan(0);
    expect(run.trip_reason).toBeString();

    expect(await svc.agentRuns.reset(id)).toMatchObject({ id, status: "active", calls: 0, cost_usd: 0, trip_reason: null });
    expect((await call(svc, "agent step after reset", { agent_run_id: id })).svc_meta.agent_run).toMatchObject({ id, calls: 1 });

    expect(await svc.agentRuns.close(id)).toMatchObject({ id, status: "closed" });
    expectError(await failure(call(svc, "agent step after close", { agent_run_id: id })), RateLimitError, "AGENT_GUARD", 429);
    expect((await svc.agentRuns.get(id)).status).toBe("closed");
  });

  test("an unknown run is 404; a non-admin key reads but cannot change a run", async () => {
    const svc = admin();
    expectError(await failure(svc.agentRuns.get("never-used")), NotFoundError, "NOT_FOUND", 404);
    const id = `run-${crypto.randomUUID()}`;
    await svc.agentRuns.setLimits(id, { max_cost_usd: 0.5 });
    const reader = await plainKey();
    expect((await reader.agentRuns.get(id)).limits.max_cost_usd).toBe(0.5);
    expectError(await failure(reader.agentRuns.reset(id)), PermissionDeniedError, "FORBIDDEN", 403);
    expectError(await failure(reader.agentRuns.close(id)), PermissionDeniedError, "FORBIDDEN", 403);
    const bad = await failure(svc.agentRuns.setLimits(id, { max_calls: 0 }));
    expectError(bad, InvalidRequestError, "VALIDATION_ERROR", 400);
    expect(bad.param).toBe("max_calls");
  });
});

describe("conversations", () => {
  test("calls with conversation_id are stored; get → delete → 404", async () => {
    const svc = admin();
    const id = `conv ${crypto.randomUUID()}/é`;
    const first = await call(svc, "My name is Ada.", { conversation_id: id });
    expect(first.svc_meta.conversation_id).toBe(id);
    await svc.complete({
      model: MODELS.ok,
      max_tokens: 9,
      messages: [
        { role: "user", content: "My name is Ada." },
        { role: "assistant", content: first.choices[0]!.message.content },
        { role: "user", content: "What is my name?" },
      ],
      svc_options: { ...OFF, conversation_id: id },
    });
    const got = await svc.conversations.get(id);
    // Two user turns and two answers.
    expect(got).toEqual({ id, turns: 4, kept_turns: 4, summarized_turns: 0, summary: null, tokens_saved: 0 });
    const reader = await plainKey();
    expect(await reader.conversations.get(id)).toEqual(got);
    expectError(await failure(reader.conversations.delete(id)), PermissionDeniedError, "FORBIDDEN", 403);
    expect(await svc.conversations.delete(id)).toEqual(got);
    expectError(await failure(svc.conversations.get(id)), NotFoundError, "NOT_FOUND", 404);
  });
});

describe("protocols", () => {
  const CONTENT =
    "You are the support assistant of Example Ltd. Always answer politely and briefly. Never promise refunds; " +
    "point customers to the returns page instead. Answer in the customer's language.";

  test("create → list → get → used by a call → update (a new version) → delete", async () => {
    const svc = admin();
    const p = await svc.protocols.create({ name: "support", content: CONTENT });
    expect(p.id).toStartWith("proto_");
    expect(p).toMatchObject({ name: "support", version: 1 });
    expect(p.original_tokens).toBeGreaterThan(0);
    const listed = (await svc.protocols.list()).find((x) => x.id === p.id)!;
    expect(listed).toMatchObject({ id: p.id, name: "support", version: 1 });
    expect(listed).not.toHaveProperty("content");
    const full = await svc.protocols.get(p.id);
    expect(full.content).toBe(CONTENT);
    expect(full.compressed_content).toBeString();

    await call(svc, "Can I get my money back?", { protocol_id: p.id });
    const sent = rig.openai.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(sent.messages[0]).toEqual({ role: "system", content: full.compressed_content! });

    const v2 = await svc.protocols.update(p.id, `${CONTENT} Sign every answer with "Example Ltd".`);
    expect(v2).toMatchObject({ id: p.id, version: 2 });
    expect((await svc.protocols.get(p.id)).content).toEndWith('"Example Ltd".');

    const reader = await plainKey();
    expect((await reader.protocols.get(p.id)).version).toBe(2);
    expectError(await failure(reader.protocols.create({ name: "x", content: "y" })), PermissionDeniedError, "FORBIDDEN", 403);

    expect(await svc.protocols.delete(p.id)).toMatchObject({ id: p.id, version: 2 });
    expectError(await failure(svc.protocols.get(p.id)), NotFoundError, "NOT_FOUND", 404);
    const bad = await failure(svc.protocols.create({ name: "", content: CONTENT }));
    expectError(bad, InvalidRequestError, "VALIDATION_ERROR", 400);
    expect(bad.param).toBe("name");
  });
});

describe("usage", () => {
  test("grouped, paged by cursor, every row across pages, CSV, time filters", async () => {
    // An app of its own, so its totals are exactly this test's calls.
    const created = await rig.gw.cliKey(["--admin", "--app", "clients-usage-app"]);
    await waitForKey(rig.gw.url, created.key);
    const a = new Svc({ apiKey: created.key, baseURL: rig.gw.url, maxRetries: 0 });
    const other = await a.keys.create({ name: "second", app_id: "clients-usage-app" });
    const b = new Svc({ apiKey: other.key, baseURL: rig.gw.url, maxRetries: 0 });
    for (let i = 0; i < 3; i++) await call(a, `usage question ${i}`);
    await call(b, "usage question from b");

    // The ledger reaches the store within a flush interval of each call.
    let byModel = await a.usage.get({ group_by: "model" });
    for (let i = 0; byModel.rows.reduce((n, r) => n + r.calls, 0) < 4 && i < 200; i++) {
      await Bun.sleep(25);
      byModel = await a.usage.get({ group_by: "model" });
    }
    expect(byModel).toMatchObject({ object: "usage", group_by: "model", next_cursor: null });
    expect(byModel.rows.map((r) => [r.group, r.calls])).toEqual([["gpt-4o-mini-2024-07-18", 4]]);
    const row = byModel.rows[0]!;
    expect(row.cost_actual_usd).toBeGreaterThan(0);
    const sources = Object.values(row.saved_by_source).reduce((x, y) => x + y, 0);
    expect(sources).toBeCloseTo(row.saved_usd, 12);

    const first = await a.usage.get({ group_by: "key", limit: 1 });
    expect(first.rows).toHaveLength(1);
    expect(first.next_cursor).toBeString();
    const second = await a.usage.get({ group_by: "key", limit: 1, cursor: first.next_cursor! });
    expect(second.next_cursor).toBeNull();
    const byKey = Object.fromEntries([...first.rows, ...second.rows].map((r) => [r.group, r.calls]));
    expect(byKey).toEqual({ [created.id]: 3, [other.id]: 1 });

    const all: UsageRow[] = [];
    for await (const r of a.usage.rows({ group_by: "key", limit: 1 })) all.push(r);
    expect(all).toEqual([...first.rows, ...second.rows]);

    const csv1 = await a.usage.csv({ group_by: "key", limit: 1 });
    const lines = csv1.csv.split("\r\n");
    expect(lines[0]).toStartWith("group,calls,errors,original_tokens,sent_tokens,");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toStartWith(`${first.rows[0]!.group},${first.rows[0]!.calls},${first.rows[0]!.errors},`);
    expect(lines[2]).toBe("");
    expect(csv1.next_cursor).toBe(first.next_cursor);
    const csv2 = await a.usage.csv({ group_by: "key", limit: 1, cursor: csv1.next_cursor! });
    expect(csv2.csv.split("\r\n")[1]).toStartWith(`${second.rows[0]!.group},${second.rows[0]!.calls},`);
    expect(csv2.next_cursor).toBeNull();

    // Time filters reach the server: a window before the calls holds none of them, as a Date or epoch ms.
    const past = new Date(Date.now() - 86_400_000);
    expect((await a.usage.get({ to: past })).rows).toEqual([]);
    expect((await a.usage.get({ from: past.getTime(), group_by: "model" })).rows.map((r) => r.calls)).toEqual([4]);
    const byDay = await a.usage.get({ group_by: "day", from: past.toISOString() });
    expect(byDay.rows.reduce((n, r) => n + r.calls, 0)).toBe(4);
    for (const r of byDay.rows) expect(r.group).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const bad = await failure(a.usage.get({ group_by: "week" as "day" }));
    expectError(bad, InvalidRequestError, "VALIDATION_ERROR", 400);
    expect(bad.param).toBe("group_by");
  });
});
