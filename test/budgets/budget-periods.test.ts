import { describe, expect, test } from "bun:test";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db";
import { SqliteSpendStore } from "../../src/store/spend-store";
import { Budgets } from "../../src/accounting/budgets";
import { AgentRuns } from "../../src/accounting/agent-runs";
import { SettleQueue } from "../../src/accounting/settle-queue";
import type { ApiError } from "../../src/core/errors";

/** A real store in a fresh directory, and budgets on a clock the test moves. */
function setup(start: string) {
  const dir = mkdtempSync(join(tmpdir(), "svc-budget-periods-"));
  const store = openStore(dir);
  const spend = new SqliteSpendStore(join(dir, "svc.db"));
  const clock = { now: Date.parse(start) };
  const settles = new SettleQueue(spend);
  const budgets = new Budgets(spend, "1", () => clock.now, settles);
  return { store, spend, clock, budgets, settles };
}

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error("the reservation was not refused");
};

describe("budget periods", () => {
  test("a daily budget starts over at UTC midnight; the spent day keeps its refusal until then", async () => {
    const { budgets, clock } = setup("2026-11-26T23:59:00Z");
    const b = await budgets.create("app", "daily", 100, "daily");
    expect(b.resets_at).toBe("2026-11-27T00:00:00.000Z");
    const hold = await budgets.reserve("app", b.id, "r1", 80);
    await budgets.settle(hold, 80);
    const e = await refusal(budgets.reserve("app", b.id, "r2", 30));
    expect(e.code).toBe("BUDGET_EXCEEDED");
    expect(e.headers("x")["retry-after"]).toBe("60");
    clock.now = Date.parse("2026-11-27T00:00:00Z");
    expect(await budgets.get("app", b.id)).toMatchObject({ spent_usd: 0, reserved_usd: 0, remaining_usd: 0.0001, resets_at: "2026-11-28T00:00:00.000Z" });
    await budgets.reserve("app", b.id, "r3", 30);
    expect((await budgets.get("app", b.id)).reserved_usd).toBe(0.00003);
  });

  test("a monthly budget starts over on the first of the month; a total budget never does", async () => {
    const { budgets, clock } = setup("2026-12-31T12:00:00Z");
    const monthly = await budgets.create("app", "m", 100, "monthly");
    const total = await budgets.create("app", "t", 100, "total");
    for (const b of [monthly, total]) await budgets.settle(await budgets.reserve("app", b.id, `r-${b.id}`, 100), 100);
    clock.now = Date.parse("2027-01-01T00:00:01Z");
    expect(await budgets.get("app", monthly.id)).toMatchObject({ spent_usd: 0, resets_at: "2027-02-01T00:00:00.000Z" });
    expect(await budgets.get("app", total.id)).toMatchObject({ spent_usd: 0.0001, remaining_usd: 0, resets_at: null });
    expect((await refusal(budgets.reserve("app", total.id, "r-t2", 1))).code).toBe("BUDGET_EXCEEDED");
  });

  test("a restart settles a dead process's reservation against the ledger row when there is one, else in full", async () => {
    const { budgets, spend, store } = setup("2026-11-26T10:00:00Z");
    const b = await budgets.create("app", "b", 1_000_000, "total");
    await budgets.reserve("app", b.id, "answered", 500);
    await budgets.reserve("app", b.id, "unknown", 700);
    // The dead process's ledger row for "answered" made it to the store: it cost $0.00012.
    store.sqlite.run(
      `INSERT INTO usage_ledger (request_id, key_id, app_id, model_requested, prompt_tokens, completion_tokens, original_tokens, cost_original_usd, cost_actual_usd, saved_usd, cache_hit, status, latency_ms, overhead_ms, stream, created_at)
       VALUES ('answered', 'k', 'app', 'gpt-4o', 10, 10, 10, 0.00012, 0.00012, 0, 0, 200, 1, 1, 0, 0)`,
    );
    expect((await budgets.get("app", b.id)).reserved_usd).toBe(0.0012);
    // Owner "1" is alive in this test's eyes: nothing is settled.
    expect(await spend.settleOrphans(() => false, Date.now())).toBe(0);
    expect(await spend.settleOrphans((owner) => owner === "1", Date.now())).toBe(2);
    expect(await budgets.get("app", b.id)).toMatchObject({ reserved_usd: 0, spent_usd: (120 + 700) / 1e6 });
    // Settled once: a second pass finds nothing.
    expect(await spend.settleOrphans(() => true, Date.now())).toBe(0);
  });

  test("a dead process's reservation on an agent run is charged in full at restart and frees the run's in-flight hold", async () => {
    const { spend } = setup("2026-11-26T10:00:00Z");
    const runs = new AgentRuns(spend, { maxCostMicros: 1000, maxCalls: 0, maxRepeats: 3 }, "1");
    const hold = await runs.admit("app", "r", "req-1", [{ role: "user", content: "go" }]);
    await runs.reserve(hold, 600);
    expect(spend.run("app", "r")).toMatchObject({ reserved_micros: 600, cost_micros: 0, calls: 1 });
    expect(await spend.settleOrphans((owner) => owner === "1", Date.now())).toBe(1);
    expect(spend.run("app", "r")).toMatchObject({ reserved_micros: 0, cost_micros: 600, calls: 1, status: "active" });
  });
});

