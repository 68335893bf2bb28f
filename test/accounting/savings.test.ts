import { describe, expect, test } from "bun:test";
import { Catalog } from "../../src/catalog/catalog";
import { priceCall, savedTokensBySource, type CostInput } from "../../src/accounting/costs";

const catalog = Catalog.load();
const model = (id: string) => catalog.resolve(id);

function split(c: CostInput) {
  return { costs: priceCall(catalog, c), tokens: savedTokensBySource(c) };
}

/** Tokens the call with the gateway sent and received less than one without it would have. */
const notSent = (c: CostInput) => c.originalPromptTokens + c.completionTokens - (c.cacheHit ? 0 : c.sentPromptTokens + c.completionTokens);

describe("savedTokensBySource: the tokens behind priceCall's USD split", () => {
  test("compression's tokens are the ones its USD is priced on; routing saves money, not tokens", () => {
    const c: CostInput = {
      requested: undefined,
      served: model("gpt-4o-mini"),
      originalPromptTokens: 1000,
      sentPromptTokens: 600,
      completionTokens: 200,
      cacheHit: false,
    };
    const { costs, tokens } = split(c);
    expect(tokens).toEqual({ compression: 400, conversation: 0, cache: 0 });
    expect(costs.saved_by_source.compression).toBeCloseTo(catalog.costOf(catalog.baseline, 400, 0)!, 12);
    expect(costs.saved_by_source.routing).toBeGreaterThan(0);
    expect(tokens.compression + tokens.conversation + tokens.cache).toBe(notSent(c));
  });

  test("a conversation's summary: its tokens apart from compression's, each priced on the requested model", () => {
    const c: CostInput = {
      requested: model("gpt-4o"),
      served: model("gpt-4o"),
      originalPromptTokens: 5000,
      sentPromptTokens: 1000,
      completionTokens: 50,
      cacheHit: false,
      conversationTokens: 3000,
    };
    const { costs, tokens } = split(c);
    expect(tokens).toEqual({ compression: 1000, conversation: 3000, cache: 0 });
    expect(costs.saved_by_source.conversation).toBeCloseTo(catalog.costOf(model("gpt-4o"), 3000, 0)!, 12);
    expect(costs.saved_by_source.compression).toBeCloseTo(catalog.costOf(model("gpt-4o"), 1000, 0)!, 12);
    expect(costs.saved_by_source.routing).toBe(0);
  });

  test("a cache hit: the prompt it would have sent and the whole completion are the cache's, what compression removed stays compression's", () => {
    const c: CostInput = {
      requested: model("gpt-4o"),
      served: model("gpt-4o"),
      originalPromptTokens: 800,
      sentPromptTokens: 500,
      completionTokens: 50,
      cacheHit: true,
    };
    const { costs, tokens } = split(c);
    expect(tokens).toEqual({ compression: 300, conversation: 0, cache: 550 });
    expect(tokens.compression + tokens.conversation + tokens.cache).toBe(notSent(c));
    expect(costs.saved_by_source.cache).toBeCloseTo(catalog.costOf(model("gpt-4o"), 500, 50)!, 12);
    expect(costs.saved_by_source.compression).toBeCloseTo(catalog.costOf(model("gpt-4o"), 300, 0)!, 12);
  });
});
