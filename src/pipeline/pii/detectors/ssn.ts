import { eachMatch } from "../../../text/each-match";
import type { Detection, Detector } from "../types";
import { hasDigitRun } from "./prefilter";

// AAA-GG-SSSS with dashes; with spaces or bare only right after a word that names it ("SSN 123 45
// 6789"): "Suite 680 36 4022" and nine-digit ids are not SSNs.
const DASHED = /(?<![\w-])(\d{3})-(\d{2})-(\d{4})(?![\w]|-\d)/g;
const NAMED = /\b(?:ssn|social security(?: number| no\.?)?|ss#)\s*(?:is|:|#|=)?\s*(\d{3}) ?(\d{2}) ?(\d{4})\b/gi;

/**
 * The SSA's rules: area 001-899 but not 666 (9xx are ITINs, never issued as SSNs), group 01-99,
 * serial 0001-9999.
 */
export function ssnValid(area: string, group: string, serial: string): boolean {
  return area !== "000" && area !== "666" && area[0] !== "9" && group !== "00" && serial !== "0000";
}

export const ssnDetector: Detector = {
  type: "SSN",
  detect(text, shared = {}) {
    const found: Detection[] = [];
    // Both patterns take nine digits; NAMED's case-insensitive words scanned every prompt otherwise.
    if (!hasDigitRun(text, 9, shared)) return found;
    eachMatch(text, DASHED, (m) => {
      if (ssnValid(m[1]!, m[2]!, m[3]!)) found.push({ type: "SSN", start: m.index, end: m.index + m[0].length });
    });
    eachMatch(text, NAMED, (m) => {
      if (!ssnValid(m[1]!, m[2]!, m[3]!)) return;
      const end = m.index + m[0].length;
      found.push({ type: "SSN", start: end - m[0].match(/\d[\d ]*$/)![0].length, end });
    });
    return found;
  },
};
