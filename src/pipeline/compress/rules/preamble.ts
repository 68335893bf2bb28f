import type { CompressionRule } from "../types";
import { PhrasePattern } from "../text/phrase-patterns";
import { capitalize, rewriteAll } from "../text/rewrite";
import { PLACEHOLDER_SOURCE } from "../protect/mask";

const SENTENCE_START = String.raw`(?<=^|[.!?:][ \t]+|\n[ \t]*)`;
/** The announcement's end, and the first letter after it, which opens the sentence once the announcement goes. */
const END = String.raw`[ \t]*[.!?:]+[ \t]*([a-z])?`;

/** Whole sentences that announce a request instead of making it. */
const ANNOUNCEMENTS = new PhrasePattern({
  pattern: new RegExp(
    SENTENCE_START +
      "(?:" +
      [
        String.raw`I (?:have|['’]ve got|got) (?:a|an|one|some) (?:quick |simple |small |short |little )?(?:question|request|task|favou?r to ask)(?: for you)?`,
        // "Quick question for you: how ...", "Can I ask you something?", "Here's the thing." (issue 25, compress12).
        // Only "quick": "Easy question: ... Hard question: ..." may label a quiz's parts.
        String.raw`(?:a )?quick question(?: for you)?`,
        String.raw`(?:can|could|may) I ask (?:you )?(?:something|a (?:quick |small )?question)`,
        String.raw`(?:here is|here['’]s) (?:my (?:question|request)|the thing)`,
        String.raw`I (?:need|want|would like|'d like) (?:your|some) help(?: with (?:something|this|a task|a question))?`,
        String.raw`(?:can|could) you help me(?: (?:with something|out))?`,
        String.raw`I(?:['’]m| am) (?:hoping|wondering if) you (?:can|could) (?:help(?: me)?(?: (?:with something|out))?|lend me a hand)`,
        String.raw`let me (?:explain|give you some (?:context|background))(?: (?:my|the) situation| a bit| first)?`,
      ].join("|") +
      ")" +
      END,
    "gim",
  ),
  words: ["i", "here", "can", "could", "may", "let", "a", "quick"],
});

/**
 * Lead-ins before the real sentence: "So, ", "Okay so ", "My question is: ". Not before another lead word: "ok so
 * 正直に言うと ..." lost its "ok" and kept "So", and "ok ok ok." became "Ok ok." (bench/data/compress-probe16.json);
 * a sentence in a script without case follows as it is, and a run of them goes whole ("So, okay, what ...").
 */
const LEAD_IN = new PhrasePattern({
  pattern: new RegExp(
    SENTENCE_START +
      String.raw`(?:(?:(?:so|okay|ok|alright|well|basically),?[ \t]+)+|my question is[:,]?[ \t]+|the question is[:,]?[ \t]+)(?!(?:so|okay|ok|alright|well|basically)\b)([a-z]|(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]))`,
    "gim",
  ),
  words: ["so", "okay", "ok", "alright", "well", "basically", "my", "the"],
});

const SUBJECT = "(?:request|question|command|sentence|message|prompt|task|topic|suggestion|query|input|text|word|line|move|statement|scenario|problem)";
/** "My first request is ..." → "First request: ..." (the ordinal is a protected span, kept as written). */
const MY_NEXT = new PhrasePattern({
  pattern: new RegExp(SENTENCE_START + String.raw`my[ \t]+((?:${PLACEHOLDER_SOURCE}[ \t]+)?(?:[a-z]+[ \t]+)?${SUBJECT})[ \t]+is:?[ \t]+`, "gim"),
  words: ["my"],
});
/** MY_NEXT's two ends, which hold no placeholder: what mayChange looks for in the unmasked text, where the span between them is spelled out. */
const MY_AT_SENTENCE_START = new RegExp(SENTENCE_START + String.raw`my[ \t]`, "im");
const SUBJECT_IS = new RegExp(String.raw`${SUBJECT}[ \t]+is:?[ \t]`, "i");

/** Throat-clearing: sentences that announce a question or ask for help in general, and lead-in words. */
export const preamble: CompressionRule = {
  name: "preamble",
  minLevel: 0.2,
  apply(text, ctx) {
    return rewriteAll(
      text,
      [
        // Lead-ins first: "Okay so here's the thing." is an announcement once "Okay so" goes.
        [LEAD_IN, (_m, first) => capitalize(first!)],
        // The sentence after an announcement that ends with a colon may open in lower case: "Here's my question: how ...".
        [ANNOUNCEMENTS, (m, first) => (m.trim().length < text.trim().length ? (first ?? "").toUpperCase() : m)],
        [MY_NEXT, (_m, subject) => `${capitalize(subject!)}: `],
      ],
      ctx,
    );
  },
  mayChange: (original) =>
    ANNOUNCEMENTS.matches(original).length > 0 || LEAD_IN.matches(original).length > 0 || (MY_AT_SENTENCE_START.test(original) && SUBJECT_IS.test(original)),
};