describe("budgets", () => {
  test("costs become whole micro-dollars rounded up, never down, without float noise", async () => {
    const { toMicros } = await import("../../src/accounting/budgets");
    expect(toMicros(0.000_001)).toBe(1);
    expect(toMicros(0.000_001_1)).toBe(2);
    expect(toMicros(0.000_000_01)).toBe(1);
    expect(toMicros(0.1 + 0.2)).toBe(300_000);
    expect(toMicros(0)).toBe(0);
  });

  test("the record: limit, spent, reserved and what is left (never below 0), in USD, with its dates", async () => {
    const { budgets } = setup("2026-11-26T10:00:00Z");
    const b = await budgets.create("app", "team", 1_000, "monthly");
    expect(b).toEqual({
      id: b.id,
      name: "team",
      app_id: "app",
      limit_usd: 0.001,
      period: "monthly",
      spent_usd: 0,
      reserved_usd: 0,
      remaining_usd: 0.001,
      resets_at: "2026-12-01T00:00:00.000Z",
      created_at: "2026-11-26T10:00:00.000Z",
    });
    expect(b.id).toMatch(/^bud_[\w-]{16}$/);
    await budgets.settle(await budgets.reserve("app", b.id, "r1", 300), 250);
    await budgets.reserve("app", b.id, "r2", 400);
    expect(await budgets.get("app", b.id)).toMatchObject({ spent_usd: 0.00025, reserved_usd: 0.0004, remaining_usd: 0.00035 });
    // A limit lowered under what is spent leaves nothing, not a negative amount.
    expect(await budgets.update("app", b.id, { limitMicros: 100 })).toMatchObject({ limit_usd: 0.0001, remaining_usd: 0, name: "team" });
    expect(await budgets.update("app", b.id, { name: "renamed" })).toMatchObject({ limit_usd: 0.0001, name: "renamed" });
    expect((await budgets.list("app")).map((x) => x.id)).toEqual([b.id]);
  });

  test("a settled call frees its reservation and charges what it cost; a failed call charges nothing", async () => {
    const { budgets } = setup("2026-11-26T10:00:00Z");
    const b = await budgets.create("app", "b", 1_000, "total");
    const ok = await budgets.reserve("app", b.id, "ok", 600);
    const failed = await budgets.reserve("app", b.id, "failed", 400);
    expect((await refusal(budgets.reserve("app", b.id, "third", 1))).code).toBe("BUDGET_EXCEEDED");
    await budgets.settle(ok, 150);
    await budgets.settle(failed, 0);
    expect(await budgets.get("app", b.id)).toMatchObject({ spent_usd: 0.00015, reserved_usd: 0, remaining_usd: 0.00085 });
    await budgets.reserve("app", b.id, "fits", 850);
  });

  test("a day's or a month's calls all count in one window, whatever the hour", async () => {
    const { budgets, clock } = setup("2026-11-03T00:00:01Z");
    const daily = await budgets.create("app", "d", 1_000, "daily");
    const monthly = await budgets.create("app", "m", 1_000, "monthly");
    for (const b of [daily, monthly]) await budgets.settle(await budgets.reserve("app", b.id, `early-${b.id}`, 400), 400);
    clock.now = Date.parse("2026-11-03T23:59:59Z");
    for (const b of [daily, monthly]) await budgets.reserve("app", b.id, `late-${b.id}`, 500);
    expect(await budgets.get("app", daily.id)).toMatchObject({ spent_usd: 0.0004, reserved_usd: 0.0005, remaining_usd: 0.0001 });
    // What is left counts both what was spent and what is held.
    expect((await refusal(budgets.reserve("app", daily.id, "more", 200))).message).toContain("has $0.0001 left of $0.001 this day");
    clock.now = Date.parse("2026-11-30T12:00:00Z");
    expect(await budgets.get("app", monthly.id)).toMatchObject({ spent_usd: 0.0004, reserved_usd: 0.0005 });
  });

  test("the refusal says what is left of what, for which period, what the call may cost and when it resets", async () => {
    const { budgets } = setup("2026-11-26T23:00:00Z");
    const daily = await budgets.create("app", "day", 1_000, "daily");
    await budgets.settle(await budgets.reserve("app", daily.id, "r1", 700), 700);
    const e = await refusal(budgets.reserve("app", daily.id, "r2", 500));
    expect(e.status).toBe(402);
    expect(e.message).toBe(
      `budget 'day' (${daily.id}) has $0.0003 left of $0.001 this day; this call may cost up to $0.0005; it resets at 2026-11-27T00:00:00.000Z`,
    );
    expect(e.headers("x")["retry-after"]).toBe("3600");
    const monthly = await budgets.create("app", "month", 10, "monthly");
    expect((await refusal(budgets.reserve("app", monthly.id, "r3", 20))).message).toContain("left of $0.00001 this month;");
    const total = await budgets.create("app", "all", 10, "total");
    const t = await refusal(budgets.reserve("app", total.id, "r4", 20));
    expect(t.message).toBe(`budget 'all' (${total.id}) has $0.00001 left of $0.00001 in total; this call may cost up to $0.00002`);
    expect(t.headers("x")["retry-after"]).toBeUndefined();
  });

  test("an app sees, changes, removes and spends only its own budgets", async () => {
    const { budgets } = setup("2026-11-26T10:00:00Z");
    const mine = await budgets.create("app", "mine", 1_000, "total");
    const theirs = await budgets.create("other", "theirs", 1_000, "total");
    expect((await budgets.list("app")).map((b) => b.name)).toEqual(["mine"]);
    for (const attempt of [
      () => Promise.resolve().then(() => budgets.get("app", theirs.id)),
      () => budgets.update("app", theirs.id, { name: "taken" }),
      () => budgets.remove("app", theirs.id),
    ])
      expect(await refusal(attempt())).toMatchObject({ code: "NOT_FOUND", message: `no budget '${theirs.id}'` });
    const spend = await refusal(budgets.reserve("app", theirs.id, "r", 1));
    expect(spend).toMatchObject({ code: "NOT_FOUND", message: `svc_options.budget_id: no budget '${theirs.id}'`, extra: { param: "svc_options.budget_id" } });
    expect((await refusal(budgets.reserve("app", "bud_none", "r", 1))).code).toBe("NOT_FOUND");
    expect((await budgets.get("other", theirs.id)).name).toBe("theirs");
    expect((await budgets.remove("app", mine.id)).name).toBe("mine");
    expect(await budgets.list("app")).toEqual([]);
    expect((await refusal(Promise.resolve().then(() => budgets.get("app", mine.id)))).code).toBe("NOT_FOUND");
  });
});

