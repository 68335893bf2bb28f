import { describe, expect, test } from "bun:test";
import { compressMessages, compressWithQualityFloor } from "../../src/pipeline/compress";
import { shippedModels } from "../ml/shipped-models";

// Review of 2026-11-27 (findings 1-3): emoji and closings that are words of the prompt, cut by the
// chatty-dev-12 rules; each must arrive at 0.5 and 1.0 and through the quality floor.
async function sentAll(content: string): Promise<string[]> {
  const m = await shippedModels();
  const sent: string[] = [];
  for (const aggressiveness of [0.5, 1]) {
    const opts = { aggressiveness, skipRules: [] };
    const messages = [{ role: "user" as const, content }];
    sent.push(compressMessages(messages, opts).messages[0]!.content as string);
    const floored = await compressWithQualityFloor(messages, opts, async (a, b) => (await m.quality(a, b)).score);
    sent.push(floored.messages[0]!.content as string);
  }
  return sent;
}

const KEPT: [string, string][] = [
  // Object and symbol emoji carry meaning; after a linking verb an emoji is the sentence's complement.
  ["I am allergic 🥜. Suggest a snack.", "allergic 🥜."],
  ["I'm vegan 🌱. Suggest a dinner.", "vegan 🌱."],
  ["Today I feel 😢. Write a poem about my mood.", "feel 😢."],
  ["Tomorrow it's ☔. Plan a day out.", "it's ☔."],
  ["Replace the red heart ❤️ with a blue heart 💙.", "blue heart 💙."],
  ["The status column shows done ✅ or failed ❌. Count them.", "failed ❌."],
  ["Mark done items ✅.", "items ✅."],
  ["My daughter's birthday is tomorrow 🎂. Plan a party.", "tomorrow 🎂."],
  ["The forecast says rain 🌧️. Plan a day out.", "rain 🌧️."],
  // A closing after a quotation is the user's only when the quotation opens the handed-over text.
  ['Translate into Spanish: The guide said "watch your step" Thanks for listening!', "Thanks for listening!"],
  // ... and never when the request asks about the quotation's tone or to continue it.
  ['Is this message passive-aggressive? "Fine, do what you want" Thanks a lot.', "Thanks a lot."],
  ['Continue this chat:\nMe: "Did you get the keys?" Thanks!!', "Thanks!!"],
  // Handled correctly before: the quoted text arrives whole.
  ['Translate into French: "Thank you for your help!"', '"Thank you for your help!"'],
  ["Write a thank-you note ending with 'Thanks!'", "'Thanks!'"],
  ['Proofread this: "Hi team, the report is attached. Thanks so much!" Thank you!', '"Hi team, the report is attached. Thanks so much!"'],
  ['Proofread this dialogue:\n"Ana: Are you coming?"\n"Ben: Yes, in ten minutes."\n"Ana: Thank you!"', '"Ana: Thank you!"'],
];

describe("words of the prompt that the social rules must keep", () => {
  for (const [content, kept] of KEPT) {
    test(content.slice(0, 60), async () => {
      for (const sent of await sentAll(content)) expect(sent).toContain(kept);
    });
  }
});

describe("what the rules still remove", () => {
  test("a mood face closing the writer's clause, and the user's thanks after a quoted text", async () => {
    for (const sent of await sentAll("I'm drowning in stats 😵‍💫. What is a p-value?")) expect(sent).not.toContain("😵");
    for (const sent of await sentAll('Proofread this: "Hi team, the report is attached." Thank you so much!')) expect(sent).not.toContain("Thank you so much");
  });
});
