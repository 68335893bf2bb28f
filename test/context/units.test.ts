import { describe, expect, test } from "bun:test";
import { reconcile, type StoredTurn } from "../../src/pipeline/context/history";
import { summaryLines } from "../../src/pipeline/context/summary";
import { KeyedLock } from "../../src/pipeline/context/lock";
import { toAnthropicRequest } from "../../src/providers/anthropic/request";
import { priceCall } from "../../src/accounting/costs";
import { Catalog } from "../../src/catalog/catalog";
import type { ChatMessage } from "../../src/core/messages";

const turn = (role: ChatMessage["role"], content: string): StoredTurn => ({ role, content, sent: content, tokens: 1, sent_tokens: 1 });
const msg = (role: ChatMessage["role"], content: string): ChatMessage => ({ role, content });
const stored = [turn("user", "u1"), turn("assistant", "a1"), turn("user", "u2"), turn("assistant", "a2")];

describe("telling a resent history from new turns", () => {
  test("new turns only: appended", () => {
    expect(reconcile(stored, [msg("user", "u3")])).toEqual({ keep: 4, fresh: [msg("user", "u3")], resent: false });
  });
  test("a single message equal to the first stored turn is a new turn, not a resend", () => {
    expect(reconcile(stored, [msg("user", "u1")])).toMatchObject({ keep: 4, resent: false });
  });
  test("the whole history resent: the stored turns are its prefix; only the rest is new", () => {
    const sent = [...stored.map((t) => msg(t.role, t.content)), msg("user", "u3")];
    expect(reconcile(stored, sent)).toEqual({ keep: 4, fresh: [msg("user", "u3")], resent: true });
  });
  test("a resend that contradicts turn 2: the client's history wins from there", () => {
    const sent = [msg("user", "u1"), msg("assistant", "a1"), msg("user", "u2-edited")];
    expect(reconcile(stored, sent)).toEqual({ keep: 2, fresh: [msg("user", "u2-edited")], resent: true, conflictAt: 2 });
  });
  test("a resend that stops inside the stored turns (regenerate): its last turn is answered again", () => {
    const sent = [msg("user", "u1"), msg("assistant", "a1"), msg("user", "u2")];
    expect(reconcile(stored, sent)).toEqual({ keep: 2, fresh: [msg("user", "u2")], resent: true, conflictAt: 2 });
  });
});

describe("the extractive summary", () => {
  const turns = [
    { role: "user", content: "Hi! How are you?" },
    { role: "assistant", content: "Great, thanks. The weather is nice today." },
    { role: "user", content: "We decided to ship version 2.4 on March 3rd with Maria leading QA." },
    { role: "assistant", content: "Sounds good. Who will write the release notes for the customers in Berlin?" },
  ];
  test("keeps decisions, numbers, names and open questions; drops small talk; numbers turns", () => {
    const lines = summaryLines(turns, 11);
    expect(lines).toEqual([
      "[13] user: We decided to ship version 2.4 on March 3rd with Maria leading QA.",
      "[14] assistant: Who will write the release notes for the customers in Berlin?",
    ]);
  });
  test("deterministic: the same turns give the same bytes", () => {
    expect(summaryLines(turns, 1)).toEqual(summaryLines(structuredClone(turns), 1));
  });
});

describe("Anthropic cache breakpoints", () => {
  const req = (cacheBreakpoints?: number[]) => ({
    model: "claude-3-5-sonnet-20241022",
    messages: [msg("system", "protocol"), msg("system", "summary"), msg("user", "u1"), msg("assistant", "a1"), msg("user", "u2")],
    max_tokens: 10,
    params: {},
    signal: new AbortController().signal,
    ...(cacheBreakpoints && { cacheBreakpoints }),
  });
  test("marked system messages become blocks with cache_control; marked turns carry it on their last block", () => {
    const body = toAnthropicRequest(req([0, 3, 4]), false);
    expect(body.system).toEqual([
      { type: "text", text: "protocol", cache_control: { type: "ephemeral" } },
      { type: "text", text: "summary" },
    ]);
    expect(body.messages.map((m) => m.content.map((b) => b.cache_control !== undefined))).toEqual([[false], [true], [true]]);
  });
  test("without breakpoints the request is as before: system a string, no cache_control", () => {
    const body = toAnthropicRequest(req(), false);
    expect(body.system).toBe("protocol\n\nsummary");
    expect(JSON.stringify(body)).not.toContain("cache_control");
  });
});

