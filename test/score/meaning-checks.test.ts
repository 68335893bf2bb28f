import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CAPITALIZED, meaningChecks } from "../../src/pipeline/score/meaning-checks";
import { eachMatch } from "../../src/text/each-match";

describe("meaningChecks", () => {
  test("finds nothing lost when only filler goes", () => {
    const lost = meaningChecks(
      "Hi there! Could you please, if it's not too much trouble, summarize the 2023 report from Acme Corp at https://acme.example/r.pdf and quote \"net revenue\" exactly? Don't include `draft_v2`.",
      'Summarize the 2023 report from Acme Corp at https://acme.example/r.pdf and quote "net revenue" exactly? Don\'t include `draft_v2`.',
    );
    expect(lost).toEqual({ numbers: [], negations: [], entities: [], codeSpans: [], urls: [], quotes: [] });
  });

  test("sees each kind of loss", () => {
    expect(meaningChecks("Ship 15 units by Friday.", "Ship 51 units by Friday.").numbers).toEqual(["15"]);
    expect(meaningChecks("Ship three units.", "Ship units.").numbers).toEqual(["three"]);
    expect(meaningChecks("Do not delete the table.", "Delete the table.").negations).toEqual(["not"]);
    expect(meaningChecks("I can't attend.", "I can attend.").negations).toEqual(["can't"]);
    expect(meaningChecks("Book a flight to Paris with Lufthansa.", "Book a flight to London with Lufthansa.").entities).toEqual(["Paris"]);
    expect(meaningChecks("Run `rm -rf build` first.", "Run rm build first.").codeSpans).toEqual(["`rm -rf build`"]);
    expect(meaningChecks("See https://example.com/a?b=1 for details.", "See example.com for details.").urls).toEqual(["https://example.com/a?b=1"]);
    expect(meaningChecks('Reply with "APPROVED" only.', "Reply with approval only.").quotes).toEqual(["APPROVED"]);
  });

  test("a politeness idiom's negation is filler, a real one is not", () => {
    expect(meaningChecks("If you don't mind, list the files.", "List the files.").negations).toEqual([]);
    expect(meaningChecks("If you don't mind, don't list the files.", "List the files.").negations).toEqual(["don't"]);
  });

  test("an entity counts only as a whole word, and repeats count", () => {
    expect(meaningChecks("Compare Java with Kotlin.", "Compare JavaScript with Kotlin.").entities).toEqual(["Java"]);
    expect(meaningChecks("Ask Maria, then tell Maria the result.", "Ask Maria, then tell the result.").entities).toEqual(["Maria"]);
    expect(meaningChecks("Ask Maria, then tell Maria the result.", "Maria: ask, then tell Maria.").entities).toEqual([]);
    expect(meaningChecks("Deploy to AWS-east today.", "Deploy to AWS today.").entities).toEqual(["AWS-east"]);
  });

  test("counts repeats: one of two equal numbers dropped is a loss", () => {
    expect(meaningChecks("Add 5 apples and 5 pears.", "Add 5 apples and pears.").numbers).toEqual(["5"]);
  });

  test("a name after a hyphen that is still there is not lost", () => {
    const original = "The Arab al-Jazeera network said 100 pro-Palestinians crossed at Allenby.";
    expect(meaningChecks(original, "Arab al-Jazeera network said 100 pro-Palestinians crossed at Allenby.").entities).toEqual([]);
    expect(meaningChecks(original, "Arab network said 100 crossed at Allenby.").entities).toEqual(["Jazeera", "Palestinians"]);
  });

  test("a repeated sentence said once loses nothing; a short repeat or a changed one does", () => {
    const twice = "Ship 3 boxes to Berlin by Friday. Use the blue tape. Ship 3 boxes to Berlin by Friday.";
    const once = "Ship 3 boxes to Berlin by Friday. Use the blue tape.";
    expect(meaningChecks(twice, once)).toEqual(meaningChecks(once, once));
    expect(meaningChecks("Add 2. Add 2.", "Add 2.").numbers).toEqual(["2"]);
    expect(meaningChecks("Ship 3 boxes to Berlin. Ship 4 boxes to Berlin.", "Ship 3 boxes to Berlin.").numbers).toEqual(["4"]);
  });

  test("prose that repeats a line of code is not a repeat: code is compared on its own", () => {
    const code = "```\nSet the limit to 5 items now.\n```";
    expect(meaningChecks(`${code}\nSet the limit to 5 items now.`, code).numbers).toEqual(["5"]);
  });
});

test("CAPITALIZED, its lookbehind tested after the first capital, finds what the lookbehind tested first finds", () => {
  const lookbehindFirst = /(?<![\p{L}\p{N}_])\p{Lu}[\p{L}\p{N}_-]*/gu;
  const matches = (pattern: RegExp, text: string) => {
    const found: [number, string][] = [];
    eachMatch(text, pattern, (m) => found.push([m.index, m[0]]));
    return found;
  };
  // Capitals and small letters in and out of ASCII and the BMP, digits, "_", "-", and what \p{L} does not hold.
  const unit = fc.constantFrom("A", "b", "Z", "É", "é", "𝐀", "𝐚", "ǅ", "İ", "1", "٣", "_", "-", " ", ".", "\n", "'", "😀", "\u0301");
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 20 }), (t) => {
      expect(matches(CAPITALIZED, t)).toEqual(matches(lookbehindFirst, t));
    }),
    { numRuns: 20000 },
  );
});
