import { opensWithMarker } from "../protect/spans";
import type { CompressionRule } from "../types";
import { rewrite } from "../text/rewrite";
import { PLACEHOLDER_CHAR_SOURCE, PLACEHOLDER_CLOSE_SOURCE, PLACEHOLDER_SOURCE } from "../protect/mask";

/**
 * Bold markers around prose; code is masked and never matches. The markers must stand apart from
 * words and numbers: "2**3 plus 2**1" is arithmetic. A protected span right before the opening
 * marker is captured and looked at unmasked: a list marker ("- **Note:**") ends in a space, a number
 * does not. "__x__" is left alone: in prompts it is more often a Python dunder than emphasis. Bold
 * that opens with a list marker or heading ("**1) Scope**", "**2.** Then") stays bold: unwrapped at a
 * line start it would become a list item the prompt never had.
 */
const EMPHASIS = new RegExp(
  String.raw`(?<![\w*${PLACEHOLDER_CLOSE_SOURCE}])(${PLACEHOLDER_SOURCE})?\*\*(?=\S)([^*\n]+?)(?<=\S)\*\*(?![\w${PLACEHOLDER_CHAR_SOURCE}*])`,
  "g",
);

/** Markdown bold markers: the model reads the words the same without them. */
export const emphasis: CompressionRule = {
  name: "emphasis",
  minLevel: 0.5,
  mayChange: (original) => original.includes("**"),
  apply(text, ctx) {
    if (!text.includes("**")) return { text, saved: 0 };
    return rewrite(
      text,
      EMPHASIS,
      (match, before, inner) => ((before === "" || /\s$/.test(ctx.unmask(before!))) && !opensWithMarker(ctx.unmask(inner!)) ? before! + inner! : match),
      ctx,
    );
  },
};
