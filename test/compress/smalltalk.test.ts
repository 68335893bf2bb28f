import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { compressMessages } from "../../src/pipeline/compress";
import { smalltalk } from "../../src/pipeline/compress/rules/smalltalk";
import { isConfidentSmalltalk, socialProbability } from "../../src/pipeline/compress/text/social-model";
import { shippedModels } from "../ml/shipped-models";
import { applyRule } from "./apply-rule";

const LEVELS = [0.25, 0.5, 1] as const;
const send = (content: string, level: number) => compressMessages([{ role: "user", content }], { aggressiveness: level, skipRules: [] }).messages[0]!.content;

/** A keep file's probes (bench/compress-keep.ts's format) as test rows: id, text, spans that must arrive. */
function keepProbes(file: string): (readonly [string, string, string[]])[] {
  const { prompts } = JSON.parse(readFileSync(new URL(`../../bench/data/${file}`, import.meta.url), "utf8")) as {
    prompts: { id: string; text: string; keep: string[] }[];
  };
  return prompts.map((p) => [p.id, p.text, p.keep] as const);
}
const expectKept = (_id: string, text: string, keep: string[]) => {
  for (const level of [0.5, 1]) for (const span of keep) expect(send(text, level)).toContain(span);
};

describe("social-sentence model guards", () => {
  // Threshold 0: only the guards decide. Each sentence reads as framing to a person, and each holds
  // something a removal could lose.
  test.each([
    ["a number", "I've been at this for 3 hours and my brain is fried."],
    ["a negation", "Please don't judge me too harshly, I'm new at this."],
    ["a contraction's negation", "I probably shouldn't be this anxious about it."],
    ["a name", "My friend Jenna says you are the best at this."],
    ["a question", "Does that make sense to you at all?"],
    ["a request", "I have chicken and rice only at home, please suggest me one recipe."],
    ["a hedged request", "I would be so grateful if you could help me with this."],
    ["a quotation", 'My boss always says "good enough is good enough" to me.'],
    ["under four words", "I do now."],
    ["a protected span's placeholder", "My team and I love \uE000 so much!"],
    ["no person, exclamation or emoji in it", "The weather has been awful all week long."],
    // The writer's own facts, not turned to the assistant or the asking: what the answer is for.
    ["a fact of the writer's health", "I'm in a wheelchair."],
    ["a fact of the writer's family", "My wife passed in the spring and the house feels so quiet."],
    ["a fact of the writer's tastes", "Loud places really overwhelm me these days."],
    ["a fact of the writer's history", "I've been crying a lot since my divorce was finalized."],
    ["a fact with a word of courtesy", "I'm really bad at math, sorry."],
    ["a fact with 'help' as a verb", "I help run a small bakery with my mom."],
  ])("%s vetoes the model", (_, sentence) => {
    expect(isConfidentSmalltalk(sentence, 0)).toBe(false);
  });

  test.each([
    "I'm so frustrated right now.",
    "My brain is running on fumes at this point, so bear with me.",
    "I've been going back and forth on this all day.",
    "omg hi ok my brain is literally mush at this point.",
    "I'm a bit stressed.",
  ])("the writer's passing state while asking is the model's to judge: %s", (sentence) => {
    expect(isConfidentSmalltalk(sentence, 0)).toBe(true);
  });

  test.each(["Apologies if I'm being thick here.", "Bit of a random one, I know.", "I know everyone's stretched thin right now."])(
    "backstory with no personal fact is the model's to judge at 1.0 only: %s",
    (sentence) => {
      expect(isConfidentSmalltalk(sentence, 0)).toBe(false);
      expect(isConfidentSmalltalk(sentence, 0, true)).toBe(true);
    },
  );

  test.each([
    "I'm left-handed, which makes everything harder.",
    "Honestly I'm terrified of heights haha.",
    "Our electricity bill doubled this winter and it's stressing me out.",
    "I'm a big snacker, always have been.",
    "I have kind of small hands if that matters.",
    "I'm really bad at math, sorry.",
    "I'm completely colorblind, sadly.",
    "I get seasick really easily, ugh.",
    "I'm kind of a perfectionist, sorry.",
  ])("a personal fact stays at 1.0 too: %s", (sentence) => {
    expect(isConfidentSmalltalk(sentence, 0, true)).toBe(false);
  });

  test("appreciation alone is a cue: the model reads the sentence", () => {
    expect(isConfidentSmalltalk("Any tips would be hugely appreciated.", 0)).toBe(true);
  });

  test("a sentence no guard vetoes is the model's to judge", () => {
    const sentence = "I've been meaning to ask you this for ages and finally got round to it.";
    expect(isConfidentSmalltalk(sentence, 0)).toBe(true);
    expect(socialProbability(sentence)).toBeGreaterThan(0.9);
    expect(socialProbability("Explain how vaccines train the immune system.")).toBeLessThan(0.1);
  });
});

