import { eachMatch } from "../../../text/each-match";
import { STREET_WORDS_ANY_CASE } from "./street-words";

/**
 * Address lines the tagger misses in other authors' styles, each anchored by what only an address ends
 * with: a US state and ZIP code, a PO box or rural-route box number, or a European postcode and city.
 * Issue 30, sixth round: on the sixth new-style development set (bench/data/pii-newstyle-dev6.txt) the
 * tagger found a lone ZIP or nothing of lower-case US lines ("87 w 12th st apt 5 new york ny 10011"),
 * county-road and highway lines ("w4410 county hwy k, elkhorn wi 53121"), rural routes ("rr 2 box 190")
 * and Italian, Spanish, Catalan, Portuguese, Belgian and Dutch street-then-number lines ("Via Mazzini 8,
 * 40138 Bologna", "prinsengracht 89, 1015 dl amsterdam").
 */

const US_STATES =
  "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY";
/** ", city, ST 12345": a city of up to four words (on this line or the next), a state's two letters in either case and a ZIP. */
const CITY_STATE_ZIP = String.raw`,?\s+(?:[\p{L}.'-]+[ \t]+){0,3}?[\p{L}.'-]+,?[ \t]+(?:${US_STATES}|${US_STATES.toLowerCase()})[ \t]+\d{5}(?:-\d{4})?(?![\p{L}\d])`;

/**
 * A US street line in any case and its city, state and ZIP: a house number (a Wisconsin rural number
 * "w4410" too), up to four words, a street word, a route number or letter after a road ("County Rd
 * 12", "county hwy k"), a direction, a unit. Without the state and ZIP a lower-case street line is not
 * taken: "ran 5 miles down the rd".
 */
const US_LINE = new RegExp(
  String.raw`(?<![\p{L}\d.])(?:[NSEWnsew]\d{3,5}|\d{1,6}[A-Za-z]?)(?:[ \t]+[\p{L}\d'.-]+){1,4}?[ \t]+(?:${STREET_WORDS_ANY_CASE})\.?(?:[ \t]+(?:\d{1,4}[A-Za-z]?|[A-Za-z])(?![\p{L}\d]))?(?:[ \t]+(?:[NSns][EWew]?|[EWew])(?![\p{L}\d]))?(?:,?[ \t]+(?:apt|unit|ste|suite|Apt|Unit|Ste|Suite|APT|UNIT|#)\.?[ \t]*#?[A-Za-z\d-]{1,5})?${CITY_STATE_ZIP}`,
  "gu",
);

/** A PO box, private mailbox or rural-route or highway-contract box, with its city, state and ZIP when they follow. */
const BOX_LINE = new RegExp(
  String.raw`(?<![\p{L}\d.])(?:[Pp]\.?[ \t]?[Oo]\.?[ \t]*(?:[Bb]ox|BOX)|[Pp]ost [Oo]ffice [Bb]ox|PMB|pmb|(?:RR|rr|R\.R\.|[Rr]ural [Rr]oute|RURAL ROUTE|HC|hc)[ \t]*\d{1,3},?[ \t]+(?:[Bb]ox|BOX))[ \t]*#?\d{1,6}(?![\p{L}\d])(?:${CITY_STATE_ZIP})?`,
  "gu",
);

/** A word in either case: "[Vv]ia". */
const eitherCase = (words: string) =>
  words
    .split(" ")
    .map((w) => `[${w[0]!.toUpperCase()}${w[0]}]${w.slice(1)}`)
    .join("|");
/** ", 40138 Bologna", ", 1015 dl amsterdam", ", 1100-063 Lisboa", and one part between ("3º Esq", "4t 2a"). */
const POSTCODE_CITY = String.raw`(?:,[ \t]*[^,\n]{1,12}?)?,[ \t]*(?:\d{4}[ \t]?[A-Za-z]{2}|\d{4}-\d{3}|\d{4,5})[ \t]+\p{L}[\p{L}'-]+(?:[ \t]+\p{Lu}[\p{L}'-]+)?`;
const HOUSE = String.raw`[ \t]+\d{1,5}[A-Za-z]?(?:bis)?(?:[-/]\d{1,4}[A-Za-z]?)*(?![\p{L}\d])`;
/**
 * A continental European street line: an opening word ("Via", "Calle", "Rua", "Avenue") and up to five
 * words of the name, or a name with a street's ending ("Keizersgracht", "Königstr.", "Kärntner Ring"),
 * then the house number, and the postcode and city after a comma. Without the postcode no line is taken
 * ("Via Garibaldi is known for its palaces").
 */
const EUROPEAN_LINE = new RegExp(
  String.raw`(?<![\p{L}\d])(?:(?:${eitherCase("calle carrer carrera avenida avda av rua via viale corso piazza piazzale strada rue avenue boulevard chaussée quai paseo plaza praça largo travessa alameda rambla ronda")})\.?(?:[ \t]+[\p{L}'.-]+){1,5}?|(?:\p{Lu}\p{L}+[ \t]+)?[\p{L}-]*(?:straße|strasse|str\.|gracht|straat|weg|laan|plein|kade|dijk|singel|allee|platz|gasse|Straße|Strasse|Str\.|Gasse|Allee|Platz|Weg|Ring|Markt))${HOUSE}${POSTCODE_CITY}`,
  "gu",
);

