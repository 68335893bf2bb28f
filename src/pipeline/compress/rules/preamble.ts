import type { CompressionRule } from "../types";
import { PhrasePattern } from "../text/phrase-patterns";
import { capitalize, rewriteAll } from "../text/rewrite";
import { PLACEHOLDER_SOURCE } from "../protect/mask";

const SENTENCE_START = String.raw`(?<=^|[.!?:][ \t]+|\n[ \t]*)`;
const END = String.raw`[ \t]*[.!?:]+[ \t]*`;

/** Whole sentences that announce a request instead of making it. */
const ANNOUNCEMENTS = new PhrasePattern({
  pattern: new RegExp(
    SENTENCE_START +
      "(?:" +
      [
        String.raw`I (?:have|'ve got|got) (?:a|an|one|some) (?:quick |simple |small |short |little )?(?:question|request|task|favou?r to ask)(?: for you)?`,
        String.raw`(?:here is|here's) my (?:question|request)`,
        String.raw`I (?:need|want|would like|'d like) (?:your|some) help(?: with (?:something|this|a task|a question))?`,
        String.raw`(?:can|could) you help me(?: (?:with something|out))?`,
        String.raw`I(?:'m| am) (?:hoping|wondering if) you (?:can|could) help(?: me)?(?: (?:with something|out))?`,
        String.raw`let me (?:explain|give you some (?:context|background))`,
      ].join("|") +
      ")" +
      END,
    "gim",
  ),
  words: ["i", "here", "can", "could", "let"],
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
        [ANNOUNCEMENTS, (m) => (m.trim().length < text.trim().length ? "" : m)],
        [LEAD_IN, (_m, first) => capitalize(first!)],
        [MY_NEXT, (_m, subject) => `${capitalize(subject!)}: `],
      ],
      ctx,
    );
  },
  mayChange: (original) =>
    ANNOUNCEMENTS.matches(original).length > 0 || LEAD_IN.matches(original).length > 0 || (MY_AT_SENTENCE_START.test(original) && SUBJECT_IS.test(original)),
};
