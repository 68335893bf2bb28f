import { describe, expect, test } from "bun:test";
import { detectPii } from "../../src/pipeline/pii/detect";

/** The text of each detection of `type` in `text`. */
const found = (text: string, type: "PERSON" | "ADDRESS") => detectPii(text).flatMap((d) => (d.type === type ? [text.slice(d.start, d.end)] : []));

// Sentences written for this test (issue 30, sixth round), none copied from a development or check set:
// each rule of tagger/records.ts, introductions.ts, word-names.ts and detectors/address-lines.ts once
// where it must find (each of those fails on main edfad90) and once where it must not.
describe("PII names as records write them", () => {
  test("an airline's SURNAME/GIVEN before a title, not any slashed capitals", () => {
    expect(found("1. ABERCROMBIE/TOBIAS MR  SEAT 31F", "PERSON")).toContain("ABERCROMBIE/TOBIAS");
    expect(found("Supports TCP/IP and HTTP/HTTPS out of the box.", "PERSON")).toEqual([]);
  });

  test("Surname, Given opening a field and ending it, not a place or a sentence", () => {
    expect(found("Waitlist: Marchetti, Grace; Oduya, Felix", "PERSON")).toEqual(["Marchetti", "Grace", "Oduya", "Felix"]);
    expect(found("Venue: Lyon, France; Porto, Portugal", "PERSON")).toEqual([]);
    expect(found("Summary, Notes\nSee below.", "PERSON")).toEqual([]);
  });

  test("the name beside an e-mail address that spells it, not a team's or a word's", () => {
    expect(found("Ping Grace Abara (grace.a@example.com) for access", "PERSON")).toEqual(["Grace Abara"]);
    expect(found('From: "Odile Marchand" <om@example.fr>', "PERSON")).toEqual(["Odile Marchand"]);
    expect(found("Write to Support <support@example.com> or Billing <billing@example.com>.", "PERSON")).toEqual([]);
  });
});

describe("PII names after a shipping label's or call log's label", () => {
  test("capitals or name-like words ending the line, a comma or a double space", () => {
    expect(found("SHIP TO:\nMARISA DELGADO\n18 ELM ST", "PERSON")).toEqual(["MARISA DELGADO"]);
    expect(found("CALLER: TOVE LINDAHL  LINE 2", "PERSON")).toEqual(["TOVE LINDAHL"]);
    expect(found("c/o Anselm Birkett, 4 Quarry Lane, Frome", "PERSON")).toEqual(["Anselm Birkett"]);
    expect(found("BEGIN:VCARD\nFN:Ilse Vandermeer\nEND:VCARD", "PERSON")).toEqual(["Ilse Vandermeer"]);
  });

  test("not the address, a company or words of the line", () => {
    expect(found("SHIP TO:\n18 ELM ST\nDOVER DE 19901", "PERSON")).toEqual([]);
    expect(found("c/o Front Desk, 4 Quarry Lane, Frome", "PERSON")).toEqual([]);
    expect(found("fn Parse Input(text: &str) -> Vec<u8>", "PERSON")).toEqual([]);
  });
});

describe("PII an address's label in another language", () => {
  test("is no person", () => {
    expect(found("Zustelladresse: Lindenweg 4, 79098 Freiburg", "PERSON")).toEqual([]);
    expect(found("Zustelladresse: Lindenweg 4, 79098 Freiburg", "ADDRESS")).toEqual(["Lindenweg 4, 79098 Freiburg"]);
  });

  test("a chat speaker before a sentence stays a name", () => {
    expect(found("Thandiwe: see you at the station", "PERSON")).toEqual(["Thandiwe"]);
  });
});

