import { describe, expect, test } from "bun:test";
import { intent } from "../../src/pipeline/compress/rules/intent";
import { applyRule } from "./apply-rule";

/** Hedged requests of bench/data/chatty-dev-10.json's styles (issue 25, 7th batch), and what must stay. */
describe("intent: hedges of other writers", () => {
  test.each([
    "Would you mind awfully if I asked you to explain the rules of cricket?",
    "It would be enormously helpful if you could explain the rules of cricket.",
    "could you like explain the rules of cricket.",
    "think u could explain the rules of cricket?",
    "I humbly ask if you could explain the rules of cricket.",
    "Would it be okay if you could explain the rules of cricket?",
    "I really need you to explain the rules of cricket.",
    "So what i need is for you to explain the rules of cricket.",
    "i guess what i'm asking is can you explain the rules of cricket.",
    "I should be grateful if you would explain the rules of cricket.",
    "Would you be good enough to explain the rules of cricket?",
    "Might you explain the rules of cricket?",
  ])("%s -> a command", (text) => {
    expect(applyRule(intent, text, { level: 0.5 }).text).toBe("Explain the rules of cricket.");
  });

  test.each([
    "I just need you to know that I tried.",
    "Would you like to write it yourself?",
    "Do you think you could be wrong?",
    "I think you could be right.",
    // Having, knowing or choosing makes no command (compress13).
    "I was wondering if you could have a look at it?",
    "I was wondering whether you would know the answer?",
    "I was wondering if you would be interested in a walk?",
    "I want you to know that I tried.",
    "Is it possible to have two owners?",
    "Do you have any idea why?",
    "Help me pick a sofa.",
  ])("%s stays: no task verb follows", (text) => {
    expect(applyRule(intent, text, { level: 1 }).text).toBe(text);
  });
});

/** Requests of bench/data/chatty-dev-13.json's kinds (issue 25, compress13). */
describe("intent: asking whether the assistant has ideas, and phrasal task verbs", () => {
  test.each([
    ["Do you have any tips for getting her to sleep through the night?", "Tips for getting her to sleep through the night."],
    ["I was just wondering if you had any suggestions for reducing it?", "Suggestions for reducing it."],
    ["I was wondering whether you might have some suggestions for practising?", "Suggestions for practising."],
    ["Could you lay out the pros and cons of each?", "Lay out the pros and cons of each."],
    ["Could you put together a packing list for me?", "Put together a packing list for me."],
    // A question of its own after the command keeps its question mark (bench/data/compress-keep-13.json's writing).
    ["Do you have any suggestions for the gutter, or should I just hire a professional?", "Suggestions for the gutter, or should I just hire a professional?"],
    // Right after the noun it is the other half of a yes-or-no question, no command: "Tips or should I ...?"
    // read as no prompt (bench/data/compress-keep-14.json).
    ["Do you have any suggestions, or should I just hire a professional?", "Do you have any suggestions, or should I just hire a professional?"],
    [
      "Do you have any tips or should I just hire a professional for my roof leak?",
      "Do you have any tips or should I just hire a professional for my roof leak?",
    ],
    ["Could you explain monads, or is it too complex?", "Explain monads, or is it too complex?"],
    ["Could you write a poem about cats or dogs?", "Write a poem about cats or dogs."],
  ])("%s -> %s", (text, command) => {
    expect(applyRule(intent, text, { level: 0.5 }).text).toBe(command);
  });
});
