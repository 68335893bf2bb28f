import { eachMatch } from "../../../text/each-match";
import type { Detection, Detector } from "../types";

// Keys whose shape names them: each vendor's documented prefix and length. Hashes, UUIDs and other
// random-looking strings without such a prefix are left alone unless a word assigns them as a secret.
const SHAPED = new RegExp(
  [
    String.raw`sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}`, // OpenAI, Anthropic
    String.raw`(?:AKIA|ASIA)[0-9A-Z]{16}`, // AWS access key id
    String.raw`gh[pousr]_[A-Za-z0-9]{36,}`, // GitHub tokens
    String.raw`github_pat_[A-Za-z0-9_]{50,}`,
    String.raw`xox[abposr]-[A-Za-z0-9-]{10,}`, // Slack
    String.raw`AIza[0-9A-Za-z_-]{35}`, // Google API key
    String.raw`[rsp]k_(?:live|test)_[0-9A-Za-z]{16,}`, // Stripe
    String.raw`svc_(?:live|test)_[0-9A-Za-z]{38}`, // this gateway's own keys
    String.raw`glpat-[0-9A-Za-z_-]{20}`, // GitLab
    String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, // JWT
  ]
    .map((p) => `(?<![\\w-])${p}(?![\\w-])`)
    .join("|"),
  "g",
);
// Every shaped key holds one of these (its vendor prefix, or the middle of "sk_live_", "svc_test_"): a
// text without any is not scanned, and most prompts have none (60 of the corpora's 934). The
// alternation's scan with its lookbehinds was half the detector's time (CPU profile, bench/pii-speed.ts).
// One plain pass: a lone "_" as the anchor let half the prompts (code) through to that scan, and a
// String.includes per prefix cost more than this pass (0.7 µs each per 1k tokens, against 6.6 for all).
const SHAPED_ANCHORS = /_(?:live|test)_|sk-|A(?:KIA|SIA|Iza)|gh[pousr]_|github_pat_|xox|glpat-|eyJ/;
const PEM = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+?-----END [A-Z ]*PRIVATE KEY-----/g;
// "password: hunter22", "api_key=abc123...", "Authorization: Bearer xyz": the value after a word that
// says it is a secret, 8+ characters of the kinds keys are made of. Code that names a secret without
// holding one ("${API_KEY}", "process.env.TOKEN", "password_hash()", "Token efficiency:") does not
// match: the word must stand alone and the value must mix letters and digits.
const ASSIGNED =
  /\b(?:api[_-]?key|apikey|secret(?:[_-]key)?|access[_-]?token|auth[_-]?token|token|password|passwd|pwd)\b["']?\s*(?:[:=]|\sis\s)\s*["']?([A-Za-z0-9_\-+/=.~!@#%^&*]{8,})|\bBearer\s+([A-Za-z0-9_\-+/=.~]{16,})/gi;
// Each ASSIGNED match holds one of these words (folded the same way, /i without /u: ASCII letters
// only): a text without any, two prompts in three, is not scanned; this plain alternation costs a
// fraction of ASSIGNED's scan with its word boundaries.
const ASSIGNED_WORDS = /key|secret|token|passw|pwd|bearer/i;

export const secretDetector: Detector = {
  type: "SECRET",
  detect(text) {
    const found: Detection[] = [];
    if (SHAPED_ANCHORS.test(text)) {
      eachMatch(text, SHAPED, (m) => found.push({ type: "SECRET", start: m.index, end: m.index + m[0].length }));
    }
    if (text.includes("-----BEGIN")) {
      eachMatch(text, PEM, (m) => found.push({ type: "SECRET", start: m.index, end: m.index + m[0].length }));
    }
    if (!ASSIGNED_WORDS.test(text)) return found;
    eachMatch(text, ASSIGNED, (m) => {
      const raw = m[1] ?? m[2]!;
      const value = raw.replace(/[.,;!]+$/, "");
      // A value without both letters and digits is a word or a number ("password is required_now"),
      // and one starting with "process." or the like is code reading a secret, not the secret.
      if (value.length < 8 || !/\d/.test(value) || !/[A-Za-z]/.test(value) || /^(?:process|os|env|self|this|config|settings)\./i.test(value)) return;
      const end = m.index + m[0].length - (raw.length - value.length);
      found.push({ type: "SECRET", start: end - value.length, end });
    });
    return found;
  },
};
