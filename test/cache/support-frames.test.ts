import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compareFacets, extractFacets, type WordSimilarity } from "../../src/pipeline/cache";
import { canonicalRequest } from "../../src/pipeline/cache/facets";
import { SHIPPED_SYNONYMS } from "../../src/pipeline/cache/request-synonyms";

/**
 * Issue 24, session 6 of 2026-11-27: support requests framed as not knowing how ("I can't find how to X",
 * "I don't know how to X", "not sure how to X"), as a try ("I'm trying to X"), as "I need a way to X", a
 * cry for help before the request ("Help, I need to X"), more support actions after a stated wish,
 * "where do I" and "Can I", and "Am I allowed to" / "Is it OK if I" read as "May I" (what "Can I" asks, never answered by a "How do I"). Both sides: every
 * pair of bench/data/cache-frame-pairs.json (written before the code, against exactly these
 * relaxations), decided by the verifier with the shipped table and no word vectors. `a` is the query,
 * `b` the cached prompt.
 */
const words: WordSimilarity = { vectors: new Map(), minSimilarity: 0.3, synonyms: SHIPPED_SYNONYMS };

function serves(query: string, cached: string): boolean {
  return compareFacets(extractFacets(query), extractFacets(cached), words).equivalent;
}

interface Pair {
  a: string;
  b: string;
  same: boolean;
  class: string;
}

const pairs = (JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "bench", "data", "cache-frame-pairs.json"), "utf8")) as { pairs: Pair[] }).pairs;

/** Pairs whose reverse is served: "Can I X?" asked is answered by a cached "How do I X?", never the other way round. */
const ONE_WAY = new Set(["permission cached, procedure asked", "frame: permission asked, procedure cached"]);

describe("bench/data/cache-frame-pairs.json through the verifier", () => {
  test("has at least 200 near misses and the framings it promises", () => {
    expect(pairs.filter((p) => !p.same).length).toBeGreaterThanOrEqual(200);
    expect(pairs.filter((p) => p.same).length).toBeGreaterThanOrEqual(70);
  });
  // One framing is left refused on purpose: "Where do I transfer my booking?" (transfer has a place: where to change trains).
  const refusedOnPurpose = new Set(["Where do I transfer my booking?"]);
  for (const p of pairs) {
    const expected = p.same && !refusedOnPurpose.has(p.a);
    test(`${expected ? "serves" : "refuses"} (${p.class}): "${p.a}" / "${p.b}"`, () => {
      expect(serves(p.a, p.b)).toBe(expected);
      // A near miss is refused both ways; a framing served both ways, but for "Can I X?" cached, which answers no "How do I X?".
      // (A cached "How do I X?" answers "Can I X?" only for the actions of ABILITY_QUESTION: that side is in the tests below.)
      if (refusedOnPurpose.has(p.a) || (ONE_WAY.has(p.class) && !p.same)) return;
      expect(serves(p.b, p.a)).toBe(ONE_WAY.has(p.class) ? false : p.same);
    });
  }
});

/** Requests read as another wording (canonicalRequest), and requests left as written. */
const READINGS: readonly [string, string][] = [
  ["I can't find how to cancel my booking", "how do I cancel my booking"],
  ["I couldn't figure out how to pair my phone", "how do I pair my phone"],
  ["I don't know how I can export my data", "how do I export my data"],
  ["I'm not sure how to renew my permit", "how do I renew my permit"],
  ["I can't find where to cancel my plan", "how do I cancel my plan"],
  // Where-to with no support action names a place; no "how" at all is the action failing.
  ["I can't find where to buy milk", "I can't find where to buy milk"],
  ["I can't cancel my booking", "I can't cancel my booking"],
  ["I can't find my booking", "I can't find my booking"],
  ["I don't know whether to cancel my booking", "I don't know whether to cancel my booking"],
  // Only before a support action: a feeling or a way with people is no procedure of a service.
  ["I don't know how to say no to my boss", "I don't know how to say no to my boss"],
  ["I'm not sure how to feel about my booking", "I'm not sure how to feel about my booking"],
];

