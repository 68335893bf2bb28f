import { describe, expect, test } from "bun:test";
import { call } from "../support/gateway-process";
import { dropInRig, lastBody, OFF } from "./support";

/**
 * Every field issue 27 found dropped, one test each, at the HTTP level: what svc sends upstream and what
 * it answers. Each failed on 564ea53 (the field vanished, was renamed, or was refused).
 */
const rig = dropInRig();
let n = 0;
/** A fresh question per call, so no answer comes from the cache. */
const ask = (model = "gpt-4o-mini", extra: Record<string, unknown> = {}, text = "Name one prime number") =>
  call(`${rig.baseURL}/chat/completions`, rig.admin.key, {
    body: { model, messages: [{ role: "user", content: `${text} (${++n})` }], svc_options: OFF, ...extra },
  });
const json = async (res: Response) => (await res.json()) as Record<string, any>;

/** OpenAI Chat Completions request fields svc does not interpret: each reaches an OpenAI-format upstream as sent. */
const PASSED: Record<string, unknown> = {
  logprobs: true,
  top_logprobs: 3,
  parallel_tool_calls: false,
  logit_bias: { "1734": -100 },
  metadata: { team: "search" },
  store: true,
  service_tier: "flex",
  reasoning_effort: "low",
  prediction: { type: "content", content: "2" },
  modalities: ["text"],
  prompt_cache_key: "tenant-7",
  safety_identifier: "user-hash-1",
  verbosity: "low",
  web_search_options: {},
  audio: { voice: "alloy", format: "wav" },
  functions: [{ name: "lookup", parameters: { type: "object", properties: {} } }],
  function_call: "auto",
  a_field_openai_adds_tomorrow: { x: 1 },
};

describe("request fields reach an OpenAI-format provider as sent", () => {
  for (const [field, value] of Object.entries(PASSED)) {
    test(field, async () => {
      const res = await ask("gpt-4o-mini", { [field]: value });
      expect(res.status).toBe(200);
      expect(lastBody(rig.openai)[field]).toEqual(value);
    });
  }

  test("max_completion_tokens goes up as itself, not as max_tokens", async () => {
    const res = await ask("o3-mini", { max_completion_tokens: 77 });
    expect(res.status).toBe(200);
    const sent = lastBody(rig.openai);
    expect(sent.max_completion_tokens).toBe(77);
    expect(sent).not.toHaveProperty("max_tokens");
  });

  test("an image_url content part is accepted and forwarded as a part", async () => {
    const image = { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=", detail: "low" } };
    const res = await call(`${rig.baseURL}/chat/completions`, rig.admin.key, {
      body: {
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: [{ type: "text", text: `What is in this picture? (${++n})` }, image] }],
        svc_options: OFF,
      },
    });
    expect(res.status).toBe(200);
    expect(lastBody(rig.openai).messages[0].content).toEqual([{ type: "text", text: `What is in this picture? (${n})` }, image]);
  });
});

describe("response fields reach the client", () => {
  test("choice.logprobs", async () => {
    const logprobs = { content: [{ token: "2", logprob: -0.01, bytes: [50], top_logprobs: [] }], refusal: null };
    rig.openai.extras = { choice: { logprobs } };
    try {
      const b = await json(await ask("gpt-4o-mini", { logprobs: true }));
      expect(b.choices[0].logprobs).toEqual(logprobs);
    } finally {
      rig.openai.extras = undefined;
    }
  });

  test("message.refusal, with content null, and a refusal is not cached", async () => {
    rig.openai.refusal = "I can't help with that.";
    try {
      const body = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Refuse this one, please" }] };
      const first = await json(await call(`${rig.baseURL}/chat/completions`, rig.admin.key, { body }));
      expect(first.choices[0].message).toMatchObject({ role: "assistant", content: null, refusal: "I can't help with that." });
      const before = rig.openai.requests.length;
      const again = await json(await call(`${rig.baseURL}/chat/completions`, rig.admin.key, { body }));
      expect(again.svc_meta.cache_hit).toBe(false);
      expect(rig.openai.requests.length).toBe(before + 1);
    } finally {
      rig.openai.refusal = undefined;
    }
  });

  test("usage details and system_fingerprint", async () => {
    rig.openai.extras = {
      top: { system_fingerprint: "fp_mock42", service_tier: "default" },
      usage: {
        prompt_tokens_details: { cached_tokens: 5, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 3, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
    };
    try {
      const b = await json(await ask());
      expect(b.system_fingerprint).toBe("fp_mock42");
      expect(b.service_tier).toBe("default");
      expect(b.usage.prompt_tokens_details).toEqual({ cached_tokens: 5, audio_tokens: 0 });
      expect(b.usage.completion_tokens_details.reasoning_tokens).toBe(3);
    } finally {
      rig.openai.extras = undefined;
    }
  });

  test("a tool-call answer carries content: null", async () => {
    rig.openai.toolCall = { id: "call_1", name: "get_weather", arguments: { city: "Paris" } };
    try {
      const tools = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }];
      const b = await json(await ask("gpt-4o-mini", { tools }, "Weather in Paris?"));
      expect(b.choices[0].message.content).toBeNull();
      expect(b.choices[0].message.tool_calls[0].function.name).toBe("get_weather");
    } finally {
      rig.openai.toolCall = undefined;
    }
  });

  test("delta.refusal in a stream", async () => {
    rig.openai.refusal = "I can't help with that.";
    try {
      const res = await ask("gpt-4o-mini", { stream: true });
      const text = await res.text();
      const refusal = text
        .split("\n\n")
        .filter((f) => f.startsWith("data: {"))
        .map((f) => JSON.parse(f.slice(6)))
        .flatMap((c) => c.choices.map((ch: any) => ch.delta?.refusal ?? ""))
        .join("");
      expect(refusal).toBe("I can't help with that.");
    } finally {
      rig.openai.refusal = undefined;
    }
  });
});

