import { describe, expect, test } from "bun:test";
import { Catalog } from "../../src/catalog/catalog";
import { TASK_CLASSES, type TaskClass } from "../../src/ml/types";
import { decideRoute, loadCapabilities, promptSignals } from "../../src/pipeline/route";
import { reasonIsRight } from "../../models/task-classifier/routing-score";
import { authoredPrompts, freshHoldout, freshHoldout2, type LabelledPrompt, round5Dev, round7Dev, round9Dev } from "../../models/task-classifier/split";
import { shippedModels } from "../ml/shipped-models";

/**
 * Issue 26's goals on the hold-outs, routed by the shipped classifier and the bundled capability table as
 * the gateway routes `model: "auto"`: the old one (3 in 10 of models/task-classifier/data/prompts.jsonl,
 * by a hash of the text; read by several sessions), the first fresh one (data/fresh-holdout.jsonl, read
 * once at the end of the round that wrote it, tuning data since), the second (data/fresh-holdout-2.jsonl,
 * read once at the end of issue 26's fourth round, tuning data since the fifth) and the fifth and seventh
 * rounds' own dev splits (1 in 4 of data/round-5.jsonl and data/round-7.jsonl, never trained on) and the
 * ninth round's dev set (data/round-9-dev.jsonl, never trained on; the twelfth round's is trained on since
 * the seventeenth).
 * bench/route-eval.ts reports the same figures
 * with the rest; a never-read hold-out is scored with its --holdout FILE.
 *
 * Met goals are asserted as goals. A missed goal is held at the shipped model's figure less two prompts
 * of slack for a retrain on other hardware, so that a change that makes it worse fails; raise it when a
 * model meets the goal.
 */
interface Outcome {
  label: TaskClass;
  predicted: TaskClass;
  tier: string;
  reasonRight: boolean;
}

/** The shipped figures a missed goal is held at; undefined where the goal is met and asserted as such. */
interface Held {
  reason?: number;
  lowestRecall?: number;
  hardToCheapest?: number;
  easyUp?: number;
}

function goals(name: string, rows: () => LabelledPrompt[], held: Held): void {
  describe(`auto routing on the ${name}`, async () => {
    const models = await shippedModels();
    const catalog = Catalog.load();
    const capabilities = loadCapabilities();
    const outcomes: Outcome[] = [];
    for (const r of rows()) {
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
    const share = (of: (o: Outcome) => boolean, hit: (o: Outcome) => boolean) => {
      const set = outcomes.filter(of);
      return set.filter(hit).length / set.length;
    };
    /** Two prompts of `of` prompts: the slack a retrain on other hardware may move a figure by. */
    const twoOf = (n: number) => 2 / n;
    const hard = (o: Outcome) => ["code", "math", "reasoning"].includes(o.label);
    const easy = (o: Outcome) => o.label === "faq" || o.label === "chat";

    test(`routing_reason matches the label: ${held.reason === undefined ? "at least 85% (goal met)" : `no worse than the shipped ${held.reason} (goal 85%, not met)`}`, () => {
      const floor = held.reason === undefined ? 0.85 : held.reason - twoOf(outcomes.length);
      expect(
        share(
          () => true,
          (o) => o.reasonRight,
        ),
      ).toBeGreaterThanOrEqual(floor);
    });

    test(`every class's recall: ${held.lowestRecall === undefined ? "at least 0.75 (goal met)" : `no worse than the shipped lowest, ${held.lowestRecall} (goal 0.75, not met)`}`, () => {
      for (const c of TASK_CLASSES) {
        const n = outcomes.filter((o) => o.label === c).length;
        if (n === 0) continue; // the round-5 dev split has no summarize, extract or translate prompt, round-7's no translate prompt
        const floor = held.lowestRecall === undefined ? 0.75 : held.lowestRecall - twoOf(n);
        const recall = share(
          (o) => o.label === c,
          (o) => o.predicted === c,
        );
        expect(`${c} ${recall >= floor}`).toBe(`${c} true`);
      }
    });

    test(`code, math and reasoning on the cheapest tier: ${held.hardToCheapest === undefined ? "at most 5% (goal met)" : `no more than the shipped ${held.hardToCheapest} (goal 5%, not met)`}`, () => {
      const ceiling = held.hardToCheapest === undefined ? 0.05 : held.hardToCheapest + twoOf(outcomes.filter(hard).length);
      expect(share(hard, (o) => o.tier === "cheapest")).toBeLessThanOrEqual(ceiling);
    });

    test(`faq and chat above the cheapest tier: ${held.easyUp === undefined ? "at most 10% (goal met)" : `no more than the shipped ${held.easyUp} (goal 10%, not met)`}`, () => {
      const ceiling = held.easyUp === undefined ? 0.1 : held.easyUp + twoOf(outcomes.filter(easy).length);
      expect(share(easy, (o) => o.tier !== "cheapest")).toBeLessThanOrEqual(ceiling);
    });
  });
}

// Shipped figures (issue 26's seventeenth round, `bun bench/route-eval.ts --no-loso`; the seventh round's
// model in brackets where they differ): fresh hold-out 2 (180, tuning data) routing_reason right 93.3%,
// lowest recall 0.80 (summarize), code/math/reasoning cheapest 0.0%, faq/chat up 7.5% (10.0%); first fresh
// hold-out (180, tuning data) 88.3% (86.1%), 0.80 (0.70, faq), 0.0% (1.7%), 12.5% (17.5%); round-5 dev (58,
// never trained on) 89.7% (86.2%), 0.85 (0.81, chat; faq), 0.0%, 2.3% (13.6%); round-7 dev (70, never
// trained on) 77.1% (81.4%), 0.625 (summarize and extract have one or two prompts, 0 right, whose floor
// the slack puts below 0), 2.7%, 13.8% (10.3%); old hold-out (501) 88.2% (88.6%), 0.777 (0.792, reasoning; code), 5.4%
// (6.3%), 4.0% (4.8%).
goals("fresh hold-out 2 (tuning data)", freshHoldout2, {});
goals("fresh hold-out (tuning data)", freshHoldout, { easyUp: 0.125 });
goals("round-5 dev split", round5Dev, {});
goals("round-7 dev split", round7Dev, { reason: 0.771, lowestRecall: 0.625, easyUp: 0.138 });
// Round-9 dev (190, issue 26's ninth round, written before it changed anything; tuning data): 84.2% (77.4%),
// 0.667 (0.528, creative; faq), 0.0%, 21.4% (32.9%). Round-12 dev is trained on since the seventeenth round.
goals("round-9 dev set", round9Dev, { reason: 0.842, lowestRecall: 0.667, easyUp: 0.214 });
goals("old hold-out", () => authoredPrompts().filter((p) => p.split === "holdout"), { hardToCheapest: 0.054 });
