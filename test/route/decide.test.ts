import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { Catalog, TIERS, type ModelInfo } from "../../src/catalog/catalog";
import { ApiError } from "../../src/core/errors";
import { TASK_CLASSES, type TaskPrediction } from "../../src/ml/types";
import {
  ROUTING_REASONS,
  decideRoute,
  loadCapabilities,
  needsClassification,
  noProviderError,
  parseCapabilities,
  type RouteDecision,
  type RouteInput,
  type Routed,
} from "../../src/pipeline/route";
import bundledCapabilities from "../../src/catalog/capabilities.json";
import { all, catalogWithFeatures, ids, only, prediction, signals } from "./fixtures";

const catalog = Catalog.load();
const capabilities = loadCapabilities();

function route(over: Partial<RouteInput>): RouteDecision {
  return decideRoute({ model: "auto", route: true, signals: signals(), catalog, capabilities, isAvailable: all, ...over });
}

function routed(over: Partial<RouteInput>): Routed {
  const d = route(over);
  if (!d.ok) throw new Error(`expected a model, got NO_PROVIDER: ${d.message}`);
  return d;
}

const faq = prediction("faq", 0.95, 0.1);
/** The bundled table without the context-size signal of a hard prompt, for tests of the context window alone. */
const sizeOnly = parseCapabilities({ ...bundledCapabilities, hard_prompt: { ...bundledCapabilities.hard_prompt, context_tokens_from: 0 } });
const hardReasoning = prediction("reasoning", 0.9, 0.9);

