import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { compressMessages, compressWithQualityFloor } from "../../src/pipeline/compress";
import type { ChatMessage } from "../../src/core/messages";
import { shippedModels } from "../ml/shipped-models";

/**
 * Issue 25's must-not-change suite: text the prompt hands the model to work on arrives byte for byte at
 * every level, while the social framing around it goes. Each case: the message and its data spans.
 */
const FRAMING = "Hi there! I hope you are doing well. ";
const THANKS = "\n\nThanks so much in advance, really appreciate it!";
const ESSAY =
  "The team have been working on the the new release for three month. We is hoping to ship it next week, but their are still a few bug. The manager say that the documentation are not ready and that the support team need more time.";
const CASES: [string, string, string[]][] = [
  ["proofreading, text after the request", `${FRAMING}Can you proofread this paragraph for me?\n\n${ESSAY}`, [ESSAY]],
  ["proofreading, text before the request", `${ESSAY}\n\nSorry if this is a dumb question, but could you check the grammar of the paragraph above?`, [ESSAY]],
  [
    "editing",
    `${FRAMING}I was wondering if you could rewrite this email so it sounds more professional:\n\nhey tom, the report is basically done, just need to really check the numbers. will send it very soon!${THANKS}`,
    ["hey tom, the report is basically done, just need to really check the numbers. will send it very soon!"],
  ],
  [
    "translation",
    `${FRAMING}Please translate this into French: The meeting is really very important and it is basically moved to Thursday.`,
    ["The meeting is really very important and it is basically moved to Thursday."],
  ],
  [
    "counting",
    "How many times does this sentence appear? I really like the tea. I really like the tea. I really like the tea.",
    ["I really like the tea. I really like the tea. I really like the tea."],
  ],
  [
    "a formatting instruction shown by example",
    `${FRAMING}Format every key term in **bold**, like **this**, and use a heading like ## Summary for the summary.`,
    ["**bold**", "**this**", "## Summary"],
  ],
  [
    "few-shot lines",
    `${FRAMING}Classify the sentiment.\nInput: The hotel was really very clean, basically perfect.\nOutput: positive\nInput: I just hated the the food.\nOutput:`,
    ["Input: The hotel was really very clean, basically perfect.", "Input: I just hated the the food."],
  ],
  [
    "a pasted email after a colon",
    `${FRAMING}Summarize the email below in one line:\nHi Sam,\nI hope you are doing well. Basically the launch is really delayed.\nThanks,\nAna${THANKS}`,
    ["Hi Sam,\nI hope you are doing well. Basically the launch is really delayed.\nThanks,\nAna"],
  ],
  [
    "a quote block",
    `${FRAMING}What does this quote mean?\n> I really just think that the very best is yet to come.\n> Thanks!`,
    ["> I really just think that the very best is yet to come.\n> Thanks!"],
  ],
  [
    "code",
    `${FRAMING}Why does this fail?\n\`\`\`python\ndef  f(x):\n    return   x  *  2  # really very basic\n\`\`\`${THANKS}`,
    ["```python\ndef  f(x):\n    return   x  *  2  # really very basic\n```"],
  ],
  [
    "a data table",
    `${FRAMING}Which product sold best?\n\n| Product   | Units |\n|:----------|------:|\n| Apples    |   120 |\n| Pears     |    80 |${THANKS}`,
    ["| Product   | Units |\n|:----------|------:|\n| Apples    |   120 |\n| Pears     |    80 |"],
  ],
  [
    "non-English text",
    `${FRAMING}Can you check the spelling in this Spanish text? Hola, espero que estés muy bien. Gracias por todo, de verdad.`,
    ["Hola, espero que estés muy bien. Gracias por todo, de verdad."],
  ],
  [
    "a chatty message handed over to proofread, social sentences and courtesy conditions included",
    `Hey, happy Tuesday! Whenever you get a chance, could you proofread this message:\n\nHi :) Hope things are going well on your side. If it's not too much trouble, could you send me the the slides? TIA!\n\nThanks, much appreciated.`,
    ["Hi :) Hope things are going well on your side. If it's not too much trouble, could you send me the the slides? TIA!"],
  ],
  [
    "a text after a request line that points at it, no colon (a question mark, then the text)",
    `Hey, hope you're well! Could you classify this support ticket as billing or technical?\n\nHi there, I was charged twice this month. Can you please refund it? Thanks, Maria\nThank you!`,
    ["Hi there, I was charged twice this month. Can you please refund it? Thanks, Maria"],
  ],
  [
    "a transcript after a request line, no colon",
    `Sorry, long day haha. Could you summarise this chat log?\nSam: Thanks for joining. We basically moved the launch to May.\nLee: I really think that is fine.`,
    ["Sam: Thanks for joining. We basically moved the launch to May.\nLee: I really think that is fine."],
  ],
  [
    "a transcript after a request that names it with 'the', speakers' lines with words that pruning would take",
    `Hi, apologies, I missed the call. Could you summarise the transcript in bullet points? Thanks so much.\n\nMaria: Okay, we are basically 8% over. Can we really cut back?\nTom: Yes, just one contractor after the 10th.\nMaria: Good, flag that to the client today please.`,
    [
      "Maria: Okay, we are basically 8% over. Can we really cut back?\nTom: Yes, just one contractor after the 10th.\nMaria: Good, flag that to the client today please.",
    ],
  ],
  [
    "a text after a line whose earlier sentence points at it (the request's last sentence does not)",
    `Hello! I got this note from my landlord and I'm a bit confused lol. What does he want me to do?\n\nHi Sam,\nJust a reminder that the boiler check is basically due. Please leave the key with Ray.\nBest,\nDev\nThanks so much!`,
    ["Hi Sam,\nJust a reminder that the boiler check is basically due. Please leave the key with Ray.\nBest,\nDev"],
  ],
  [
    "a story to continue, named only by 'it'",
    `Hi! Hope you're well. I started a short story for my class. Could you continue it?\n\nSo the door opened, and really nobody was there. Mira just laughed.`,
    ["So the door opened, and really nobody was there. Mira just laughed."],
  ],
];
const LEVELS = [0, 0.1, 0.25, 0.5, 0.75, 1];