describe("smalltalk removes framing in phrasings the patterns do not know", () => {
  test("a backstory sentence with no constraint goes whole; the request stays as written", () => {
    for (const level of [0.5, 1])
      expect(send("I've been meaning to ask you this for ages and finally got round to it. Explain how vaccines train the immune system.", level)).toBe(
        "Explain how vaccines train the immune system.",
      );
  });

  test("backstory with no personal fact goes at 1.0, not at 0.5", () => {
    const text = "I know everyone's stretched thin right now. Explain how vaccines train the immune system.";
    expect(send(text, 0.5)).toBe(text);
    expect(send(text, 1)).toBe("Explain how vaccines train the immune system.");
  });

  test("below 0.5 it does not run", () => {
    const text = "I've been meaning to ask you this for ages and finally got round to it. Explain how vaccines train the immune system.";
    expect(send(text, 0.25)).toBe(text);
  });

  test("the quality score weighs the removed sentence as nothing, and a removed request as everything", async () => {
    const m = await shippedModels();
    const original = "I've been meaning to ask you this for ages and finally got round to it. Explain how vaccines train the immune system.";
    expect((await m.quality(original, "Explain how vaccines train the immune system.")).score).toBeGreaterThanOrEqual(85);
    expect((await m.quality(original, "I've been meaning to ask you this for ages and finally got round to it.")).score).toBeLessThan(70);
  });
});

describe("smalltalk must not change", () => {
  // Each prompt with the text that must arrive byte for byte at every level: social words that are the
  // content (what is to be written, translated or worked on), pasted text, and a request in chatty words.
  const KEEP: [string, string, string][] = [
    [
      "a letter to write, its message social",
      "Write a letter to my team for the end of the year. I'm so grateful to work with you all and I hope you have a lovely holiday.",
      "I'm so grateful to work with you all and I hope you have a lovely holiday.",
    ],
    [
      "an apology to draft",
      "Draft an apology to my neighbour about the party. I'm so sorry about the noise last night, we got carried away.",
      "I'm so sorry about the noise last night, we got carried away.",
    ],
    [
      "a greeting to translate",
      'Translate "Hope you are having a lovely week, thanks so much for everything!" into French.',
      "Hope you are having a lovely week, thanks so much for everything!",
    ],
    [
      "a chat transcript after the request",
      "Summarise this chat in one line.\n\nAnna: I'm so happy to see you again, it's been ages!\nBen: I know, I've missed you so much.",
      "Anna: I'm so happy to see you again, it's been ages!\nBen: I know, I've missed you so much.",
    ],
    [
      "a pasted paragraph after the request",
      "Too blunt?\n\nWe moved the launch to next week.\n\nI've been meaning to ask you this for ages and finally got round to it.",
      "I've been meaning to ask you this for ages and finally got round to it.",
    ],
    ["a story to continue", "Continue this story: I saw what happened. I did not understand it then. I do now.", "I did not understand it then. I do now."],
    ["a full stop inside a name", "My code runs too slow. I use ironpython on .NET Framework. How do I speed it up?", "I use ironpython on .NET Framework."],
    [
      "a request in chatty words",
      "Hey! I have chicken and rice only at home, please suggest me one recipe.",
      "I have chicken and rice only at home, please suggest me one recipe.",
    ],
    [
      "context that shares a word with the request",
      "My daughter is really into dinosaurs right now. Plan a birthday party for my daughter.",
      "dinosaurs right now. Plan a birthday party for my daughter.",
    ],
    [
      "a relationship to coach on",
      "I'm struggling with my relationship and unsure if I should stay or leave. Act as a relationship coach and give me advice.",
      "I'm struggling with my relationship and unsure if I should stay or leave.",
    ],
    ["whom a pronoun means", "My son is obsessed with trains right now. Suggest a theme for his birthday party.", "My son is obsessed with trains right now."],
    [
      "an event the request is about",
      "I'm so nervous about my driving test tomorrow. Give me tips to stay calm.",
      "I'm so nervous about my driving test tomorrow.",
    ],
    ["a constraint in a chatty sentence", "I'm on a tight budget this month. Plan a weekend trip to the coast.", "I'm on a tight budget this month."],
    [
      "a message that is only framing",
      "I've been meaning to ask you this for ages and finally got round to it.",
      "I've been meaning to ask you this for ages and finally got round to it.",
    ],
  ];
  for (const [what, text, keep] of KEEP)
    test(`${what}: arrives byte for byte at every level`, () => {
      for (const level of LEVELS) expect(send(text, level)).toContain(keep);
    });

  test("a system prompt is never read", () => {
    const system = "You are a cheerful concierge. I've been meaning to ask you this for ages and finally got round to it. Greet every guest warmly.";
    const messages = [
      { role: "system" as const, content: system },
      { role: "user" as const, content: "Hello" },
    ];
    expect(applyRule(smalltalk, messages, { level: 1, index: 0 }).text).toBe(system);
  });

  test("mayChange is false on prose with no framing", () => {
    const prose = "A man is playing a guitar on the stage. The council voted to close the library on Sundays to save money.";
    for (const level of [0.5, 1]) expect(smalltalk.mayChange(prose, { level, careful: true })).toBe(false);
  });
});

