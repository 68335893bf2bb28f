import { shippedTagSpans } from "../tagger/model";
import type { Detector } from "../types";

/** Street addresses (and their lines: building, street, unit, postcode), from the trained tagger (models/pii-ner). */
export const addressDetector: Detector = {
  type: "ADDRESS",
  detect: (text) => shippedTagSpans(text).flatMap((s) => (s.label === "ADDRESS" ? [{ type: "ADDRESS" as const, start: s.start, end: s.end }] : [])),
};
