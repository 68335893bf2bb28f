import type { CompressionRule } from "../types";
import { rewriteAll, type RewriteStep } from "../text/rewrite";

const word = (alternatives: string) => new RegExp(String.raw`(?<![\p{L}'’])(?:${alternatives})(?![\p{L}'’])`, "giu");

/** Keeps the case of the phrase's first letter in its replacement. */
const keepCase = (replacement: string) => (m: string) => (/^\p{Lu}/u.test(m) ? replacement[0]!.toUpperCase() + replacement.slice(1) : replacement);

/** Wordy phrases with a shorter exact equivalent. */
const WORDY: RewriteStep[] = [
  [word(String.raw`in order to`), keepCase("to")],
  [word(String.raw`due to the fact that|owing to the fact that|in view of the fact that`), keepCase("because")],
  [word(String.raw`(?:in )?spite of the fact that|despite the fact that`), keepCase("although")],
  [word(String.raw`at this point in time|at the present time|at this moment in time`), keepCase("now")],
  [word(String.raw`in the event that`), keepCase("if")],
  [word(String.raw`for the purpose of`), keepCase("for")],
  [word(String.raw`(?:is|are) able to`), keepCase("can")],
  [word(String.raw`(?:has|have) the ability to`), keepCase("can")],
  [word(String.raw`a (?:large|great) number of`), keepCase("many")],
  [word(String.raw`in the process of`), () => ""],
];

/** Words and phrases that add nothing to a request, safe at any level where the rule runs. */
const EMPTY_PHRASES = word(
  String.raw`basically|literally|actually|honestly|obviously|totally|to be honest|needless to say|as you (?:may )?know|it (?:is|'s) (?:important|worth) (?:to note|noting) that|please note that`,
);

/** Intensifiers and hedges: they shade tone, not content, so they go only at higher levels. */
const HEDGES = word(String.raw`really|very|just|quite|simply|essentially|pretty much|definitely|certainly|I think that|I believe that|I guess|I feel like`);

const dropPhrase = () => "";

/** Removes filler words, tightens wordy phrases; hedges and intensifiers go from level 0.5. */
export const filler: CompressionRule = {
  name: "filler",
  minLevel: 0.1,
  apply(text, ctx) {
    const steps: RewriteStep[] = [...WORDY, [EMPTY_PHRASES, dropPhrase]];
    if (ctx.level >= 0.5) steps.push([HEDGES, dropPhrase]);
    return rewriteAll(text, steps, ctx);
  },
};
