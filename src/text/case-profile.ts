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
 * Whether a word, written with a capital inside a sentence, is a name only by that capital ("Apple", "Polish", "US",
 * "SAD"): general English writes it both ways (x), or in lower case (l) but seldom (at most l2, ~10^2 sightings).
 * The frequent lower-case words (l3, l4: "in", "on", "go") are left out, with single letters: their capitals come from
 * headings, fronted phrases the cache moves ("In Lisbon, how do I ...") and variables ("angles A, B"). An acronym is
 * a name whatever the word's frequency ("IT" / "it", "AM" / "am"): all capitals are no accident of position.
 */
export function nameOnlyByCapital(lower: string, acronym: boolean): boolean {
  const c = lower.length >= 2 ? caseProfile().get(lower) : undefined;
  return c !== undefined && (c[0] === "x" || (c[0] === "l" && (acronym || Number(c[1]) <= 2)));
}
