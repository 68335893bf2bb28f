/**
 * Where an intensifier ("really", "very", "quite") only stresses a verb, and may go: after the verb's
 * subject or an auxiliary ("I really need", "I'd really appreciate", "you should really try"), or between
 * a form of "be" and a participle ("I'm really hoping"). Anywhere else it says how much of a quality is
 * asked or told: "really short, under 50 words" is a constraint ("Summarize this really short" lost it to
 * "Summarize this short"), and "a first-time buyer who's very nervous", "I like my coffee really strong",
 * "I'm really angry at my sister" are what the answer is for. A closed list of degree words before which
 * an intensifier stayed (short, formal, hard, ...) still lost the others: 5 of the lead's blind probe of
 * 250 prompts whose social-looking sentences carry content (probe-compress-3, 2026-11-27; `bun
 * bench/compress-keep.ts`). One criterion for both rules that drop intensifiers (filler's pattern, prune's
 * word check), built from these lists.
 */
const SUBJECTS_AND_AUXILIARIES = "i we you they he she would do does did will can could should must".split(" ");
/** Contractions ending in one of these are an auxiliary ("I'd", "we'll"). */
const AUXILIARY_ENDINGS = ["d", "ll"];
const BE_FORMS = "am is are was were be been".split(" ");
/** Contractions ending in one of these are a form of "be" ("I'm", "she's", "they're"). */
const BE_ENDINGS = ["m", "s", "re"];

const INTENSIFIERS = ["really", "very", "quite"];

const alternation = (words: readonly string[], endings: readonly string[]) => `${words.join("|")}|[a-z]+['’](?:${endings.join("|")})`;

/** As a pattern: an intensifier that only stresses a verb (for filler's phrase patterns, flag "i"). */
export const INTENSIFIER_ON_A_VERB = String.raw`(?<=\b(?:${alternation(SUBJECTS_AND_AUXILIARIES, AUXILIARY_ENDINGS)})[ \t]+)(?:really|very(?! much)|quite)|(?<=\b(?:${alternation(BE_FORMS, BE_ENDINGS)})[ \t]+)(?:really|quite)(?=[ \t]+[a-z]+ing\b)`;

const endsWith = (word: string, endings: readonly string[]) => {
  const apostrophe = Math.max(word.lastIndexOf("'"), word.lastIndexOf("’"));
  return apostrophe > 0 && endings.includes(word.slice(apostrophe + 1));
};

/**
 * Whether `word` (lower case) is an intensifier that only stresses the verb after it, given the words
 * around it as written (lower case; a word with punctuation attached is no subject or participle).
 */
export function intensifierOnAVerb(word: string, previous: string | undefined, next: string | undefined): boolean {
  if (!INTENSIFIERS.includes(word) || previous === undefined || next === undefined) return false;
  if (SUBJECTS_AND_AUXILIARIES.includes(previous) || endsWith(previous, AUXILIARY_ENDINGS)) return true;
  return word !== "very" && (BE_FORMS.includes(previous) || endsWith(previous, BE_ENDINGS)) && /^[a-z]+ing$/.test(next);
}

/** Whether `word` (lower case) is one of the intensifiers the two rules weigh. */
export const isIntensifier = (word: string) => INTENSIFIERS.includes(word);
