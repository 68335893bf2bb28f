import { eachMatch } from "../../../text/each-match";
import type { Detection, Detector } from "../types";
import { hasDigitRun } from "./prefilter";

// 13-19 digits, bare or in groups split by one space or hyphen ("4111 1111 1111 1111"), not inside a
// longer run of digits or letters (a hash or an id). Issuers' numbers start with 2-6 (Mastercard's
// 2-series, Amex/Diners 3, Visa 4, Mastercard 5, Discover/UnionPay 6); other leading digits are order
// numbers and the like.
const CANDIDATE = /(?<![\w.,-])[2-6]\d{3}(?:[ -]?\d){9,15}(?![\w]|[.,-]\d)/g;

/** The Luhn check every issued card number passes; 9 in 10 random digit runs fail it. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) d = d > 4 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

// An identifier's value ('eventId="456712345678901234"') passes the Luhn check one time in ten.
const AFTER_ID = /id["'\s:=]{0,3}$/i;

export const cardDetector: Detector = {
  type: "CARD",
  detect(text, shared = {}) {
    const found: Detection[] = [];
    if (!hasDigitRun(text, 13, shared)) return found;
    eachMatch(text, CANDIDATE, (m) => {
      const raw = m[0];
      // Mixed separators ("4111-1111 1111") are not how a card is written.
      if (raw.includes(" ") && raw.includes("-")) return;
      const digits = raw.replace(/[ -]/g, "");
      if (digits.length < 13 || digits.length > 19 || !luhnValid(digits)) return;
      if (AFTER_ID.test(text.slice(Math.max(0, m.index - 8), m.index))) return;
      found.push({ type: "CARD", start: m.index, end: m.index + raw.length });
    });
    return found;
  },
};