describe("settles after the turn", () => {
  test("a settle holds the reservation until the turn ends, then the turn's settles are written together", async () => {
    const { budgets } = setup("2026-11-26T10:00:00Z");
    const b = await budgets.create("app", "b", 1_000, "total");
    const holds = [await budgets.reserve("app", b.id, "a", 300), await budgets.reserve("app", b.id, "b", 300), await budgets.reserve("app", b.id, "c", 300)];
    const written = [budgets.settle(holds[0]!, 100), budgets.settle(holds[1]!, 0), budgets.settle(holds[2]!, 250)];
    // Not written yet: the reservations still hold, so a call that would fit after the settles is refused now.
    expect(await budgets.get("app", b.id)).toMatchObject({ spent_usd: 0, reserved_usd: 0.0009 });
    expect((await refusal(budgets.reserve("app", b.id, "early", 200))).code).toBe("BUDGET_EXCEEDED");
    // One write for the three: the same promise.
    expect(written[1]).toBe(written[0]);
    expect(written[2]).toBe(written[0]);
    await Promise.all(written);
    expect(await budgets.get("app", b.id)).toMatchObject({ spent_usd: 0.00035, reserved_usd: 0, remaining_usd: 0.00065 });
    await budgets.reserve("app", b.id, "later", 600);
  });

  test("a flush writes what is gathered at once (shutdown)", async () => {
    const { budgets, settles } = setup("2026-11-26T10:00:00Z");
    const b = await budgets.create("app", "b", 1_000, "total");
    void budgets.settle(await budgets.reserve("app", b.id, "a", 300), 120);
    await settles.flush();
    expect(await budgets.get("app", b.id)).toMatchObject({ spent_usd: 0.00012, reserved_usd: 0 });
  });

  test("handed to the store, a turn's settles ride in the next reservation's transaction (no pages of their own), else go alone within 5 ms; reads see them", async () => {
    const { budgets, settles, spend, store } = setup("2026-11-26T10:00:00Z");
    const runs = new AgentRuns(spend, { maxCostMicros: 0, maxCalls: 0, maxRepeats: 3 }, "1", 0, Date.now, settles);
    // Every commit appends the pages it changed to the WAL: what a write costs.
    const wal = () => statSync(`${store.path}-wal`).size;
    const b = await budgets.create("app", "b", 1_000, "total");
    // The window's first reservation makes its spend row; a later one changes it.
    await budgets.settle(await budgets.reserve("app", b.id, "first", 1), 0);
    let before = wal();
    const hold = await budgets.reserve("app", b.id, "a", 900);
    const reservation = wal() - before;
    before = wal();
    const written = budgets.settle(hold, 100);
    await new Promise((resolve) => setImmediate(resolve));
    // 900 is held until the settle is written: this reservation fits only because it goes in the same transaction, after it.
    await budgets.reserve("app", b.id, "b", 800);
    expect(wal() - before).toBe(reservation);
    await written;
    expect(store.sqlite.query("SELECT spent_micros, reserved_micros FROM budget_spend").get()).toEqual({ spent_micros: 100, reserved_micros: 800 });

    // Another run's admission leaves them to the next reservation: its commit stays one statement on its row.
    const run = await runs.admit("app", "r", "c", [{ role: "user", content: "go" }]);
    await runs.admit("app", "other", "o", [{ role: "user", content: "first" }]);
    const d = await budgets.reserve("app", b.id, "d", 50);
    before = wal();
    await runs.admit("app", "other", "e", [{ role: "user", content: "again" }]);
    const admission = wal() - before;
    void runs.settle(run, 0, 1, 1);
    void budgets.settle(d, 30);
    await new Promise((resolve) => setImmediate(resolve));
    before = wal();
    await runs.admit("app", "other", "e2", [{ role: "user", content: "again" }]);
    expect(wal() - before).toBe(admission);
    expect(store.sqlite.query("SELECT spent_micros, reserved_micros FROM budget_spend").get()).toEqual({ spent_micros: 100, reserved_micros: 850 });
    // The reservation writes them: the run's row is the one page they add to it.
    before = wal();
    const e = await budgets.reserve("app", b.id, "e", 10);
    expect(wal() - before).toBe(reservation + admission);
    expect(store.sqlite.query("SELECT spent_micros, reserved_micros FROM budget_spend").get()).toEqual({ spent_micros: 130, reserved_micros: 810 });
    await budgets.settle(e, 0);
    // Unless one is the admitted run's: its totals then include them.
    const again = await runs.admit("app", "r", "h", [{ role: "user", content: "once more" }]);
    void runs.settle(again, 25, 1, 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await runs.admit("app", "r", "i", [{ role: "user", content: "and again" }])).admitted).toMatchObject({ calls: 3, cost_usd: 0.000025 });

    // No call comes: written alone, soon.
    const alone = budgets.settle(await budgets.reserve("app", b.id, "f", 50), 20);
    const t0 = performance.now();
    await alone;
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(store.sqlite.query("SELECT spent_micros FROM budget_spend").get()).toEqual({ spent_micros: 150 });

    // A read of this process's store writes what it handed over first.
    void budgets.settle(await budgets.reserve("app", b.id, "g", 10), 10);
    await new Promise((resolve) => setImmediate(resolve));
    expect(spend.run("app", "r")).toMatchObject({ prompt_tokens: 2, completion_tokens: 2 });
    expect(await budgets.get("app", b.id)).toMatchObject({ spent_usd: 0.00016, reserved_usd: 0.0008 });
  });

  test("a run's cost joins the turn's budget settles: written together after the turn; svc_meta's totals are the run at admission plus the call", async () => {
    const { budgets, settles, spend } = setup("2026-11-26T10:00:00Z");
    const runs = new AgentRuns(spend, { maxCostMicros: 0, maxCalls: 0, maxRepeats: 3 }, "1", 0, Date.now, settles);
    const limited = new AgentRuns(spend, { maxCostMicros: 1_000, maxCalls: 0, maxRepeats: 3 }, "1", 0, Date.now, settles);
    const b = await budgets.create("app", "b", 1_000, "total");
    const first = await runs.admit("app", "r", "q1", [{ role: "user", content: "one" }]);
    expect(runs.settle(first, 40, 10, 5)).toEqual({ id: "r", calls: 1, cost_usd: 0.00004, status: "active" });
    await settles.flush();
    const hold = await limited.admit("app", "cap", "q2", [{ role: "user", content: "two" }]);
    await limited.reserve(hold, 600);
    const second = await runs.admit("app", "r", "q3", [{ role: "user", content: "three" }]);
    const budgetHold = await budgets.reserve("app", b.id, "q3", 300);
    limited.settle(hold, 90, 1, 1);
    expect(runs.settle(second, 60, 10, 5)).toEqual({ id: "r", calls: 2, cost_usd: 0.0001, status: "active" });
    const written = budgets.settle(budgetHold, 70);
    // Held until the turn's write: the run's reservation and the budget's.
    expect(spend.run("app", "cap")).toMatchObject({ reserved_micros: 600, cost_micros: 0 });
    expect(spend.run("app", "r")).toMatchObject({ calls: 2, cost_micros: 40 });
    await written;
    expect(spend.run("app", "r")).toMatchObject({ calls: 2, cost_micros: 100, prompt_tokens: 20, completion_tokens: 10 });
    expect(spend.run("app", "cap")).toMatchObject({ reserved_micros: 0, cost_micros: 90 });
    expect(await budgets.get("app", b.id)).toMatchObject({ spent_usd: 0.00007, reserved_usd: 0 });
  });
});

