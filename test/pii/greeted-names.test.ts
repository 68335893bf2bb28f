import { describe, expect, test } from "bun:test";
import { detectPii } from "../../src/pipeline/pii/detect";

/** The text of each person detection in `text`. */
const persons = (text: string) => detectPii(text).flatMap((d) => (d.type === "PERSON" ? [text.slice(d.start, d.end)] : []));

// Sentences written for this test (issue 30, seventh round), none copied from a development set: the
// rule of src/pipeline/pii/tagger/greeted-names.ts where it must find (lead 90c1f9e found one of these
// six names) and where it must not.
describe("PII word-like given names addressed, signed or paired", () => {
  test("two names after a greeting, one after a greeting and a relative", () => {
    expect(persons("Dear Bill and Summer,\nThanks for staying.")).toEqual(["Bill", "Summer"]);
    expect(persons("Supper with Grace & Mark on Friday")).toEqual(["Grace & Mark"]);
    expect(persons("Ask for Will or Rose at the gate.")).toEqual(["Will", "Rose"]);
  });

  test("not a list of words, months or a document's name", () => {
    expect(persons("Celebrate Joy, Hope and Grace this season.")).toEqual([]);
    expect(persons("Flights with May or June dates")).toEqual([]);
    expect(persons("for Will and Testament templates")).toEqual([]);
  });
  test("a pair after with or for before the noun it qualifies is no names (the eighth review's over-masking)", () => {
    expect(persons("Scents for Rose or Lily lovers")).toEqual([]);
    expect(persons("Choose a gift for Amber or Ruby fans.")).toEqual([]);
  });
});

// Issue 30, twelfth round (written for this test): pairedNames.
describe("PII two given names joined by & or and", () => {
  test("given names that are no English words, or word-like ones before what a pair does", () => {
    expect(persons("Obinna & Farida — well done on the release!")).toEqual(["Obinna & Farida"]);
    expect(persons("ask Tobias and Anjali about it")).toEqual(["Tobias", "Anjali"]);
  });

  test("not a brand's possessive, a title-case name or a pair before a noun", () => {
    expect(persons("Can we stock Ben & Jerry's again?")).toEqual([]);
    // The tagger's own finds of "Jerry" here are older; the pair rule adds no "Tom".
    expect(persons("the kids love Tom & Jerry cartoons").join(" ")).not.toContain("Tom");
    expect(persons("Watch The Tom and Jerry Show tonight").join(" ")).not.toContain("Tom");
  });
});
