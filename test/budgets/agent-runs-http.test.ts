import { describe, expect, test } from "bun:test";
import { call, startGateway } from "../support/gateway-process";
import { OFF, rigPerFile, waitForKey } from "../completions/support";

const rig = rigPerFile({ SVC_PROVIDER_RETRIES: "0" });

/** gpt-4o, six words in, the mock's nine-token answer: $0.00011 a call (see budgets-http.test.ts). */
const CALL_MICROS = 110;
const complete = (runId: string, messages: unknown[], extra: Record<string, unknown> = {}, url = rig.gw.url) =>
  call(`${url}/v1/complete`, rig.admin.key, {
    body: { model: "gpt-4o-2024-05-13", max_tokens: 9, messages, svc_options: { ...OFF, agent_run_id: runId }, ...extra },
  });
const ask = (i: number) => [{ role: "user", content: `alpha beta gamma delta epsilon z${i}` }];
const run = async (id: string, key = rig.admin.key) => (await call(`${rig.gw.url}/api/agent-runs/${id}`, key)).json() as Promise<any>;
const put = (id: string, body: unknown, key = rig.admin.key) => call(`${rig.gw.url}/api/agent-runs/${id}`, key, { method: "PUT", body });

/** One step of an agent loop: the history so far, the model's tool call and the tool's (same) result. */
function loopStep(history: unknown[]): unknown[] {
  return [
    ...history,
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: `call_${history.length}`, type: "function", function: { name: "search", arguments: '{"q":"weather in Paris"}' } }],
    },
    { role: "tool", tool_call_id: `call_${history.length}`, content: "no results" },
  ];
}

