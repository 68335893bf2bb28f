import { shippedTagSpans } from "../tagger/model";
import type { Detection, Detector } from "../types";

/** Person names, from the trained tagger (models/pii-ner). */
export const personDetector: Detector = {
  type: "PERSON",
  detect(text, shared = {}) {
    // A loop, not flatMap with an array per span (3% of maskMessages' time on the pii-dense workload).
    const found: Detection[] = [];
    for (const s of (shared.tagged ??= shippedTagSpans(text))) if (s.label === "PERSON") found.push({ type: "PERSON", start: s.start, end: s.end });
    return found;
  },
};