describe("PII callers naming themselves", () => {
  test("after a greeting: 'hi this is X calling', 'hey it's X again'", () => {
    expect(found("hi this is grace calling about the boiler service", "PERSON")).toEqual(["grace"]);
    expect(found("hello it's hope from the pharmacy", "PERSON")).toEqual(["hope"]);
  });

  test("a surname after a title in lower case", () => {
    expect(found("good afternoon mrs haugland your car is ready", "PERSON")).toEqual(["mrs haugland"]);
    expect(found("open it in ms word and ask dr google", "PERSON")).toEqual([]);
  });

  test("not 'it's me', 'it's raining' or a line with no greeting", () => {
    expect(found("hi it's me again, the code is on the fridge", "PERSON")).toEqual([]);
    expect(found("hey its raining here so the match is off", "PERSON")).toEqual([]);
    expect(found("this is grace from the bank", "PERSON")).toEqual([]);
  });
});

describe("PII given names that are English words before a surname", () => {
  test("found whole", () => {
    expect(found("Host: Will Okonkwo-Baines", "PERSON")).toEqual(["Will Okonkwo-Baines"]);
  });

  test("not a place, brand, event or question", () => {
    expect(found("We walked through the Rose Garden and past Victoria Park.", "PERSON")).toEqual([]);
    expect(found("Tickets for the Summer Olympics sold out.", "PERSON")).toEqual([]);
    expect(found("Will Pemberton ship it by Friday?", "PERSON")).toEqual([]);
  });

  test("a party's role is no part of the name", () => {
    expect(found("Defendant Tobias Ferreira-Lund was remanded.", "PERSON")).toEqual(["Tobias Ferreira-Lund"]);
  });
});

describe("PII address lines anchored by a ZIP, a box or a postcode", () => {
  test("a US street line in lower case or capitals with its city, state and ZIP", () => {
    expect(found("send it to 412 e 7th st apt 3 austin tx 78701.", "ADDRESS")).toEqual(["412 e 7th st apt 3 austin tx 78701"]);
    expect(found("Deliver to 3310 county rd 7, fort morgan co 80701", "ADDRESS")).toEqual(["3310 county rd 7, fort morgan co 80701"]);
    expect(found("i ran 5 miles down the rd in 30 minutes", "ADDRESS")).toEqual([]);
  });

  test("PO boxes and rural routes, not a PO box mentioned without a number", () => {
    expect(found("mail it to po box 4410 ely nv 89301", "ADDRESS")).toEqual(["po box 4410 ely nv 89301"]);
    expect(found("PO Box fees went up again this year.", "ADDRESS")).toEqual([]);
  });

  test("a continental street-then-number line with its postcode and city, not a street named in prose", () => {
    expect(found("Indirizzo: Via Solferino 9, 20121 Milano", "ADDRESS")).toEqual(["Via Solferino 9, 20121 Milano"]);
    expect(found("stuur het naar bloemgracht 14, 1016 kb amsterdam", "ADDRESS")).toEqual(["bloemgracht 14, 1016 kb amsterdam"]);
    expect(found("Via Cavour is busy at 17:00 on weekdays.", "ADDRESS")).toEqual([]);
  });
});

describe("PII address lines in linear time", () => {
  test("100 KB without whitespace, a box number every four characters", () => {
    const text = "box1".repeat(25_000);
    const t = performance.now();
    detectPii(text);
    // 6,002 ms on lead 658c292 (the walk back to a space over the whole text per box number); about 10 ms now.
    expect(performance.now() - t).toBeLessThan(1_000);
  });
});