describe("thanks closing the message in words no vocabulary lists", () => {
  test.each([
    ["Is it dead, and what should I do? Thanks heaps!", "Is it dead, and what should I do?"],
    ["Now I'm curious, what causes them? Thanks for satisfying my curiosity!", "Now I'm curious, what causes them?"],
    ["Could you tell me what's wrong and fix it? Thanks a bunch, you're a lifesaver!", "Tell me what's wrong and fix it."],
    ["What does this error mean? Thank you, sorry for the late-night panic.", "What does this error mean?"],
    ["What does this error mean? Thanks so much, I'm exhausted.", "What does this error mean?"],
  ])("%s -> %s", (text, out) => {
    for (const level of [0.5, 1]) expect(send(text, level)).toBe(out);
  });

  test.each([
    ["Summarise the article. Thanks, and keep it under a hundred words!", "keep it under a hundred words"],
    ["Summarise the article. Thanks, my editor Priya will love it!", "Priya"],
    ["Summarise the article. Thanks so much, I really need this one.", "need this one"],
    ["Summarise the article. Thanks so much, can't wait to read it!", "can't wait to read it"],
  ])("what instructs, names, needs or negates stays: %s", (text, kept) => {
    expect(send(text, 1)).toContain(kept);
  });
});

describe("the writer's asides in parentheses go at 1.0", () => {
  test.each([
    [
      "My little sister is getting married in June and I'm the maid of honour (eek!). Write a short speech.",
      "My little sister is getting married in June and I'm the maid of honour. Write a short speech.",
    ],
    [
      "I bought a fiddle leaf fig (I know, I know) and it's dropping leaves. How do I look after it?",
      "I bought a fiddle leaf fig and it's dropping leaves. How do I look after it?",
    ],
  ])("%s", (text, out) => {
    expect(send(text, 0.5)).toBe(text);
    expect(send(text, 1)).toBe(out);
  });

  test.each([
    "We run a tiny bakery (just me and my sister lol) and need a logo idea. Suggest one.",
    "I have an appointment on Friday (dentist, ugh) so plan around it. Plan my week.",
    "Plan a trip to Lisbon (I hurt my knee skiing, oops). Keep the walks short.",
    "Write a story about dragons (she loves dragons lol) for my daughter.",
  ])("an aside with a fact, a name, a constraint or the message's topic stays: %s", (text) => {
    expect(send(text, 1)).toContain("(");
  });
});

// Emoji opening a sentence right after a removed one go with it; a request to write code holds no closing of the user's.
describe("pleasantries: emoji after a removed sentence, closings after a request for code, a greeting run in by 'so'", () => {
  test.each([
    [
      "Hello! Happy Friday! 🎉 We're trying to cut down on screen time. Recommend three board games.",
      "We're trying to cut down on screen time. Recommend three board games.",
    ],
    ["Write me a python script that renames all .jpeg files to .jpg. thank you so much!", "Write me a python script that renames all .jpeg files to .jpg."],
    // A greeting run into the sentence by "so".
    ["hey so my little brother asked me about viruses. Explain them simply.", "My little brother asked me about viruses. Explain them simply."],
    ["hii so i have a history essay due tomorrow. Explain the causes of WW1.", "I have a history essay due tomorrow. Explain the causes of WW1."],
  ])("%s", (text, out) => {
    expect(send(text, 0.5)).toBe(out);
  });

  test.each([
    ["Guess the movie: 🧙 🚪 wizard school. Answer in one word.", "🧙 🚪 wizard school"],
    ["Write a script for my YouTube intro. Thank you so much!", "Thank you so much!"],
  ])("what follows content, or may be a line of a script to be spoken, stays: %s", (text, kept) => {
    expect(send(text, 1)).toContain(kept);
  });

  test("'so' after anything but a greeting stays", () => {
    expect(send("Thanks so much for the last answer. Now explain recursion.", 0.5)).not.toContain("Much for");
  });
});

