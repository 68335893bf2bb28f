import { describe, expect, test } from "bun:test";
import { Catalog } from "../../src/catalog/catalog";
import { TASK_CLASSES, type TaskClass } from "../../src/ml/types";
import { decideRoute, loadCapabilities, promptSignals } from "../../src/pipeline/route";
import { reasonIsRight } from "../../models/task-classifier/routing-score";
import { authoredPrompts } from "../../models/task-classifier/split";
import { shippedModels } from "../ml/shipped-models";

/**
 * Issue 26's goals on the never-tuned hold-out (3 in 10 of models/task-classifier/data/prompts.jsonl,
 * by a hash of the text), routed by the shipped classifier and the bundled capability table as the
 * gateway routes `model: "auto"`. bench/route-eval.ts reports the same figures with the rest.
 *
 * Met goals are asserted as goals. The three the shipped model misses (routing_reason right >= 85%,
 * every recall >= 75%, code/math/reasoning on the cheapest tier <= 5%) are held at the shipped model's
 * figures (82.8%, reasoning 0.686, 11.7% on 501 prompts) less two prompts of slack for a retrain on
 * other hardware, so that a change that makes them worse fails; raise them when a model meets the goal.
 */
describe("auto routing on the never-tuned hold-out", async () => {
  const models = await shippedModels();
  const catalog = Catalog.load();
  const capabilities = loadCapabilities();
  const outcomes: { label: TaskClass; predicted: TaskClass; tier: string; reasonRight: boolean }[] = [];
  for (const r of authoredPrompts().filter((p) => p.split === "holdout")) {
    const prediction = await models.classify(r.text);
    const d = decideRoute({
      model: "auto",
      route: true,
      catalog,
      capabilities,
      isAvailable: () => true,
      signals: promptSignals({ messages: [{ role: "user", content: r.text }], max_tokens: 350 }),
      prediction,
    });
    if (!d.ok) throw new Error(`no model for a hold-out prompt: ${d.message}`);
    outcomes.push({ label: r.task, predicted: prediction.task, tier: d.tier!, reasonRight: reasonIsRight(d.reason, d.task!, r.task) });
  }
  const share = (of: (o: (typeof outcomes)[number]) => boolean, hit: (o: (typeof outcomes)[number]) => boolean) => {
    const set = outcomes.filter(of);
    return set.filter(hit).length / set.length;
  };

  /** Two prompts of `of` prompts: the slack a retrain on other hardware may move a figure by. */
  const twoOf = (n: number) => 2 / n;

  test("faq and chat: at most 10% go above the cheapest tier (goal met)", () => {
    expect(
      share(
        (o) => o.label === "faq" || o.label === "chat",
        (o) => o.tier !== "cheapest",
      ),
    ).toBeLessThanOrEqual(0.1);
  });

  test("routing_reason matches the label: no worse than the shipped 82.8% (goal 85%, not met)", () => {
    expect(
      share(
        () => true,
        (o) => o.reasonRight,
      ),
    ).toBeGreaterThanOrEqual(0.828 - twoOf(outcomes.length));
  });

  test("lowest class recall: no worse than the shipped 0.686, reasoning (goal 0.75, not met)", () => {
    for (const c of TASK_CLASSES) {
      const n = outcomes.filter((o) => o.label === c).length;
      const recall = share(
        (o) => o.label === c,
        (o) => o.predicted === c,
      );
      expect(`${c} ${recall >= 0.686 - twoOf(n)}`).toBe(`${c} true`);
    }
  });

  test("code, math and reasoning on the cheapest tier: no more than the shipped 11.7% (goal 5%, not met)", () => {
    const hard = (o: (typeof outcomes)[number]) => ["code", "math", "reasoning"].includes(o.label);
    expect(share(hard, (o) => o.tier === "cheapest")).toBeLessThanOrEqual(0.117 + twoOf(outcomes.filter(hard).length));
  });
});