describe("one call at a time per conversation", () => {
  test("waiters go in order; one that gives up does not let the next in early; nothing stays held", async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    const first = await lock.acquire("c");
    const gone = new AbortController();
    const second = lock.acquire("c", gone.signal).then(
      () => order.push("second"),
      () => order.push("second gave up"),
    );
    const third = lock.acquire("c").then((release) => {
      order.push("third");
      release();
    });
    gone.abort();
    await Bun.sleep(5);
    expect(order).toEqual(["second gave up"]);
    first();
    await Promise.all([second, third]);
    expect(order).toEqual(["second gave up", "third"]);
    await Bun.sleep(1);
    expect(lock.size).toBe(0);
  });
});

describe("prices with cached tokens", () => {
  const catalog = Catalog.load();
  const sonnet = catalog.resolve("claude-3-5-sonnet-20241022");
  test("Anthropic: reads at the cached price, writes at the write price; the sources add up to saved_usd", () => {
    const c = priceCall(catalog, {
      requested: sonnet,
      served: sonnet,
      originalPromptTokens: 12_000,
      sentPromptTokens: 10_000,
      completionTokens: 100,
      cacheHit: false,
      conversationTokens: 1500,
      cachedTokens: 8000,
      cacheWriteTokens: 1000,
    });
    expect(c.cost_actual_usd).toBeCloseTo((1000 * 3 + 8000 * 0.3 + 1000 * 3.75 + 100 * 3) / 1e6, 12);
    expect(c.saved_by_source.conversation).toBeCloseTo((1500 * 3) / 1e6, 12);
    expect(c.saved_by_source.compression).toBeCloseTo((500 * 3) / 1e6, 12);
    expect(c.saved_by_source.prompt_cache).toBeCloseTo((8000 * (3 - 0.3) - 1000 * (3.75 - 3)) / 1e6, 12);
    const s = c.saved_by_source;
    expect(s.compression + s.routing + s.cache + s.prompt_cache + s.conversation).toBeCloseTo(c.saved_usd, 12);
  });
  test("a model without a cached price pays the input price for cached tokens: no saving is claimed", () => {
    const gpt4o = catalog.resolve("gpt-4o-2024-05-13");
    const c = priceCall(catalog, {
      requested: gpt4o,
      served: gpt4o,
      originalPromptTokens: 2000,
      sentPromptTokens: 2000,
      completionTokens: 10,
      cacheHit: false,
      cachedTokens: 1024,
    });
    expect(c.saved_by_source.prompt_cache).toBe(0);
    expect(c.saved_usd).toBe(0);
  });
});

describe("two gateway processes on one store", () => {
  test("calls on one conversation in two processes at once: the later commit appends after the earlier one's turns", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { openStore } = await import("../../src/store/db");
    const { Conversations } = await import("../../src/pipeline/context/conversations");
    const dir = mkdtempSync(join(tmpdir(), "svc-convo-two-"));
    const a = openStore(dir);
    const b = openStore(dir);
    try {
      const settings = { turnsToKeep: 20, summaryStep: 8, maxTurns: 100, leaseMs: 60_000 };
      const nodeA = new Conversations(a, settings);
      const nodeB = new Conversations(b, settings);
      const pa = await nodeA.plan("app", "c", [msg("user", "from A")], undefined);
      const pb = await nodeB.plan("app", "c", [msg("user", "from B")], undefined);
      await nodeA.record(pa, [], [msg("user", "from A")], msg("assistant", "answer A"));
      await nodeB.record(pb, [], [msg("user", "from B")], msg("assistant", "answer B"));
      expect((await nodeA.view("app", "c")).turns).toBe(4);
      const next = await nodeA.plan("app", "c", [msg("user", "third")], undefined);
      expect(next.history.map((m) => m.content)).toEqual(["from A", "answer A", "from B", "answer B"]);
    } finally {
      a.close();
      b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
