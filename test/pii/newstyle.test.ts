import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readMarked, readPresidio } from "../../models/pii-ner/data";
import { precision, recall, scoreWords } from "../../models/pii-ner/score";
import { WORLD_FIRST, WORLD_LAST } from "../../models/pii-ner/written-world";
import { detectPii } from "../../src/pipeline/pii/detect";

/** The text of each detection of `type` in `text`. */
const found = (text: string, type: "PERSON" | "ADDRESS") => detectPii(text).flatMap((d) => (d.type === type ? [text.slice(d.start, d.end)] : []));

const DATA = join(import.meta.dir, "..", "..", "bench", "data");

/** The word-level figures of a marked-up set in bench/data hold at least [person P, person R, address P, address R]. */
function expectFigures(file: string, [pp, pr, ap, ar]: [number, number, number, number]): void {
  const c = scoreWords(readPresidio(join(DATA, file)), ["PERSON", "ADDRESS"], (t) => detectPii(t));
  expect(precision(c.PERSON!)).toBeGreaterThanOrEqual(pp);
  expect(recall(c.PERSON!)).toBeGreaterThanOrEqual(pr);
  expect(precision(c.ADDRESS!)).toBeGreaterThanOrEqual(ap);
  expect(recall(c.ADDRESS!)).toBeGreaterThanOrEqual(ar);
}

describe("PII tagger on text in the new style (issue 30's fresh-set misses; sentences written for this test)", () => {
  test("names of many cultures after a form label", () => {
    expect(found("Emergency contact: Babatunde Okoro, father", "PERSON")).toEqual(["Babatunde Okoro"]);
    expect(found("Driver: Vo Thanh Tung, licence on file", "PERSON")).toEqual(["Vo Thanh Tung"]);
    expect(found("Contact: Rukhsana Begum", "PERSON")).toEqual(["Rukhsana Begum"]);
  });

  test("a lower-case first name in casual chat", () => {
    expect(found("can u ask tobi if the car is free", "PERSON")).toEqual(["tobi"]);
    expect(found("did ravi ever send the photos", "PERSON")).toEqual(["ravi"]);
  });

  test("addresses in UK, Canadian, Australian, German and Indian formats, found whole", () => {
    for (const [text, address] of [
      ["Please send the keys to 48 Clarence Road, Norwich NR1 3QB.", "48 Clarence Road, Norwich NR1 3QB"],
      ["Send it to 88 Rideau Street, Ottawa, ON K1N 5W8", "88 Rideau Street, Ottawa, ON K1N 5W8"],
      ["Postal address: 14/3 Ocean Parade, Coogee NSW 2034", "14/3 Ocean Parade, Coogee NSW 2034"],
      ["Registered office: Kastanienallee 12, 10435 Berlin", "Kastanienallee 12, 10435 Berlin"],
      ["Deliver to: Flat No. 401, 5th Main, HSR Layout, Bengaluru 560102", "Flat No. 401, 5th Main, HSR Layout, Bengaluru 560102"],
    ])
      expect(found(text!, "ADDRESS")).toEqual([address!]);
  });

  test("no person in a prompt without capitals in another script, nor a street without a number", () => {
    // Uncased Russian words were scored as unknown lower-case words ("поездке" was a person).
    expect(detectPii("напиши мне письмо другу о поездке")).toEqual([]);
    expect(detectPii("我想学习如何写一首关于春天的诗，请给我一些建议")).toEqual([]);
    expect(detectPii("We walked along Clarence Road to the park.")).toEqual([]);
  });

  test("the development set's figures (bench/pii-eval.ts --data bench/data/pii-newstyle-dev.txt) hold", () => {
    // The published figures (models/pii-ner/MODEL_CARD.md) less 0.005; the model before scored PERSON P 0.823 R 0.712, ADDRESS P 0.928 R 0.481.
    // Issue 30's second round: PERSON P 0.971 -> 0.990 (floor up), R 0.892 (same); ADDRESS recall LOOSENED 0.947 -> 0.940 (one word of 20 addresses' words).
    // Issue 30's third round: PERSON P 0.990 -> 1.000 (floor kept).
    expectFigures("pii-newstyle-dev.txt", [0.985, 0.887, 0.995, 0.935]);
  });

  test("the second development set's figures (bench/pii-eval.ts --data bench/data/pii-newstyle-dev2.txt) hold", () => {
    // The published figures less 0.005; the model before (issue 30's first round) scored PERSON P 0.554 R 0.486, ADDRESS P 0.886 R 0.861.
    // Issue 30's third round (completion rules: initials, eponyms, greetings, action items, places): PERSON P 0.645 -> 0.746, R 0.541 -> 0.635.
    expectFigures("pii-newstyle-dev2.txt", [0.741, 0.63, 0.881, 0.856]);
  });

  test("the third development set's figures (bench/pii-eval.ts --data bench/data/pii-newstyle-dev3.txt) hold", () => {
    // The published figures less 0.005; main 993fd57 scored PERSON P 0.803 R 0.743, ADDRESS P 0.913 R 0.864.
    expectFigures("pii-newstyle-dev3.txt", [0.875, 0.786, 0.908, 0.859]);
  });

  test("the fifth development set's and its check set's figures (bench/pii-eval.ts --data bench/data/pii-newstyle-dev5.txt, -check3.txt) hold", () => {
    // Issue 30's fifth round, the figures less 0.005: main f1a5ce1 scored dev5 PERSON P 0.826 R 0.799, ADDRESS P 0.955 R 0.699,
    // now 0.888 / 0.902, 0.960 / 0.779; check3 (totals only read) PERSON 0.774 / 0.707 -> 0.811 / 0.741, ADDRESS 1.000 / 0.723 -> 1.000 / 0.771.
    expectFigures("pii-newstyle-dev5.txt", [0.883, 0.897, 0.955, 0.774]);
    expectFigures("pii-newstyle-check3.txt", [0.806, 0.736, 0.995, 0.766]);
  });

  test("the sixth development set's and its check set's figures (bench/pii-eval.ts --data bench/data/pii-newstyle-dev6.txt, -check4.txt) hold", () => {
    // Issue 30's sixth round, the figures less 0.005: main edfad90 scored dev6 PERSON P 0.769 R 0.629, ADDRESS P 0.970 R 0.741,
    // now 0.872 / 0.857, 0.988 / 0.931; check4 (totals only read) PERSON 0.756 / 0.652 -> 0.844 / 0.834, ADDRESS 0.925 / 0.728 -> 0.951 / 0.930.
    expectFigures("pii-newstyle-dev6.txt", [0.867, 0.852, 0.983, 0.926]);
    expectFigures("pii-newstyle-check4.txt", [0.839, 0.829, 0.946, 0.925]);
  });

  test("the outside development set's and check5's figures (bench/pii-eval.ts --data bench/data/pii-outside-dev.txt, pii-newstyle-check5.txt) hold", () => {
    // Issue 30's seventh round, the figures less 0.005: lead aee135a scored the outside set PERSON P 0.798 R 0.801, ADDRESS P 0.949
    // R 0.920, now 0.930 / 0.839, the same; check5 (totals only read) PERSON 0.568 / 0.719 -> 0.597 / 0.719, ADDRESS 0.821 / 0.939.
    // Merged with the review's fixes of round six's record rules (a stricter "Surname, Given"): outside set PERSON 0.929 / 0.832.
    expectFigures("pii-outside-dev.txt", [0.924, 0.827, 0.944, 0.915]);
    expectFigures("pii-newstyle-check5.txt", [0.592, 0.714, 0.816, 0.934]);
  });

  test("the eighth round's own development and check sets' figures (bench/pii-eval.ts --data bench/data/pii-own8-dev.txt, pii-own8-check.txt) hold", () => {
    // Issue 30's eighth round, the figures less 0.005: lead 33a346d scored own8-dev PERSON P 0.910 R 0.716, ADDRESS P 0.949 R 0.761,
    // now 0.971 / 0.852, 0.982 / 0.895; own8-check (never tuned on, totals only) PERSON 0.897 / 0.714 -> 0.909 / 0.714, ADDRESS 0.738 / 0.754 -> 0.750 / 0.845.
    expectFigures("pii-own8-dev.txt", [0.966, 0.847, 0.977, 0.89]);
    expectFigures("pii-own8-check.txt", [0.904, 0.709, 0.745, 0.84]);
  });

  test("a row of figures or a list of numbers is no address", () => {
    expect(found("Scores:\n4   8  13  19\n7  12  18", "ADDRESS")).toEqual([]);
    expect(found("ids 001, 002, 003 are done", "ADDRESS")).toEqual([]);
  });
});

