/** The kinds of personal data the masker knows; each is one detector and one placeholder prefix. */
export const PII_TYPES = ["EMAIL", "PHONE", "CARD", "IBAN", "SSN", "IP", "URL_CREDENTIALS", "SECRET", "PERSON", "ADDRESS"] as const;

export type PiiType = (typeof PII_TYPES)[number];

/** One value found in a text: `text.slice(start, end)` is the value (UTF-16 offsets). */
export interface Detection {
  type: PiiType;
  start: number;
  end: number;
}

/**
 * Work one detector does for another on the same text within one detectPii call: the tagger's spans,
 * read by the person and the address detector, and what is known of the text's longest digit run
 * (detectors/prefilter.ts: at least `atLeast` digits, fewer than `below`), read by the detectors of numbers.
 */
export interface SharedScan {
  tagged?: { label: "PERSON" | "ADDRESS"; start: number; end: number }[];
  digitRun?: { atLeast: number; below: number };
}

/** One detector: pure, stateless, safe to share across requests. */
export interface Detector {
  type: PiiType;
  detect(text: string, shared?: SharedScan): Detection[];
}