describe("a model the client names", () => {
  test("a versioned id is served as asked, whatever the classifier would say", () => {
    const d = routed({ model: "claude-3-opus-20240229", prediction: faq });
    expect(d.model.id).toBe("claude-3-opus-20240229");
    expect(d.reason).toBe("explicit_model");
    expect(ids(d.candidates)).toEqual(["claude-3-opus-20240229"]);
    expect(needsClassification("claude-3-opus-20240229", true)).toBe(false);
  });

  test("an alias resolves to the versioned id reported as `model`", () => {
    const d = routed({ model: "gpt-4o-mini" });
    expect(d.model.id).toBe("gpt-4o-mini-2024-07-18");
    expect(d.reason).toBe("explicit_model");
  });

  test("an unknown model is the catalog's 400 MODEL_NOT_FOUND", () => {
    let err: unknown;
    try {
      route({ model: "no-such-model" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("MODEL_NOT_FOUND");
    expect((err as ApiError).status).toBe(400);
  });

  test("a named model whose provider is not configured is NO_PROVIDER, not another model", () => {
    const d = route({ model: "claude-3-haiku", isAvailable: only("openai") });
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.reason).toBe("explicit_model");
    const err = noProviderError(d);
    expect(err.status).toBe(503);
    expect(err.code).toBe("NO_PROVIDER");
    expect(err.message).toContain("claude-3-haiku-20240307");
  });
});

describe("route: false", () => {
  test("auto uses the configured default model without classifying", () => {
    expect(needsClassification("auto", false)).toBe(false);
    const d = routed({ route: false, prediction: hardReasoning });
    expect(d.model.id).toBe(catalog.defaultModel.id);
    expect(d.reason).toBe("route_disabled");
  });

  test("the default model's provider missing is NO_PROVIDER", () => {
    expect(route({ route: false, isAvailable: only("anthropic") }).ok).toBe(false);
  });
});

describe("auto routing by task", () => {
  test("auto needs the classifier, and says so when it is missing", () => {
    expect(needsClassification("auto", true)).toBe(true);
    expect(() => route({})).toThrow("needs the task prediction");
  });

  test.each([
    ["faq", "faq_pattern"],
    ["chat", "chat_default"],
    ["translate", "translate_task"],
    ["extract", "extract_task"],
    ["summarize", "summarize_task"],
    ["creative", "creative_task"],
  ] as const)("confident %s goes to the cheapest model of the cheapest tier", (task, reason) => {
    const d = routed({ prediction: prediction(task, 0.9, 0.2) });
    expect(d.tier).toBe("cheapest");
    expect(d.model.id).toBe("gemini-1.5-flash-002");
    expect(d.reason).toBe(reason);
  });

  test.each([
    ["code", "code_task"],
    ["math", "math_task"],
    ["reasoning", "reasoning_task"],
  ] as const)("%s goes to the cheapest balanced model, even when easy", (task, reason) => {
    const d = routed({ prediction: prediction(task, 0.95, 0.05) });
    expect(d.tier).toBe("balanced");
    expect(d.model.id).toBe("claude-3-5-sonnet-20241022");
    expect(d.reason).toBe(reason);
  });

  test("hard creative work needs the balanced tier", () => {
    expect(routed({ prediction: prediction("creative", 0.9, 0.8) }).tier).toBe("balanced");
  });

  test("a code fence turns a chat or faq prediction into code work", () => {
    const d = routed({ prediction: prediction("chat", 0.9, 0.2), signals: signals({ codeFences: 1 }) });
    expect(d.reason).toBe("code_task");
    expect(d.tier).toBe("balanced");
    expect(routed({ prediction: prediction("summarize", 0.9, 0.2), signals: signals({ codeFences: 1 }) }).tier).toBe("cheapest");
    // Code pasted without a fence counts as a fenced block.
    expect(routed({ prediction: prediction("chat", 0.9, 0.2), signals: signals({ pastedCode: true }) }).reason).toBe("code_task");
  });
});

describe("providers that are missing or unhealthy", () => {
  test("the next cheapest model of the same tier serves", () => {
    expect(routed({ prediction: faq, isAvailable: (m) => m.provider !== "gemini" }).model.id).toBe("gpt-4o-mini-2024-07-18");
    expect(routed({ prediction: faq, isAvailable: only("anthropic") }).model.id).toBe("claude-3-haiku-20240307");
  });

  test("no provider at all is a typed NO_PROVIDER outcome", () => {
    const d = route({ prediction: faq, isAvailable: () => false });
    expect(d).toMatchObject({ ok: false, code: "NO_PROVIDER", reason: "faq_pattern", tier: "cheapest" });
  });

  test("a task that needs balanced is never served by a cheaper tier", () => {
    const cheapOnly = (m: ModelInfo) => m.tier === "cheapest";
    const d = route({ prediction: prediction("code", 0.95, 0.5), isAvailable: cheapOnly });
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.message).toContain("balanced or better");
  });

  test("a cheap task whose tier is down moves up, never failing while a better model is up", () => {
    const d = routed({ prediction: faq, isAvailable: (m) => m.tier !== "cheapest" });
    expect(d.tier).toBe("balanced");
    expect(d.reason).toBe("faq_pattern");
  });
});

describe("context window", () => {
  test("a prompt longer than a model's window moves sideways to a same-tier model that holds it", () => {
    const d = routed({ capabilities: sizeOnly, prediction: faq, isAvailable: (m) => m.provider !== "gemini", signals: signals({ promptTokens: 150_000 }) });
    expect(d.model.id).toBe("claude-3-haiku-20240307");
    expect(d.reason).toBe("long_context");
    expect(d.candidates.every((m) => m.context_window! >= 150_000)).toBe(true);
  });

  test("max_tokens shares the window: 127k of prompt plus 1000 does not fit a 128k model", () => {
    const d = routed({ capabilities: sizeOnly, prediction: faq, isAvailable: only("openai", "anthropic"), signals: signals({ promptTokens: 127_000 }) });
    expect(d.model.id).toBe("claude-3-haiku-20240307");
  });

  test("a prompt that no cheapest model holds moves up a tier", () => {
    const d = routed({ capabilities: sizeOnly, prediction: faq, signals: signals({ promptTokens: 1_500_000 }) });
    expect(d.model.id).toBe("gemini-1.5-pro-002");
    expect(d.tier).toBe("balanced");
    expect(d.reason).toBe("long_context");
  });

  test("a prompt that fits the usual model keeps the task's reason", () => {
    expect(routed({ capabilities: sizeOnly, prediction: faq, signals: signals({ promptTokens: 150_000 }) }).reason).toBe("faq_pattern");
  });

  test("a prompt no available model holds is a 400 naming its size and the largest window, not a 503", () => {
    const d = route({ capabilities: sizeOnly, prediction: faq, isAvailable: only("openai", "anthropic"), signals: signals({ promptTokens: 300_000 }) });
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.message).toContain("301000 tokens");
    expect(d.tooLong).toBe(true);
    const err = noProviderError(d);
    expect({ status: err.status, code: err.code, param: err.extra.param }).toEqual({ status: 400, code: "VALIDATION_ERROR", param: "messages" });
    // Anthropic's 200,000-token window, less the routing table's headroom.
    expect(d.message).toMatch(/at most 1\d{5}\)/);
  });
});