describe("agent runs", () => {
  test("calls, tokens and cost accumulate; svc_meta.agent_run reports the totals on every call", async () => {
    const id = `run-${crypto.randomUUID()}`;
    for (let i = 1; i <= 3; i++) {
      const r = await complete(id, ask(i));
      expect(r.status).toBe(200);
      const meta = ((await r.json()) as any).svc_meta;
      expect(meta.agent_run).toEqual({ id, calls: i, cost_usd: (i * CALL_MICROS) / 1e6, status: "active" });
    }
    const got = await run(id);
    expect(got).toEqual({
      id,
      status: "active",
      calls: 3,
      prompt_tokens: 3 * 13,
      completion_tokens: 3 * 9,
      cost_usd: (3 * CALL_MICROS) / 1e6,
      limits: { max_cost_usd: null, max_calls: null, max_repeats: 3 },
      trip_reason: null,
    });
  });

  test("a loop of identical tool-call steps trips the guard at the configured count: 429 AGENT_GUARD with the reason and totals", async () => {
    const id = `loop-${crypto.randomUUID()}`;
    expect((await put(id, { max_repeats: 2 })).status).toBe(200);
    let history: unknown[] = [{ role: "user", content: "What is the weather in Paris?" }];
    const tools = [{ type: "function", function: { name: "search", parameters: { type: "object" } } }];
    const statuses: number[] = [];
    let refusal: any;
    for (let step = 0; step < 4; step++) {
      history = loopStep(history);
      const r = await complete(id, history, { tools });
      statuses.push(r.status);
      if (r.status !== 200) refusal ??= await r.json();
    }
    // The first step is new, the next two repeat it (max_repeats 2 allows two in a row of the same step, then trips).
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect(refusal.error.code).toBe("AGENT_GUARD");
    expect(refusal.error.reason).toContain("loop detected");
    expect(refusal.error.agent_run).toEqual({ id, calls: 2, cost_usd: expect.any(Number), status: "tripped" });
    const got = await run(id);
    expect(got.status).toBe("tripped");
    expect(got.trip_reason).toContain("loop detected");
    // Reset clears the guard and the totals; the run continues.
    const reset = await call(`${rig.gw.url}/api/agent-runs/${id}/reset`, rig.admin.key, { method: "POST" });
    expect(reset.status).toBe(200);
    expect(await reset.json()).toMatchObject({ status: "active", calls: 0, cost_usd: 0, trip_reason: null });
    expect((await complete(id, history, { tools })).status).toBe(200);
  });

  test("a streamed answer's closing chunk carries svc_meta.agent_run", async () => {
    const id = `stream-${crypto.randomUUID()}`;
    const r = await complete(id, ask(1), { stream: true });
    const frames = (await r.text()).split("\n\n").filter((f) => f.startsWith("data: {"));
    const last = JSON.parse(frames.at(-1)!.slice(6));
    expect(last.svc_meta.agent_run).toEqual({ id, calls: 1, cost_usd: CALL_MICROS / 1e6, status: "active" });
  });

  test("different steps never trip the loop guard", async () => {
    const id = `varied-${crypto.randomUUID()}`;
    for (let i = 0; i < 6; i++) expect((await complete(id, ask(i))).status).toBe(200);
  });

  test("a run with a cost limit stops at the limit under concurrent calls", async () => {
    const id = `cost-${crypto.randomUUID()}`;
    const limit = (10 * CALL_MICROS + CALL_MICROS / 2) / 1e6;
    expect((await put(id, { max_cost_usd: limit })).status).toBe(200);
    rig.openai.reset();
    rig.openai.latencyMs = 30;
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => complete(id, ask(i))));
    const ok = results.filter((r) => r.status === 200).length;
    const guarded = results.filter((r) => r.status === 429);
    expect(ok + guarded.length).toBe(60);
    expect(ok).toBeLessThanOrEqual(10);
    expect(ok).toBeGreaterThan(0);
    expect(rig.openai.requests.length).toBe(ok);
    const e = ((await guarded[0]!.json()) as any).error;
    expect(e.code).toBe("AGENT_GUARD");
    expect(guarded[0]!.headers.get("retry-after")).toBeNull();
    const got = await run(id);
    expect(got.status).toBe("tripped");
    expect(got.trip_reason).toContain("cost limit");
    expect(got.calls).toBe(ok);
    expect(Math.round(got.cost_usd * 1e6)).toBe(ok * CALL_MICROS);
    expect(got.cost_usd).toBeLessThanOrEqual(limit);
  });

  test("a call limit stops the run; a failed call is not counted", async () => {
    const id = `calls-${crypto.randomUUID()}`;
    await put(id, { max_calls: 2 });
    rig.openai.reset();
    rig.openai.failNext(1, 500);
    expect((await complete(id, ask(1))).status).toBe(502);
    expect((await complete(id, ask(2))).status).toBe(200);
    expect((await complete(id, ask(3))).status).toBe(200);
    const third = await complete(id, ask(4));
    expect(third.status).toBe(429);
    expect(((await third.json()) as any).error.reason).toContain("call limit");
    expect((await run(id)).calls).toBe(2);
  });

  test("close stops a run; other apps see 404; bad limits are 400 naming the field; reads need no admin, changes do", async () => {
    const id = `close-${crypto.randomUUID()}`;
    expect((await complete(id, ask(1))).status).toBe(200);
    const closed = await call(`${rig.gw.url}/api/agent-runs/${id}/close`, rig.admin.key, { method: "POST" });
    expect(((await closed.json()) as any).status).toBe("closed");
    const after = await complete(id, ask(2));
    expect(after.status).toBe(429);
    expect(((await after.json()) as any).error.agent_run.status).toBe("closed");

    const other = await rig.gw.cliKey(["--admin", "--app", "another-app"]);
    const reader = await rig.gw.cliKey(["--app", rig.admin.app_id]);
    await waitForKey(rig.gw.url, other.key);
    await waitForKey(rig.gw.url, reader.key);
    expect((await call(`${rig.gw.url}/api/agent-runs/${id}`, other.key)).status).toBe(404);
    expect((await call(`${rig.gw.url}/api/agent-runs/${id}/reset`, other.key, { method: "POST" })).status).toBe(404);
    expect((await call(`${rig.gw.url}/api/agent-runs/nope-${crypto.randomUUID()}`, rig.admin.key)).status).toBe(404);
    expect((await call(`${rig.gw.url}/api/agent-runs/${id}`, reader.key)).status).toBe(200);
    expect((await put(id, { max_calls: 5 }, reader.key)).status).toBe(403);

    for (const [body, field] of [
      [{ max_cost_usd: -1 }, "max_cost_usd"],
      [{ max_calls: 0 }, "max_calls"],
      [{ max_repeats: 1.5 }, "max_repeats"],
      [{ max_cost_usd: 1e13 }, "max_cost_usd"],
      [{ limit: 1 }, "limit"],
    ] as const) {
      const r = await put(id, body);
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).error.param).toBe(field);
    }
  });

  // Issue 23: counters are the store's, not a process's. test/scale/multi-node covers this with Redis only.
  test("two gateway processes on one data directory: 60 calls at once on a run of max_calls 20 get exactly 20", async () => {
    const id = `run-${crypto.randomUUID()}`;
    expect((await put(id, { max_calls: 20 })).status).toBe(200);
    const second = await startGateway(rig.gw.env, { dataDir: rig.gw.dataDir });
    try {
      await waitForKey(second.url, rig.admin.key);
      const statuses = await Promise.all(
        Array.from({ length: 60 }, (_, i) => complete(id, ask(200 + i), {}, i % 2 ? second.url : rig.gw.url).then((r) => r.status)),
      );
      expect(statuses.filter((s) => s === 200).length).toBe(20);
      expect(statuses.filter((s) => s === 429).length).toBe(40);
      expect(await run(id)).toMatchObject({ calls: 20, status: "tripped" });
    } finally {
      second.proc.kill("SIGTERM");
      await second.finished();
    }
  }, 60_000);
});
