import { describe, expect, test } from "bun:test";
import { Catalog } from "../../src/catalog/catalog";
import { priceCall, savingsBySource, type CostInput } from "../../src/accounting/costs";

const catalog = Catalog.load();
const model = (id: string) => catalog.resolve(id);

function split(c: CostInput) {
  const costs = priceCall(catalog, c);
  return { costs, saved: savingsBySource(catalog, c, costs) };
}

describe("savingsBySource", () => {
  test("compression and routing add up to the saving of an upstream answer", () => {
    const { costs, saved } = split({
      requested: undefined,
      served: model("gpt-4o-mini"),
      originalPromptTokens: 1000,
      sentPromptTokens: 600,
      completionTokens: 200,
      cacheHit: false,
    });
    expect(saved.compression.tokens).toBe(400);
    expect(saved.compression.usd).toBeCloseTo(catalog.costOf(catalog.baseline, 400, 0)!, 12);
    expect(saved.compression.usd + saved.routing.usd).toBeCloseTo(costs.saved_usd, 12);
    expect(saved.routing.usd).toBeGreaterThan(0);
    expect(saved.cache).toEqual({ usd: 0, tokens: 0 });
  });

  test("a model named by the client saves nothing by routing when it served the call", () => {
    const { saved } = split({
      requested: model("gpt-4o"),
      served: model("gpt-4o"),
      originalPromptTokens: 500,
      sentPromptTokens: 500,
      completionTokens: 50,
      cacheHit: false,
    });
    expect(saved.routing.usd).toBe(0);
    expect(saved.compression).toEqual({ usd: 0, tokens: 0 });
  });

  test("a cache hit saved the whole counterfactual, prompt and completion tokens", () => {
    const { costs, saved } = split({
      requested: model("gpt-4o"),
      served: model("gpt-4o"),
      originalPromptTokens: 800,
      sentPromptTokens: 500,
      completionTokens: 50,
      cacheHit: true,
    });
    expect(saved.cache).toEqual({ usd: costs.saved_usd, tokens: 850 });
    expect(saved.compression.usd + saved.routing.usd).toBe(0);
  });
});