describe("tools and JSON mode", () => {
  const noToolsFlash = catalogWithFeatures({ "gemini-1.5-flash-002": ["json"], "gpt-4o-mini-2024-07-18": ["tools"] });

  test("a request with tools skips models without tool support", () => {
    const d = routed({ catalog: noToolsFlash, prediction: faq, signals: signals({ needsTools: true }) });
    expect(d.model.id).toBe("gpt-4o-mini-2024-07-18");
    expect(d.candidates.every((m) => m.features.includes("tools"))).toBe(true);
  });

  test("a request in JSON mode skips models without JSON mode", () => {
    const d = routed({ catalog: noToolsFlash, prediction: faq, signals: signals({ needsJson: true }) });
    expect(d.model.id).toBe("gemini-1.5-flash-002");
    const both = routed({ catalog: noToolsFlash, prediction: faq, signals: signals({ needsJson: true, needsTools: true }) });
    expect(both.model.id).toBe("claude-3-haiku-20240307");
  });

  test("json_schema and images go only to models whose features list them", () => {
    const flags = catalogWithFeatures({
      ...Object.fromEntries(catalog.models.map((m) => [m.id, ["tools", "json"]])),
      "gpt-4o-mini-2024-07-18": ["tools", "json", "json_schema", "vision"],
      "claude-3-haiku-20240307": ["tools", "json", "vision"],
    });
    const schema = routed({ catalog: flags, prediction: faq, signals: signals({ needsJson: true, needsJsonSchema: true }) });
    expect(ids(schema.candidates)).toEqual(["gpt-4o-mini-2024-07-18"]);
    const image = routed({ catalog: flags, prediction: faq, signals: signals({ needsVision: true }) });
    expect(ids(image.candidates)).toEqual(["gpt-4o-mini-2024-07-18", "claude-3-haiku-20240307"]);
    const none = route({ catalog: flags, prediction: faq, signals: signals({ needsVision: true, needsJsonSchema: true }), isAvailable: only("anthropic") });
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.message).toContain("json_schema, vision");
  });

  test("without the feature anywhere, the outcome is NO_PROVIDER naming it", () => {
    const none = catalogWithFeatures(Object.fromEntries(catalog.models.map((m) => [m.id, []])));
    const d = route({ catalog: none, prediction: faq, signals: signals({ needsTools: true }) });
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.message).toContain("tools");
  });
});