describe("a budget and a run with a cost limit", () => {
  test("reserve together: one commit for both, the run's reservation made in the budget's transaction", async () => {
    const { budgets, spend, store } = setup("2026-11-26T10:00:00Z");
    const runs = new AgentRuns(spend, { maxCostMicros: 10_000, maxCalls: 0, maxRepeats: 3 }, "1");
    const wal = () => statSync(`${store.path}-wal`).size;
    const b = await budgets.create("app", "b", 100_000, "total");
    // Warm: the window's spend row and the run's row exist.
    const warm = await runs.admit("app", "r", "w", [{ role: "user", content: "warm" }]);
    await runs.reserve(warm, 1);
    await budgets.settle(await budgets.reserve("app", b.id, "w", 1), 0);
    const hold = await runs.admit("app", "r", "q", [{ role: "user", content: "go" }]);
    let before = wal();
    await runs.reserve(hold, 700);
    const runAlone = wal() - before;
    const second = await runs.admit("app", "r", "q2", [{ role: "user", content: "again" }]);
    before = wal();
    await budgets.reserve("app", b.id, "q2", 700, { named: true, run: runs.jointly(second, 700)! });
    // One commit: the budget's spend row and the run's row, a page each, and one page of the reservations' b-tree for both rows.
    expect(wal() - before).toBe((runAlone / 2) * 3);
    expect(second.micros).toBe(700);
    expect(runs.jointly(second, 700)).toBeUndefined();
    expect(spend.run("app", "r")).toMatchObject({ reserved_micros: 1 + 700 + 700 });
    expect(store.sqlite.query("SELECT request_id, kind, micros FROM reservations WHERE request_id = 'q2' ORDER BY kind").all()).toEqual([
      { request_id: "q2", kind: "budget", micros: 700 },
      { request_id: "q2", kind: "run", micros: 700 },
    ]);
  });

  test("a run that refuses the worst case trips (AGENT_GUARD) and releases the budget's reservation with it; a budget that refuses leaves the run alone", async () => {
    const { budgets, spend } = setup("2026-11-26T10:00:00Z");
    const runs = new AgentRuns(spend, { maxCostMicros: 500, maxCalls: 0, maxRepeats: 3 }, "1");
    const b = await budgets.create("app", "b", 1_000, "total");
    const small = await budgets.create("app", "small", 100, "total");
    const hold = await runs.admit("app", "r", "q", [{ role: "user", content: "go" }]);
    const tooSmall = await refusal(budgets.reserve("app", small.id, "q", 600, { named: true, run: runs.jointly(hold, 600)! }));
    expect(tooSmall.code).toBe("BUDGET_EXCEEDED");
    expect(spend.run("app", "r")).toMatchObject({ status: "active", reserved_micros: 0 });
    expect(hold.micros).toBeUndefined();
    const e = await refusal(budgets.reserve("app", b.id, "q", 600, { named: true, run: runs.jointly(hold, 600)! }));
    expect(e.code).toBe("AGENT_GUARD");
    expect(e.message).toContain("cost limit reached");
    expect(await budgets.get("app", b.id)).toMatchObject({ reserved_usd: 0, spent_usd: 0 });
    expect(spend.run("app", "r")).toMatchObject({ status: "tripped", reserved_micros: 0 });
    expect(hold.micros).toBeUndefined();
  });

  test("a step's hash is the SHA-256 of its canonical form, as runs already hold it", async () => {
    const { createHash } = await import("node:crypto");
    const { stepHash } = await import("../../src/accounting/agent-runs");
    const step = [
      { role: "user" as const, content: "find the invoice" },
      {
        role: "assistant" as const,
        content: "",
        tool_calls: [{ id: "c1", type: "function" as const, function: { name: "search", arguments: '{"q":"invoice"}' } }],
      },
      { role: "tool" as const, content: "no results", tool_call_id: "c1", name: "search" },
    ];
    const h = createHash("sha256");
    for (const part of ["assistant", "", 'search({"q":"invoice"})', "", "tool", "no results", "", "search"]) h.update(`${part.length}:${part};`);
    expect(stepHash(step)).toBe(h.digest("base64url"));
  });
});
