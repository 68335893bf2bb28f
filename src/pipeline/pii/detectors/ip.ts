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

// A quad in a sentence about upgrades or releases is a version ("upgrading from 1.10.2.4 to 1.11.0.0"),
// unless the sentence also speaks of networks ("update the firewall to allow 203.0.113.7").
const VERSION_WORDS = /\b(?:upgrad\w*|updat\w*|downgrad\w*|releases?|versions?|firmware|patch\w*|bump\w*)\b/i;
const NETWORK_WORDS =
  /\b(?:ips?|address\w*|addr|hosts?|servers?|ping\w*|subnets?|gateways?|dns|routers?|nodes?|clients?|prox\w*|firewalls?|nat|vpn|ssh|connect\w*|allow\w*|block\w*|whitelist\w*|allowlist\w*)\b/i;
const VERSION_CUE = /\b(?:from|to|v|version|release|build|patch|upgraded|updated|downgraded)[ \t:]*$/i;
// A sentence ends at ".", "!" or "?" before a blank (not at a quad's dots) and at a line break.
const SENTENCE_END = /[.!?](?=\s)|\n/g;

function isVersion(text: string, start: number): boolean {
  const from = Math.max(0, start - 80);
  let sentenceStart = from;
  for (const m of text.slice(from, start).matchAll(SENTENCE_END)) sentenceStart = from + m.index + 1;
  const rest = text.slice(start, start + 80);
  const end = rest.search(/[.!?](?=\s|$)|\n/);
  const sentence = text.slice(sentenceStart, start) + (end < 0 ? rest : rest.slice(0, end));
  // And a version cue right before the quad: "the firmware update, 81.2.69.160 keeps dropping" is an address.
  return VERSION_CUE.test(text.slice(Math.max(0, start - 14), start)) && VERSION_WORDS.test(sentence) && !NETWORK_WORDS.test(sentence);
}

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
        if (!isIPv4(m[0]) || NO_HOST.test(m[0]) || /^\/\d/.test(text.slice(end, end + 2)) || isVersion(text, m.index)) return;
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