describe("a hard prompt", () => {
  const t = bundledCapabilities.hard_prompt;
  const hard = (over: Partial<{ constraints: number; steps: number; requestedWords: number; deliberation: number; calculation: number }>) => ({
    constraints: 0,
    steps: 0,
    requestedWords: 0,
    deliberation: 0,
    calculation: 0,
    ...over,
  });
  const cases = [
    ["many_constraints", signals({ hardness: hard({ constraints: t.constraints_from }) })],
    ["multi_step", signals({ hardness: hard({ steps: t.steps_from }) })],
    ["long_output", signals({ hardness: hard({ requestedWords: t.requested_words_from }) })],
    ["large_context", signals({ promptTokens: t.context_tokens_from })],
    ["deliberation", signals({ hardness: hard({ deliberation: t.deliberation_from }) })],
    ["calculation", signals({ promptTokens: t.calculation_below_tokens - 1, hardness: hard({ calculation: t.calculation_from }) })],
  ] as const;

  test("each signal at its threshold sends a cheapest-tier task to balanced and names itself as the reason", () => {
    for (const [reason, s] of cases) {
      const d = routed({ prediction: faq, signals: s });
      expect([d.reason, d.tier]).toEqual([reason, "balanced"]);
      expect(d.task).toBe("faq");
    }
  });

  test("one below each threshold stays on the cheapest tier with the task's reason", () => {
    const below = [
      signals({
        hardness: hard({
          constraints: t.constraints_from - 1,
          steps: t.steps_from - 1,
          requestedWords: t.requested_words_from - 1,
          deliberation: t.deliberation_from - 1,
          calculation: t.calculation_from - 1,
        }),
      }),
      signals({ promptTokens: t.context_tokens_from - 1 }),
      // A long set-up that mentions an equation in passing is no request for one.
      signals({ promptTokens: t.calculation_below_tokens, hardness: hard({ calculation: t.calculation_from }) }),
    ];
    for (const s of below)
      expect([routed({ prediction: faq, signals: s }).tier, routed({ prediction: faq, signals: s }).reason]).toEqual(["cheapest", "faq_pattern"]);
  });

  test("a threshold of 0 turns its signal off, and the thresholds come from the table", () => {
    const off = parseCapabilities({
      ...bundledCapabilities,
      hard_prompt: { ...t, constraints_from: 0, steps_from: 0, requested_words_from: 0, context_tokens_from: 0, deliberation_from: 0, calculation_from: 0 },
    });
    for (const [, s] of cases) expect(routed({ prediction: faq, signals: s, capabilities: off }).tier).toBe("cheapest");
    const strict = parseCapabilities({ ...bundledCapabilities, hard_prompt: { ...t, constraints_from: 2 } });
    expect(routed({ prediction: faq, signals: signals({ hardness: hard({ constraints: 2 }) }), capabilities: strict }).reason).toBe("many_constraints");
  });

  test("a long prompt taken for faq or chat goes up unless the classifier is all but sure of the cheapest tier", () => {
    const t = bundledCapabilities.long_question;
    expect(t.tokens_from).toBeGreaterThan(0);
    // 0.9 for the cheapest tier: above the general 0.7 threshold, below the long-question one.
    const fairlySure = (task: "faq" | "chat" | "extract") => prediction(task, 0.9, 0.2, { reasoning: 0.1 });
    for (const task of ["faq", "chat"] as const) {
      const long = routed({ prediction: fairlySure(task), signals: signals({ promptTokens: t.tokens_from }) });
      expect([long.tier, long.reason, long.task]).toEqual(["balanced", "long_question", task]);
      const short = routed({ prediction: fairlySure(task), signals: signals({ promptTokens: t.tokens_from - 1 }) });
      expect(short.tier).toBe("cheapest");
    }
    const sure = prediction("faq", 0.99, 0.2, { reasoning: 0.01 });
    expect(routed({ prediction: sure, signals: signals({ promptTokens: 10 * t.tokens_from }) }).reason).toBe("faq_pattern");
    // Other cheapest-tier classes carry documents: their length says nothing.
    expect(routed({ prediction: fairlySure("extract"), signals: signals({ promptTokens: 10 * t.tokens_from }) }).reason).toBe("extract_task");
    const off = parseCapabilities({ ...bundledCapabilities, long_question: { ...t, tokens_from: 0 } });
    expect(routed({ prediction: fairlySure("faq"), signals: signals({ promptTokens: 10 * t.tokens_from }), capabilities: off }).tier).toBe("cheapest");
  });

  test("long small talk that asks the assistant about itself stays on the cheapest tier, unless the table says otherwise", () => {
    const t = bundledCapabilities.long_question;
    expect(t.spare_small_talk).toBe(true);
    const chat = prediction("chat", 0.8, 0.2, { reasoning: 0.2 });
    const long = signals({ promptTokens: 2 * t.tokens_from, smallTalk: true });
    expect([routed({ prediction: chat, signals: long }).tier, routed({ prediction: chat, signals: long }).reason]).toEqual(["cheapest", "chat_default"]);
    const strict = parseCapabilities({ ...bundledCapabilities, long_question: { ...t, spare_small_talk: false } });
    expect(routed({ prediction: chat, signals: long, capabilities: strict }).reason).toBe("long_question");
    // Only long_question spares it: an unsure classifier or a hard-prompt signal still lifts it.
    expect(routed({ prediction: prediction("chat", 0.6, 0.2, { reasoning: 0.4 }), signals: long }).reason).toBe("low_confidence");
    expect(routed({ prediction: chat, signals: signals({ ...long, hardness: hard({ deliberation: 1 }) }) }).reason).toBe("deliberation");
  });

  test("an estimate to work out goes to balanced as estimation, unless the table turns it off", () => {
    expect(t.estimation).toBe(true);
    const d = routed({ prediction: prediction("creative", 0.9, 0.2), signals: signals({ estimation: true }) });
    expect([d.tier, d.reason, d.task]).toEqual(["balanced", "estimation", "creative"]);
    const off = parseCapabilities({ ...bundledCapabilities, hard_prompt: { ...t, estimation: false } });
    expect(routed({ prediction: faq, signals: signals({ estimation: true }), capabilities: off }).tier).toBe("cheapest");
  });

  test("a prompt full of software words taken for one of software_terms' classes goes to balanced as software_terms", () => {
    const st = capabilities.software_terms;
    expect(st.share_from).toBeGreaterThan(0);
    for (const task of st.classes) {
      const sure = prediction(task, 0.97, 0.2);
      const d = routed({ prediction: sure, signals: signals({ promptTokens: 20, softwareShare: st.share_from }) });
      expect([d.tier, d.reason, d.task]).toEqual(["balanced", "software_terms", task]);
      expect(routed({ prediction: sure, signals: signals({ promptTokens: 20, softwareShare: st.share_from - 0.01 }) }).tier).toBe("cheapest");
    }
    // A factual question about software stays a factual question while the classifier is sure of the
    // cheapest tier; below the stricter threshold it goes up.
    expect(st.classes).not.toContain("faq");
    // Fields picked from JSON or logs are full of software words: extraction the classifier is sure of stays.
    expect(routed({ prediction: prediction("extract", 0.97, 0.2), signals: signals({ promptTokens: 20, softwareShare: 1 }) }).reason).toBe("extract_task");
    expect(routed({ prediction: faq, signals: signals({ promptTokens: 20, softwareShare: 1 }) }).reason).toBe("faq_pattern");
    const css = prediction("faq", st.tier_confidence_threshold - 0.05, 0.2, { code: 1.05 - st.tier_confidence_threshold });
    expect(routed({ prediction: css, signals: signals({ promptTokens: 20, softwareShare: st.share_from }) }).reason).toBe("software_terms");
    expect(routed({ prediction: css, signals: signals({ promptTokens: 20, softwareShare: st.share_from - 0.01 }) }).reason).toBe("faq_pattern");
    const off = parseCapabilities({ ...bundledCapabilities, software_terms: { ...bundledCapabilities.software_terms, share_from: 0 } });
    const chat = prediction("chat", 0.97, 0.2);
    expect(routed({ prediction: chat, signals: signals({ promptTokens: 20, softwareShare: 1 }), capabilities: off }).tier).toBe("cheapest");
  });

  test("an unsure classifier is reported before the prompt's signals", () => {
    const unsure = prediction("faq", 0.45, 0.2, { code: 0.35, math: 0.2 });
    expect(routed({ prediction: unsure, signals: cases[0][1] }).reason).toBe("low_confidence");
  });

  test("a task already above the cheapest tier keeps its tier and reason: the signals never reach most_capable", () => {
    for (const [, s] of cases) {
      const d = routed({ prediction: prediction("code", 0.95, 0.5), signals: s });
      expect([d.tier, d.reason]).toEqual(["balanced", "code_task"]);
    }
  });
});

