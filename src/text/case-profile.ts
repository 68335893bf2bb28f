import profileFile from "../../models/pii-ner/case-profile.json";

/**
 * How general English writes a word (models/pii-ner/case-profile.json, counted over the shared unlabelled corpora by
 * models/pii-ner/train.ts): l mostly lower case, u mostly capitalised, s mostly first in a sentence, x mixed; then
 * log10 of how often it was seen.
 */
export type CaseClass = `${"l" | "u" | "s" | "x"}${0 | 1 | 2 | 3 | 4}`;
export type CaseProfile = ReadonlyMap<string, CaseClass>;

let profile: CaseProfile | undefined;

/** The profile, keyed by the lower-cased word; read once, on first use. */
export function caseProfile(): CaseProfile {
  profile ??= new Map(Object.entries(profileFile.words as Record<string, CaseClass>));
  return profile;
}

/**
 * Whether general English often writes the word in lower case ("shell", "polish", "us", "it"): written with a capital
 * inside a sentence it is a name ("Shell", "Polish", "US", "IT") only by that capital.
 */
export function oftenLowerCase(lower: string): boolean {
  const c = caseProfile().get(lower);
  return c !== undefined && (c[0] === "l" || c[0] === "x");
}
