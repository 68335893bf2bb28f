import { eachMatch } from "../../../text/each-match";
import { shippedTagSpans } from "../tagger/model";
import { addressLines } from "./address-lines";
import { STREET_WORDS_CAPITALISED } from "./street-words";
import type { Detection, Detector } from "../types";

// The street line English writes ("742 Evergreen Terrace", "221B Baker St., Apt. 4"): a house number,
// up to four capitalised words and a street word, with an optional unit. It catches what the tagger,
// trained on Faker's many-country addresses, misses in plain US and UK prose. Issue 30, fifth round: a
// unit written "#4R" and a US city, state and ZIP code on the same line ("1830 W Grand Ave #4R, Chicago
// IL 60622": the fifth new-style development set's miss) belong to it.
const STREET_LINE = new RegExp(
  String.raw`(?<![\w.])\d{1,5}[A-Za-z]?\s+(?:\p{Lu}[\p{L}'.-]*\s+){0,4}(?:${STREET_WORDS_CAPITALISED})\b\.?(?:,?\s+(?:(?:Apt|Suite|Unit|Ste)\.?\s*#?|#)\d{1,5}[A-Za-z]?)?(?:,?[ \t]+(?:\p{Lu}[\p{L}'.-]*[ \t]+){0,2}\p{Lu}[\p{L}'.-]*,?[ \t]+[A-Z]{2}[ \t]+\d{5}(?:-\d{4})?\b)?`,
  "gu",
);
// Spans of figures and small words alone: the tagger keeps a lone postcode or house number ("my zip
// code is 98547"), but a decimal or version ("10.15") or a long digit run ("4111 1111 1111 1112 and")
// is it misreading figures. Dropping every span without a name word instead cost 4.6 points of
// address recall over the data set (bun bench/pii-eval.ts --all).
const FIGURES_AND_SMALL_WORDS = /^(?:[\d\s.,#/-]|\b(?:and|or|the|of|to|at|in|on|a)\b)*$/iu;
function misreadFigures(text: string, start: number, end: number): boolean {
  const value = text.slice(start, end);
  if (!FIGURES_AND_SMALL_WORDS.test(value)) return false;
  // Two or more numbers and no word: a row of a table or a list of figures ("4   8  13  19", "001, 002,
  // 003", "190, 200": a third of the address finds in the development prompts), no street address.
  if (/\d\D+\d/.test(value) && !/\p{L}/u.test(value)) return true;
  // Part of a dotted number ("10" of "10.15.7") counts as a decimal or version too.
  const dotted = /\d\.\d/.test(text.slice(Math.max(0, start - 2), end + 2));
  return dotted || value.replace(/\D/g, "").length > 10;
}

/** Street addresses (and their lines: building, street, unit, postcode): the trained tagger (models/pii-ner) and the street-line rule. */
export const addressDetector: Detector = {
  type: "ADDRESS",
  detect(text, shared = {}) {
    const spans: Detection[] = [];
    for (const s of (shared.tagged ??= shippedTagSpans(text))) {
      if (s.label !== "ADDRESS") continue;
      if (!misreadFigures(text, s.start, s.end)) spans.push({ type: "ADDRESS", start: s.start, end: s.end });
    }
    // A street line starts with a house number: a text without a digit is not scanned.
    if (/\d/.test(text)) {
      eachMatch(text, STREET_LINE, (m) => spans.push({ type: "ADDRESS", start: m.index, end: m.index + m[0].length }));
      addressLines(text, (start, end) => spans.push({ type: "ADDRESS", start, end }));
    }
    return union(spans);
  },
};

/** Overlapping spans merged into one. */
function union(spans: Detection[]): Detection[] {
  spans.sort((a, b) => a.start - b.start);
  const out: Detection[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}
