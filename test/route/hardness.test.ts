import { describe, expect, test } from "bun:test";
import { hardnessOf } from "../../src/text/hardness";

describe("hardnessOf", () => {
  test("counts the cues that bind an answer, not the ones that set a style", () => {
    const scheduling =
      "Schedule 5 meetings between 9 and 5. A must come before B, C can't be after lunch, D needs to take at least 2 hours, and E must be the last one.";
    // between, must, before, can't, after, needs to, at least, must
    expect(hardnessOf(scheduling).constraints).toBe(8);
    const rolePlay = "I want you to act as a poet. You should only reply with the poem, never explain, and always rhyme, without titles.";
    expect(hardnessOf(rolePlay).constraints).toBe(0);
  });

  test("counts sequence cues", () => {
    expect(hardnessOf("First load the data, then clean it, after that fit a model, and finally plot it.").steps).toBe(4);
    expect(hardnessOf("Explain it step by step.").steps).toBe(1);
    expect(hardnessOf("What is the capital of France?").steps).toBe(0);
  });

  test("reads the output length a prompt asks for, in words", () => {
    expect(hardnessOf("Write a 1500-word essay on tides.").requestedWords).toBe(1500);
    expect(hardnessOf("Write a 3 page report and a 200 word abstract.").requestedWords).toBe(1500);
    expect(hardnessOf("Give me 5 paragraphs.").requestedWords).toBe(600);
    expect(hardnessOf("Summarize in a few hundred words.").requestedWords).toBe(300);
    expect(hardnessOf("I have 12 apples.").requestedWords).toBe(0);
    expect(hardnessOf("500 words on the history of tides, please.").requestedWords).toBe(500);
    expect(hardnessOf("Keep it to at most 200 words.").requestedWords).toBe(200);
  });

  test("a length the writer reports is context, not output it asks for", () => {
    expect(hardnessOf("I finally finished my thesis!! 87 pages and I'm so relieved").requestedWords).toBe(0);
    expect(hardnessOf("Summarize my 40 page report for the board.").requestedWords).toBe(0);
    expect(hardnessOf("We read 300 pages this week. Now write a 2 page summary.").requestedWords).toBe(1000);
  });

  test("counts requests to weigh options or argue a judgement, not questions that merely ask what to do", () => {
    expect(hardnessOf("What are the trade-offs of renting versus buying? Weigh them for someone moving in 3 years.").deliberation).toBe(2);
    expect(hardnessOf("Is it worth repairing a 12 year old car? Reason it through.").deliberation).toBe(2);
    expect(hardnessOf("How long should I boil an egg for a soft yolk?").deliberation).toBe(0);
    expect(hardnessOf("How do cruise ships weighing 200,000 tonnes float?").deliberation).toBe(0);
  });

  test("counts asks to weigh several explanations or options, not questions that ask for one fact or cause", () => {
    expect(hardnessOf("Our sales fell after the redesign. Which explanation fits best, the prices or the new layout?").deliberation).toBe(1);
    expect(hardnessOf("why did the bakery on our street close? rank the causes you think matter").deliberation).toBe(1);
    expect(hardnessOf("What could explain a heating bill that doubled while the thermostat stayed the same?").deliberation).toBe(1);
    expect(hardnessOf("It's either the charger or the battery. How would I tell them apart?").deliberation).toBe(1);
    expect(hardnessOf("List the possible causes of a dripping tap and say which is most likely.").deliberation).toBe(2);
    expect(hardnessOf("Why does a dripping tap get worse in winter?").deliberation).toBe(0);
    expect(hardnessOf("What causes a heating bill to go up in January?").deliberation).toBe(0);
    expect(hardnessOf("Which is better for a laptop, an SSD or a hard drive?").deliberation).toBe(0);
  });

  test("counts names of a calculation to carry out, not the everyday words that share them", () => {
    const asks = [
      "what's 7 factorial",
      "What's eleven squared?",
      "Find the number of positive divisors of 10! and their sum.",
      "which whole number multiplied by itself gives one hundred sixty nine",
      "In how many ways can 5 books be arranged on a shelf?",
      "solve for x: 3x + 5 = 20",
      "What's the probability of rolling two sixes?",
    ];
    const mentions = [
      "The remainder of the year was quiet, 3 trips and 2 weddings.",
      "What are financial derivatives and why did they matter in 2008?",
      "How many teaspoons go in 2 tablespoons?",
      // Nothing to calculate with: the words ask about an idea or an everyday thing.
      "How do I differentiate between a cold and the flu?",
      "How many ways are there to say hello in Spanish?",
      "What's the probability of rain tomorrow in Seattle?",
      "Who came up with the Drake equation?",
      "My team feels divided by the new policy, any advice?",
      "What is a logarithm?",
    ];
    expect(asks.map((t) => hardnessOf(t).calculation)).toEqual(asks.map(() => 1));
    expect(mentions.map((t) => hardnessOf(t).calculation)).toEqual(mentions.map(() => 0));
  });

  test("reads only the head of a very long prompt, so its cost stays flat", () => {
    const long = `${"word ".repeat(2000)}must must must`;
    expect(hardnessOf(long).constraints).toBe(0);
  });
});
