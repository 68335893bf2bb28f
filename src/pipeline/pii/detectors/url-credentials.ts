import { eachMatch } from "../../../text/each-match";
import type { Detection, Detector } from "../types";

// scheme://user:password@host: only the "user:password" part is masked, so the model still sees
// which host the URL points at. A user without a password ("ssh://git@github.com") is no secret.
const URL_WITH_USERINFO = /\b[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/([^\s/?#@:]+:[^\s/?#@]+)@[^\s/?#]+/g;

export const urlCredentialsDetector: Detector = {
  type: "URL_CREDENTIALS",
  detect(text) {
    if (!text.includes("://")) return [];
    const found: Detection[] = [];
    eachMatch(text, URL_WITH_USERINFO, (m) => {
      const start = m.index + m[0].indexOf("://") + 3;
      found.push({ type: "URL_CREDENTIALS", start, end: start + m[1]!.length });
    });
    return found;
  },
};
