/** The kinds of personal data the masker knows; each is one detector and one placeholder prefix. */
export const PII_TYPES = [
  "EMAIL",
  "PHONE",
  "CARD",
  "IBAN",
  "SSN",
  "IP",
  "URL_CREDENTIALS",
  "SECRET",
  "PERSON",
  "ADDRESS",
] as const;

export type PiiType = (typeof PII_TYPES)[number];

/** One value found in a text: `text.slice(start, end)` is the value (UTF-16 offsets). */
export interface Detection {
  type: PiiType;
  start: number;
  end: number;
}

/** One detector: pure, stateless, safe to share across requests. */
export interface Detector {
  type: PiiType;
  detect(text: string): Detection[];
}
