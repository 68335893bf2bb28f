import { describe, expect, test } from "bun:test";
import { shippedModels } from "../ml/shipped-models";

/** Our own fixture: the same prompts compressed by removing only filler, and with one change of meaning each. */
const FILLER_ONLY: [string, string][] = [
  // Laughter after a run of emoji, a thanks closing in words no vocabulary lists, a writer's aside (compress13).
  [
    "Hey! Hope you're having a spooky good day 👻 haha. Can you write me a two-sentence horror story set in a library? It's for a creative writing club I run at school. Thanks!!",
    "Write me a two-sentence horror story set in a library. It's for a creative writing club I run at school.",
  ],
  ["Is it dead, and what should I do? Thanks heaps!", "Is it dead, and what should I do?"],
  // A greeting before backstory that weighs nothing at 1.0, in the same sentence (bench/data/compress-keep-14.json).
  ["Hi there 😅 I burned the rice again. How do I get the burnt taste out?", "I burned the rice again. How do I get the burnt taste out?"],
  [
    "My sister is getting married in June and I'm the maid of honour (eek!). Write a short speech.",
    "My sister is getting married in June and I'm the maid of honour. Write a short speech.",
  ],
  [
    "Hi! Could you please summarize the attached quarterly report for the board meeting on March 3?",
    "Summarize the attached quarterly report for the board meeting on March 3?",
  ],
  ["I was wondering if you could basically just explain how binary search works in Python.", "Explain how binary search works in Python."],
  [
    "Please, if it's not too much trouble, translate the following sentence into German: The train leaves at 8 am.",
    "Translate the following sentence into German: The train leaves at 8 am.",
  ],
  ["Thank you so much in advance! Write a short poem about the sea at night, around 12 lines.", "Write a short poem about the sea at night, around 12 lines."],
  [
    "Hello there. I really need your help. Do not use any external libraries and write a function that parses ISO dates.",
    "Do not use any external libraries and write a function that parses ISO dates.",
  ],
  ["Can you kindly list the three largest cities in Canada by population, if you don't mind?", "List the three largest cities in Canada by population."],
  // The README's example: social sentences and the indirect framing weigh nothing.
  [
    "Hi there! I hope you are doing well. I was wondering if you could possibly help me write a haiku about the sea. Thanks in advance!",
    "Write a haiku about the sea.",
  ],
  [
    "Hey! Hope your day is going well. Sorry if this is a dumb question, but how do I reverse a list in Python? Thank you so much in advance, really appreciate it! haha",
    "How do I reverse a list in Python?",
  ],
  // Framings of issue 25's second pass: their words ("possible", "kind", "trouble") are no content, nor is the "not" of a courtesy condition.
  [
    "Hello, sorry to bother you. Would it be possible for you to write a cover letter for a junior data analyst job? Best wishes!",
    "Write a cover letter for a junior data analyst job.",
  ],
  [
    "Hey! How's it going? Would you be so kind as to summarize the causes of the First World War in a few bullet points? I really appreciate it.",
    "Summarize the causes of the First World War in a few bullet points.",
  ],
  [
    "Hi, hope this finds you well. If it's not too much trouble, could you write a polite email to my landlord? lol thanks",
    "Write a polite email to my landlord.",
  ],
  ["Hello :) Happy Monday! Is there any way you could explain what a p-value means? Take care!", "Explain what a p-value means."],
  // A new author's framings (issue 25, chatty-5's classes in our own words): well-wishing after an emoji, an
  // apology joined by "but", laughter inside a sentence that stays, a request after an emoji.
  ["Hey! 🌞 hope u r keeping well. Sorry if this is a really dumb question but how do magnets work?", "How do magnets work?"],
  ["Hope you're well 🐝 Sorry, my garden is a mess lol. Could you list plants that attract bees?", "My garden is a mess. List plants that attract bees."],
  ["Hi, I must apologise for asking, I'm not sure where else to turn. What is a mortgage?", "What is a mortgage?"],
  // The user's closing after a quoted text (chatty-dev-12): the quotation arrives whole, the thanks goes.
  [
    'Translate it into French? "Dear Sir, I would like a double room from 12 to 15 May. Kind regards, Helen Brooks" Merci beaucoup!',
    'Translate it into French? "Dear Sir, I would like a double room from 12 to 15 May. Kind regards, Helen Brooks"',
  ],
];

