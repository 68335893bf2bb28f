import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import { eachMatch } from "../../../text/each-match";
import type { Detection, Detector } from "../types";

// Two letters, two check digits, then 11-30 letters and digits, bare or in the printed groups of four
// ("GB82 WEST 1234 5698 7654 32"). Case-insensitive: people and Faker's lower-cased texts write
// "gb82west...". ibantools then checks the country's length and format and the mod-97 check digits.
const CANDIDATE = /(?<![\w])[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]){11,30}(?![\w])/g;

export const ibanDetector: Detector = {
  type: "IBAN",
  detect(text) {
    const found: Detection[] = [];
    eachMatch(text, CANDIDATE, (m) => {
      let raw = m[0];
      // A grouped IBAN followed by an ordinary word ("GB82 WEST 1234 5698 7654 32 is mine") matches
      // too far under the greedy groups: try shorter cuts at each space, longest first.
      for (;;) {
        const compact = electronicFormatIBAN(raw.toUpperCase());
        if (compact && isValidIBAN(compact)) {
          found.push({ type: "IBAN", start: m.index, end: m.index + raw.length });
          return;
        }
        const cut = raw.lastIndexOf(" ");
        if (cut < 0) return;
        raw = raw.slice(0, cut);
      }
    });
    return found;
  },
};
