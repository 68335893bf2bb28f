import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compareFacets, extractFacets, type WordSimilarity } from "../../src/pipeline/cache";
import { canonicalRequest } from "../../src/pipeline/cache/facets";
import { withRequestPhrases } from "../../src/pipeline/cache/request-phrases";
import { SHIPPED_SYNONYMS } from "../../src/pipeline/cache/request-synonyms";

/**
 * Issue 24, seventh session: "where do I" before booking and setting-up verbs, "Can I book / reserve / schedule / add a ...?"
 * answered by "How do I ...?", "add a new X" read as "add a X", and synonym groups for one more
 * (another / additional / extra), a different one (another / different), a pickup's or delivery's time
 * or slot, and raising or lowering a pledge or an amount. Both sides: every pair of
 * bench/data/cache-probe5.json (written against exactly these relaxations, and near misses of bare
 * commands, which stay apart from "how do I"), decided by the verifier
 * with the shipped table and no word vectors, as before any word is embedded. `a` is the query and
 * `b` the cached prompt: "Can I ...?" is answered by "How do I ...?", not the other way round (the
 * "direction" class).
 */
const words: WordSimilarity = { vectors: new Map(), minSimilarity: 0.3, synonyms: SHIPPED_SYNONYMS };

function compare(a: string, b: string) {
  return compareFacets(extractFacets(a), extractFacets(b), words);
}

interface ProbePair {
  a: string;
  b: string;
  same: boolean;
  class: string;
}

/**
 * Each probe file, the near misses it promises, its classes of rewordings, and the one class of them served one
 * way only ("Can I ...?" asked, "How do I ...?" cached). Issue 24's eighth session added
 * bench/data/cache-frame-pairs8.json: "Is X available?", "Do you allow X?", two modifiers before a cancelled
 * subscription, "Can I add another X?", scoped synonym groups, "currently", "a file I deleted" (written before the code).
 */
const PROBES: readonly { file: string; nearMisses: number; classes: number; oneWay: string }[] = [
  { file: "cache-probe5.json", nearMisses: 100, classes: 5, oneWay: "paraphrase: can I book a" },
  { file: "cache-frame-pairs8.json", nearMisses: 50, classes: 9, oneWay: "paraphrase: add another" },
];

for (const { file, nearMisses, classes, oneWay } of PROBES) {
  const probe = (JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "bench", "data", file), "utf8")) as { pairs: ProbePair[] }).pairs;
  describe(`bench/data/${file} through the verifier`, () => {
    test("has the near misses it promises and rewordings for every relaxation", () => {
      expect(probe.filter((p) => !p.same).length).toBeGreaterThanOrEqual(nearMisses);
      expect(new Set(probe.filter((p) => p.same).map((p) => p.class)).size).toBe(classes);
    });
    for (const p of probe) {
      test(`${p.same ? "serves" : "refuses"} (${p.class}): "${p.a}" / "${p.b}"`, () => {
        expect(compare(p.a, p.b).equivalent).toBe(p.same);
        // A near miss is refused both ways; a rewording one way only where it is a "Can I" question.
        if (!p.same && !p.class.includes("direction")) expect(compare(p.b, p.a).equivalent).toBe(false);
        else if (p.class !== oneWay) expect(compare(p.b, p.a).equivalent).toBe(true);
      });
    }
  });
}