const MEANING_CHANGED: [string, string, string][] = [
  ["dropped content word", "Write a haiku about the sea.", "Write a haiku."],
  ["swapped roles", "Explain why the dog chased the cat across the street.", "Explain why the cat chased the dog across the street."],
  ["dropped format instruction", "List the planets of the solar system as bullet points.", "List the planets of the solar system as points."],
  [
    "data edited: articles gone from a text to proofread",
    "Proofread this: The team have finished the report and the manager is happy.",
    "Proofread this: Team have finished report and manager is happy.",
  ],
  [
    "a copy gone from a text to count in",
    "How many times does this sentence appear? I like tea. I like tea. I like tea.",
    "How many times does this sentence appear? I like tea.",
  ],
  ["dropped negation", "Do not delete the production database before the backup finishes.", "Delete the production database before the backup finishes."],
  ["changed number", "Transfer 1500 dollars to the savings account on Friday.", "Transfer 5100 dollars to the savings account on Friday."],
  ["swapped entity", "Book a flight from Berlin to Madrid with Lufthansa next week.", "Book a flight from Berlin to Lisbon with Lufthansa next week."],
  ["dropped negation (contraction)", "The patient shouldn't take ibuprofen with this medication.", "The patient should take ibuprofen with this medication."],
  ["changed number word", "Give me three examples of renewable energy sources.", "Give me five examples of renewable energy sources."],
  ["dropped code span", "Run `npm ci --omit=dev` before building the image.", "Run npm before building the image."],
  // The framing of a request weighs nothing, the request does: a courtesy condition's words go, a real condition's do not.
  ["dropped condition", "If you have a minute, could you explain how DNS works if the cache is empty?", "Explain how DNS works."],
  ["dropped task after the framing", "Would it be possible for you to write a cover letter and a CV?", "Write a cover letter."],
  // A social clause weighs nothing, what follows it does; laughter is content where it is the word asked about.
  ["dropped request after a social clause", "Sorry if this is a dumb question but how do magnets and compasses work?", "How do magnets work?"],
  ["the word asked about dropped", "What does lol mean in a text message?", "What does mean in a text message?"],
  [
    "a quoted text's own closing",
    'Translate it into French? "Dear Sir, I would like a double room from 12 to 15 May. Kind regards, Helen Brooks" Merci beaucoup!',
    'Translate it into French? "Dear Sir, I would like a double room from 12 to 15 May." Merci beaucoup!',
  ],
  // Review 2026-11-27 finding 3: a closing after a quotation that does not open the handed-over text, or
  // after one whose tone is asked about, is counted as lost.
  [
    "the end of an unquoted text to translate",
    'Translate into Spanish: The guide said "watch your step" Thanks for listening!',
    'Translate into Spanish: The guide said "watch your step"',
  ],
  [
    "words after a quotation whose tone is asked about",
    'Is this message passive-aggressive? "Fine, do what you want" Thanks a lot.',
    'Is this message passive-aggressive? "Fine, do what you want"',
  ],
];

describe("quality score", () => {
  test("an unchanged text scores 100", async () => {
    const m = await shippedModels();
    expect((await m.quality("Explain recursion.", "Explain recursion.")).score).toBe(100);
  });

  for (const [original, compressed] of FILLER_ONLY) {
    test(`filler-only removal clears the floor of 85: ${compressed.slice(0, 40)}`, async () => {
      const m = await shippedModels();
      const q = await m.quality(original, compressed);
      expect(q.score).toBeGreaterThanOrEqual(85);
    });
  }

  for (const [kind, original, compressed] of MEANING_CHANGED) {
    test(`${kind} scores < 70`, async () => {
      const m = await shippedModels();
      const q = await m.quality(original, compressed);
      expect(q.score).toBeLessThan(70);
    });
  }

  test("scores are integers in 0..100 for unrelated and empty texts", async () => {
    const m = await shippedModels();
    for (const [a, b] of [
      ["Write a haiku about spring.", "SELECT * FROM users;"],
      ["Some text", ""],
      ["", ""],
    ] as const) {
      const q = await m.quality(a, b);
      expect(Number.isInteger(q.score)).toBe(true);
      expect(q.score).toBeGreaterThanOrEqual(0);
      expect(q.score).toBeLessThanOrEqual(100);
    }
  });
});
