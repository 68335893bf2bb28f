import type { CompressionRule } from "../types";
import { PhrasePattern } from "../text/phrase-patterns";
import { capitalize, rewriteAll } from "../text/rewrite";
import { PLACEHOLDER_SOURCE } from "../protect/mask";

const SENTENCE_START = String.raw`(?<=^|[.!?:][ \t]+|\n[ \t]*)`;
/** The announcement's end, and the first letter after it, which opens the sentence once the announcement goes. */
const END = String.raw`[ \t]*[.!?:]+[ \t]*([a-z])?`;

/** Whole sentences that announce a request instead of making it. */
const ANNOUNCEMENT =
  "(?:" +
  [
    String.raw`I (?:have|['’]ve got|got) (?:a|an|one|some) (?:quick |simple |small |short |little )?(?:question|request|task|favou?r to ask)(?: for you)?`,
    // "Quick question for you: how ...", "Can I ask you something?", "Here's the thing." (issue 25, compress12).
    // Only "quick": "Easy question: ... Hard question: ..." may label a quiz's parts.
    String.raw`(?:a )?quick question(?: for you)?`,
    String.raw`(?:can|could|may) I ask (?:you )?(?:something|a (?:quick |small )?question)`,
    String.raw`(?:here is|here['’]s) (?:my (?:question|request)|the thing)`,
    // Outside writers ask for help in general in more ways than ours did: "I need small help.", "I was kind of hoping
    // you might be able to help me with something", "I was wondering if maybe you could help me think through
    // something?", "I write to request your kind assistance in a matter of some delicacy." (4 of the 120 prompts of
    // bench/data/chatty-dev-16.json). The help stays general: "help me write a poem" is a request.
    String.raw`I (?:need|want|would like|'d like) (?:your|some|a (?:little |small )?bit of|(?:a )?(?:small|little|quick)) help(?: with (?:something|this|a task|a question))?`,
    String.raw`(?:can|could) you help me(?: (?:with something|out))?`,
    String.raw`I(?:['’]m| am| was) (?:(?:kind of|sort of|kinda|just|really|actually) )?(?:hoping|wondering)(?: if| whether)? (?:(?:maybe|perhaps) )?you (?:can|could|might|would|['’]d)(?: (?:maybe|perhaps|possibly))?(?: be able to)? (?:help(?: me)?(?: (?:with something|out|think (?:something )?through(?: something)?|figure (?:something )?out|with (?:a|one) (?:quick |small |little )?(?:question|thing|problem)))?|lend me a hand)`,
    String.raw`I (?:write|am writing|['’]m writing) to (?:request|ask for|seek) your (?:kind |gracious )?(?:assistance|help|advice|guidance)(?: (?:in|with|on) (?:a|an) (?:small |delicate |personal |private |certain |urgent )?matter(?: of (?:some )?(?:delicacy|urgency|importance))?)?`,
    String.raw`let me (?:explain|give you some (?:context|background))(?: (?:my|the) situation| a bit| first)?`,
  ].join("|") +
  ")";
/**
 * An announcement announces what follows it: after a question, or with nothing after it, the sentence may be what the
 * prompt asks about ("Is this correct English? I need small help.", "Correct this for me, my boss will read it. I need
 * small help."; a second reading found both removed).
 */
const ANNOUNCEMENTS = new PhrasePattern({
  pattern: new RegExp(SENTENCE_START + String.raw`(?<!\?[ \t]*)` + ANNOUNCEMENT + END + String.raw`(?=\s*\S)`, "gim"),
  words: ["i", "here", "can", "could", "may", "let", "a", "quick"],
});
const ANNOUNCEMENT_SENTENCE = new RegExp(String.raw`^${ANNOUNCEMENT}[ \t]*[.!?:]+$`, "i");

/**
 * Whether `sentence` is an announcement the rule removes whole ("Can you help me with something?", "I need small
 * help."): the quality score weighs it as nothing. Read as content, its "something" was lost and the back-off put
 * the sentence back, the greeting before it too (score 48; 2 of chatty-dev-16's 120 prompts).
 */
export const isAnnouncement = (sentence: string): boolean => ANNOUNCEMENT_SENTENCE.test(sentence);

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
