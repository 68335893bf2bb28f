import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { call } from "../support/gateway-process";
import { waitUntil } from "../support/wait";
import { OFF, readSse, rigPerFile, waitForKey } from "./support";

const rig = rigPerFile();

const ask = (body: Record<string, unknown>, key = rig.admin.key, path = "/v1/complete") => call(`${rig.gw.url}${path}`, key, { body });
const hello = [{ role: "user", content: "Say hello to the team in one short sentence." }];

/** The ledger rows of one call, once the gateway's flush has written them (the answer goes out first). */
function ledgerRows(requestId: string, columns = "*"): Promise<any[]> {
  return waitUntil(`the ledger row of ${requestId}`, () => {
    const db = new Database(join(rig.gw.dataDir, "svc.db"), { readonly: true });
    const rows = db.query(`SELECT ${columns} FROM usage_ledger WHERE request_id = ?`).all(requestId) as any[];
    db.close();
    return rows.length > 0 ? rows : undefined;
  });
}

describe("POST /v1/complete", () => {
  test("answers in the seed's shape with every svc_meta field", async () => {
    const res = await ask({ model: "gpt-4o-mini", messages: hello, svc_options: OFF });
    expect(res.status).toBe(200);
    const b = (await res.json()) as any;
    expect(b.id).toMatch(/^svc_req_/);
    expect(res.headers.get("x-request-id")).toBe(b.id);
    expect(b.object).toBe("chat.completion");
    expect(Number.isInteger(b.created)).toBe(true);
    expect(b.model).toBe("gpt-4o-mini-2024-07-18");
    expect(b.choices).toHaveLength(1);
    expect(b.choices[0]).toMatchObject({ index: 0, message: { role: "assistant" }, finish_reason: "stop" });
    expect(b.choices[0].message.content).toBeString();
    expect(b.usage.total_tokens).toBe(b.usage.prompt_tokens + b.usage.completion_tokens);
    const m = b.svc_meta;
    for (const f of ["original_tokens", "compressed_tokens", "latency_overhead_ms"]) expect(Number.isInteger(m[f])).toBe(true);
    for (const f of ["compression_ratio", "cost_original_usd", "cost_actual_usd", "saved_usd"]) expect(m[f]).toBeNumber();
    expect(m.saved_usd).toBeCloseTo(m.cost_original_usd - m.cost_actual_usd, 9);
    expect(m).toMatchObject({ routing_reason: "explicit_model", model_requested: "gpt-4o-mini", rules_applied: [], cache_hit: false, pii_masked: false });
    expect(m).not.toHaveProperty("quality_score");
    expect(m).not.toHaveProperty("simulated");
    expect(m).not.toHaveProperty("conversation_id");
    const sent = rig.openai.requests.at(-1)!.body as any;
    expect(sent.model).toBe("gpt-4o-mini-2024-07-18");
    expect(sent.messages).toEqual(hello);
  });

  test("POST /v1/chat/completions is the same handler", async () => {
    const res = await ask({ model: "gpt-4o-mini", messages: hello, svc_options: OFF }, rig.admin.key, "/v1/chat/completions");
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).svc_meta.routing_reason).toBe("explicit_model");
  });

  test("echoes conversation_id and prices with the provider's usage", async () => {
    const res = await ask({ model: "gpt-4o-2024-05-13", messages: hello, svc_options: { ...OFF, conversation_id: "conv-42" } });
    const b = (await res.json()) as any;
    expect(b.svc_meta.conversation_id).toBe("conv-42");
    const reply = rig.openai.replies.at(-1)!;
    expect(b.usage.prompt_tokens).toBe(reply.promptTokens);
    expect(b.svc_meta.cost_actual_usd).toBeCloseTo(((reply.promptTokens + reply.completionTokens) * 5) / 1e6, 12);
  });

  test("extra OpenAI parameters reach the provider", async () => {
    const extra = { temperature: 0.3, top_p: 0.9, stop: ["\n\n"], user: "u-1", seed: 7, response_format: { type: "json_object" }, presence_penalty: 0.1 };
    const res = await ask({ model: "gpt-4o-mini", messages: hello, svc_options: OFF, max_tokens: 64, ...extra });
    expect(res.status).toBe(200);
    const sent = rig.openai.requests.at(-1)!.body as any;
    expect(sent).toMatchObject({ ...extra, max_tokens: 64 });
  });

  test("validation errors name the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, "messages"],
      [{ messages: [] }, "messages"],
      [{ messages: [{ role: "wizard", content: "x" }] }, "messages[0].role"],
      [{ messages: [{ role: "user", content: 42 }] }, "messages[0].content"],
      [{ messages: hello, max_tokens: 0 }, "max_tokens"],
      [{ messages: hello, stream: "yes" }, "stream"],
      [{ messages: hello, svc_options: { max_aggressiveness: 1.5 } }, "svc_options.max_aggressiveness"],
      [{ messages: hello, svc_options: { compress: "no" } }, "svc_options.compress"],
      [{ messages: hello, svc_options: { skip_rules: ["nonsense"] } }, "svc_options.skip_rules"],
      [{ messages: hello, svc_options: { max_turns_to_keep: 0 } }, "svc_options.max_turns_to_keep"],
      [{ messages: hello, svc_options: { wat: true } }, "svc_options.wat"],
      [{ messages: hello, temperature: 5 }, "temperature"],
    ];
    for (const [body, param] of cases) {
      const res = await ask(body);
      expect(res.status).toBe(400);
      const e = ((await res.json()) as any).error;
      expect(e.code).toBe("VALIDATION_ERROR");
      expect(e.param).toBe(param);
      expect(e.message).toContain(param);
    }
    const rules = ((await (await ask({ messages: hello, svc_options: { skip_rules: ["nonsense"] } })).json()) as any).error.message;
    expect(rules).toContain("filler");
  });

  test("a prompt that quotes a tokenizer's special token is answered, every stage on", async () => {
    const messages = [{ role: "user", content: "I was wondering if you could explain what <|endoftext|> and <|im_start|> mean in training data." }];
    for (const stream of [false, true]) {
      const res = await ask({ model: "auto", messages, stream });
      expect(res.status).toBe(200);
      const meta = stream ? JSON.parse((await readSse(res)).at(-2)!).svc_meta : ((await res.json()) as any).svc_meta;
      expect(meta.original_tokens).toBeGreaterThan(10);
    }
    expect(JSON.stringify(rig.openai.requests.at(-1)!.body)).toContain("<|endoftext|> and <|im_start|>");
  });

  test("an unknown model is 400 MODEL_NOT_FOUND", async () => {
    const res = await ask({ model: "no-such-model", messages: hello });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe("MODEL_NOT_FOUND");
  });

  test("a model whose provider is not configured is 503 NO_PROVIDER", async () => {
    const res = await ask({ model: "claude-3-haiku", messages: hello, svc_options: OFF });
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).error.code).toBe("NO_PROVIDER");
  });

  test("a provider 500 is retried and the call succeeds", async () => {
    rig.openai.failNext(1, 500);
    const before = rig.openai.requests.length;
    const res = await ask({ model: "gpt-4o-mini", messages: hello, svc_options: OFF });
    expect(res.status).toBe(200);
    expect(rig.openai.requests.length - before).toBe(2);
  });

  test("a provider that keeps failing is a 502 UPSTREAM_ERROR, and is not charged", async () => {
    rig.openai.failNext(3, 503);
    const res = await ask({ model: "gpt-4o-mini", messages: hello, svc_options: OFF });
    expect(res.status).toBe(502);
    const e = ((await res.json()) as any).error;
    expect(e.code).toBe("UPSTREAM_ERROR");
    expect(e.message).not.toContain("sk-mock-openai");
    const [row] = await ledgerRows(e.request_id, "status, error_code, cost_actual_usd");
    expect(row).toMatchObject({ status: 502, error_code: "UPSTREAM_ERROR", cost_actual_usd: 0 });
  });

  test("every call writes one ledger row with tokens, costs and latency", async () => {
    const res = await ask({ model: "gpt-4o-mini", messages: hello, svc_options: OFF });
    const b = (await res.json()) as any;
    const rows = await ledgerRows(b.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      key_id: rig.admin.id,
      app_id: "default",
      model: "gpt-4o-mini-2024-07-18",
      model_requested: "gpt-4o-mini",
      status: 200,
      cache_hit: 0,
      prompt_tokens: b.usage.prompt_tokens,
      completion_tokens: b.usage.completion_tokens,
    });
    expect(rows[0].cost_actual_usd).toBeCloseTo(b.svc_meta.cost_actual_usd, 12);
    expect(rows[0].latency_ms).toBeGreaterThan(0);
  });
});