/** Queries against cached prompts, each with whether the cached answer may serve: both sides of each relaxation. */
const DECISIONS: readonly [string, readonly [string, string, boolean][]][] = [
  [
    "a keyword query is the steps of its action, both ways, and nothing else",
    [
      ["reset password", "How do I reset my password?", true],
      ["How do I reset my password?", "reset password", true],
      ["cancel subscription", "how do I cancel my subscription", true],
      ["Cancel subscription?", "How can I cancel my subscription?", true],
      ["reset password", "how to reset my password", true],
      // Read as asking the steps, not rewritten: the keyword and the command still serve each other, as on lead.
      ["reset password", "reset my password", true],
      ["remove duplicates from list", "remove the duplicates from the list", true],
      ["How was my password reset?", "reset password", false],
      ["reset password", "How did I reset my password?", false],
      ["reset password", "How could I reset my password?", false],
      ["reset password", "How will I reset my password?", false],
      ["reset password", "How do we reset our password?", false],
      ["Can I cancel my subscription?", "cancel subscription", false],
      ["delete the file", "How do I delete the file?", false],
      ["reset password", "How much does it cost to reset my password?", false],
      ["reset password", "How do I reset his password?", false],
      ["reset password", "How do you reset a password?", false],
      ["reset password", "How should I reset my password?", false],
      ["cancel subscription", "Why can't I cancel my subscription?", false],
      ["cancel subscription", "Why did you cancel my subscription?", false],
      ["pause subscription", "How do I cancel my subscription?", false],
      ["cancel subscription", "Can I cancel my subscription?", false],
      ["cancel my subscription", "How do I cancel my subscription?", false],
      // A refund asked for is a permission, never the steps of "How do I get a refund?" (ABILITY_QUESTION); "get" opens no keyword query.
      ["get refund", "Can I get a refund?", false],
      ["get refund", "How do I get a refund?", false],
      ["Can I get a refund?", "How do I get a refund?", false],
    ],
  ],
  [
    "not knowing how still refuses a negated action, another object or a qualifier",
    [
      ["I don't know how to not get charged", "How do I get charged?", false],
      ["I can't find how to cancel my booking online", "How do I cancel my booking?", false],
      ["I can't find how to cancel my order", "How do I cancel my booking?", false],
      ["I can't figure out how to cancel my booking", "How do I cancel my booking?", true],
    ],
  ],
  [
    "a try or a cry for help before the request frames it; a try that failed or is over does not",
    [
      ["I'm trying to pay my rent, how do I do it?", "How do I pay my rent?", true],
      ["I am trying to pay my rent", "How do I pay my rent?", true],
      ["Help, I need to pay my rent", "How do I pay my rent?", true],
      ["I'm trying to pay my rent but it keeps failing", "How do I pay my rent?", false],
      ["I was trying to pay my rent", "How do I pay my rent?", false],
      ["Help! I can't pay my rent", "How do I pay my rent?", false],
    ],
  ],
  [
    "'Am I allowed to' and 'Is it OK if I' ask what 'Can I' asks, and are still no 'how'",
    [
      ["Am I allowed to donate blood if I have a tattoo?", "Can I donate blood if I have a tattoo?", true],
      ["Is it OK if I donate blood if I have a tattoo?", "Can I donate blood if I have a tattoo?", true],
      ["Am I allowed to donate blood if I have a cold?", "Can I donate blood if I have a tattoo?", false],
      ["How do I cancel my booking?", "Am I allowed to cancel my booking?", false],
    ],
  ],
  [
    "'Can I' before a support action on a/an is answered by 'How do I', not the other way round",
    [
      ["Can I cancel a driving lesson?", "How do I cancel a driving lesson?", true],
      ["How do I cancel a driving lesson?", "Can I cancel a driving lesson?", false],
      ["Can I cancel a lot of lessons?", "How do I cancel a lot of lessons?", false],
      // Whether the user may: the steps of "How do I ..." take that for granted.
      ["Can I get a refund for registration?", "How do I get a refund for registration?", false],
      ["Can I withdraw my money?", "How do I withdraw my money?", false],
      ["Am I allowed to cancel my order?", "How do I cancel my order?", false],
      ["Is it OK if I cancel my order?", "How do I cancel my order?", false],
      ["Am I allowed to cancel my order?", "Can I cancel my order?", true],
      ["Can I get a discount?", "How do I get a discount?", false],
    ],
  ],
  [
    "more support actions after a stated wish and 'where do I'; a place stays a place",
    [
      ["I want to submit a manuscript", "How do I submit a manuscript?", true],
      ["I'd like to book a ski lesson", "How do I book a ski lesson?", true],
      ["Where do I adjust the volume on my hearing aids?", "How do I adjust the volume on my hearing aids?", true],
      ["I want to write a poem about my cat", "How do I write a poem about my cat?", false],
      ["Where can I buy a season pass?", "How do I buy a season pass?", false],
      ["Where do I pay my rent?", "How do I pay my rent?", false],
    ],
  ],
  [
    "the process, what to do, the option: read as how; a ranking, advice or a place: not",
    [
      ["What's the process for cancelling my subscription?", "How do I cancel my subscription?", true],
      ["What is the procedure to reset my PIN?", "How do I reset my PIN?", true],
      // Before an action that is not a support action the process may be the company's.
      ["What is the procedure to withdraw my submission?", "How do I withdraw my submission?", false],
      ["What is the process for approving a loan?", "How do I approve a loan?", false],
      ["What's the process for shipping to Canada?", "How do I ship to Canada?", false],
      ["What's the process for changing my address?", "How do I change my address?", true],
      ["What should I do to reset my PIN?", "How do I reset my PIN?", true],
      ["Where's the option to hide my phone number?", "How do I hide my phone number?", true],
      ["What's the process for a refund?", "How do I get a refund?", false],
      ["What's the best way to cancel my subscription?", "How do I cancel my subscription?", false],
      ["Should I cancel my subscription?", "How do I cancel my subscription?", false],
      ["Where's the option to hide my phone number from recruiters?", "How do I hide my phone number?", false],
    ],
  ],
  [
    "a wish without its 'I' is still the wish; a wish negated or in the past is not",
    [
      ["need to withdraw my earnings", "How do I withdraw my earnings?", true],
      ["trying to pair my hearing aids with my phone", "How do I pair my hearing aids with my phone?", true],
      ["don't need to withdraw my earnings", "How do I withdraw my earnings?", false],
      ["I needed to withdraw my earnings", "How do I withdraw my earnings?", false],
      ["I don't want to withdraw my earnings", "I want to withdraw my earnings", false],
    ],
  ],
  [
    "the pronoun reads as the thing; another number, owner or thing refuses",
    [
      ["I need a guest pass, how do I get one?", "How do I get a guest pass?", true],
      ["I'd like a new recycling bin. How can I request one?", "How do I request a new recycling bin?", true],
      ["I need two guest passes, how do I get them?", "How do I get a guest pass?", false],
      ["I need a guest pass, how do I get one for my son?", "How do I get a guest pass?", false],
      ["I need a parking pass, how do I get one?", "How do I get a guest pass?", false],
      ["I have a guest pass, how do I use it?", "How do I use a guest pass?", false],
    ],
  ],
  [
    "'can you help?' after a request is courtesy; after a problem the problem stays",
    [
      ["I want to cancel my ferry booking, can you help?", "How do I cancel my ferry booking?", true],
      ["I can't cancel my ferry booking, can you help me?", "How do I cancel my ferry booking?", false],
      ["Can you help?", "How do I cancel my ferry booking?", false],
    ],
  ],
  [
    "near misses written after the code to break the frames (49 of 59; the other 10 are served by design: my / an and bill / bills as main reads them, a cached 'How do I' for an asked 'Can I' or 'Am I allowed to', 'can you help me X' as main reads it)",
    [
      ["need to pay my rent late", "How do I pay my rent?", false],
      ["I need to pay my rent late", "How do I pay my rent?", false],
      ["I'm trying to add a vehicle to my toll account again", "How do I add a vehicle to my toll account?", false],
      ["need to cancel my order?", "How do I cancel my order?", false],
      ["Do I need to cancel my order?", "How do I cancel my order?", false],
      ["I don't need to cancel my order", "How do I cancel my order?", false],
      ["I can't find how to cancel my order anymore", "How do I cancel my order?", false],
      ["I can't find how to cancel my order without a fee", "How do I cancel my order?", false],
      ["I don't know how to cancel my order yet", "How do I cancel my order?", false],
      ["I don't know how to uncancel my order", "How do I cancel my order?", false],
      ["I can't find how to undo cancel my order", "How do I cancel my order?", false],
      ["not sure how to cancel my order or return it", "How do I cancel my order?", false],
      ["I don't know how my order was cancelled", "How do I cancel my order?", false],
      ["I don't know how to cancel my order, my wife does", "How do I cancel my order?", false],
      ["I can't figure out how you cancel my order", "How do I cancel my order?", false],
      ["I don't know how they cancel my order", "How do I cancel my order?", false],
      ["I'm trying to cancel my order", "I'm trying to cancel my subscription", false],
      ["trying to cancel my order", "Why am I trying to cancel my order?", false],
      ["Am I allowed to cancel my order?", "Should I cancel my order?", false],
      ["Is it okay for me to cancel my order?", "Can I cancel my order tomorrow?", false],
      ["Is it OK if I cancel my order?", "Is it OK if my wife cancels my order?", false],
      ["Help, I need to cancel my order", "Help, I need to cancel my flight", false],
      ["Help me, I can't find my order", "How do I find my order?", false],
      ["I need a guest pass, how do I get one?", "How do I get a guest pass for free?", false],
      ["I need another guest pass, how do I get one?", "How do I get a guest pass?", false],
      ["I need a guest pass, how do I get one?", "How do I get another guest pass?", false],
      ["I need a new card, how do I get one?", "How do I get a card?", false],
      ["I need a guest pass, how do I buy one?", "How do I get a guest pass?", false],
      ["What's the process for cancelling my order?", "What's the process after cancelling my order?", false],
      ["What's the process for cancelling my order?", "How long does the process for cancelling my order take?", false],
      ["What should I do to cancel my order?", "What should I do after I cancel my order?", false],
      ["Where's the option to cancel my order?", "Where's my order?", false],
      ["Where's the button to pay my rent?", "How do I pay my rent?", false],
      ["I want to cancel my order, can you help?", "Can you cancel my order?", false],
      ["I want to open a dispute", "I want to close a dispute", false],
      ["I want to open an account", "How do I open a bank account?", false],
      ["I want to add money to my account", "How do I add a user to my account?", false],
      ["I want to withdraw my application", "How do I withdraw my earnings?", false],
      ["I need to sign up", "How do I sign out?", false],
      ["I need to register", "How do I unregister?", false],
      ["I want to pay my bill twice", "How do I pay my bill?", false],
      ["I want to pay my bill in 3 installments", "How do I pay my bill in 2 installments?", false],
      ["Can I book a room for 2?", "How do I book a room?", false],
      ["I'm trying to set up autopay, how do I do it?", "How do I set up autopay for rent?", false],
      ["I am trying to delete my account but can't", "How do I delete my account?", false],
      ["I'm trying to delete my account since yesterday", "How do I delete my account?", false],
      ["trying to delete my account lol", "How do I delete my account?", false],
      ["I want to schedule a meeting with Anna at 3pm", "How do I schedule a meeting with Anna at 4pm?", false],
      ["I want to schedule a meeting with Anna", "How do I schedule a meeting with Bob?", false],
    ],
  ],
];

describe("the frames themselves", () => {
  for (const [prompt, reading] of READINGS) test(`"${prompt}" reads "${reading}"`, () => expect(canonicalRequest(prompt)).toBe(reading));
  for (const [what, cases] of DECISIONS) {
    test(what, () => {
      for (const [query, cached, served] of cases) expect([query, cached, serves(query, cached)]).toEqual([query, cached, served]);
    });
  }
});
