import { describe, expect, test } from "bun:test";
import { TASK_CLASSES, type TaskClass } from "../../src/ml/types";
import { shippedModels } from "./shipped-models";

/** Prompts nobody would label otherwise (written for this test, not taken from the training data). */
const UNMISTAKABLE: Record<TaskClass, string[]> = {
  reasoning: [
    "Should I lease or buy a car if I drive 30,000 km a year? Weigh the costs and risks.",
    "Alice is taller than Bob and Bob is taller than Carol. Is Carol taller than Alice? Explain your reasoning.",
  ],
  code: ["Write a Python function that merges two sorted lists into one sorted list.", "Fix this bug:\n```js\nfunction add(a, b) { return a - b; }\n```"],
  math: ["A shop sells pencils at 3 for $1. How much do 27 pencils cost?", "Solve for x: 3x + 7 = 22."],
  translate: ["Translate the following into French: Where is the nearest train station?", "Translate to German: I would like a cup of coffee, please."],
  summarize: [
    "Summarize the following text:\n\nThe city council met on Tuesday to discuss the new budget. After a long debate, members agreed to increase funding for parks and reduce spending on road repairs.",
    "TL;DR:\nOur team spent the quarter migrating the billing service to the new cluster. The migration finished two weeks late because of database issues, but downtime stayed under five minutes.",
  ],
  extract: [
    "Extract all person names and phone numbers from the text below.\nCall Maria Lopez at 555-0134 or her assistant John Park at 555-0199.",
    "List all the organizations mentioned in the following text.\nThe report was funded by the World Bank and reviewed by Oxfam and the Red Cross.",
  ],
  creative: ["Write a short story about a lighthouse keeper who finds a message in a bottle.", "Compose a poem about the first snow of winter."],
  faq: ["What is the capital of Australia?", "Who painted the ceiling of the Sistine Chapel?"],
  chat: ["I want you to act as a friendly travel companion. Chat with me about my day.", "haha that's so funny, did you watch the game last night?"],
};

describe("task classifier", () => {
  for (const [task, prompts] of Object.entries(UNMISTAKABLE)) {
    test(`recognizes ${task}`, async () => {
      const m = await shippedModels();
      for (const text of prompts) expect(`${(await m.classify(text)).task}: ${text}`).toBe(`${task}: ${text}`);
    });
  }

  // Code work written as prose: routing it to the cheapest tier is the costly mistake.
  test("recognizes system administration and set-up questions as code", async () => {
    const m = await shippedModels();
    for (const text of [
      "How do I set up a systemd service on NixOS that restarts nginx whenever /etc/nginx/nginx.conf changes?",
      "My docker container exits with permission denied when it writes to /var/lib/app; how do I fix the volume permissions?",
    ])
      expect(`${(await m.classify(text)).task}: ${text}`).toBe(`code: ${text}`);
  });

  // Issue 26: what the prompt asks, not the corpus it looks like (numbers read as math, a casual tone as chat,
  // a "why" as a fact to look up, a how-to about a spreadsheet as a general question). Written for this test.
  const LOOK_ALIKES: [TaskClass, string][] = [
    [
      "reasoning",
      "Gate A opens at 7:10 and gate B at 7:25; the shuttle between them takes 20 minutes. If my connection boards at 7:40 from B, is it safer to wait at A or walk? Reason it out.",
    ],
    ["reasoning", "ok so should I take the cheaper gym 25 min away or the pricier one next door? I always skip workouts when it's a hassle"],
    ["reasoning", "Why might our café sell fewer muffins on the days we bake more of them? Suggest explanations and how to tell them apart."],
    ["code", "How do I get Google Sheets to turn a cell red when the amount in it goes over the budget in column F?"],
    ["code", "whenever I run my node script it says 'Cannot find module dotenv' even though it's in package.json, help"],
    ["faq", "Why do bananas turn brown in the fridge?"],
    ["math", "Half of a number plus a third of the same number makes twenty-five. Which number is it?"],
  ];
  for (const [task, text] of LOOK_ALIKES) {
    test(`takes what the prompt asks over what it looks like: ${task}`, async () => {
      const m = await shippedModels();
      expect(`${(await m.classify(text)).task}: ${text}`).toBe(`${task}: ${text}`);
    });
  }

  test("does not take small talk with 'how many' for math", async () => {
    const m = await shippedModels();
    for (const text of [
      "how many times have you been to the beach this summer? I went twice and loved it",
      "lol how many cats do you have? mine just knocked over my coffee",
    ])
      expect((await m.classify(text)).task).not.toBe("math");
  });

  test("gives a distribution over every class, a confidence and a difficulty in 0..1", async () => {
    const m = await shippedModels();
    const p = await m.classify("Write a Python function that merges two sorted lists.");
    expect(Object.keys(p.probs).sort()).toEqual([...TASK_CLASSES].sort());
    expect(Object.values(p.probs).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 4);
    expect(p.confidence).toBe(p.probs[p.task]);
    expect(p.difficulty).toBeGreaterThanOrEqual(0);
    expect(p.difficulty).toBeLessThanOrEqual(1);
  });

  test("reuses a given embedding: same answer as computing it", async () => {
    const m = await shippedModels();
    const text = "Translate to Spanish: good morning";
    expect(await m.classify(text, await m.embed(text))).toEqual(await m.classify(text));
  });

  test("rates a hard competition proof harder than a greeting", async () => {
    const m = await shippedModels();
    const hard = await m.classify("Prove that for every prime p > 3, p^2 - 1 is divisible by 24, and generalize the result to composite moduli.");
    const easy = await m.classify("hi, how are you?");
    expect(hard.difficulty).toBeGreaterThan(easy.difficulty);
  });
});
