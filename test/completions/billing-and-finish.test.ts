import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call } from "../support/gateway-process";
import { OFF, readSse, rigPerFile } from "./support";

// The real HTTP path against the OpenAI mock, on an operator's models file whose prices the test
// chooses: every output price differs from its input price, and the baseline (what `auto` is priced
// on) is a model no configured provider serves, so it can never be the model that answered.
const PRICES = {
  "gpt-4o-mini-2024-07-18": { in: 0.6, out: 2.4 },
  "gpt-4o-2024-05-13": { in: 5, out: 15 },
  "claude-3-opus-20240229": { in: 15, out: 75 },
} as const;
type Priced = keyof typeof PRICES;
const dir = mkdtempSync(join(tmpdir(), "svc-prices-"));
const m = (id: Priced, aliases: string[], provider: string, tier: string) => ({
  id,
  aliases,
  label: id,
  provider,
  tier,
  input_usd_per_mtok: PRICES[id].in,
  output_usd_per_mtok: PRICES[id].out,
  context_window: 128000,
  features: ["tools", "json"],
});
writeFileSync(
  join(dir, "models.json"),
  JSON.stringify({
    baseline_model: "claude-3-opus-20240229",
    default_model: "gpt-4o-mini-2024-07-18",
    models: [
      m("gpt-4o-mini-2024-07-18", ["gpt-4o-mini"], "openai", "cheapest"),
      m("gpt-4o-2024-05-13", ["gpt-4o"], "openai", "balanced"),
      m("claude-3-opus-20240229", ["claude-3-opus"], "anthropic", "most_capable"),
    ],
  }),
);
const rig = rigPerFile({ SVC_MODELS_FILE: join(dir, "models.json") });

const usd = (model: Priced, prompt: number, completion: number) => (prompt * PRICES[model].in + completion * PRICES[model].out) / 1e6;
const ask = (body: Record<string, unknown>) => call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body });
let n = 0;
/** A prompt no other test asked, so the cache never answers it unless the test means it to. */
const fresh = (words = "Summarise the meeting notes") => [{ role: "user", content: `${words} number ${++n} in one short sentence.` }];

function ledgerRow(requestId: string) {
  const db = new Database(join(rig.gw.dataDir, "svc.db"), { readonly: true });
  try {
    return db
      .query<Record<string, number | string>, [string]>(
        "SELECT model, cost_original_usd, cost_actual_usd, saved_usd, cache_hit FROM usage_ledger WHERE request_id = ?",
      )
      .get(requestId);
  } finally {
    db.close();
  }
}
async function waitForLedger(requestId: string) {
  for (let i = 0; i < 100; i++) {
    const row = ledgerRow(requestId);
    if (row) return row;
    await Bun.sleep(20);
  }
  throw new Error(`no ledger row for ${requestId}`);
}

describe("cost_original_usd and cost_actual_usd on the wire and in the ledger", () => {
  test("a named model, every stage off: both sides priced on that model, input and output at their own prices", async () => {
    const res = await ask({ model: "gpt-4o-mini", messages: fresh(), svc_options: OFF });
    const b = (await res.json()) as any;
    const expected = usd("gpt-4o-mini-2024-07-18", b.usage.prompt_tokens, b.usage.completion_tokens);
    expect(b.svc_meta.cost_original_usd).toBeCloseTo(expected, 10);
    expect(b.svc_meta.cost_actual_usd).toBeCloseTo(expected, 10);
    expect(b.svc_meta.saved_usd).toBe(0);
    const row = await waitForLedger(b.id);
    expect(row.cost_original_usd).toBeCloseTo(expected, 10);
    expect(row.cost_actual_usd).toBeCloseTo(expected, 10);
  });

  test("`auto` is priced on the catalog's baseline, the answer on the model that served it", async () => {
    const res = await ask({ model: "auto", messages: fresh("Say hello to the team"), svc_options: { compress: false, cache: false, score: false } });
    const b = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(b.svc_meta.model_requested).toBe("auto");
    const served = b.model as Priced;
    expect(["gpt-4o-mini-2024-07-18", "gpt-4o-2024-05-13"]).toContain(served);
    const { prompt_tokens: p, completion_tokens: c } = b.usage;
    expect(b.svc_meta.cost_original_usd).toBeCloseTo(usd("claude-3-opus-20240229", p, c), 10);
    expect(b.svc_meta.cost_actual_usd).toBeCloseTo(usd(served, p, c), 10);
    expect(b.svc_meta.saved_usd).toBeCloseTo(usd("claude-3-opus-20240229", p, c) - usd(served, p, c), 10);
    expect(b.svc_meta.saved_usd).toBeGreaterThan(0);
    const row = await waitForLedger(b.id);
    expect(row.cost_original_usd).toBeCloseTo(usd("claude-3-opus-20240229", p, c), 10);
    expect(row.saved_usd).toBeCloseTo(b.svc_meta.saved_usd, 10);
  });

  test("a streamed `auto` call reports the same prices in its closing chunk", async () => {
    const res = await ask({
      model: "auto",
      messages: fresh("Say hello to the team"),
      stream: true,
      stream_options: { include_usage: true },
      svc_options: { compress: false, cache: false, score: false },
    });
    const chunks = (await readSse(res)).slice(0, -1).map((f) => JSON.parse(f));
    // As OpenAI streams them: usage in a last chunk of its own (asked for), svc_meta on the finish chunk.
    const { prompt_tokens: p, completion_tokens: c } = chunks.at(-1).usage;
    const meta = chunks.find((ch: any) => ch.svc_meta)!;
    expect(meta.svc_meta.cost_original_usd).toBeCloseTo(usd("claude-3-opus-20240229", p, c), 10);
    expect(meta.svc_meta.cost_actual_usd).toBeCloseTo(usd(meta.model, p, c), 10);
  });

  test("a cache hit costs nothing and saves what the call would have cost on the requested model", async () => {
    const messages = fresh("Name the capital of France");
    const body = { model: "gpt-4o", messages, svc_options: { compress: false, route: false, score: false, cache: true } };
    const first = (await (await ask(body)).json()) as any;
    expect(first.svc_meta.cache_hit).toBe(false);
    let again: any;
    for (let i = 0; i < 50; i++) {
      again = await (await ask(body)).json();
      if (again.svc_meta.cache_hit) break;
      await Bun.sleep(20);
    }
    expect(again.svc_meta.cache_hit).toBe(true);
    const expected = usd("gpt-4o-2024-05-13", again.usage.prompt_tokens, again.usage.completion_tokens);
    expect(again.svc_meta.cost_actual_usd).toBe(0);
    expect(again.svc_meta.cost_original_usd).toBeCloseTo(expected, 10);
    expect(again.svc_meta.saved_usd).toBeCloseTo(expected, 10);
    const row = await waitForLedger(again.id);
    expect(row).toMatchObject({ cache_hit: 1, cost_actual_usd: 0 });
  });
});

