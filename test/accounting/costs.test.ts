import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { priceCall, type CostInput } from "../../src/accounting/costs";
import { Catalog, type ModelInfo, type RoutableModel } from "../../src/catalog/catalog";

// A catalog of the test's own: every model's output price differs from its input price (and no two
// models share a price), so pricing the wrong side or the wrong model changes the figure.
const model = (id: string, input: number, output: number): RoutableModel => ({
  id,
  aliases: [],
  label: id,
  provider: "openai",
  tier: "balanced",
  input_usd_per_mtok: input,
  output_usd_per_mtok: output,
  context_window: 100_000,
  features: [],
});
const CHEAP = model("cheap-1", 0.5, 2);
const MID = model("mid-1", 3, 11);
const BASE = model("base-1", 7, 29);
const catalog = new Catalog({ baseline_model: "base-1", default_model: "cheap-1", models: [CHEAP, MID, BASE] });

const call = (over: Partial<CostInput>): CostInput => ({
  requested: MID,
  served: MID,
  originalPromptTokens: 1000,
  sentPromptTokens: 1000,
  completionTokens: 100,
  cacheHit: false,
  ...over,
});

describe("priceCall", () => {
  test("a named model, nothing changed: input tokens at the input price, output tokens at the output price", () => {
    // 1,000 x $3/Mtok + 100 x $11/Mtok = $0.003 + $0.0011
    expect(priceCall(catalog, call({}))).toMatchObject({ cost_original_usd: 0.0041, cost_actual_usd: 0.0041, saved_usd: 0 });
  });

  test("a compressed prompt: the original is priced on the original prompt, the actual on the prompt sent", () => {
    const c = priceCall(catalog, call({ originalPromptTokens: 1000, sentPromptTokens: 600, completionTokens: 50 }));
    expect(c.cost_original_usd).toBe(0.00355); // 1000 x 3 + 50 x 11
    expect(c.cost_actual_usd).toBe(0.00235); // 600 x 3 + 50 x 11
    expect(c.saved_usd).toBe(0.0012);
  });

  test("a named model served by a cheaper one: the original is priced on the requested model", () => {
    const c = priceCall(catalog, call({ requested: MID, served: CHEAP, completionTokens: 200 }));
    expect(c.cost_original_usd).toBe(0.0052); // 1000 x 3 + 200 x 11
    expect(c.cost_actual_usd).toBe(0.0009); // 1000 x 0.5 + 200 x 2
    expect(c.saved_usd).toBe(0.0043);
  });

  test("`auto` is priced on the catalog's baseline, not on the model that served it", () => {
    const c = priceCall(catalog, call({ requested: undefined, served: CHEAP, originalPromptTokens: 2000, sentPromptTokens: 2000, completionTokens: 300 }));
    expect(c.cost_original_usd).toBe(0.0227); // 2000 x 7 + 300 x 29
    expect(c.cost_actual_usd).toBe(0.0016); // 2000 x 0.5 + 300 x 2
    expect(c.saved_usd).toBe(0.0211);
  });

  test("`auto` served by the baseline itself saves nothing", () => {
    expect(priceCall(catalog, call({ requested: undefined, served: BASE }))).toMatchObject({
      cost_original_usd: 0.0099,
      cost_actual_usd: 0.0099,
      saved_usd: 0,
    });
  });

  test("a named model served by a dearer one (a fallback) is a negative saving, not hidden", () => {
    const c = priceCall(catalog, call({ requested: CHEAP, served: BASE, completionTokens: 10 }));
    expect(c.cost_original_usd).toBe(0.00052);
    expect(c.cost_actual_usd).toBe(0.00729);
    expect(c.saved_usd).toBe(-0.00677);
  });

  test("a cache hit costs nothing and saves what the call would have cost", () => {
    for (const requested of [MID, undefined]) {
      const c = priceCall(catalog, call({ requested, served: CHEAP, cacheHit: true, completionTokens: 40 }));
      const original = requested === MID ? 0.00344 : 0.00816; // 1000 x 3 + 40 x 11 | 1000 x 7 + 40 x 29
      expect(c).toMatchObject({ cost_original_usd: original, cost_actual_usd: 0, saved_usd: original });
    }
  });

  test("no float noise: figures are rounded to 1e-10 USD", () => {
    const c = priceCall(catalog, call({ requested: CHEAP, served: CHEAP, originalPromptTokens: 1, sentPromptTokens: 1, completionTokens: 1 }));
    expect(c.cost_original_usd).toBe(0.0000025);
    // 0.1 + 0.2 style noise would show as a long tail of digits
    const odd = priceCall(
      new Catalog({ baseline_model: "x", default_model: "x", models: [model("x", 0.1, 0.2)] }),
      call({ requested: undefined, served: model("x", 0.1, 0.2), originalPromptTokens: 3_000_000, sentPromptTokens: 1_000_000, completionTokens: 1_000_000 }),
    );
    expect(odd).toMatchObject({ cost_original_usd: 0.5, cost_actual_usd: 0.3, saved_usd: 0.2 });
  });

  test("each saving in its source, exactly: the summary and compression on the requested model, routing, the provider's prompt cache", () => {
    // cheap-1 with prompt-cache prices: reads at $0.125/Mtok, writes at $0.625/Mtok.
    const served: ModelInfo = { ...CHEAP, cached_input_usd_per_mtok: 0.125, cache_write_usd_per_mtok: 0.625 };
    const c = priceCall(
      catalog,
      call({
        served,
        originalPromptTokens: 5000,
        conversationTokens: 2000,
        sentPromptTokens: 2000,
        completionTokens: 100,
        cachedTokens: 800,
        cacheWriteTokens: 200,
      }),
    );
    expect(c).toEqual({
      cost_original_usd: 0.0161, // 5000 x 3 + 100 x 11
      cost_actual_usd: 0.000925, // 1000 x 0.5 + 800 x 0.125 + 200 x 0.625 + 100 x 2
      saved_usd: 0.015175,
      saved_by_source: {
        conversation: 0.006, // 2000 x 3
        compression: 0.003, // (5000 - 2000 - 2000) x 3
        routing: 0.0059, // the sent call on mid-1 (2000 x 3 + 100 x 11) less on cheap-1 (2000 x 0.5 + 100 x 2)
        cache: 0,
        prompt_cache: 0.000275, // cheap-1 at its full input price (0.0012) less what the cache made it cost
      },
    });
  });

  test("a cache hit: the cache saves the served call, routing what the served model saved on the requested one", () => {
    const c = priceCall(
      catalog,
      call({ requested: MID, served: CHEAP, originalPromptTokens: 1000, sentPromptTokens: 600, completionTokens: 100, cacheHit: true }),
    );
    expect(c).toEqual({
      cost_original_usd: 0.0041, // 1000 x 3 + 100 x 11
      cost_actual_usd: 0,
      saved_usd: 0.0041,
      saved_by_source: {
        conversation: 0,
        compression: 0.0012, // 400 x 3
        routing: 0.0024, // (600 x 3 + 100 x 11) - (600 x 0.5 + 100 x 2)
        cache: 0.0005, // 600 x 0.5 + 100 x 2
        prompt_cache: 0,
      },
    });
  });

  // A model served by name without a catalog entry has no price (catalog.ts): its figures are unknown, never guessed.
  const UNLISTED: ModelInfo = { ...MID, id: "unlisted-1", input_usd_per_mtok: null, output_usd_per_mtok: null, listed: false };
  const NO_SAVING = { compression: 0, routing: 0, cache: 0, prompt_cache: 0, conversation: 0 };

  test("a requested model without a price: the original is unknown, the actual priced, and no saving is claimed", () => {
    expect(priceCall(catalog, call({ requested: UNLISTED, served: CHEAP, originalPromptTokens: 3000, sentPromptTokens: 1000 }))).toEqual({
      cost_original_usd: 0,
      cost_actual_usd: 0.0007, // 1000 x 0.5 + 100 x 2
      saved_usd: 0,
      saved_by_source: NO_SAVING,
      unknown: { original: true, actual: false },
    });
  });

  test("a served model without a price: the actual is unknown, the original priced, and no saving is claimed", () => {
    expect(priceCall(catalog, call({ requested: MID, served: UNLISTED, originalPromptTokens: 3000, sentPromptTokens: 1000 }))).toEqual({
      cost_original_usd: 0.0101, // 3000 x 3 + 100 x 11
      cost_actual_usd: 0,
      saved_usd: 0,
      saved_by_source: NO_SAVING,
      unknown: { original: false, actual: true },
    });
  });

  test("a cache hit answered by a model without a price costs nothing: the whole saving is the cache's, priced on the requested model", () => {
    expect(priceCall(catalog, call({ requested: MID, served: UNLISTED, cacheHit: true }))).toEqual({
      cost_original_usd: 0.0041,
      cost_actual_usd: 0,
      saved_usd: 0.0041,
      saved_by_source: { ...NO_SAVING, cache: 0.0041 },
    });
  });

  test("property: saved = original - actual, both non-negative, and each side linear in its own token counts", () => {
    const models = [CHEAP, MID, BASE];
    fc.assert(
      fc.property(
        fc.constantFrom(undefined, ...models),
        fc.constantFrom(...models),
        fc.nat(200_000),
        fc.nat(200_000),
        fc.nat(50_000),
        fc.boolean(),
        (requested, served, original, sent, completion, cacheHit) => {
          const c = priceCall(catalog, { requested, served, originalPromptTokens: original, sentPromptTokens: sent, completionTokens: completion, cacheHit });
          const priced = requested ?? BASE;
          expect(c.cost_original_usd).toBeCloseTo((original * priced.input_usd_per_mtok + completion * priced.output_usd_per_mtok) / 1e6, 9);
          expect(c.cost_actual_usd).toBeCloseTo(cacheHit ? 0 : (sent * served.input_usd_per_mtok + completion * served.output_usd_per_mtok) / 1e6, 9);
          expect(c.saved_usd).toBeCloseTo(c.cost_original_usd - c.cost_actual_usd, 9);
          expect(c.cost_original_usd).toBeGreaterThanOrEqual(0);
          expect(c.cost_actual_usd).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("Catalog.cost", () => {
  test("prompt tokens at the input price, completion tokens at the output price, per million", () => {
    expect(catalog.cost(BASE, 1_000_000, 0)).toBe(7);
    expect(catalog.cost(BASE, 0, 1_000_000)).toBe(29);
    expect(catalog.cost(BASE, 500_000, 2_000_000)).toBe(61.5);
  });
});
