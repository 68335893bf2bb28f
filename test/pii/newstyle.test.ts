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
    const c = scoreWords(readPresidio(join(DATA, "pii-newstyle-dev.txt")), ["PERSON", "ADDRESS"], (t) => detectPii(t));
    expect(precision(c.PERSON!)).toBeGreaterThanOrEqual(0.985);
    expect(recall(c.PERSON!)).toBeGreaterThanOrEqual(0.887);
    expect(precision(c.ADDRESS!)).toBeGreaterThanOrEqual(0.995);
    expect(recall(c.ADDRESS!)).toBeGreaterThanOrEqual(0.935);
  });

  test("the second development set's figures (bench/pii-eval.ts --data bench/data/pii-newstyle-dev2.txt) hold", () => {
    // The published figures less 0.005; the model before (issue 30's first round) scored PERSON P 0.554 R 0.486, ADDRESS P 0.886 R 0.861.
    const c = scoreWords(readPresidio(join(DATA, "pii-newstyle-dev2.txt")), ["PERSON", "ADDRESS"], (t) => detectPii(t));
    expect(precision(c.PERSON!)).toBeGreaterThanOrEqual(0.64);
    expect(recall(c.PERSON!)).toBeGreaterThanOrEqual(0.536);
    expect(precision(c.ADDRESS!)).toBeGreaterThanOrEqual(0.881);
    expect(recall(c.ADDRESS!)).toBeGreaterThanOrEqual(0.856);
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
