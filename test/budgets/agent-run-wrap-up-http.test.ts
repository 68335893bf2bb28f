import { describe, expect, test } from "bun:test";
import { call } from "../support/gateway-process";
import { OFF, rigPerFile } from "../completions/support";
import { WRAP_UP } from "../../src/accounting/agent-runs";

// The operator's setting: from half of a run's call or cost limit, calls carry the wrap-up instruction.
const rig = rigPerFile({ SVC_AGENT_RUN_WRAP_UP_AT: "0.5" });

const complete = (runId: string, i: number) =>
  call(`${rig.gw.url}/v1/complete`, rig.admin.key, {
    body: {
      model: "gpt-4o-2024-05-13",
      max_tokens: 9,
      messages: [{ role: "user", content: `alpha beta gamma delta epsilon z${i}` }],
      svc_options: { ...OFF, cache: true, agent_run_id: runId },
    },
  });
const lastSent = () => (rig.openai.requests.at(-1)!.body as any).messages.at(-1);

describe("the wrap-up instruction near a run's limit", () => {
  test("from half the call limit the calls carry it, as the last system message, and svc_meta says so", async () => {
    const id = `run-${crypto.randomUUID()}`;
    expect((await call(`${rig.gw.url}/api/agent-runs/${id}`, rig.admin.key, { method: "PUT", body: { max_calls: 4 } })).status).toBe(200);
    rig.openai.reset();
    const first = (await (await complete(id, 1)).json()) as any;
    expect(first.svc_meta.agent_run).toEqual({ id, calls: 1, cost_usd: expect.any(Number), status: "active" });
    expect(lastSent()).toEqual({ role: "user", content: "alpha beta gamma delta epsilon z1" });
    for (const i of [2, 3, 4]) {
      const r = (await (await complete(id, i)).json()) as any;
      expect(r.svc_meta.agent_run).toMatchObject({ id, calls: i, wrap_up: true });
      expect(lastSent()).toEqual({ role: "system", content: WRAP_UP });
    }
    // The fifth call is past the limit: refused, as without the setting.
    expect((await complete(id, 5)).status).toBe(429);
    // An answer given under the instruction is not cached for the request without it.
    const again = (await (await complete(`run-${crypto.randomUUID()}`, 3)).json()) as any;
    expect(again.svc_meta.cache_hit).toBe(false);
  });

  test("a run with no limit never gets it", async () => {
    const id = `run-${crypto.randomUUID()}`;
    rig.openai.reset();
    for (let i = 0; i < 3; i++) {
      const r = (await (await complete(id, 100 + i)).json()) as any;
      expect(r.svc_meta.agent_run.wrap_up).toBeUndefined();
      expect(lastSent().role).toBe("user");
    }
  });
});
