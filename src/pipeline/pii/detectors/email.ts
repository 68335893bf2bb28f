import { eachMatch } from "../../../text/each-match";
import type { Detection, Detector } from "../types";

// The local parts people use (letters, digits, . _ % + -, starting with a letter or digit) and a dotted
// domain ending in a 2+ letter TLD. RFC 5322 allows more (quotes, backticks, braces), but those are
// how code writes decorators and template strings ("`@app.route`", "'{user}@x.io'"), not addresses.
const EMAIL = /(?<![\w.+%-])[A-Za-z0-9][A-Za-z0-9._%+-]*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-])/g;

export const emailDetector: Detector = {
  type: "EMAIL",
  detect(text) {
    if (!text.includes("@")) return [];
    const found: Detection[] = [];
    eachMatch(text, EMAIL, (m) => found.push({ type: "EMAIL", start: m.index, end: m.index + m[0].length }));
    return found;
  },
};
