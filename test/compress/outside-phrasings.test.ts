import { describe, expect, test } from "bun:test";
import { compressMessages, compressWithQualityFloor } from "../../src/pipeline/compress";
import { preamble } from "../../src/pipeline/compress/rules/preamble";
import { shippedModels } from "../ml/shipped-models";
import { applyRule } from "./apply-rule";

/**
 * Framing in phrasings an outside writer used and the rules missed (bench/data/chatty-dev-16.json, compress13):
 * each unit goes whole, and a look-alike that carries a constraint, or stands where a text is handed over, stays.
 */
const LEVELS = [0.25, 0.5, 1] as const;
const send = (content: string, level = 0.5) => compressMessages([{ role: "user", content }], { aggressiveness: level, skipRules: [] }).messages[0]!.content;
const NOTES = "Leo naps from 1 to 3pm. NO peanuts (he's allergic). Thanks for everything, see you Friday!";

describe("thanks between a surface task and the text it hands over", () => {
  test("a sentence of thanks before the introducer goes; the handed-over text arrives byte for byte", () => {
    const text = `Could you translate these instructions into simple Spanish? Thanks so much! Here they are:\n\n${NOTES}`;
    for (const level of LEVELS) {
      const out = send(text, level);
      expect(out).not.toContain("Thanks so much!");
      expect(out).toContain(`Here they are:\n\n${NOTES}`);
    }
  });

  test("thanks opening the introducer's own sentence go; its introducing words stay", () => {
    const text = `Can you please translate it from German to English? Thank you very much in advance, here it is:\n\n${NOTES}`;
    const out = send(text);
    expect(out).not.toContain("in advance");
    expect(out).toContain(`ere it is:\n\n${NOTES}`);
  });

  test("an instruction between the task and the introducer stays, as does thanks inside the handed-over text", () => {
    const text = `Translate these instructions into Spanish. Keep the times as digits, not words. Thanks so much! Here they are:\n\n${NOTES}`;
    for (const level of LEVELS) {
      const out = send(text, level);
      expect(out).toContain("Keep the times as digits, not words.");
      expect(out).toContain(NOTES);
    }
  });

  test("thanks on a line of its own before the introducer may be the text's: protected as before", () => {
    const text = `Please proofread this:\nThanks so much!\nHere it is:\n\n${NOTES}`;
    for (const level of LEVELS) expect(send(text, level)).toContain(`Thanks so much!\nHere it is:\n\n${NOTES}`);
  });
});

describe("preamble: help asked for in general", () => {
  test.each([
    ["I need small help. I want to start a poultry business with 500 broilers.", "I want to start a poultry business with 500 broilers."],
    ["I was kind of hoping you might be able to help me with something. I'm pitching to an investor on Thursday.", "I'm pitching to an investor on Thursday."],
    ["I was wondering if maybe you could help me think through something? I've been offered two jobs.", "I've been offered two jobs."],
    ["I write to request your kind assistance in a matter of some delicacy. I have been asked to deliver a eulogy.", "I have been asked to deliver a eulogy."],
  ])("an announcement goes whole: %s", (text, out) => {
    expect(applyRule(preamble, text).text).toBe(out);
  });

  test.each([
    "I need small help with my visa forms before Friday. Which documents go first?",
    "I write to request your kind assistance with my tax return, due 31 January. What can I deduct?",
    "I was hoping you could help me think through my budget of $900. Is it enough?",
  ])("help that names what it is for stays: %s", (text) => {
    expect(applyRule(preamble, text).text).toBe(text);
  });

  test("the quality score weighs an announcement as nothing, after a greeting too: the back-off keeps the edit", async () => {
    const m = await shippedModels();
    const text =
      "Hey, I was wondering if maybe you could help me think through something? I've been offered two jobs, one remote and one hybrid. Which should I weigh more, salary or commute?";
    const out = await compressWithQualityFloor(
      [{ role: "user", content: text }],
      { aggressiveness: 0.5, skipRules: [] },
      async (a, b) => (await m.quality(a, b)).score,
    );
    expect(out.messages[0]!.content).toBe("I've been offered two jobs, one remote and one hybrid. Which should I weigh more, salary or commute?");
    expect(out.rulesUndone).toEqual([]);
    // What the request asks stays weighed: losing its question is no safe edit.
    expect((await m.quality(text, "I've been offered two jobs, one remote and one hybrid.")).score).toBeLessThan(85);
  });
});

describe("greetings with the particles of regional Englishes", () => {
  test.each([
    ["Good afternoon o! How is your side? What should a poultry farm budget for?", "What should a poultry farm budget for?"],
    ["Good evening sir/ma. Correct my CV profile.", "Correct my CV profile."],
    ["Hello dearie. What is a good cake for an 80th birthday?", "What is a good cake for an 80th birthday?"],
    ["Happy new week! Suggest a name for my salon.", "Suggest a name for my salon."],
  ])("the greeting goes: %s", (text, out) => {
    expect(send(text)).toBe(out);
  });

  test("a question about the reader's side of something is no greeting", () => {
    const text = "How is your side of the contract different from mine? Compare the termination clauses.";
    expect(send(text)).toContain("How is your side of the contract different from mine?");
  });
});
