import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSynonyms } from "../../src/pipeline/models";
import { compareFacets, extractFacets, SynonymTable, type MismatchKind, type WordSimilarity } from "../../src/pipeline/cache";
import { stem } from "../../src/pipeline/cache/facets";
import { SHIPPED_SYNONYMS } from "../../src/pipeline/cache/request-synonyms";

/**
 * svc ships hand-written request words (src/pipeline/cache/request-synonyms.ts; the table it had
 * before came from WordNet, which is not data svc may tune on); an operator may add groups
 * (SVC_CACHE_SYNONYMS_FILE). These are written here, for these tests: words, stemmed as the verifier stems them.
 */
const GROUPS = [
  ["couch", "sofa"],
  ["okay", "fine"],
  ["calculate", "compute"],
  ["permit", "allow"],
  ["decline", "refuse"],
  ["image", "picture"],
  ["depend", "dependent"],
].map((g) => g.map(stem).join(" "));
const file = join(mkdtempSync(join(tmpdir(), "svc-synonyms-")), "synonyms.json");
writeFileSync(file, JSON.stringify({ description: "written for test/cache/synonyms.test.ts", source: "hand-written", groups: GROUPS }));
const operators = await loadSynonyms(file);
/** What the cache passes before any word is embedded: the table alone decides swapped words. */
const tableOnly: WordSimilarity = { vectors: new Map(), minSimilarity: 0.3, synonyms: operators };
const noTable: WordSimilarity = { vectors: new Map(), minSimilarity: 0.3 };

function compare(a: string, b: string, words = tableOnly) {
  return compareFacets(extractFacets(a), extractFacets(b), words);
}

/** The same request with a word swapped for a synonym in a common sense of both. */
const SYNONYM_SWAPS: [string, string][] = [
  ["Where can I buy a cheap couch?", "Where can I buy a cheap sofa?"],
  ["Is it okay to freeze cooked rice?", "Is it fine to freeze cooked rice?"],
  ["How do I calculate compound interest on a loan?", "How do I compute compound interest on a loan?"],
  ["Should landlords permit pets in apartments?", "Should landlords allow pets in apartments?"],
  ["Should I decline the job offer?", "Should I refuse the job offer?"],
  ["Draw an image of a lighthouse at night", "Draw a picture of a lighthouse at night"],
  // A derivation of the same idea in another part of speech.
  ["Is the outcome dependent on the order of the steps?", "Does the outcome depend on the order of the steps?"],
];

/** A word swapped for one related to it otherwise: antonym, sister term, hypernym, hyponym, a rare sense. */
const RELATED_SWAPS: [relation: string, a: string, b: string][] = [
  ["antonym", "Why is my bread so hard after baking?", "Why is my bread so soft after baking?"],
  ["antonym", "Is it dangerous to swim after eating?", "Is it safe to swim after eating?"],
  ["sister term", "How often should I feed my dog?", "How often should I feed my cat?"],
  ["sister term", "What is the best wood for a guitar?", "What is the best wood for a violin?"],
  ["sister term", "How long should I boil an egg?", "How long should I fry an egg?"],
  ["hypernym", "Can I give my dog chocolate?", "Can I give my animal chocolate?"],
  ["hypernym", "How do I clean a carpet?", "How do I clean a floor covering?"],
  ["hyponym", "How long should I cook fish in the oven?", "How long should I cook salmon in the oven?"],
  ["hyponym", "What is the best tree for a small garden?", "What is the best oak for a small garden?"],
  // Senses too rare to count: "dog" is also a "cad", "cat" a "guy", "make" also means "draw".
  ["rare sense", "Write a poem about my dog", "Write a poem about my cad"],
  ["rare sense", "Where can I adopt a cat?", "Where can I adopt a guy?"],
  ["rare sense", "How do I make a cake?", "How do I draw a cake?"],
];

