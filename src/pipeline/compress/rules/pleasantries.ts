import type { CompressionRule } from "../types";
import { capitalize, rewriteAll, type RewriteStep } from "../text/rewrite";

const ADDRESSEE = String.raw`(?:[ \t]+(?:there|all|everyone|team|friend|assistant|bot|ai|chat ?gpt|gpt|claude|gemini|bard|copilot))?`;
/** An opening greeting with its punctuation, when more follows it. */
const GREETING = new RegExp(String.raw`^(?:hi|hello|hey|hiya|greetings|good (?:morning|afternoon|evening)|dear)${ADDRESSEE}(?:[ \t]*[,!.]+|[ \t]*(?=\n))\s*(?=\S)`, "i");
/** Well-wishing sentences that ask for nothing. */
const WELL_WISHING =
  /(?<=^|[.!?][ \t]+|\n)(?:I hope (?:you(?:'re| are) (?:doing )?well|you(?:'re| are) having a (?:good|great|nice) day|this (?:message|email) finds you well)|hope you(?:'re| are) (?:doing )?well)[.!]*[ \t]*/gi;
/** Thanks and sign-offs closing a message that says something first (never followed by a name, which may be content). */
const CLOSING =
  /(?<=[.!?:)\]][ \t]*|\n)[ \t]*(?:(?:thanks|thank you)(?: (?:so|very) much)?(?: in advance| for (?:your|the|any) (?:help|time|assistance|support))?|many thanks|thx|ty|much appreciated|i (?:really )?appreciate (?:it|your help|any help|the help)|cheers|best(?: regards)?|kind regards|regards)[ \t]*[.!,:)]*[ \t]*$/i;
/** "Please" as a courtesy before a request or at its end. */
const PLEASE: RewriteStep[] = [
  [/(?<=^|[.!?:][ \t]+|\n[ \t]*)please,?[ \t]+([a-z])/gim, (_, first) => capitalize(first!)],
  [/(?<=[a-z])[ \t]+please(?=[ \t]+[a-z])/g, () => ""],
  [/,?[ \t]+please(?=[.!?]|$)/gim, () => ""],
];

/** Greetings, well-wishing, "please", thanks and sign-offs: courtesy the model does not need. */
export const pleasantries: CompressionRule = {
  name: "pleasantries",
  minLevel: 0.1,
  apply(text, ctx) {
    return rewriteAll(
      text,
      [
        [GREETING, () => ""],
        [WELL_WISHING, () => ""],
        [CLOSING, () => ""],
        ...PLEASE,
      ],
      ctx,
    );
  },
};
