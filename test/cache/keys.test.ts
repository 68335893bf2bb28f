import { describe, expect, test } from "bun:test";
import { canonicalJson, requestKeys } from "../../src/pipeline/cache";
import { request } from "./fixtures";

describe("canonical request keys", () => {
  test("canonical JSON ignores key order and undefined members at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe(canonicalJson({ a: { d: [1, { x: 1, y: 2 }] }, b: 1 }));
  });

  test("what cannot change the answer does not change the exact key", () => {
    const base = requestKeys(request("What is 2+2?", { params: { temperature: 0, stop: ["\n"], user: "alice" } }));
    const same = [
      request("What is 2+2?\n\n", { params: { stop: "\n", temperature: 0, user: "bob" } }),
      request("\n  \nWhat is 2+2?  ", { params: { temperature: 0, stop: ["\n"], stream_options: { include_usage: true } } }),
      request("What is 2+2?\r\n", { params: { temperature: 0, stop: ["\n"] } }),
    ];
    for (const r of same) expect(requestKeys(r).exactKey).toBe(base.exactKey);
  });

  test("everything that can change the answer changes the exact key", () => {
    const base = request("def f():\n    return 1", { params: { temperature: 0 } });
    const baseKey = requestKeys(base).exactKey;
    const variants = [
      { ...base, appId: "app_other" },
      { ...base, model: "gpt-4o-2024-05-13" },
      { ...base, maxTokens: 999 },
      { ...base, params: { temperature: 0.2 } },
      { ...base, params: { temperature: 0, top_p: 0.5 } },
      { ...base, params: { temperature: 0, seed: 7 } },
      { ...base, params: { temperature: 0, stop: ["END"] } },
      { ...base, params: { temperature: 0, presence_penalty: 0.5 } },
      { ...base, params: { temperature: 0, tools: [{ type: "function", function: { name: "f" } }] } },
      { ...base, params: { temperature: 0, tool_choice: "required" } },
      { ...base, params: { temperature: 0, response_format: { type: "json_object" } } },
      request("def f():\n  return 1", { params: { temperature: 0 } }),
      request("DEF F():\n    return 1", { params: { temperature: 0 } }),
      { ...base, messages: [{ role: "system" as const, content: "Be terse." }, base.messages[1]!] },
      { ...base, messages: [base.messages[1]!] },
      { ...base, messages: [...base.messages, { role: "assistant" as const, content: "", tool_calls: [{ id: "c1", type: "function" as const, function: { name: "f", arguments: "{}" } }] }] },
    ];
    const keys = variants.map((v) => requestKeys(v).exactKey);
    for (const k of keys) expect(k).not.toBe(baseKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test("the context hash covers every turn but the last user message; the scope covers tenant, model and options", () => {
    const a = requestKeys(request("How do I install it?"));
    const b = requestKeys(request("How can I install it?"));
    expect(a.contextHash).toBe(b.contextHash);
    expect(a.scopeKey).toBe(b.scopeKey);
    expect(a.exactKey).not.toBe(b.exactKey);
    expect(a.prompt).toBe("How do I install it?");
    const otherSystem = requestKeys(request("How do I install it?", { messages: [{ role: "system", content: "You are a pirate." }, { role: "user", content: "How do I install it?" }] }));
    expect(otherSystem.contextHash).not.toBe(a.contextHash);
    expect(requestKeys(request("x", { appId: "app_b" })).scopeKey).not.toBe(requestKeys(request("x")).scopeKey);
  });

  test("a request that does not end with a user message has no prompt for the semantic layer", () => {
    const r = request("call the tool", {
      messages: [
        { role: "user", content: "What is the weather in Oslo?" },
        { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] },
        { role: "tool", content: '{"temp": 3}', tool_call_id: "c1" },
      ],
    });
    expect(requestKeys(r).prompt).toBeNull();
  });
});