/** The tails the patterns end with: a ZIP ("NY 10011", "or 97211": the state is checked before it), a postcode and city after a comma. */
// A ZIP only after a space or tab, which STATE_BEFORE ends with: a figure of five digits after anything
// else was sliced and tested for nothing (nearTails was 3.2% of detectPii on the pii-dense workload of
// bench/pii-speed.ts, CPU profile of a loop over its texts).
const ZIP = /(?<=[ \t])\d{5}(?!\d)/g;
const STATE_BEFORE = new RegExp(String.raw`(?:^|[^\p{L}\d])(?:${US_STATES}|${US_STATES.toLowerCase()})[ \t]+$`, "u");
const POSTCODE_TAIL = /,[ \t]*\d{4}(?:[ \t]?[A-Za-z]{2}|-\d{3}|\d)?[ \t]+\p{L}/gu;
/** How far before its tail a line may start: the longest line of the development sets is 64 characters. */
const REACH = 120;
/** How far back a stretch's first word may begin before REACH. */
const WORD = 40;
/** The longest tail matched in practice (", 1015 DL A"): a tail ending past a stretch starts at most this far inside it. */
const TAIL = 16;

/**
 * Runs `pattern` on the stretch of text around each match of `tail` (from the word start REACH
 * characters before it to REACH after): run on the whole text, the line patterns cost a fifth of
 * detectPii's time on ordinary prompts, most of it trying every word as a street's start. The tails
 * inside a stretch already run are stepped over: 100 KB of "box1" holds 25,000 of them.
 */
function nearTails(text: string, tail: RegExp, pattern: RegExp, visit: (start: number, end: number) => void, before?: RegExp): void {
  let done = 0;
  tail.lastIndex = 0;
  for (let t = tail.exec(text); t !== null; t = tail.exec(text)) {
    if (t.index + t[0].length <= done || (before !== undefined && !before.test(text.slice(Math.max(0, t.index - 5), t.index)))) continue;
    let from = Math.max(0, t.index - REACH);
    // Back to a word's start, but no further than a word can be long: unbounded, a text without
    // whitespace cost the whole text per tail (100 KB of "box1": 6,002 ms in detectPii, 259 ms on edfad90).
    const floor = Math.max(0, from - WORD);
    while (from > floor && !/\s/.test(text[from - 1]!)) from--;
    const to = Math.min(text.length, t.index + t[0].length + REACH);
    const part = text.slice(from, to);
    eachMatch(part, pattern, (m) => visit(from + m.index, from + m.index + m[0].length));
    // The next tail that may end past this stretch (no tail is longer than TAIL).
    done = to;
    tail.lastIndex = Math.max(tail.lastIndex, to - TAIL);
  }
}

/** A box's number: what a box line is found near ("checkbox", "sandbox" in a prompt have none). */
const BOX_NUMBER = /(?:box|BOX|Box|pmb|PMB)[ \t]*#?\d/g;

/**
 * A state in lower case before the ZIP ("austin tx 78701") is taken only in a line written in lower case
 * from the house number on, and where the line has capitals before it ("Deliver to 3310 county rd 7,
 * fort morgan co 80701") only if the ZIP ends the line or a field; a city in lower case after the
 * postcode ("1015 dl amsterdam") only in a line written in lower case from the street on. Otherwise they were a sentence's words: "I upgraded via
 * Python 3, 2000 tests failed", "Oura Ring 4, 2024 version" (review7 of the sixth round).
 */
const LOWER_STATE_ZIP = /(?<![\p{L}\d])\p{Ll}{2}[ \t]+\d{5}(?:-\d{4})?$/u;
const LOWER_CITY = /\d(?:[ \t]?\p{L}{2})?[ \t]+\p{Ll}[\p{L}'-]*(?:[ \t]+\p{Lu}[\p{L}'-]+)?$/u;
const CAPITAL = /\p{Lu}/u;
const FIELD_END = /^[ \t]*(?:$|[\r\n.,;:!?)\]"'])/;
function lowerUsLine(text: string, start: number, end: number): boolean {
  if (CAPITAL.test(text.slice(start, end))) return false;
  const lineEnd = text.indexOf("\n", end);
  return !CAPITAL.test(text.slice(text.lastIndexOf("\n", start) + 1, lineEnd < 0 ? text.length : lineEnd)) || FIELD_END.test(text.slice(end, end + 8));
}

const FIVE_DIGITS = /\d{5}/;
const COMMA_DIGITS = /,[ \t]*\d{4}/;

/** The spans of every such line in `text`. */
export function addressLines(text: string, visit: (start: number, end: number) => void): void {
  // Whether each pattern's tail is in the text at all, one search each: one scan of the three stopped
  // at every box number, 25,000 of them in 100 KB of "box1".
  BOX_NUMBER.lastIndex = 0;
  const box = BOX_NUMBER.test(text);
  const zip = FIVE_DIGITS.test(text);
  const postcode = COMMA_DIGITS.test(text);
  if (box) nearTails(text, BOX_NUMBER, BOX_LINE, visit);
  // Five digits found first, then the state before them: the state's alternatives tried at every position cost more.
  if (zip)
    nearTails(
      text,
      ZIP,
      US_LINE,
      (start, end) => {
        if (!LOWER_STATE_ZIP.test(text.slice(start, end)) || lowerUsLine(text, start, end)) visit(start, end);
      },
      STATE_BEFORE,
    );
  if (postcode)
    nearTails(text, POSTCODE_TAIL, EUROPEAN_LINE, (start, end) => {
      if (!LOWER_CITY.test(text.slice(start, end)) || !CAPITAL.test(text.slice(start, end))) visit(start, end);
    });
}