describe("synonym table", () => {
  test("pairs stems that share a group, in either order, and nothing through a third word", () => {
    const table = new SynonymTable(["bike motorcycl", "bicycl bike pedal"]);
    expect(table.areSynonyms("bike", "motorcycl")).toBe(true);
    expect(table.areSynonyms("motorcycl", "bike")).toBe(true);
    expect(table.areSynonyms("pedal", "bicycl")).toBe(true);
    expect(table.areSynonyms("motorcycl", "bicycl")).toBe(false);
    expect(table.areSynonyms("bike", "car")).toBe(false);
    expect(table.areSynonyms("car", "bike")).toBe(false);
    expect(table.size).toBe(4);
  });

  test("a file that is not a synonym table is refused with its name in the error", () => {
    expect(() => SynonymTable.parse("{", "x.json")).toThrow(/^x\.json: not JSON/);
    expect(() => SynonymTable.parse("[]", "x.json")).toThrow(/^x\.json: expected/);
    expect(() => SynonymTable.parse(JSON.stringify({ groups: ["alone"] }), "x.json")).toThrow(/two or more/);
    expect(() => SynonymTable.parse(JSON.stringify({ groups: [["a", "b"]] }), "x.json")).toThrow(/expected/);
    expect(SynonymTable.parse(JSON.stringify({ groups: ["a b"] }), "x.json").areSynonyms("a", "b")).toBe(true);
  });

  test("an operator's file adds its groups to the shipped ones: both pair, nothing else does", () => {
    expect(operators.areSynonyms(stem("sofa"), stem("couch"))).toBe(true);
    expect(operators.areSynonyms(stem("buy"), stem("purchase"))).toBe(true);
    expect(operators.areSynonyms(stem("make"), stem("create"))).toBe(false);
    expect(operators.size).toBeGreaterThan(SHIPPED_SYNONYMS.size);
  });

  test("a group with a context pairs only when both prompts share one of its context stems", () => {
    const table = new SynonymTable(["chang updat | email password", "item product"]);
    const has =
      (...stems: string[]) =>
      (s: string) =>
        stems.includes(s);
    expect(table.areSynonyms("chang", "updat", has("email"))).toBe(true);
    expect(table.areSynonyms("updat", "chang", has("password", "my"))).toBe(true);
    expect(table.areSynonyms("chang", "updat", has("app"))).toBe(false);
    expect(table.areSynonyms("chang", "updat")).toBe(false);
    expect(table.areSynonyms("item", "product")).toBe(true);
    expect(SynonymTable.parse(JSON.stringify({ groups: ["a b | c"] }), "x.json").areSynonyms("a", "b", has("c"))).toBe(true);
    expect(() => SynonymTable.parse(JSON.stringify({ groups: ["a | c"] }), "x.json")).toThrow(/two or more/);
  });
});

describe("verifier with the synonym table", () => {
  for (const [a, b] of SYNONYM_SWAPS) {
    test(`accepts: "${a}" vs "${b}"`, () => {
      expect(compare(a, b)).toEqual({ equivalent: true });
      expect(compare(b, a)).toEqual({ equivalent: true });
      // Without the table the swap is refused: the word vectors know spellings, not meanings.
      expect(compare(a, b, noTable)).toMatchObject({ equivalent: false, kind: "content" });
    });
  }

  for (const [relation, a, b] of RELATED_SWAPS) {
    test(`refuses (${relation}): "${a}" vs "${b}"`, () => {
      expect(compare(a, b).equivalent).toBe(false);
      expect(compare(b, a).equivalent).toBe(false);
    });
  }

  test("every other refusal comes before a synonym: numbers, negation, directions, entities, roles", () => {
    const refusals: [MismatchKind, string, string][] = [
      ["number", "Where can I buy 2 couches?", "Where can I buy 3 sofas?"],
      ["negation", "Is it okay to freeze cooked rice?", "Is it not fine to freeze cooked rice?"],
      ["direction", "Should I allow cookies before login?", "Should I permit cookies after login?"],
      ["entity", "How do I calculate taxes in Canada?", "How do I compute taxes in Mexico?"],
      ["role", "Should I permit this?", "Can I allow this?"],
    ];
    for (const [kind, a, b] of refusals) expect(compare(a, b)).toMatchObject({ equivalent: false, kind });
  });
});

describe("the shipped request words (src/pipeline/cache/request-synonyms.ts)", () => {
  const shipped: WordSimilarity = { vectors: new Map(), minSimilarity: 0.3, synonyms: SHIPPED_SYNONYMS };
  const ACCEPTED: [string, string][] = [
    ["How do I change my email address?", "How do I update my email address?"],
    ["How can I modify my password?", "How can I change my password?"],
    ["How do I delete my account?", "How do I remove my account?"],
    ["How do I return a product?", "How do I return an item?"],
    ["Do you ship to Norway?", "Do you deliver to Norway?"],
    ["How long does shipping take?", "How long does delivery take?"],
    ["How do I book a table for two?", "How do I reserve a table for two?"],
    ["Why was my card rejected?", "Why was my card declined?"],
    ["How do I cancel my plan?", "How do I cancel my subscription?"],
    ["How do I apply a discount code?", "How do I use a discount code?"],
    ["How do I make a complaint?", "How do I file a complaint?"],
  ];
  // Each word in a sense the group does not mean, or another word that only looks alike.
  const REFUSED: [string, string][] = [
    ["How do I update the app?", "How do I change the app?"],
    ["How do I update my phone?", "How do I change my phone?"],
    ["How do I change my number?", "How do I update my number?"],
    ["How do I edit my profile photo?", "How do I change my profile photo?"],
    ["How do I return a library book?", "How do I return a library reservation?"],
    ["How do I remove a tattoo?", "How do I delete a tattoo?"],
    ["How do I cancel my order?", "How do I terminate my order?"],
    ["How do I order a new card?", "How do I order a replacement card?"],
    ["How do I reset my password?", "How do I update my password?"],
  ];
  for (const [a, b] of ACCEPTED) {
    test(`accepts: "${a}" vs "${b}"`, () => {
      expect(compare(a, b, shipped)).toEqual({ equivalent: true });
      expect(compare(b, a, shipped)).toEqual({ equivalent: true });
    });
  }
  for (const [a, b] of REFUSED) {
    test(`refuses: "${a}" vs "${b}"`, () => {
      expect(compare(a, b, shipped)).toMatchObject({ equivalent: false, kind: "content" });
      expect(compare(b, a, shipped)).toMatchObject({ equivalent: false, kind: "content" });
    });
  }
});