describe("models", () => {
  for (const [asked, served] of [
    ["gpt-4.1-mini", "gpt-4.1-mini-2025-04-14"],
    ["gpt-4o-2024-08-06", "gpt-4o-2024-08-06"],
    ["o3-mini", "o3-mini-2025-01-31"],
    ["gpt-3.5-turbo", "gpt-3.5-turbo-0125"],
    ["gpt-4o", "gpt-4o-2024-08-06"],
    ["claude-sonnet-4", "claude-sonnet-4-20250514"],
    ["gemini-2.5-flash", "gemini-2.5-flash"],
  ]) {
    test(`${asked} is served as ${served}, priced`, async () => {
      const b = await json(await ask(asked));
      expect(b.model).toBe(served);
      expect(b.svc_meta.cost_actual_usd).toBeGreaterThan(0);
    });
  }

  test("prices carry separate input and output rates", async () => {
    const b = await json(await ask("gpt-4.1-mini"));
    const { prompt_tokens: p, completion_tokens: c } = b.usage;
    expect(b.svc_meta.cost_actual_usd).toBeCloseTo((p * 0.4 + c * 1.6) / 1e6, 12);
  });

  test("a model the catalog does not list goes to the provider that serves it, its cost unknown", async () => {
    const b = await json(await ask("gpt-5-turbo-preview"));
    expect(b.model).toBe("gpt-5-turbo-preview");
    expect(lastBody(rig.openai).model).toBe("gpt-5-turbo-preview");
    expect(b.svc_meta.cost_actual_usd).toBeNull();
    expect(b.svc_meta.saved_usd).toBeNull();
    const prefixed = await json(await ask("anthropic/claude-opus-9"));
    expect(prefixed.model).toBe("claude-opus-9");
    expect(lastBody(rig.anthropic).model).toBe("claude-opus-9");
  });

  test("a name no provider serves is still 400 MODEL_NOT_FOUND", async () => {
    const res = await ask("llama-nonexistent");
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe("MODEL_NOT_FOUND");
  });

  test("GET /v1/models lists current models with prices, context windows and features", async () => {
    const b = await json(await call(`${rig.baseURL}/models`, rig.admin.key));
    const m = b.data.find((x: any) => x.id === "claude-3-7-sonnet-20250219");
    expect(m).toMatchObject({
      input_usd_per_mtok: 3,
      output_usd_per_mtok: 15,
      cached_input_usd_per_mtok: 0.3,
      cache_write_usd_per_mtok: 3.75,
      context_window: 200000,
    });
    expect(m.features).toEqual(expect.arrayContaining(["tools", "vision", "reasoning"]));
  });
});

describe("Anthropic and Gemini: mapped, or refused by name", () => {
  test("a field Anthropic cannot honour is a 400 that names it", async () => {
    const res = await ask("claude-3-5-haiku", { logit_bias: { "1": 5 } });
    expect(res.status).toBe(400);
    const e = (await json(res)).error;
    expect(e.code).toBe("VALIDATION_ERROR");
    expect(e.message).toContain("logit_bias");
    expect(e.param).toBe("logit_bias");
  });

  test("fields that change nothing in the answer are accepted (store, metadata)", async () => {
    const res = await ask("claude-3-5-haiku", { store: false, metadata: { a: "b" } });
    expect(res.status).toBe(200);
  });

  test("parallel_tool_calls: false maps to disable_parallel_tool_use; reasoning_effort to a thinking budget", async () => {
    const tools = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: {} } } }];
    const res = await ask("claude-sonnet-4", { tools, parallel_tool_calls: false, reasoning_effort: "low", max_tokens: 4000 });
    expect(res.status).toBe(200);
    const sent = lastBody(rig.anthropic);
    expect(sent.tool_choice).toEqual({ type: "auto", disable_parallel_tool_use: true });
    expect(sent.thinking).toEqual({ type: "enabled", budget_tokens: 1024 });
  });

  test("an image goes to Anthropic as an image block and to Gemini as inline data", async () => {
    const image = { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } };
    const content = [{ type: "text", text: `Describe it (${++n})` }, image];
    const a = await call(`${rig.baseURL}/chat/completions`, rig.admin.key, {
      body: { model: "claude-3-5-sonnet", messages: [{ role: "user", content }], svc_options: OFF },
    });
    expect(a.status).toBe(200);
    expect(lastBody(rig.anthropic).messages[0].content[1]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
    });
    const g = await call(`${rig.baseURL}/chat/completions`, rig.admin.key, {
      body: { model: "gemini-2.0-flash", messages: [{ role: "user", content }], svc_options: OFF },
    });
    expect(g.status).toBe(200);
    expect(lastBody(rig.gemini).contents[0].parts[1]).toEqual({ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } });
  });

  test("routing sends an image only to a vision model", async () => {
    const image = { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } };
    const res = await call(`${rig.baseURL}/chat/completions`, rig.admin.key, {
      body: {
        model: "auto",
        messages: [{ role: "user", content: [{ type: "text", text: `What colour is this? (${++n})` }, image] }],
        svc_options: { cache: false },
      },
    });
    expect(res.status).toBe(200);
    const b = await json(res);
    expect((await json(await call(`${rig.baseURL}/models/${b.model}`, rig.admin.key))).features).toContain("vision");
  });
});