describe("confidence", () => {
  test("an unsure classification that may be code routes up a tier, saying low_confidence", () => {
    const unsure = prediction("faq", 0.45, 0.2, { code: 0.35, math: 0.2 });
    const d = routed({ prediction: unsure });
    expect(d.tier).toBe("balanced");
    expect(d.reason).toBe("low_confidence");
    expect(d.task).toBe("faq");
  });

  test("unsure between classes that all belong to the cheapest tier stays cheap", () => {
    const d = routed({ prediction: prediction("faq", 0.4, 0.2, { chat: 0.35, translate: 0.25 }) });
    expect(d.tier).toBe("cheapest");
  });

  test("the threshold comes from the capability table", () => {
    const lenient = parseCapabilities({ ...bundledCapabilities, tier_confidence_threshold: 0.4 });
    const unsure = prediction("faq", 0.45, 0.2, { code: 0.35, math: 0.2 });
    // A short question: a long one would meet long_question's stricter threshold.
    expect(routed({ prediction: unsure, capabilities: lenient, signals: signals({ promptTokens: 20 }) }).tier).toBe("cheapest");
  });

  test("routing up is a wish: with no balanced model available the cheapest tier still serves", () => {
    const unsure = prediction("faq", 0.45, 0.2, { code: 0.35, math: 0.2 });
    expect(routed({ prediction: unsure, isAvailable: (m) => m.tier === "cheapest" }).tier).toBe("cheapest");
  });

  test("routing up never reaches most_capable", () => {
    const unsure = prediction("code", 0.4, 0.9, { reasoning: 0.6 });
    expect(routed({ prediction: unsure }).tier).toBe("balanced");
  });
});

