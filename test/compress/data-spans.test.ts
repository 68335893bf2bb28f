import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { compressMessages, compressWithQualityFloor } from "../../src/pipeline/compress";
import type { ChatMessage } from "../../src/core/messages";
import { shippedModels } from "../ml/shipped-models";
import { hardChecks } from "../../src/pipeline/score/request-features";

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
    // tidying after a removal once took the space before the dot (compress12's outside-written check set).
    "a pasted Dockerfile, unfenced, whose line holds a lone dot",
    `${FRAMING}Can you check my Dockerfile?\n\nFROM node:20\nWORKDIR /app\nCOPY . /app\nRUN npm install , --omit=dev${THANKS}`,
    ["COPY . /app", "RUN npm install , --omit=dev"],
  ],
  [
    "the same Dockerfile with Windows line ends",
    `${FRAMING}Can you check my Dockerfile?\r\n\r\nFROM node:20\r\nWORKDIR /app\r\nCOPY . /app\r\nRUN npm install , --omit=dev${THANKS}`,
    ["COPY . /app", "RUN npm install , --omit=dev"],
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
    'a numbered list after a line that points at it in the plural ("these customer reviews")',
    `Hello, I hope your day is going well. Could you classify these customer reviews as positive or negative?\n\n1. Arrived fast, works really great.\n2. Thank you for the quick refund, very happy!`,
    ["1. Arrived fast, works really great.\n2. Thank you for the quick refund, very happy!"],
  ],
  [
    "a pasted email with its own greeting and sign-off, under a letter to the assistant signed with a name",
    `Hi there,\n\nHope you're doing well! Could you please summarise this email in two sentences for me?\n\nHi all, the movers are basically booked for Saturday. Please have your desks packed. Thanks, Mark\n\nThanks a lot, have a great day!\nSophie`,
    ["Hi all, the movers are basically booked for Saturday. Please have your desks packed. Thanks, Mark"],
  ],
  [
    "a voicemail after a line that points at it, opening with the caller's greeting",
    `Summarise this voicemail.\n\nHey it's me, hope you're doing well! Just calling to say the plumber is coming at noon.`,
    ["Hey it's me, hope you're doing well! Just calling to say the plumber is coming at noon."],
  ],
  [
    "a text after a verb of editing and a colon, opening with an honesty marker (compress-probe16)",
    `Edit for tone: Honestly I'm not sure if this is a stupid question but here goes.`,
    ["Honestly I'm not sure if this is a stupid question but here goes."],
  ],
  [
    "a text after 'Make it sound ...:' (compress-probe16)",
    `Make it sound more formal: Honestly I'm so nervous, I'm freaking out about the audit.`,
    ["Honestly I'm so nervous, I'm freaking out about the audit."],
  ],
  [
    "a text after a verb of editing that opens a sentence right where the 80 characters before the colon start",
    `I wrote my friend a reply. Edit for tone and keep it short and kind as my old friend has been unwell lately: Honestly I basically forgot your birthday, so sorry.`,
    ["Honestly I basically forgot your birthday, so sorry."],
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

  test("a verb of editing cut out of a longer word 80 characters before a colon points at nothing", () => {
    // "cr|edit for ...": on lead the rest of the message was protected when the colon stood exactly 80 characters
    // after "edit", and compressed when it stood one more character on.
    const text = (place: string) =>
      `My friend and I want equal credit for the work we did together over the whole of the last school term at ${place}: honestly I think he basically did nothing at all, so help me write him a reply.`;
    for (const place of ["home", "homes"]) {
      const out = compressMessages([{ role: "user", content: text(place) }], { aggressiveness: 1, skipRules: [] }).messages[0]!.content;
      expect(out).not.toContain("basically");
    }
  });

  test("the social framing around the data goes at the default level", () => {
    for (const [, content] of CASES.filter(([, c]) => c.startsWith(FRAMING) && !c.includes("Hi Sam"))) {
      const sent = compressMessages([{ role: "user", content }], { aggressiveness: 0.5, skipRules: [] }).messages[0]!.content;
      expect(sent).not.toContain(FRAMING.trim());
      expect(sent).not.toContain("I hope you are doing well. ");
    }
  });

  test("a quoted text ends at its closing quotation mark: the thanks after it goes, the text arrives byte for byte (chatty-dev-12)", () => {
    const quoted = `"${ESSAY}"`;
    for (const [content, sent] of [
      [`Could you proofread this paragraph? Here it is: ${quoted} Thank you very much for your help!`, `Proofread this paragraph? Here it is: ${quoted}`],
      [`Summarise it in 2 sentences, here: ${quoted} thank youuu`, `Summarise it in 2 sentences, here: ${quoted}`],
      [`Translate this into French: ${quoted} Merci beaucoup!`, `Translate this into French: ${quoted}`],
    ]) {
      expect(compressMessages([{ role: "user", content: content! }], { aggressiveness: 0.5, skipRules: [] }).messages[0]!.content).toBe(sent!);
    }
  });

  test("after a quotation, what is not all social stays with it; an unclosed quotation runs on; listed greetings stay", () => {
    for (const content of [
      `Proofread this: "${ESSAY}" Thanks, and keep my spelling of colour.`,
      `Proofread this: "${ESSAY} Thanks so much!`,
      `Sort these greetings alphabetically: "Hi", "Hello", "Hey" Thanks!`,
    ]) {
      for (const level of LEVELS) {
        const sent = compressMessages([{ role: "user", content }], { aggressiveness: level, skipRules: [] }).messages[0]!.content;
        expect(sent).toContain(content.includes("colour") ? "Thanks, and keep my spelling of colour." : content.slice(content.indexOf('"')));
      }
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

  // Issue 25, 6th batch (bench/data/chatty-dev-9.json, dev split): polite emails that hand a text over.
  test("a letter to the assistant loses its salutation, wishes, thanks and signed closing around the text; the text stays", () => {
    const content = `Dear Assistant,\n\nI hope this email finds you well. I would be most grateful if you could proofread the following paragraph:\n\n${ESSAY}\n\nThank you very much in advance for your help.\n\nKind regards,\nPeter`;
    const sent = compressMessages([{ role: "user", content }], { aggressiveness: 0.5, skipRules: [] }).messages[0]!.content;
    expect(sent).toBe(`Proofread the following paragraph:\n\n${ESSAY}`);
    const translate = `Hello,\n\nI hope you are having a pleasant week. Would you be so kind as to translate the text below into French?\n\nDear Madame Dubois, thank you for your kind invitation. Best regards, Thomas\n\nMany thanks for your trouble.\n\nWarm regards,\nThomas`;
    expect(compressMessages([{ role: "user", content: translate }], { aggressiveness: 0.5, skipRules: [] }).messages[0]!.content).toBe(
      "Translate the text below into French?\n\nDear Madame Dubois, thank you for your kind invitation. Best regards, Thomas",
    );
  });

  test("a signed closing after a text that opens as a letter with no sign-off of its own, or in a message that does not open as one, stays", () => {
    for (const content of [
      `Hello,\n\nCould you proofread this email:\n\nDear Tom, the the report is late.\n\nKind regards,\nPeter`,
      `Could you proofread this email:\n\n${ESSAY}\n\nKind regards,\nPeter`,
    ]) {
      for (const level of LEVELS) {
        const sent = compressMessages([{ role: "user", content }], { aggressiveness: level, skipRules: [] }).messages[0]!.content;
        expect(sent).toContain("Kind regards,\nPeter");
      }
    }
  });

  test("the quality score does not read a pasted email's sign-off, once it ends the compressed prompt, as lost content", async () => {
    const m = await shippedModels();
    const content = `Hi there,\n\nHope you're doing well! Could you summarise this email in two sentences?\n\nHi all, the movers are booked for Saturday 12 October. Please have your desks packed by Thursday. Thanks, Mark\n\nThanks a lot, have a great day!\nSophie`;
    const out = await compressWithQualityFloor(
      [{ role: "user", content }],
      { aggressiveness: 0.5, skipRules: [] },
      async (a, b) => (await m.quality(a, b)).score,
    );
    expect(out.rulesUndone).toEqual([]);
    expect(out.messages[0]!.content).toBe(
      "Summarise this email in two sentences.\n\nHi all, the movers are booked for Saturday 12 October. Please have your desks packed by Thursday. Thanks, Mark",
    );
  });

  test("the hard checks do not read a pasted letter's signed sign-off, once it ends the compressed prompt, as lost names", () => {
    const original =
      "Good afternoon. Could you check the letter below for mistakes:\n\nDear Sir, the bins is overflowing since weeks. Yours faithfully, Anna Smith\n\nThanking you in anticipation. Kind regards, Anna";
    const compressed = "Check the letter below for mistakes:\n\nDear Sir, the bins is overflowing since weeks. Yours faithfully, Anna Smith";
    expect(hardChecks(original, compressed).entities).toEqual([]);
    // The letter's own sign-off lost is a lost name.
    expect(hardChecks(original, "Check the letter below for mistakes:\n\nDear Sir, the bins is overflowing since weeks.").entities).not.toEqual([]);
  });

  test("social paragraphs before a surface task go only when the text is handed over after it", () => {
    const after = `Hello,\n\nCould you check the grammar of the text below?\n\n${ESSAY}`;
    expect(compressMessages([{ role: "user", content: after }], { aggressiveness: 0.5, skipRules: [] }).messages[0]!.content).not.toContain("Hello,");
    const before = `Hi,\n\nThanks so much!\n\n${ESSAY}\n\nCan you check the grammar of the email above?`;
    for (const level of LEVELS) {
      const sent = compressMessages([{ role: "user", content: before }], { aggressiveness: level, skipRules: [] }).messages[0]!.content;
      expect(sent).toContain(`Hi,\n\nThanks so much!\n\n${ESSAY}`);
    }
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