// The false finds review7 listed on the sixth round's rules (/work/wt/review7/pii-findings.md), each a
// must-not-find; a word the tagger itself takes, as on main edfad90 ("Mark" of "Cheers, Mark"), is left to it.
describe("PII record rules: what they must not take", () => {
  test("slashed acronyms before a title-like word that does not end the field", () => {
    expect(found("What is the best AWS/AZURE DR strategy for us?", "PERSON")).toEqual([]);
    expect(found("Patient with HTN/DM CHD risk factors", "PERSON")).toEqual([]);
    expect(found("Export as PDF/DOCX MS Word compatible", "PERSON")).not.toContain("PDF/DOCX");
    expect(found("Handle FLOAT/DOUBLE INF values", "PERSON")).toEqual([]);
  });

  test("a name in capitals outside ASCII or with an apostrophe, the title ending the field", () => {
    expect(found("1. MÜLLER/JÖRG MR  SEAT 4C", "PERSON")).toContain("MÜLLER/JÖRG");
    expect(found("2. O'BRIEN/SEAN MR 2. O'BRIEN/AOIFE MRS", "PERSON")).toEqual(["O'BRIEN/SEAN", "O'BRIEN/AOIFE"]);
  });

  test("a label's value of English words in capitals, or attention without a colon", () => {
    for (const text of [
      "SHIP TO: SAME AS BILLING",
      "ATTENTION ALL STAFF",
      "ATTENTION: ALL PASSENGERS",
      "CALLER: UNKNOWN NUMBER",
      "DELIVER TO: FRONT DESK",
      "BILL TO: ACCOUNTS PAYABLE DEPT",
      "SOLD TO: ACME CORP",
    ])
      expect(found(text, "PERSON")).toEqual([]);
  });

  test("a sign-off, a list of languages, products or colours is no 'Surname, Given'", () => {
    // "Sincerely, Grace" signs a letter: Grace is the writer's name (greeted-names.ts finds it, as it should).
    expect(found("Sincerely, Grace", "PERSON")).not.toContain("Sincerely");
    expect(found("Cheers, Mark", "PERSON")).not.toContain("Cheers");
    expect(found("Languages: Python, Ruby", "PERSON")).not.toContain("Python");
    expect(found("Skills: Java, Ruby", "PERSON")).not.toContain("Java");
    expect(found("Amazon, Alexa", "PERSON")).toEqual([]);
    expect(found("Apple, Siri", "PERSON")).not.toContain("Apple");
    expect(found("Microsoft, Redmond", "PERSON")).not.toContain("Microsoft");
    expect(found("Colors available: Olive, Amber", "PERSON")).toEqual([]);
    expect(found("Guest: Fairweather, Summer  Room 1108", "PERSON")).toEqual(["Fairweather", "Summer"]);
  });

  test("a product's name before an address that spells one word of it", () => {
    expect(found("Github Copilot <copilot@github.com>", "PERSON")).toEqual([]);
    expect(found("Reply-To: Hollis Quarterman <hq@example.com>", "PERSON")).toEqual(["Hollis Quarterman"]);
  });

  test("a card's name opening a line", () => {
    expect(found("Chase Sapphire vs Amex Gold", "PERSON")).toEqual([]);
    expect(found("Guests: Rose Navarro and Joy Whitaker", "PERSON")).toEqual(["Rose Navarro", "Joy Whitaker"]);
  });

  test("a sentence's words before a postcode or a five-digit number", () => {
    for (const text of [
      "I upgraded via Python 3, 2000 tests failed",
      "Connected via HDMI 2, 1440 hz monitor",
      "Should I buy the Oura Ring 4, 2024 version or wait?",
      "Is the Samsung Galaxy Ring 2, 2025 model waterproof?",
      "Implement a 3 way merge sort in 10000 lines",
      "A 2 way street costs me 10000 dollars?",
      "It took 1 dr visit and cost me 15000 dollars",
    ])
      expect(found(text, "ADDRESS")).toEqual([]);
    expect(found("i live at 87 w 12th st apt 5 new york ny 10011 ring twice", "ADDRESS")).toEqual(["87 w 12th st apt 5 new york ny 10011"]);
    expect(found("Lieferung: Kärntner Ring 5, 1010 Wien", "ADDRESS")).toEqual(["Kärntner Ring 5, 1010 Wien"]);
    expect(found("Morada: Rua Augusta 274, 1100-053 Lisboa", "ADDRESS")).toEqual(["Rua Augusta 274, 1100-053 Lisboa"]);
  });
});
