import { isIPv4, isIPv6 } from "node:net";
import { eachMatch } from "../../../text/each-match";
import type { Detection, Detector } from "../types";
import { hasColonGroup } from "./prefilter";

// Dotted quads not inside a longer dotted run ("1.2.3.4.5" is a version or an OID) and not named a
// version ("v1.2.3.4", "version 10.0.0.1"); node:net decides what is an address.
// Every V4 match holds one: a text without is not scanned (the lookbehinds make the V4 scan try every position).
const DOTTED_DIGITS = /\d\.\d{1,3}\.\d/;
const V4 = /(?<![\w.])(?<!\bv|version |build )\d{1,3}(?:\.\d{1,3}){3}(?![\w]|\.\d)/gi;
// Hex groups and colons with at least two colons; node:net rejects times ("12:30:45") and the like.
const V6 = /(?<![\w:.])(?=[0-9A-Fa-f:]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:]{3,39}(?:%\w+)?(?![\w:])/g;

// Addresses that name no host: the unspecified, loopback and broadcast addresses, and netmasks.
const NO_HOST = /^(?:0\.0\.0\.0|127\.|255\.)/;

export const ipDetector: Detector = {
  type: "IP",
  detect(text) {
    const found: Detection[] = [];
    if (DOTTED_DIGITS.test(text)) {
      eachMatch(text, V4, (m) => {
        const end = m.index + m[0].length;
        // "10.0.0.0/16" is a network, which a model needs to see to reason about subnets.
        if (!isIPv4(m[0]) || NO_HOST.test(m[0]) || /^\/\d/.test(text.slice(end, end + 2))) return;
        found.push({ type: "IP", start: m.index, end });
      });
    }
    if (hasColonGroup(text)) {
      eachMatch(text, V6, (m) => {
        const groups = m[0].split(":").filter((g) => g.length > 0).length;
        // "::" and "::1" are not anybody's address; an address has at least two written groups.
        if (groups >= 2 && isIPv6(m[0]) && !/^\/\d/.test(text.slice(m.index + m[0].length, m.index + m[0].length + 2)))
          found.push({ type: "IP", start: m.index, end: m.index + m[0].length });
      });
    }
    return found;
  },
};
