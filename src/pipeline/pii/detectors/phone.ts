import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";
import { eachMatch } from "../../../text/each-match";
import type { Detection, Detector } from "../types";
import { hasDigitRun } from "./prefilter";
import { STREET_WORDS } from "./street-words";

// A run of digit groups split by single spaces, dots or hyphens, with an optional leading "+" and
// parenthesised area code and an optional extension ("x123", "ext. 12"); not glued to a word, a
// longer number or a path.
const CANDIDATE =
  /(?<![\w./:+#$€£¥-])(?:\+ ?)?(?:\(\d{1,5}\) ?|\d{1,6})(?:[ .-]?\(\d{1,5}\)[ .-]?\d{1,6}|[ .-]?\d{1,6}){0,6}(?:(?: ?(?:x|ext\.?|ext) ?)\d{1,6})?(?![\w]|[.,:/-]\d|[%€£¥])/gi;
// Words that say a number nearby is a phone number (looked for just before or after it).
const PHONE_WORDS = /\b(?:phone|tel|telephone|mobile|cell|fax|office|call|calling|reach|dial|text|whatsapp|contact|answering|number|ph|mob|home|work)\b/i;
// Words that say it is something else.
// Tax and business numbers, right before the number only: "the tax office on 02 9876 5432" is a phone.
const TAX_ID_BEFORE = /\b(?:pin|abn|acn|ein|vat|gst|tax)(?:[ \t]*(?:no\.?|number|id|#))?[\W_]*$/i;
const OTHER_WORDS =
  /\b(?:order|invoice|ticket|ref|reference|tracking|case|confirmation|receipt|sku|serial|part|model|version|isbn|id|no|account|acct|routing|zip|postcode|postal|license|licence|passport|suite|ste|apt|apartment|unit|box|floor|room|building|bldg)\b(?:\W+\w+){0,2}\W*$/i;
// A street word within the next two words: the number is a house number ("58 2347 lauzon parkway").
const STREET_AFTER = new RegExp(
  String.raw`^[ \t]+(?:[\p{L}'.-]+[ \t]+){0,2}(?:${[...STREET_WORDS, ..."crescent rue via calle strasse straße weg".split(" ")].join("|")})\b`,
  "iu",
);
// A capitalised word right before, on the same line ("Cite De L'Interieur 13 70486").
const AFTER_NAME = /\p{Lu}[\p{L}'.]*[ \t]$/u;
const DATE = /^(?:\d{4}[-. ]\d{1,2}[-. ]\d{1,2}|\d{1,2}[-. ]\d{1,2}[-. ]\d{4})$/;
const YEAR_RANGE = /^(?:1[89]|20)\d\d ?- ?(?:1[89]|20)\d\d$/;
// ZIP+4 (US) and CEP (Brazil) postcodes.
const POSTCODE = /^\d{5}-\d{3,4}$/;
// A Portuguese postcode before its city ("Rua Augusta 274, 1100-053 Lisboa": review7 of issue 30's
// sixth round found the address cut in three by a phone).
const PT_POSTCODE = /^\d{4}-\d{3}$/;
const CITY_AFTER = /^[ \t]+\p{Lu}\p{Ll}/u;
// A web server's access log: the status and the size after the request line ('"GET / HTTP/1.1" 200 1532').
const AFTER_REQUEST_LINE = /HTTP\/[\d.]+"[ \t]$/;
const SSN_SHAPE = /^\d{3}-\d{2}-\d{4}$/;
const DECIMAL = /^\d+\.\d+$/;

export interface PhoneOptions {
  /** Country whose national format bare numbers are read in (libphonenumber's default country). */
  defaultCountry: CountryCode;
}

/**
 * Phone numbers. libphonenumber-js decides numbers written with a country code ("+44 20 7946 0958")
 * and numbers valid in the default country; numbers in other national formats ("0477 11 28 98",
 * "(03) 5327 5996", "02.27.96.63.08") cannot be told apart by a validator without knowing their
 * country, so a run of 7+ digits in two or more groups counts as a phone number, and 6+ digits or an
 * unseparated run only next to a word like "call" or "fax". Dates, year ranges, ZIP+4 codes, decimals,
 * SSN and card shapes, postcodes, an access log's status and size, and numbers after "order", "invoice",
 * "ABN", "#" and the like are not phones.
 */
export function phoneDetector(options: PhoneOptions = { defaultCountry: "US" }): Detector {
  return {
    type: "PHONE",
    detect(text, shared = {}) {
      const found: Detection[] = [];
      // isPhone wants 6+ digits: most prompts hold no such run, and the candidate scan was the costliest
      // detector regex (CPU profile of bench/pii-speed.ts).
      if (!hasDigitRun(text, 6, shared)) return found;
      eachMatch(text, CANDIDATE, (m) => {
        const raw = m[0].trimEnd();
        const start = m.index;
        const end = start + raw.length;
        if (isPhone(text, raw, start, end, options.defaultCountry)) found.push({ type: "PHONE", start, end });
      });
      return found;
    },
  };
}

/**
 * Whether digit groups are grouped as phone numbers are, not as a list or a range of numbers
 * ("1 2 3 4 5", "100 4 100 100", "2000-3000", "0.61 0.22", "2050151 32"): no single-digit group after
 * the first, a group of 7+ digits only last, "." and " " not mixed, and two hyphenated groups not an
 * ascending range.
 */
function plausibleGrouping(main: string, groups: string[]): boolean {
  if (groups.slice(1).some((g) => g.length === 1)) return false;
  if (groups.slice(0, -1).some((g) => g.length >= 7)) return false;
  if (main.includes(".") && main.includes(" ")) return false;
  if (groups.length === 2 && /^\d+-\d+$/.test(main) && groups[0]![0] !== "0" && Number(groups[1]) > Number(groups[0])) return false;
  return true;
}

/** How many ASCII digits `s` holds. */
function digitCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

function isPhone(text: string, raw: string, start: number, end: number, country: CountryCode): boolean {
  // Most candidates are short numbers (years, house numbers, prices): told by a count before the two
  // replace() calls below, which were most of this function's time on the pii-dense workload.
  if (digitCount(raw) < 6) return false;
  const main = raw.replace(/ ?(?:x|ext\.?) ?\d+$/i, "");
  const digits = digitCount(main);
  if (digits < 6 || digits > 15) return false;
  if (DATE.test(main) || YEAR_RANGE.test(main) || POSTCODE.test(main) || SSN_SHAPE.test(main) || DECIMAL.test(main)) return false;
  if (PT_POSTCODE.test(main) && CITY_AFTER.test(text.slice(end, end + 4))) return false;
  const groups = main.split(/[ .()-]+/).filter((g) => g.length > 0);
  if (!raw.startsWith("+") && !plausibleGrouping(main, groups)) return false;
  // Three or more groups of four digits are how cards are written, never phones.
  if (groups.filter((g) => g.length === 4).length >= 3 && digits >= 12) return false;
  const before = text.slice(Math.max(0, start - 24), start);
  if (OTHER_WORDS.test(before) || TAX_ID_BEFORE.test(before) || AFTER_REQUEST_LINE.test(before)) return false;
  if (raw.startsWith("+")) return parsePhoneNumberFromString(raw)?.isPossible() === true;
  // A word after the number counts in its own sentence only: "Bengaluru 560038. Contact ..." is a postcode.
  const near = PHONE_WORDS.test(before) || PHONE_WORDS.test(text.slice(end, end + 12).split(/[.!?\n]/)[0]!);
  if (groups.length === 1) return near || parsePhoneNumberFromString(raw, country)?.isValid() === true;
  // A short grouped number straight after a name or place is a house number and postcode, not a phone.
  if (!near && digits < 10 && (AFTER_NAME.test(before) || STREET_AFTER.test(text.slice(end, end + 40)))) return false;
  return digits >= 7 || near;
}
