import { describe, expect, test } from "bun:test";
import { TEXT_FEATURE_COUNT, TEXT_FEATURE_NAMES, textFeatures } from "../../src/ml/text-features";

/** One feature of `text` by name. */
function feature(text: string, name: (typeof TEXT_FEATURE_NAMES)[number]): number {
  return textFeatures(text)[TEXT_FEATURE_NAMES.indexOf(name)]!;
}

/**
 * The features that say what a prompt asks whatever its topic (issue 26): each fires on the kind of
 * prompt it names and stays off on one of another kind that shares its surface (numbers, a "why", a "how").
 */
describe("what-the-prompt-asks features", () => {
  const cases: [(typeof TEXT_FEATURE_NAMES)[number], string, string][] = [
    ["procedural_question", "How do I make Google Sheets highlight a row when the date is past?", "How many bones are in the human body?"],
    ["logic_puzzle", "A says B is a knave; knights always tell the truth. What are A and B?", "A train travels at 80 km/h for 2 hours. How far does it go?"],
    ["causal_question", "Why might our sales have dropped 20% the week we changed the checkout page?", "Why is the sky blue?"],
    ["decision_question", "Should I rent the flat near work or the cheaper one an hour away?", "I rented a flat near work last year."],
    ["first_person", "my phone is at 60% every morning even though I charge it", "What is the capital of Canada?"],
    ["imperative_opening", "Please write a limerick about a cat who hates Mondays.", "I love limericks about cats."],
  ];
  for (const [name, on, off] of cases) {
    test(`${name} fires on its kind of prompt and not on a look-alike`, () => {
      expect(feature(on, name)).toBe(1);
      expect(feature(off, name)).toBe(0);
    });
  }

  test("constraint and step cues count the router's hardness cues, capped at 1", () => {
    expect(feature("It must be vegetarian and cost at most 20 euros.", "constraint_cues")).toBeCloseTo(2 / 6, 5);
    expect(feature("The shift must start after 9, must end before 5, and cannot include Sunday unless Ana agrees.", "constraint_cues")).toBe(1);
    expect(feature("First wash, then dry, then fold, and finally iron, then put away.", "step_cues")).toBe(1);
    expect(feature("hi there", "constraint_cues")).toBe(0);
  });

  test("every feature is in 0..1 and the vector has the configured width", () => {
    const v = textFeatures("Write a Python function that merges two sorted lists. ```py\nx = 1\n```");
    expect(v.length).toBe(TEXT_FEATURE_COUNT);
    for (const x of v) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(1);
    }
  });
});

describe("tech_vocabulary", () => {
  test("reads words as lower-casing the text would: ASCII capitals, İ and the Kelvin sign", () => {
    // techShare lower-cases a text only when it holds a character whose lower case is ASCII; these are all of them.
    const becomeAscii: number[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (/[\u0000-\u007f]/.test(String.fromCodePoint(cp).toLowerCase())) becomeAscii.push(cp);
    }
    expect(becomeAscii).toEqual([0x130, 0x212a]);
    expect(feature("Install DOCKER on Ubuntu", "tech_vocabulary")).toBe(1);
    expect(feature("\u212a8s and \u212aubernetes", "tech_vocabulary")).toBe(1);
    expect(feature("İ love my garden", "tech_vocabulary")).toBe(0);
  });
});