describe("the rewrites themselves", () => {
  test('"Is X available?" is "is there X" for a kind of thing, not a particular one or one with a detail', () => {
    expect(canonicalRequest("Is same-day delivery available?")).toBe("is there same-day delivery?");
    expect(canonicalRequest("are gift cards available")).toBe("is there gift cards");
    for (const kept of [
      "Is the pool available?",
      "Is my size available?",
      "Is delivery available on Sundays?",
      "Is it available?",
      "Where is parking available?",
    ])
      expect(canonicalRequest(kept)).toBe(kept);
  });

  test("stopping or ending a subscription is cancelling it with up to two modifiers, not someone else's", () => {
    expect(withRequestPhrases("How do I end my meal kit subscription?")).toBe("How do I cancel my meal kit subscription?");
    expect(withRequestPhrases("stop my son's gym membership")).toBe("stop my son's gym membership");
    expect(withRequestPhrases("stop my meal kit delivery")).toBe("stop my meal kit delivery");
  });

  test("a hyphenated word of the list is one word, its one-letter prefix kept; other hyphens and expressions stay", () => {
    expect(canonicalRequest("How do I connect to Wi-Fi?")).toBe("How do I connect to WiFi?");
    expect(canonicalRequest("rent an e-scooter")).toBe("rent an escooter");
    for (const kept of ["re-sign the contract", "y = x-abs(x)", "a-b", "self-service", "clean the co-op"]) expect(canonicalRequest(kept)).toBe(kept);
  });

  test('"a file that was deleted" is "a deleted file"; a statement or who did it is not', () => {
    expect(withRequestPhrases("How do I restore a file that was deleted?")).toBe("How do I restore a deleted file?");
    expect(withRequestPhrases("a car that is damaged")).toBe("a damaged car");
    for (const kept of ["My card is blocked", "a user who blocked me", "a file that was deleted by an admin"]) expect(withRequestPhrases(kept)).toBe(kept);
    // "I" as the doer stays: who did it changes the answer (an insurer, a moderator, a ban).
    for (const kept of ["a bike that I damaged", "an item I damaged", "a flight I cancelled", "a post I removed", "an account I deleted"])
      expect(withRequestPhrases(kept)).toBe(kept);
  });

  test('"add / create / set up a new X" loses "new"; buying a new thing keeps it', () => {
    expect(withRequestPhrases("How do I add a new profile?")).toBe("How do I add a profile?");
    expect(withRequestPhrases("How do I create an new account?")).toBe("How do I create a account?");
    expect(withRequestPhrases("setting up a new router")).toBe("setting up a router");
    expect(withRequestPhrases("How do I buy a new phone?")).toBe("How do I buy a new phone?");
    expect(withRequestPhrases("How do I add new features?")).toBe("How do I add new features?");
  });
});

describe("a modal question against a command or a fragment", () => {
  test("advice or permission asked is no command: refused both ways", () => {
    for (const question of [
      "Should I cancel my subscription?",
      "Can I cancel my subscription?",
      "May I cancel my subscription?",
      "Must I reset my password?",
    ]) {
      const command = question.replace(/^\w+ I (\w+)/, "$1").replace("?", "");
      expect(compare(question, command)).toMatchObject({ equivalent: false, kind: "role" });
      expect(compare(command, question)).toMatchObject({ equivalent: false, kind: "role" });
    }
  });

  test("a yes/no question without a modal still asks what its fragment asks; a courtesy frame is still no modal", () => {
    for (const [a, b] of [
      ["Do you ship to Canada?", "ship to Canada?"],
      ["Is there a free trial?", "free trial?"],
      ["Can you cancel my subscription?", "cancel my subscription"],
      ["Can I cancel my subscription?", "Could I cancel my subscription?"],
    ] as const) {
      expect(compare(a, b)).toEqual({ equivalent: true });
      expect(compare(b, a)).toEqual({ equivalent: true });
    }
  });
});

describe("the eighth session's relaxations, narrowed after a review", () => {
  test.each([
    ["Simplify x-yz", "Simplify xyz"],
    ["What is x-yz when x=2, y=3, z=4?", "What is xyz when x=2, y=3, z=4?"],
    ["Where can I buy to-go cups?", "Where can I buy Togo cups?"],
    ["Can I skip another delivery?", "How do I skip another delivery?"],
    ["Can I return another item?", "How do I return another item?"],
    ["Is a doctor available?", "Do you have a doctor?"],
    ["Is Dr Patel available?", "Do you have Dr Patel?"],
    ["Is every seat available?", "Is there a seat?"],
    ["How do I restore a post that was removed?", "How do I restore a post I removed?"],
    ["How do I recover an account that was deleted?", "How do I recover an account I deleted?"],
  ])("refuses %p / %p", (a, b) => {
    expect(compare(a, b).equivalent).toBe(false);
  });

  test("what they are for is still served", () => {
    expect(compare("Can I add another user to my account?", "How do I add another user to my account?").equivalent).toBe(true);
    expect(compare("Is parking available?", "Is there parking?").equivalent).toBe(true);
    expect(compare("How do I connect to Wi-Fi?", "How do I connect to wifi?").equivalent).toBe(true);
  });
});

test("a one-letter part of a hyphen not joined is compared; the letter of an elision is not", () => {
  expect(compare("Book an appointment for an x-ray", "Book an appointment with Ray").equivalent).toBe(false);
  expect(compare("How long does recovery from a c-section take?", "How long does recovery from a section take?").equivalent).toBe(false);
  expect(extractFacets("Book an x-ray").literals).toEqual(["x"]);
  expect(extractFacets("Why don't cats like l’eau?").literals).toEqual([]);
});
