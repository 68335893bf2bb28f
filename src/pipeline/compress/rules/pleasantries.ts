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
/** Last words of the CLOSING phrases, lower-cased. */
const CLOSING_LAST_WORDS = ["thanks", "you", "much", "advance", "help", "time", "assistance", "support", "thx", "ty", "appreciated", "it", "cheers", "best", "regards"];
/** Characters CLOSING allows after the phrase, up to the end of the message. */
const AFTER_CLOSING = " \t.!,:)";
const LONGEST_LAST_WORD = Math.max(...CLOSING_LAST_WORDS.map((w) => w.length));

/** Whether `text` ends the way a CLOSING match must: a phrase's last word, then only its punctuation and spaces. */
function mayEndWithClosing(text: string): boolean {
  let end = text.length;
  while (end > 0 && AFTER_CLOSING.includes(text[end - 1]!)) end--;
  const tail = text.slice(Math.max(0, end - LONGEST_LAST_WORD), end).toLowerCase();
  return CLOSING_LAST_WORDS.some((word) => tail.endsWith(word));
}

const HOPE = /hope/i;
const PLEASE = /please/i;
const mentionsHope = (text: string) => HOPE.test(text);
const mentionsPlease = (text: string) => PLEASE.test(text);

const STEPS: readonly RewriteStep[] = [
  [GREETING, () => ""],
  [WELL_WISHING, () => "", mentionsHope],
  [CLOSING, () => "", mayEndWithClosing],
  // "Please" as a courtesy before a request or at its end.
  [/(?<=^|[.!?:][ \t]+|\n[ \t]*)please,?[ \t]+([a-z])/gim, (_, first) => capitalize(first!), mentionsPlease],
  [/(?<=[a-z])[ \t]+please(?=[ \t]+[a-z])/g, () => "", mentionsPlease],
  [/,?[ \t]+please(?=[.!?]|$)/gim, () => "", mentionsPlease],
];

/** Greetings, well-wishing, "please", thanks and sign-offs: courtesy the model does not need. */
export const pleasantries: CompressionRule = {
  name: "pleasantries",
  minLevel: 0.1,
  apply(text, ctx) {
    return rewriteAll(text, STEPS, ctx);
  },
};
