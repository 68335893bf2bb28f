import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalContent, canonicalJson, requestKeys } from "../../src/pipeline/cache";
import type { ChatMessage } from "../../src/core/messages";
import { request } from "./fixtures";

describe("canonical request keys", () => {
  test("canonical JSON ignores key order and undefined members at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe(canonicalJson({ a: { d: [1, { x: 1, y: 2 }] }, b: 1 }));
  });

  test("a request that offers tools is matched exactly only: it has no semantic prompt; the same request without them has one", () => {
    const tool = { type: "function", function: { name: "book_table", parameters: { type: "object", properties: {} } } };
    expect(requestKeys(request("I want to book a table for Friday", { params: { tools: [tool] } })).prompt).toBeNull();
    expect(requestKeys(request("I want to book a table for Friday", { params: { extra: { functions: [tool.function] } } })).prompt).toBeNull();
    expect(requestKeys(request("I want to book a table for Friday", { params: { tools: [] } })).prompt).not.toBeNull();
    expect(requestKeys(request("I want to book a table for Friday")).prompt).not.toBeNull();
    // The exact layer still serves a repeat of the same tool request.
    const a = requestKeys(request("I want to book a table for Friday", { params: { tools: [tool] } }));
    expect(requestKeys(request("I want to book a table for Friday", { params: { tools: [tool] } })).exactKey).toBe(a.exactKey);
    expect(requestKeys(request("I want to book a table for Saturday", { params: { tools: [tool] } })).exactKey).not.toBe(a.exactKey);
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
      {
        ...base,
        messages: [
          ...base.messages,
          { role: "assistant" as const, content: "", tool_calls: [{ id: "c1", type: "function" as const, function: { name: "f", arguments: "{}" } }] },
        ],
      },
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
    const otherSystem = requestKeys(
      request("How do I install it?", {
        messages: [
          { role: "system", content: "You are a pirate." },
          { role: "user", content: "How do I install it?" },
        ],
      }),
    );
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

  test("two conversations share an exact key only when every turn is the same after canonicalisation", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", ":", "1", "\n", " ", "-", "é", "\ud800", "\udc00"), maxLength: 4 });
    const message = fc.record(
      { role: fc.constantFrom("user", "assistant", "system"), content: text, name: fc.option(text, { nil: undefined }) },
      { requiredKeys: ["role", "content"] },
    ) as fc.Arbitrary<ChatMessage>;
    const conversation = fc.array(message, { minLength: 1, maxLength: 3 });
    /** Near-misses that a naive serialisation would confuse: text moved across a field or turn boundary, a lone surrogate swapped, two turns merged. */
    const perturb = (ms: ChatMessage[], kind: number, at: number): ChatMessage[] => {
      const out = ms.map((m) => ({ ...m }));
      const k = at % out.length;
      const m = out[k]!;
      const next = out[k + 1];
      if (kind === 0 && next) [m.content, next.content] = [m.content.slice(0, -1), m.content.slice(-1) + next.content];
      if (kind === 1) [m.content, m.name] = [m.content.slice(0, -1), m.content.slice(-1) + (m.name ?? "")];
      if (kind === 2) m.content = m.content.replaceAll("\ud800", "\udc00");
      if (kind === 3 && next) return [...out.slice(0, k), { ...m, content: m.content + next.content }, ...out.slice(k + 2)];
      return out;
    };
    const pair = fc.oneof(
      fc.tuple(conversation, conversation),
      fc.tuple(conversation, fc.integer({ min: 0, max: 3 }), fc.nat()).map(([a, kind, at]) => [a, perturb(a, kind, at)] as const),
    );
    const canonical = (ms: readonly ChatMessage[]) => canonicalJson(ms.map((m) => ({ ...m, content: canonicalContent(m.content) })));
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const same = requestKeys(request("", { messages: [...a] })).exactKey === requestKeys(request("", { messages: [...b] })).exactKey;
        expect(same).toBe(canonical(a) === canonical(b));
      }),
      { numRuns: 5000 },
    );
  });
});