describe("streaming", () => {
  test("relays chunks, then a final chunk with svc_meta, then [DONE]", async () => {
    const res = await ask({ model: "gpt-4o-mini", messages: hello, stream: true, svc_options: OFF });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const frames = await readSse(res);
    expect(frames.at(-1)).toBe("[DONE]");
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f));
    const last = chunks.at(-1);
    expect(last.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: "stop" });
    expect(last.svc_meta).toMatchObject({ routing_reason: "explicit_model", model_requested: "gpt-4o-mini", cache_hit: false });
    for (const c of chunks.slice(0, -1)) {
      expect(c.object).toBe("chat.completion.chunk");
      expect(c.choices[0].finish_reason).toBeNull();
    }
    const text = chunks.map((c) => c.choices[0].delta.content ?? "").join("");
    expect(text).toBe(rig.openai.replies.at(-1)!.text);
  });

  test("chunks reach the client before the provider has finished", async () => {
    rig.openai.chunkDelayMs = 150;
    try {
      const res = await ask({ model: "gpt-4o-mini", messages: hello, stream: true, svc_options: OFF });
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toStartWith("data: ");
      // The mock is still sending (150 ms between its chunks): a gateway that gathered the answer first would be read only after it finished.
      const upstream = rig.openai.requests.at(-1)!;
      expect(upstream.finishedAt).toBeUndefined();
      while (!(await reader.read()).done);
      expect(upstream.finishedAt).toBeDefined();
    } finally {
      rig.openai.chunkDelayMs = 0;
    }
  });

  test("a stream cut by the provider ends with an error event, never [DONE]", async () => {
    rig.openai.cutAfterChunks = 3;
    try {
      const res = await ask({ model: "gpt-4o-mini", messages: hello, stream: true, svc_options: OFF });
      const frames = await readSse(res);
      expect(frames).not.toContain("[DONE]");
      const last = JSON.parse(frames.at(-1)!);
      expect(last.error.code).toBe("UPSTREAM_ERROR");
    } finally {
      rig.openai.cutAfterChunks = undefined;
    }
  });

  test("a client that disconnects aborts the upstream call", async () => {
    rig.openai.chunkDelayMs = 200;
    try {
      const before = rig.openai.abortedCount;
      const ac = new AbortController();
      const res = await fetch(`${rig.gw.url}/v1/complete`, {
        method: "POST",
        headers: { authorization: `Bearer ${rig.admin.key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o-mini", messages: hello, stream: true, svc_options: OFF }),
        signal: ac.signal,
      });
      const requestId = res.headers.get("x-request-id")!;
      await res.body!.getReader().read();
      ac.abort();
      for (let i = 0; i < 50 && rig.openai.abortedCount === before; i++) await Bun.sleep(20);
      expect(rig.openai.abortedCount).toBe(before + 1);
      // Accounted once: one ledger row (499), and no second row for the same id refused at the flush.
      const rows = await ledgerRows(requestId, "status, error_code");
      expect(rows).toEqual([{ status: 499, error_code: "CLIENT_CLOSED" }]);
      expect(rig.gw.logs().filter((l) => l.includes("usage ledger"))).toEqual([]);
    } finally {
      rig.openai.chunkDelayMs = 0;
    }
  });
});

describe("GET /metrics", () => {
  test("Prometheus text for admin keys: calls, savings and overhead", async () => {
    await ask({ model: "gpt-4o-mini", messages: hello, svc_options: OFF });
    const res = await call(`${rig.gw.url}/metrics`, rig.admin.key);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/svc_completions_total\{route="\/v1\/complete",status="200",model="gpt-4o-mini-2024-07-18",cache_hit="false"\} \d+/);
    expect(text).toContain("svc_overhead_seconds_bucket");
    expect(text).toContain("svc_saved_usd_total");
    const plain = await rig.gw.cliKey([]);
    await waitForKey(rig.gw.url, plain.key);
    expect((await call(`${rig.gw.url}/metrics`, plain.key)).status).toBe(403);
    expect((await fetch(`${rig.gw.url}/metrics`)).status).toBe(401);
  });
});
