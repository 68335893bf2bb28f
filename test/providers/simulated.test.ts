import { describe, expect, test } from "bun:test";
import { Catalog } from "../../src/catalog/catalog";
import { SimulatedProvider } from "../../src/providers/simulated/provider";
import { countMessageTokens, countTokens } from "../../src/tokens/count";
import { collect, providerRequest } from "./fixtures";

const sim = new SimulatedProvider(Catalog.load());
const ask = (content: string, over = {}) => providerRequest("gpt-4o-mini-2024-07-18", { messages: [{ role: "user", content }], ...over });

describe("simulated provider", () => {
  test("is marked simulated and answers the same messages with the same text", async () => {
    expect(sim.simulated).toBe(true);
    const a = await sim.complete(ask("How do I configure connection pooling in PostgreSQL?"));
    const b = await sim.complete(ask("How do I configure connection pooling in PostgreSQL?"));
    expect(a).toEqual(b);
  });

  test("answers from the question's own words, and different questions differently", async () => {
    const a = (await sim.complete(ask("How do I configure connection pooling in PostgreSQL?"))).choices[0]!.message.content;
    const b = (await sim.complete(ask("Why does my sourdough bread collapse in the oven?"))).choices[0]!.message.content;
    expect(a).not.toBe(b);
    expect(a).toContain("connection pooling");
    expect(b).toContain("sourdough");
    expect(a!.split(" ").length).toBeGreaterThan(10);
  });

  test("reports usage counted with the model's tokenizer", async () => {
    const req = ask("Explain the difference between TCP and UDP.");
    const res = await sim.complete(req);
    expect(res.usage).toEqual({ prompt_tokens: countMessageTokens(req.messages), completion_tokens: countTokens(res.choices[0]!.message.content!) });
    const claude = await sim.complete({ ...req, model: "claude-3-haiku-20240307" });
    expect(claude.usage!.prompt_tokens).toBe(countMessageTokens(req.messages, "cl100k"));
  });

  test("stops at max_tokens with finish_reason length", async () => {
    const res = await sim.complete(ask("Explain the difference between TCP and UDP.", { max_tokens: 5 }));
    expect(res.choices[0]!.finish_reason).toBe("length");
    expect(res.usage!.completion_tokens).toBeLessThanOrEqual(5);
    expect(res.usage!.completion_tokens).toBeGreaterThan(0);
  });

  test("streams the same answer in word-sized chunks, then the finish reason and usage", async () => {
    const req = ask("What are good habits for code review?");
    const plain = await sim.complete(req);
    const out = await collect(sim.stream(req));
    expect(out.text).toBe(plain.choices[0]!.message.content!);
    const pieces = out.deltas.map((d) => d.delta.content).filter((c): c is string => !!c);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.every((p) => p.trim().split(/\s+/).length === 1)).toBe(true);
    expect(out.deltas.at(-1)!.finish_reason).toBe("stop");
    expect(out.usage).toEqual(plain.usage!);
  });

  test("n choices come back as n different answers", async () => {
    const res = await sim.complete(ask("Suggest a name for a hiking club.", { params: { n: 3 } }));
    expect(res.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(new Set(res.choices.map((c) => c.message.content)).size).toBe(3);
  });
});