describe("most_capable", () => {
  test("hard reasoning the classifier is sure of goes to the most capable model", () => {
    const d = routed({ prediction: hardReasoning });
    expect(d.model.id).toBe("claude-3-opus-20240229");
    expect(d.reason).toBe("reasoning_task");
  });

  test("not when the classifier is unsure", () => {
    expect(routed({ prediction: prediction("reasoning", 0.6, 0.9) }).tier).toBe("balanced");
  });

  test("not when the reasoning is not hard", () => {
    expect(routed({ prediction: prediction("reasoning", 0.95, 0.5) }).tier).toBe("balanced");
  });

  test("not for other hard tasks", () => {
    for (const task of TASK_CLASSES.filter((t) => t !== "reasoning")) {
      expect(routed({ prediction: prediction(task, 0.99, 0.99) }).tier).not.toBe("most_capable");
    }
  });

  test("without a most capable model available, the best balanced one serves", () => {
    const d = routed({ prediction: hardReasoning, isAvailable: only("openai", "gemini") });
    expect(d.model.id).toBe("gemini-1.5-pro-002");
  });
});

describe("fallback candidates", () => {
  test("the chosen model first, then its tier by price, then higher tiers", () => {
    const d = routed({ prediction: faq });
    expect(ids(d.candidates)).toEqual([
      "gemini-1.5-flash-002",
      "gpt-4o-mini-2024-07-18",
      "claude-3-haiku-20240307",
      "claude-3-5-sonnet-20241022",
      "gemini-1.5-pro-002",
      "gpt-4o-2024-05-13",
      "claude-3-opus-20240229",
    ]);
  });

  const predictionArb = fc
    .record({
      task: fc.constantFrom(...TASK_CLASSES),
      weights: fc.array(fc.double({ min: 0.001, max: 1, noNaN: true }), { minLength: TASK_CLASSES.length, maxLength: TASK_CLASSES.length }),
      difficulty: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(({ task, weights, difficulty }): TaskPrediction => {
      const total = weights.reduce((a, b) => a + b, 0);
      const probs = Object.fromEntries(TASK_CLASSES.map((c, i) => [c, weights[i]! / total])) as TaskPrediction["probs"];
      return { task, probs, confidence: probs[task], difficulty };
    });
  const caseArb = fc.record({
    prediction: predictionArb,
    down: fc.subarray(catalog.models.map((m) => m.id)),
    promptTokens: fc.integer({ min: 1, max: 2_500_000 }),
    codeFences: fc.integer({ min: 0, max: 3 }),
  });

  test("never go down a tier, hold only usable models, and carry a contract reason", () => {
    fc.assert(
      fc.property(caseArb, ({ prediction: p, down, promptTokens, codeFences }) => {
        const isAvailable = (m: ModelInfo) => !down.includes(m.id);
        const d = route({ prediction: p, isAvailable, signals: signals({ promptTokens, codeFences }) });
        expect(ROUTING_REASONS).toContain(d.reason);
        const holds = (m: ModelInfo) => m.context_window !== null && promptTokens + 1000 <= m.context_window * (1 - capabilities.context_headroom);
        if (!d.ok) {
          // NO_PROVIDER only when no available model of the needed tier or above holds the prompt.
          // (Models without a tier are never routing candidates.)
          expect(catalog.models.some((m) => m.tier !== undefined && isAvailable(m) && TIERS.indexOf(m.tier) >= TIERS.indexOf(d.tier!) && holds(m))).toBe(false);
          return;
        }
        expect(d.candidates[0]).toBe(d.model);
        if (d.task === "code" || d.task === "math" || d.task === "reasoning") expect(d.tier).not.toBe("cheapest");
        const ranks = d.candidates.map((m) => TIERS.indexOf(m.tier!));
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        for (const m of d.candidates) {
          expect(isAvailable(m)).toBe(true);
          expect(holds(m)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
