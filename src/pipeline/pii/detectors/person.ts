import { shippedTagSpans } from "../tagger/model";
import type { Detector } from "../types";

/** Person names, from the trained tagger (models/pii-ner). */
export const personDetector: Detector = {
  type: "PERSON",
  detect: (text, shared = {}) =>
    (shared.tagged ??= shippedTagSpans(text)).flatMap((s) => (s.label === "PERSON" ? [{ type: "PERSON" as const, start: s.start, end: s.end }] : [])),
};
