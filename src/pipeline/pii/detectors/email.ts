import { eachMatch } from "../../../text/each-match";
import type { Detection, Detector } from "../types";

// RFC 5322's dot-atom local part and a dotted domain ending in a 2+ letter TLD; quoted local parts and
// IP-literal domains are left out (nobody types them in a prompt). The look-behind keeps it off the
// tail of a longer token ("x@y.com" inside "mailto:x@y.com" still matches from "x").
const EMAIL =
  /(?<![\w.+-])[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-])/g;

export const emailDetector: Detector = {
  type: "EMAIL",
  detect(text) {
    if (!text.includes("@")) return [];
    const found: Detection[] = [];
    eachMatch(text, EMAIL, (m) => found.push({ type: "EMAIL", start: m.index, end: m.index + m[0].length }));
    return found;
  },
};
