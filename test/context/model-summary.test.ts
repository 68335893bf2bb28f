import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { loadSettings } from "../../src/config/config";
import { generateKey } from "../../src/auth/key-format";
import { closeServices, flushAll, startServices } from "../../src/gateway";
import { buildApp } from "../../src/http/app";
import type { Services } from "../../src/pipeline/services";
import { sqliteOf } from "../../src/store/db";
import { toMicros } from "../../src/accounting/budgets";
import { MODEL_SUMMARY_INSTRUCTIONS } from "../../src/pipeline/context/model-summary";
import { MODEL_SUMMARY_HEADER, SUMMARY_HEADER } from "../../src/pipeline/context/summary";
import { startOpenAIMock } from "../mocks/openai-mock";

/**
 * Summaries by the cheapest model when the operator enables it (issue 28): each summary step is one
 * call to the model, recorded in the ledger, its line stored and sent byte-identical until the next
 * step; a failing model leaves the extractive lines for that step.
 */
type Msg = { role: string; content: string };
const openai = startOpenAIMock({ apiKey: "sk-mock" });
let dir: string;
let services: Services;
let app: ReturnType<typeof buildApp>;
const admin = generateKey("live");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-convo-msum-"));
  const env = {
    SVC_DATA_DIR: dir,
    SVC_WORKERS: "0",
    SVC_BOOTSTRAP_ADMIN_KEY: admin,
    OPENAI_API_KEY: "sk-mock",
    OPENAI_BASE_URL: `${openai.url}/v1`,
    SVC_CONVERSATION_TURNS_TO_KEEP: "4",
    SVC_CONVERSATION_SUMMARY_STEP: "4",
    SVC_CONVERSATION_SUMMARY_MODEL: "cheapest",
  };
  services = await startServices(loadSettings(env), pino({ level: "silent" }), env);
  app = buildApp(services);
}, 60_000);

afterAll(async () => {
  await closeServices(services);
  openai.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function api(method: string, path: string, body?: unknown) {
  const res = await app.handle(
    new Request(`http://svc.local${path}`, {
      method,
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
  );
  return { res, json: (await res.json()) as Record<string, unknown> };
}

async function say(conv: string, i: number, options: Record<string, unknown> = {}) {
  const { res, json } = await api("POST", "/v1/complete", {
    model: "gpt-4o-mini",
    messages: [{ role: "user", content: `In 1843 Ada Lovelace decided to publish note ${i} about the Analytical Engine. What did note ${i} say?` }],
    svc_options: { cache: false, route: false, compress: false, conversation_id: conv, ...options },
  });
  expect(res.status).toBe(200);
  return { id: res.headers.get("x-request-id")!, cost: (json.svc_meta as { cost_actual_usd: number }).cost_actual_usd };
}
const summaryCalls = () => openai.requests.filter((r) => (r.body as { messages: Msg[] }).messages[0]?.content === MODEL_SUMMARY_INSTRUCTIONS);
const upstream = (r: (typeof openai.requests)[number]) => (r.body as { messages: Msg[] }).messages;

describe("conversation summaries by the cheapest model", () => {
  test("a summary step is one model call, in the ledger; its line is sent byte-identical until the next step", async () => {
    const before = summaryCalls().length;
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await say("c-model", i)).id);
    // The fifth call finds 8 stored turns, 4 to keep and a step of 4: the step takes in turns 1-5.
    expect(summaryCalls().length - before).toBe(1);
    const asked = upstream(summaryCalls().at(-1)!);
    expect(asked[1]!.content.startsWith("[1] user: In 1843 Ada Lovelace")).toBe(true);
    expect(openai.requests.at(-1)!.body).toMatchObject({ model: "gpt-4o-mini-2024-07-18" });
    const sentSummary = upstream(openai.requests.at(-1)!)[0]!;
    expect(sentSummary.role).toBe("system");
    expect(sentSummary.content.startsWith(`${MODEL_SUMMARY_HEADER}\n[1-5] summary: `)).toBe(true);
    // The next call is no step: the same summary, byte for byte, and no model call.
    await say("c-model", 6);
    expect(upstream(openai.requests.at(-1)!)[0]).toEqual(sentSummary);
    expect(summaryCalls().length - before).toBe(1);
    const view = (await (
      await app.handle(new Request("http://svc.local/api/conversations/c-model", { headers: { authorization: `Bearer ${admin}` } }))
    ).json()) as {
      summary: string;
      summarized_turns: number;
    };
    expect(view).toMatchObject({ summary: sentSummary.content, summarized_turns: 5 });

    flushAll(services);
    await services.ledger.flush();
    const row = sqliteOf(services.store, "the test")
      .query("SELECT model, prompt_tokens, completion_tokens, cost_actual_usd, conversation_id FROM usage_ledger WHERE request_id = ?")
      .get(`${ids[4]}.summary`) as { model: string; prompt_tokens: number; cost_actual_usd: number; conversation_id: string };
    expect(row.model).toBe("gpt-4o-mini-2024-07-18");
    expect(row.conversation_id).toBe("c-model");
    expect(row.prompt_tokens).toBeGreaterThan(0);
    expect(row.cost_actual_usd).toBeGreaterThan(0);
  });

  test("a summary step's cost is charged to the call's budget and agent run, and its row names both", async () => {
    const budget = (await api("POST", "/api/budgets", { name: "convo", limit_usd: 5, period: "total" })).json;
    const options = { budget_id: budget.id, agent_run_id: "run-summary" };
    // Each call is charged its cost rounded up to a micro-dollar, as the budget keeps money.
    const micros = toMicros;
    let answered = 0;
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const r = await say("c-model-budget", i, options);
      answered += micros(r.cost);
      ids.push(r.id);
    }
    flushAll(services);
    await services.ledger.flush();
    await services.budgets.flush();
    const side = sqliteOf(services.store, "the test")
      .query("SELECT cost_actual_usd, budget_id, agent_run_id FROM usage_ledger WHERE request_id = ?")
      .get(`${ids[4]}.summary`) as { cost_actual_usd: number; budget_id: string; agent_run_id: string };
    expect(side).toMatchObject({ budget_id: budget.id, agent_run_id: "run-summary" });
    expect(side.cost_actual_usd).toBeGreaterThan(0);
    const spent = (await api("GET", `/api/budgets/${budget.id}`)).json;
    expect(micros(spent.spent_usd as number)).toBe(answered + micros(side.cost_actual_usd));
    expect(spent.reserved_usd).toBe(0);
    const run = (await api("GET", "/api/agent-runs/run-summary")).json;
    expect(micros(run.cost_usd as number)).toBe(answered + micros(side.cost_actual_usd));
  });

  test("a failing summary model leaves the extractive lines, and the call is answered", async () => {
    openai.failWhen = (text) => (text.startsWith("[1] user:") ? 500 : undefined);
    try {
      for (let i = 1; i <= 5; i++) await say("c-model-fails", i);
      const sent = upstream(openai.requests.at(-1)!)[0]!;
      expect(sent.content.startsWith(`${SUMMARY_HEADER}\n[1] user: In 1843 Ada Lovelace decided`)).toBe(true);
    } finally {
      openai.failWhen = undefined;
    }
  });
});
