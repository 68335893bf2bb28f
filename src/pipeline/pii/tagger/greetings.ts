/**
 * The greetings and thanks every greeting rule reads: tagger.ts's (greeted: a capitalised word after
 * one), chat-names.ts's chat openers and greeted-names.ts's given names after greetings and sign-offs,
 * which each had written them again.
 */
export const GREETING_WORDS = "hi hey hello dear thanks cheers".split(" ");

/**
 * Words a line or sentence opens with before the one it addresses: the greetings above, and more thanks,
 * answers and chat's abbreviations ("Thank Hope", "congrats sipho", "yo dario u coming"), for tagger.ts's
 * greeted and chat-names.ts, which each had their own list. Their union changed no span: bench/pii-same.ts
 * against lead 270d2b5, 0 of 60,398 texts differ, and bench/pii-eval.ts's output is the same on every
 * bench/data/pii-*.txt set. Not read by greeted-names.ts: its loop's first-letter test would then let
 * most words through (bench/pii-speed.ts now/start 1.028 to 1.035 on the two workloads, 0.97 to 1.02 without, on a loaded machine).
 */
export const OPENER_WORDS = [
  ...GREETING_WORDS,
  ..."thank morning evening afternoon congrats congratulations welcome bye ok okay sorry yo hiya heya sure thx ty gm np lmk".split(" "),
];

/**
 * Sign-offs, which greeted-names.ts reads as greetings ("Love, Summer and Hunter", "Best, Hope"), only
 * before a given name. Not in OPENER_WORDS: tagger.ts's greeting rule takes any name-like word, and with
 * them made "Practices" of "**Best Practices**" a person (7 ordinary prompts' texts, bench/pii-same.ts).
 */
export const SIGN_OFF_WORDS = "love regards best warmly sincerely xo".split(" ");
