import type { CompressionRule } from "../types";
import { INTENSIFIER_ON_A_VERB } from "../text/intensifiers";
import { PhrasePattern } from "../text/phrase-patterns";
import { rewriteAll, type RewriteStep } from "../text/rewrite";

/** Whole words and phrases: `alternatives` as a pattern, `opening` every word one of them can start with. */
const phrase = (alternatives: string, opening: string) =>
  new PhrasePattern({ pattern: new RegExp(String.raw`\b(?:${alternatives})\b(?!['’])`, "gi"), words: opening.split(" ") });

/** Keeps the case of the phrase's first letter in its replacement. */
const keepCase = (match: string, replacement: string) => (/^[A-Z]/.test(match) ? replacement[0]!.toUpperCase() + replacement.slice(1) : replacement);

/**
 * A dropped word takes the comma and blanks after it, and a sentence it opened starts with a capital:
 * "Basically, in order to win" -> "To win", not ", to win" (issue 33 found the tests pinning that).
 */
const dropPhrase = (match: string, ...groups: string[]) => {
  const next = groups[groups.length - 1] ?? "";
  return /^[A-Z]/.test(match) ? next.toUpperCase() : next;
};
/** A droppable phrase with the comma and blanks after it and the next letter, which dropPhrase hands back. */
const droppable = (alternatives: string, opening: string) =>
  new PhrasePattern({ pattern: new RegExp(String.raw`\b(?:${alternatives})\b(?!['’]),?[ \t]*([a-z]?)`, "gi"), words: opening.split(" ") });

/** Wordy phrases with a shorter exact equivalent; one alternation so the text is scanned once. */
export const WORDY_PHRASES: readonly [string, string][] = [
  [String.raw`in order to`, "to"],
  [String.raw`due to the fact that|owing to the fact that|in view of the fact that`, "because"],
  [String.raw`(?:in )?spite of the fact that|despite the fact that`, "although"],
  [String.raw`at this point in time|at the present time|at this moment in time`, "now"],
  [String.raw`in the event that`, "if"],
  [String.raw`for the purpose of`, "for"],
  [String.raw`(?:is|are) able to|(?:has|have) the ability to`, "can"],
  [String.raw`a (?:large|great) number of`, "many"],
  [String.raw`in the process of`, ""],
  [String.raw`in an effort to|so as to`, "to"],
  [String.raw`a (?:wide )?variety of|a (?:wide )?range of`, "various"],
  [String.raw`the (?:vast )?majority of`, "most"],
  [String.raw`with (?:regard|respect) to|in (?:regard|relation) to|in regards to`, "about"],
  [String.raw`prior to`, "before"],
  [String.raw`in close proximity to`, "near"],
  [String.raw`by means of|by way of`, "by"],
  [String.raw`in the form of`, "as"],
  [String.raw`on a daily basis`, "daily"],
  [String.raw`on a weekly basis`, "weekly"],
  [String.raw`on a monthly basis`, "monthly"],
  [String.raw`on a regular basis`, "regularly"],
  [String.raw`each and every`, "every"],
  [String.raw`at all times`, "always"],
  [String.raw`for the most part`, "mostly"],
  [String.raw`until such time as`, "until"],
  [String.raw`in a (?:timely|prompt) (?:manner|fashion)`, "promptly"],
];
const WORDY = phrase(
  WORDY_PHRASES.map(([wordy]) => `(${wordy})`).join("|"),
  "in due owing spite despite at for is are has have a so the with prior by on each until",
);
function shorterForm(match: string, ...groups: string[]): string {
  const shorter = WORDY_PHRASES[groups.findIndex((g) => g !== "")]![1];
  return shorter === "" ? "" : keepCase(match, shorter);
}

/** Words and phrases that add nothing to a request, safe at any level where the rule runs. */
// An adverb that ends its clause after a word says how to do what the verb before it asks: "Translate it
// literally.", "Answer honestly, then ..." are instructions, not filler; "Basically, ..." opening a sentence is.
const CLAUSE_ADVERBS = "basically|literally|actually|honestly|obviously|totally";
// "To be honest" is a marker only where a clause opens with it ("To be honest with you, ...", "..., to be honest:",
// "and to be honest I ..."); after a word it is what that word asks for: "teach my kids to be honest", "better to
// be honest or kind", "leaders need to be honest" lost it (9 of the 12 such prompts of bench/data/compress-probe16.json
// on the lead's tree, "How can I teach my kids ?").
const HONEST_MARKER = String.raw`(?<=(?:^|[.!?:;,(\u2013\u2014-]|\b(?:and|but|so|or|yet|because|though))[ \t]*|\n[ \t]*)to be honest(?:[ \t]+with you)?`;
// Nor one right before a verb of a request, which it says how to do: "Honestly rate my poem" and "Literally translate
// it" lost the manner asked for (bench/data/compress-probe16.json's review, on the lead's tree).
export const MANNER_OF = String.raw`[ \t]+(?:answer|rate|rank|tell|say|give|grade|score|judge|assess|evaluate|review|critique|translate|describe|explain|list|write|summari[sz]e|rewrite|copy|quote|transcribe|reply|respond)\b`;
const EMPTY_PHRASES = droppable(
  String.raw`(?:${CLAUSE_ADVERBS})(?![ \t]*(?:[.;:!?)](?!\S)|$))(?!${MANNER_OF})(?!,(?<=\S[ \t]+(?:${CLAUSE_ADVERBS}),))|${HONEST_MARKER}|needless to say|as you (?:may )?know|it (?:is|'s) (?:important|worth) (?:to note|noting) that|please note that`,
  "basically literally actually honestly obviously totally to needless as it please",
);

/** Intensifiers and hedges: they shade tone, not content, so they go only at higher levels. */
// "very much" after "thank" is one phrase: "Thank very much" without "very" is no thanks.
// Not "I feel like", "I guess", "I think that" or "I believe that": they say what the user feels or is
// unsure of, and without them a feeling reads as a fact ("I feel like I'm a fraud at work" -> "I'm a
// fraud at work", "I feel like it's my fault" -> "It's my fault"; a blind probe and a review).
// Not "just" or "simply": they mostly mean "only" in a request ("just the code, no explanation", "simply
// one word"), or "recently" ("I just moved"). Intensifiers only where they stress a verb (text/intensifiers.ts).
const HEDGES = droppable(
  String.raw`${INTENSIFIER_ON_A_VERB}|essentially|pretty much|definitely|certainly`,
  "really very quite essentially pretty definitely certainly",
);

const HEDGES_MIN_LEVEL = 0.5;

/** Removes filler words, tightens wordy phrases; hedges and intensifiers go from level 0.5. */
export const filler: CompressionRule = {
  name: "filler",
  minLevel: 0.1,
  apply(text, ctx) {
    const steps: RewriteStep[] = [
      [WORDY, shorterForm],
      [EMPTY_PHRASES, dropPhrase],
    ];
    if (ctx.level >= HEDGES_MIN_LEVEL) steps.push([HEDGES, dropPhrase]);
    return rewriteAll(text, steps, ctx);
  },
  mayChange: (original, { level }) =>
    WORDY.matches(original).length > 0 || EMPTY_PHRASES.matches(original).length > 0 || (level >= HEDGES_MIN_LEVEL && HEDGES.matches(original).length > 0),
};