// A second adversary's probes (bench/data/compress-keep-14.json): non-native English, long messages, social
// sentences inside data, role-play, thanks to be written, constraints in parentheses, backstory in irregular
// past verbs, feelings that carry the point.
describe("a second adversary's probes keep what the answer needs", () => {
  test.each(keepProbes("compress-keep-14.json"))("%s: %s", expectKept);

  test.each([
    // A trait told in an aside, as in a sentence of its own.
    ["aside", "What's the best way to learn chess (I'm colorblind, so some boards are hard) as an adult?", ["(I'm colorblind, so some boards are hard)"]],
    ["aside", "Suggest a hobby for winter (I feel restless indoors lol).", ["I feel restless indoors"]],
    // A feeling the writer has, not one of the moment.
    ["feeling", "I feel awkward at parties. How do I start conversations?", ["I feel awkward at parties."]],
    // Backstory sharing a word with the question in another form of it.
    ["backstory", "I burned the rice again. How do I get the burnt taste out?", ["I burned the rice again."]],
  ])("%s: %s", expectKept);

  test.each([
    ["Suggest a hobby for winter (I'm so sorry lol).", "Suggest a hobby for winter."],
    ["I've been staring at this for ages. How do I reverse a list in Python?", "How do I reverse a list in Python?"],
  ])("the writer's framing still goes at 1.0: %s", (text, out) => {
    expect(send(text, 1)).toBe(out);
  });
});

// Adversarial probes against compress13's rules: what looks removable (a feeling, a clause after thanks, an emoji
// after a greeting, a closing after a request for code, a habit, an aside) holds what the answer needs.
describe("what looks removable but tells the answer something stays", () => {
  test.each(keepProbes("compress-keep-13.json"))("%s: %s", expectKept);

  test.each([
    ["I'm so frustrated right now. How do I center a div in CSS?", 0.5, "How do I center a div in CSS?"],
    ["What's the capital of Mongolia? Thanks a bunch, you're a lifesaver!", 0.5, "What's the capital of Mongolia?"],
    ["Write me a python script that renames files by date. Thank you so much!", 0.5, "Write me a python script that renames files by date."],
    ["Explain the Monty Hall problem (I know, I know, it's been done to death).", 1, "Explain the Monty Hall problem."],
  ])("framing with nothing in it still goes: %s", (text, level, out) => {
    expect(send(text, level)).toBe(out);
  });
});

describe("a sentence of the moment of writing that owns something goes at 1.0", () => {
  test.each([
    [
      "My dog is snoring next to me and it's adorable. What are the main differences between Python and JavaScript?",
      "What are the main differences between Python and JavaScript?",
    ],
    ["My kettle is whistling next to me. How do I make sourdough starter?", "How do I make sourdough starter?"],
  ])("%s", (text, sent) => {
    expect(send(text, 0.5)).toBe(text);
    expect(send(text, 1)).toBe(sent);
  });
  test.each([
    // The request points back at what the sentence owns, or names no topic of its own.
    ["My car has been making a weird noise all morning. What could it be?"],
    ["My car has been making a weird noise all morning. What should I do?"],
    // No moment of writing: the thing owned is what the answer is for.
    ["My garden is all clay soil, it's a nightmare. What vegetables will grow well?"],
    // A fact besides the thing owned.
    ["My knee has been hurting all day. Suggest a gentle workout."],
    // "Right now", "currently": what is happening, often the trouble the request is about.
    ["My basement is flooding right now. How do I stop water coming in? List quick steps."],
    ["My server is currently down. How do I restart nginx? List quick steps."],
  ])("%s stays", (text) => {
    for (const level of LEVELS) expect(send(text, level)).toBe(text);
  });
});