describe("data spans arrive byte for byte at every level", () => {
  for (const [what, content, spans] of CASES) {
    test(what, () => {
      for (const level of LEVELS) {
        const sent = compressMessages([{ role: "user", content }], { aggressiveness: level, skipRules: [] }).messages[0]!.content;
        for (const span of spans) expect(sent).toContain(span);
      }
    });
  }

  test("the social framing around the data goes at the default level", () => {
    for (const [, content] of CASES.filter(([, c]) => c.startsWith(FRAMING) && !c.includes("Hi Sam"))) {
      const sent = compressMessages([{ role: "user", content }], { aggressiveness: 0.5, skipRules: [] }).messages[0]!.content;
      expect(sent).not.toContain(FRAMING.trim());
      expect(sent).not.toContain("I hope you are doing well. ");
    }
  });

  test("a handed-over text ends before a closing paragraph of thanks, which goes; a letter's own sign-off with a name stays", () => {
    const content = `${FRAMING}Can you proofread this for me?\n\n${ESSAY}\n\nThanks so much!`;
    expect(compressMessages([{ role: "user", content }], { aggressiveness: 0.5, skipRules: [] }).messages[0]!.content).toBe(
      `Proofread this for me?\n\n${ESSAY}`,
    );
    const letter = `Summarize this letter:\n\n${ESSAY}\n\nThanks so much!\nAna`;
    expect(compressMessages([{ role: "user", content: letter }], { aggressiveness: 1, skipRules: [] }).messages[0]!.content).toBe(letter);
  });

  test("assistant turns (few-shot answers) pass through as written", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "Basically, you really answer in one word." },
      { role: "user", content: "Hi! I was wondering if you could classify this: I really loved it." },
      { role: "assistant", content: "Hi there! Basically   positive.   Thanks!" },
      { role: "user", content: "Hi! I was wondering if you could classify this: it was just awful." },
    ];
    for (const level of LEVELS) expect(compressMessages(messages, { aggressiveness: level, skipRules: [] }).messages[2]!.content).toBe(messages[2]!.content);
  });

  test("what the gateway sends (with the quality back-off) keeps the data too", async () => {
    const m = await shippedModels();
    for (const [, content, spans] of CASES) {
      const out = await compressWithQualityFloor(
        [{ role: "user", content }],
        { aggressiveness: 1, skipRules: [] },
        async (a, b) => (await m.quality(a, b)).score,
      );
      for (const span of spans) expect(out.messages[0]!.content).toContain(span);
    }
  });
});

describe("the README's example", () => {
  const readme = "Hi there! I hope you are doing well. I was wondering if you could possibly help me write a haiku about the sea. Thanks in advance!";
  test("compresses to a direct request at the default settings and survives the quality back-off", async () => {
    const m = await shippedModels();
    const out = await compressWithQualityFloor(
      [{ role: "user", content: readme }],
      { aggressiveness: 0.5, skipRules: [] },
      async (a, b) => (await m.quality(a, b)).score,
    );
    expect(out.messages[0]!.content).toBe("Write a haiku about the sea.");
    expect(out.rulesUndone).toEqual([]);
    expect(out.qualityScore).toBeGreaterThanOrEqual(85);
  });
});

describe("data spans, property", () => {
  // Pieces a handed-over text is made of: the words and sentences rules act on elsewhere.
  const piece = fc.constantFrom(
    "the ",
    "a ",
    "really ",
    "very ",
    "basically ",
    "just ",
    "is ",
    "and ",
    "this ",
    "please ",
    "in order to ",
    "Thanks! ",
    "Thanks so much! ",
    "I hope you are doing well. ",
    "Hi there! ",
    "haha ",
    "Sorry if this is a dumb question, but ",
    "I was wondering if you could write ",
    "due to the fact that ",
    "**bold** ",
    "  ",
    "\n",
    "\n\n",
    ". ",
    ", ",
    "word ",
    "Word ",
  );
  // It ends with a word of its own: a last paragraph of only thanks after a blank line is read as the
  // user's closing, not the text's (documented in docs/compression-rules.md), and is no case here.
  const text = fc.array(piece, { minLength: 0, maxLength: 30 }).map((ps) => `${ps.join("")}end of text.`);
  const intro = fc.constantFrom(
    "Can you proofread this for me?\n\n",
    "Summarize the following:\n",
    "Translate this into German: ",
    "How many times does 'the' appear here? ",
    "Please fix the grammar in this email:\n\n",
  );
  test("a text handed over after the request arrives byte for byte at every level, whatever it holds", () => {
    fc.assert(
      fc.property(intro, text, fc.constantFrom(...LEVELS), (lead, data, level) => {
        const content = `${FRAMING}${lead}${data}`;
        const sent = compressMessages([{ role: "user", content }], { aggressiveness: level, skipRules: [] }).messages[0]!.content;
        expect(sent).toContain(data);
      }),
      { numRuns: 400 },
    );
  });
  test("a text handed over before a request about its surface arrives byte for byte too", () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...LEVELS), (data, level) => {
        const content = `${data}\n\n${FRAMING}Could you check the grammar of the text above? Thanks so much!`;
        const sent = compressMessages([{ role: "user", content }], { aggressiveness: level, skipRules: [] }).messages[0]!.content;
        expect(sent).toContain(data.trim());
      }),
      { numRuns: 400 },
    );
  });
});
