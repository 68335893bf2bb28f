/**
 * Where an intensifier ("really", "very", "quite") only stresses a verb, and may go: right after a subject
 * pronoun ("I really need", "you really should"), or after an auxiliary that follows one ("you should
 * really try", "I'd really appreciate"). Anywhere else it may say how much of a quality is asked or told:
 * "really short, under 50 words" is a constraint ("Summarize this really short" lost it to "Summarize this
 * short"), and "a first-time buyer who's very nervous", "I like my coffee really strong", "I'm really angry
 * at my sister" are what the answer is for. A closed list of degree words before which an intensifier
 * stayed (short, formal, hard, ...) still lost the others: 5 of the lead's blind probe of 250 prompts whose
 * social-looking sentences carry content (probe-compress-3, 2026-11-27; `bun bench/compress-keep.ts`).
 * An auxiliary that opens a question is no such place ("Would very short sentences work better?", "Can
 * really small companies afford it?"), nor a form of "be" ("is really annoying"; a review of this rule).
 * One criterion for both rules that drop intensifiers (filler's pattern, prune's word check), built from
 * these lists.
 */
const SUBJECTS = "i we you they he she".split(" ");
const AUXILIARIES = "would do does did will can could should must".split(" ");
/** Contractions ending in one of these are a subject and an auxiliary ("I'd", "we'll"). */
const AUXILIARY_ENDINGS = ["d", "ll"];

const INTENSIFIERS = ["really", "very", "quite"];
/** "very" stresses a verb only in "very much", which stays ("Thank you very much", "I very much hope"). */
const ON_A_VERB = ["really", "quite"];

const INTENSIFIER = `(?:${ON_A_VERB.join("|")})`;
const subject = `(?:${SUBJECTS.join("|")})`;

/** As a pattern: an intensifier that only stresses a verb (for filler's phrase patterns, flag "i"). */
export const INTENSIFIER_ON_A_VERB = [
  String.raw`(?<=\b${subject}[ \t]+)${INTENSIFIER}`,
  String.raw`(?<=\b${subject}[ \t]+(?:${AUXILIARIES.join("|")})[ \t]+)${INTENSIFIER}`,
  String.raw`(?<=\b[a-z]+['’](?:${AUXILIARY_ENDINGS.join("|")})[ \t]+)${INTENSIFIER}`,
].join("|");

const contracted = (word: string) => {
  const apostrophe = Math.max(word.lastIndexOf("'"), word.lastIndexOf("’"));
  return apostrophe > 0 && /^[a-z]+$/.test(word.slice(0, apostrophe)) && AUXILIARY_ENDINGS.includes(word.slice(apostrophe + 1));
};

/**
 * Whether `word` (lower case) is an intensifier that only stresses the verb after it, given the two words
 * before it as written (lower case; a word with punctuation attached is no subject or auxiliary).
 */
export function intensifierOnAVerb(word: string, previous: string | undefined, beforePrevious: string | undefined): boolean {
  if (!ON_A_VERB.includes(word) || previous === undefined) return false;
  if (SUBJECTS.includes(previous) || contracted(previous)) return true;
  return AUXILIARIES.includes(previous) && beforePrevious !== undefined && SUBJECTS.includes(beforePrevious);
}

/** Whether `word` (lower case) is one of the intensifiers the two rules weigh. */
export const isIntensifier = (word: string) => INTENSIFIERS.includes(word);
