import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { eachMatch } from "../../src/text/each-match";
import { AnchoredMatches, type AnchoredPattern } from "../../src/text/anchored-matches";
import { WORD_ANCHORED } from "../../src/pipeline/compress/protect/spans";
import { PHRASE_PATTERNS } from "../../src/pipeline/compress/text/phrase-patterns";
import { WORD_OPENED } from "../../src/ml/text-features";
import { HARDNESS_PATTERNS } from "../../src/text/hardness";
// The rules make their phrase patterns when they load.
import "../../src/pipeline/compress/rules";

/** Each pattern's matches as a global exec loop finds them, and as the scan does. */
const byExecLoop = (patterns: readonly AnchoredPattern[], text: string) =>
  patterns.map(({ pattern }) => {
    const found: [number, string][] = [];
    eachMatch(text, pattern, (m) => found.push([m.index, m[0]]));
    return found;
  });
const byScan = (scan: AnchoredMatches, count: number, text: string) => {
  const found: [number, string][][] = Array.from({ length: count }, () => []);
  scan.each(text, (k, m) => found[k]!.push([m.index, m[0]]));
  return found;
};

/** Words as they may be written: any case, and the text around them where `\b` is decided. */
const anyCase = (word: string) =>
  fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }).map((up) => [...word].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(""));
const separator = fc.constantFrom(
  "",
  " ",
  "  ",
  "\t",
  "\n",
  "-",
  "_",
  "'",
  "’",
  ".",
  ". ",
  ",",
  ":",
  "?",
  "5",
  "42",
  "3.5",
  "$",
  "#",
  "é",
  "ſ",
  "\u212A",
  "😀",
  "(",
  "%",
  "\uE000\uE100\uE001",
  // Where the classifier's code_keyword opens outside a word.
  "=>",
  "{",
  "};",
  ";\n",
);

function textOf(words: readonly string[]) {
  const word = fc.constantFrom(...words).chain(anyCase);
  return fc.array(fc.tuple(word, separator), { maxLength: 14 }).map((parts) => parts.map(([w, s]) => w + s).join(""));
}

describe("AnchoredMatches", () => {
  const toy: AnchoredPattern[] = [
    { pattern: /\b(?:no|not|never)\b(?:\s+\w+)?/gi, words: ["no", "not", "never"] },
    { pattern: /[$#]?\d+(?:\.\d+)?(?:\s?(?:kg|%))?/g, words: [], units: "0123456789$#" },
    { pattern: /\b[a-z]+n't\b|\bNo\b/g, words: ["no"], opensWord: (t, _s, e) => t[e - 1] === "n" && t[e] === "'" },
    // Empty matches: the exec loop steps over them.
    { pattern: /(?<!\w)(?=no\b)|\bnot\b/gi, words: ["no", "not"] },
  ];
  const scan = new AnchoredMatches(toy);

  test("finds what a global exec loop finds, when the words and units cover where matches open", () => {
    fc.assert(
      fc.property(textOf(["no", "not", "never", "none", "know", "don", "t", "kg", "x", "a"]), (t) => {
        expect(byScan(scan, toy.length, t)).toEqual(byExecLoop(toy, t));
      }),
      { numRuns: 3000 },
    );
  });

  test("a word is a run of ASCII letters with no digit or _ before it, as \\b reads it", () => {
    const t = "No 5no _no éno not\u212Ano";
    const found = byScan(scan, toy.length, t);
    expect(found[0]!.map(([at]) => at)).toEqual([0, 12, 19]);
    expect(found).toEqual(byExecLoop(toy, t));
  });

  test("refuses patterns it cannot scan for", () => {
    expect(() => new AnchoredMatches([{ pattern: /\bno\b/i, words: ["no"] }])).toThrow(/global/);
    expect(() => new AnchoredMatches([{ pattern: /\bno\b/giu, words: ["no"] }])).toThrow(/u \(or v\) and i/);
    expect(() => new AnchoredMatches([{ pattern: /\bno\b/giv, words: ["no"] }])).toThrow(/u \(or v\) and i/);
    expect(() => new AnchoredMatches([{ pattern: /a/g, words: [], units: "a" }])).toThrow(/outside words/);
  });
});

/** A pattern's source with its escapes (\b, \s, \d...) blanked: "\btl" spells the word "tl", not "btl". */
const withoutEscapes = (source: string) => source.replace(/\\[a-z]/gi, " ");

/**
 * Phrases a pattern may match, read off its source: its letter runs in the order written, some left
 * out, so that one alternative's words come in a row ("(?:is|are) able to" gives "is able to"), after a
 * line break, a sentence end or nothing, in any case. With random texts of the same words, a word left
 * out of a pattern's list shows up as a match the scan misses: taking "you" out of intent's list, "to"
 * or "spite" out of filler's, "sept" out of the dates' or "nor" out of the negations' fails the test.
 */
function phrasesOf(source: string) {
  const runs = (withoutEscapes(source).match(/[a-z]+/gi) ?? []).map((w) => w.toLowerCase());
  // Mostly spaces between the words, sometimes what an optional character or a joined spelling puts there ("tl;dr", "role-play").
  const between = fc.constantFrom(" ", " ", " ", " ", "-", ";", "");
  const walk = fc.tuple(fc.nat(runs.length - 1), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 7 }), between).map(([from, keep, joint]) =>
    runs
      .slice(from, from + keep.length)
      .filter((_, i) => i === 0 || keep[i]! > 2)
      .join(joint),
  );
  return fc.tuple(fc.constantFrom("", "\n", "x. ", "1 "), walk.chain(anyCase), fc.constantFrom("", " x", ".", " 5 x")).map((parts) => parts.join(""));
}

/** Holds each pattern's word list to the pattern, on texts of the words it spells and phrases it may match. */
function holdsWordsToPatterns(what: string, patterns: readonly AnchoredPattern[]) {
  describe(what, () => {
    const scan = new AnchoredMatches(patterns);
    for (const [k, anchored] of patterns.entries()) {
      // Letter runs as written, and joined across an optional character ("tl;?dr", "stack ?trace", "role-?play").
      const joined = withoutEscapes(anchored.pattern.source.replace(/(?:\\.|[^a-z()|[\]{}\\])\?/gi, ""));
      const spelled = [...(withoutEscapes(anchored.pattern.source).match(/[a-z]+/gi) ?? []), ...(joined.match(/[a-z]+/gi) ?? [])];
      // Every prefix of a letter run too: "Sept?" opens with "sep".
      const vocabulary = [...new Set([...spelled.flatMap((w) => [...w].map((_, i) => w.slice(0, i + 1).toLowerCase())), ...anchored.words, "the", "words"])];
      test(`${anchored.pattern.source.slice(0, 40)}…: the scan finds the pattern's matches`, () => {
        fc.assert(
          fc.property(fc.oneof(textOf(vocabulary), phrasesOf(anchored.pattern.source)), (t) => {
            expect(byScan(scan, patterns.length, t)[k]).toEqual(byExecLoop(patterns, t)[k]!);
          }),
          { numRuns: 10000 },
        );
      });
    }
  });
}

holdsWordsToPatterns("the guards' word-anchored detectors", WORD_ANCHORED);
holdsWordsToPatterns("the phrase rules' patterns", PHRASE_PATTERNS);
holdsWordsToPatterns("the task classifier's word-opened text features", WORD_OPENED);
holdsWordsToPatterns("the router's hardness counts", HARDNESS_PATTERNS);
