import { addressDetector } from "./detectors/address";
import { cardDetector } from "./detectors/card";
import { emailDetector } from "./detectors/email";
import { ibanDetector } from "./detectors/iban";
import { ipDetector } from "./detectors/ip";
import { personDetector } from "./detectors/person";
import { phoneDetector } from "./detectors/phone";
import { secretDetector } from "./detectors/secret";
import { ssnDetector } from "./detectors/ssn";
import { urlCredentialsDetector } from "./detectors/url-credentials";
import type { Detection, Detector, PiiType } from "./types";

/**
 * Every detector, in the order overlaps are settled: a checked or vendor-shaped value outranks a
 * looser one (an IBAN's digits are no phone number, a URL's password is no e-mail address), and the
 * trained tagger comes last.
 */
export const DETECTORS: readonly Detector[] = [
  urlCredentialsDetector,
  secretDetector,
  emailDetector,
  ibanDetector,
  cardDetector,
  ssnDetector,
  ipDetector,
  phoneDetector(),
  addressDetector,
  personDetector,
];

/** All types on: the default when `mask_pii` is true. */
export const ALL_TYPES: ReadonlySet<PiiType> = new Set(DETECTORS.map((d) => d.type));

/**
 * The values of the enabled types in `text`, sorted by start and never overlapping: where two
 * detections overlap, the earlier detector in DETECTORS keeps its span.
 */
export function detectPii(text: string, enabled: ReadonlySet<PiiType> = ALL_TYPES): Detection[] {
  const kept: Detection[] = [];
  for (const detector of DETECTORS) {
    if (!enabled.has(detector.type)) continue;
    for (const d of detector.detect(text)) {
      if (d.end > d.start && !kept.some((k) => d.start < k.end && d.end > k.start)) kept.push(d);
    }
  }
  return kept.sort((a, b) => a.start - b.start);
}