describe("PII training texts written for this project", () => {
  test("no name word of the development set or the adversarial cases is among written-world.ts's names", () => {
    const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}'-]+/u);
    const held = new Set<string>();
    for (const s of readPresidio(join(DATA, "pii-newstyle-dev.txt")))
      for (const span of s.spans) if (span.entity_type === "PERSON") for (const w of words(span.entity_value)) held.add(w);
    const adversarial = JSON.parse(readFileSync(join(DATA, "pii-adversarial.json"), "utf8")) as { cases: { names: string[] }[] };
    for (const c of adversarial.cases) for (const n of c.names) for (const w of words(n)) held.add(w);
    expect(held.size).toBeGreaterThan(100);
    expect([...WORLD_FIRST, ...WORLD_LAST].filter((w) => held.has(w.toLowerCase()))).toEqual([]);
  });

  test("marked-up samples: spans where the marks were, line breaks and comments", () => {
    const [a, b, ...rest] = readMarked("# a comment\nName: [[P:Ada Obi]]\\nShip to [[A:1 Elm Road, York YO1 7HH]]\n\nplain [[O:Acme]] text\n");
    expect(rest).toEqual([]);
    expect(a!.full_text).toBe("Name: Ada Obi\nShip to 1 Elm Road, York YO1 7HH");
    expect(a!.spans.map((s) => [s.entity_type, a!.full_text.slice(s.start_position, s.end_position)])).toEqual([
      ["PERSON", "Ada Obi"],
      ["ADDRESS", "1 Elm Road, York YO1 7HH"],
    ]);
    expect(b!.spans.map((s) => [s.entity_type, s.entity_value])).toEqual([["ORGANIZATION", "Acme"]]);
  });
});