const weather = { id: "call_w1", name: "get_weather", arguments: { city: "Paris", unit: "celsius" } };
const tools = [
  { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" }, unit: { type: "string" } } } } },
];

describe("finish reasons other than stop, through the real HTTP path", () => {
  test("a stream cut by max_tokens ends with finish_reason length; so does the plain answer", async () => {
    rig.openai.stopReason = "length";
    try {
      const messages = fresh("Write a long story about a lighthouse");
      const chunks = (await readSse(await ask({ model: "gpt-4o-mini", messages, max_tokens: 5, stream: true, svc_options: OFF })))
        .slice(0, -1)
        .map((f) => JSON.parse(f));
      expect(chunks.at(-1).choices).toEqual([{ index: 0, delta: {}, finish_reason: "length" }]);
      for (const c of chunks.slice(0, -1)) expect(c.choices[0].finish_reason).toBeNull();
      const text = chunks.map((c) => c.choices[0].delta.content ?? "").join("");
      expect(text).toBe(rig.openai.replies.at(-1)!.text);
      const plain = (await (await ask({ model: "gpt-4o-mini", messages, max_tokens: 5, svc_options: OFF })).json()) as any;
      expect(plain.choices[0].finish_reason).toBe("length");
    } finally {
      rig.openai.stopReason = undefined;
    }
  });

  test("a streamed tool call relays its fragments and ends with finish_reason tool_calls", async () => {
    rig.openai.toolCall = weather;
    try {
      const res = await ask({ model: "gpt-4o-mini", messages: fresh("What is the weather in Paris"), tools, stream: true, svc_options: OFF });
      const frames = await readSse(res);
      expect(frames.at(-1)).toBe("[DONE]");
      const chunks = frames.slice(0, -1).map((f) => JSON.parse(f));
      expect(chunks.at(-1).choices).toEqual([{ index: 0, delta: {}, finish_reason: "tool_calls" }]);
      const calls = chunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []);
      expect(calls[0]).toMatchObject({ index: 0, id: "call_w1", type: "function", function: { name: "get_weather" } });
      expect(JSON.parse(calls.map((c: any) => c.function?.arguments ?? "").join(""))).toEqual(weather.arguments);
    } finally {
      rig.openai.toolCall = undefined;
    }
  });

  test("a tool call answered from the cache streams with finish_reason tool_calls too", async () => {
    rig.openai.toolCall = weather;
    const messages = fresh("What is the weather in Lyon");
    const svc_options = { compress: false, route: false, score: false, cache: true };
    try {
      const first = (await (await ask({ model: "gpt-4o-mini", messages, tools, svc_options })).json()) as any;
      expect(first.choices[0].finish_reason).toBe("tool_calls");
      expect(first.choices[0].message.tool_calls[0].function.name).toBe("get_weather");
    } finally {
      rig.openai.toolCall = undefined;
    }
    let chunks: any[] = [];
    for (let i = 0; i < 50; i++) {
      chunks = (await readSse(await ask({ model: "gpt-4o-mini", messages, tools, stream: true, svc_options }))).slice(0, -1).map((f) => JSON.parse(f));
      if (chunks.at(-1).svc_meta.cache_hit) break;
      await Bun.sleep(20);
    }
    expect(chunks.at(-1).svc_meta.cache_hit).toBe(true);
    expect(chunks.at(-1).choices).toEqual([{ index: 0, delta: {}, finish_reason: "tool_calls" }]);
    const calls = chunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []);
    expect(calls.map((c: any) => c.function.name)).toEqual(["get_weather"]);
    expect(JSON.parse(calls[0].function.arguments)).toEqual(weather.arguments);
  });
});
