import { describe, expect, test } from "bun:test";
import { addressDetector } from "../../src/pipeline/pii/detectors/address";
import { shippedTagSpans } from "../../src/pipeline/pii/tagger/model";
import { Gap, STRIDE, tokenize } from "../../src/pipeline/pii/tagger/tokens";

describe("PII tagger tokens", () => {
  test("words, offsets and gaps, joined by an inner apostrophe or hyphen", () => {
    const text = "O'Neil met Jean-Luc, at 22-B.\nZoë’s café: ok";
    const tokens = tokenize(text);
    expect(Array.from(tokens, (t) => t.text)).toEqual(["O'Neil", "met", "Jean-Luc", "at", "22-B", "Zoë’s", "café", "ok"]);
    expect(Array.from(tokens, (t) => t.gap)).toEqual([Gap.Start, Gap.Space, Gap.Space, Gap.Comma, Gap.Space, Gap.Newline, Gap.Space, Gap.Stop]);
    expect(Array.from(tokens, (t) => [t.plain, t.ascii])).toEqual([
      [true, true],
      [true, true],
      [false, true],
      [true, true],
      [false, true],
      [false, false],
      [false, false],
      [true, true],
    ]);
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens.at(i);
      expect(text.slice(t.start, t.end)).toBe(t.text);
      expect(tokens.gap(i)).toBe(t.gap);
      expect(tokens.first(i)).toBe(text.charCodeAt(t.start));
      expect([tokens.start(i), tokens.end(i)]).toEqual([t.start, t.end]);
    }
    expect(tokens.at(2).before).toBe(32);
    expect(tokens.at(2).after).toBe(44);
    expect(tokens.at(tokens.length - 1).after).toBe(0);
  });

  test("no words, one character, only separators", () => {
    expect(tokenize("").length).toBe(0);
    expect(tokenize(" ,. \n").length).toBe(0);
    expect(Array.from(tokenize("a"), (t) => t.text)).toEqual(["a"]);
    expect(Array.from(tokenize("a b c d"), (t) => t.text)).toEqual(["a", "b", "c", "d"]);
  });

  test("an ordinary sentence opener before a number is still read as part of an address", () => {
    // Tagging skips capitalised openers general English writes in lower case ("Unit" is one) unless a number follows.
    const text = "Please send it here:\nUnit 1783 Box 3210\nDPO AP 99855";
    expect(addressDetector.detect(text).map((s) => text.slice(s.start, s.end))).toEqual(["Unit 1783 Box 3210\nDPO AP 99855"]);
  });
});

describe("PII tagger tokens written into a reused array", () => {
  test("the same tokens as a fresh array, grown when too small; no field of an earlier text is read", () => {
    const texts = ["Call Jean-Luc O'Neil at 22-B Baker St.", "Zoë’s café:\nok, 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", "a"];
    let reuse: Int32Array = new Int32Array(2 * STRIDE);
    for (const text of texts) {
      const fresh = tokenize(text);
      const reused = tokenize(text, reuse);
      reuse = reused.data;
      expect(Array.from(reused, (t) => [t.start, t.end, t.gap, t.plain, t.ascii])).toEqual(Array.from(fresh, (t) => [t.start, t.end, t.gap, t.plain, t.ascii]));
    }
    // The tagger keeps its array from text to text: the order texts are tagged in changes nothing.
    const tagged = ["Please ask Margarethe Vandersloot.", "Send it to 221B Baker Street, London", "dawn jessen called"];
    const spans = (text: string) => shippedTagSpans(text).map((s) => `${s.label}:${text.slice(s.start, s.end)}`);
    const forward = tagged.map(spans);
    const backward = [...tagged].reverse().map(spans).reverse();
    expect(backward).toEqual(forward);
    expect(forward[0]).toEqual(["PERSON:Margarethe Vandersloot"]);
  });
});

describe("PII tagger completion rules", () => {
  const persons = (text: string) => shippedTagSpans(text).flatMap((s) => (s.label === "PERSON" ? [text.slice(s.start, s.end)] : []));

  test("a name stops at a possessive: the words after it are what the person owns", () => {
    expect(persons("They sang the verses from Kevin Lamovec's Cautionary Tales.")).toEqual(["Kevin Lamovec's"]);
    expect(persons("They sang the verses from Kevin Lamovec’s Cautionary Tales.")).toEqual(["Kevin Lamovec’s"]);
  });

  test("a name found once is found wherever the text writes it again, its possessive too", () => {
    expect(persons("Kornelia Hajdu wrote twice. Later, Hajdu's second letter came, and Hajdu signed it.")).toEqual(["Kornelia Hajdu", "Hajdu's", "Hajdu"]);
    // Not a sentence opener general English writes in lower case, nor the same word in another case.
    expect(persons("Will Smith came. Will you come? Smith said smith.")).toEqual(["Smith", "Smith"]);
  });

  test("the capitalised word after a title is a name, even one English writes in lower case", () => {
    expect(persons("Ms Summer replied.")).toEqual(["Summer"]);
    // A title's word is never the name itself, nor a weekday after one.
    expect(persons("Ask Mr. Monday nothing.")).toEqual([]);
  });

  test("a title of another language is no part of the name, nor an address; the word after it is the name", () => {
    const spans = (text: string) => shippedTagSpans(text).map((s) => `${s.label}:${text.slice(s.start, s.end)}`);
    // The model before took the title into the name ("Herr Schmidt", "Madame Dubois").
    expect(spans("Herr Schmidt will call you back.")).toEqual(["PERSON:Schmidt"]);
    expect(spans("Please ask Frau Köhler about the invoice.")).toEqual(["PERSON:Köhler"]);
    expect(spans("Madame Dubois signed the lease.")).toEqual(["PERSON:Dubois"]);
    expect(spans("Señor, your table is ready.")).toEqual([]);
  });
});
