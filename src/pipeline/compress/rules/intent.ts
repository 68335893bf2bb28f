import type { CompressionRule } from "../types";
import { PhrasePattern } from "../text/phrase-patterns";
import { capitalize, rewrite } from "../text/rewrite";
import { COURTESY_IF } from "../text/social";
import { PLACEHOLDER_OPEN_SOURCE } from "../protect/mask";

/** Verbs that name a task: an indirect request for one of these is a command. */
const TASK_VERB =
  "(?:write|explain|help|create|generate|give|provide|tell|show|list|summari[sz]e|translate|describe|make|draft|compose|suggest|recommend|find|fix|rewrite|review|analy[sz]e|compare|calculate|solve|design|build|implement|convert|outline|plan|prepare|edit|check|correct|improve|proofread|answer|produce|come up with|figure out|work out|brainstorm|classify|extract|identify|evaluate|debug|refactor|optimi[sz]e|simplify|paraphrase|format|reformat|rephrase|reword|restructure|reorgani[sz]e|sort|organi[sz]e|act|play|pretend|imagine|respond|reply|define|teach|walk me through|guide me through|name|predict|estimate|determine|convince|persuade|critique|assess|count|continue|quote|rate|put together|lay out|map out|sketch out|break down|talk me through|run me through|go over|look over|spell out|think of|think up|whip up)";
const POLITE = String.raw`(?:(?:please|possibly|kindly|maybe|perhaps|just|quickly|briefly|like)[ \t]+)*`;
const HELP_ME = String.raw`(?:help[ \t]+me[ \t]+(?:to[ \t]+)?(?=${TASK_VERB}\b))?`;
/**
 * Verbs of having, knowing and wanting, which make no command: "I was wondering whether you might have some
 * suggestions for practising?" became "Have some suggestions for practising." (bench/data/chatty-dev-13.json).
 * Asked for so, suggestions are asked for by ASKS_FOR_IDEAS.
 */
const NOT_A_COMMAND = String.raw`(?!(?:have|had|know|think|remember|recall|mind|see|like|want|need)\b)`;
/**
 * After wondering whether the assistant would, "be" makes none either: "... if you would be interested in ...".
 * "I want you to be my travel guide" is one (awesome-chatgpt-prompts).
 */
const NOT_A_COMMAND_WONDERING = String.raw`${NOT_A_COMMAND}(?!be\b)`;
/**
 * Things asked for by asking whether the assistant has any: "Do you have any tips for ...?" asks for tips. Not
 * when a question of its own follows the noun at once: "Do you have any tips or should I just hire a
 * professional?" became "Tips or should I just hire a professional?" (bench/data/compress-keep-14.json).
 */
/** The auxiliaries that open a question of its own after "or": "..., or should I ...". */
const AUXILIARY = "should|shall|would|could|can|will|is|are|am|was|do|does|did|must";
const IDEAS = String.raw`(?=(?:tips|advice|suggestions|ideas|recommendations|pointers)\b(?!,?[ \t]+or[ \t]+(?:${AUXILIARY})\b))`;

/** Ways of asking for something without saying it: everything up to the verb goes. */
const ASKS = [
  String.raw`I was (?:just )?wondering (?:if|whether) you(?: could| can| would| might|'d|’d) (?:be able to )?${POLITE}${NOT_A_COMMAND_WONDERING}`,
  String.raw`I(?:'m| am|’m) wondering (?:if|whether) you(?: could| can| would|'d|’d) (?:be able to )?${POLITE}${NOT_A_COMMAND_WONDERING}`,
  // "Do you have any tips for getting her to sleep?" -> "Tips for getting her to sleep."
  String.raw`(?:I was (?:just )?wondering (?:if|whether) you (?:might |would )?(?:have|had)|(?:do|would|might) you (?:happen to )?have|have you got) (?:any |some )?${IDEAS}`,
  // Before the next one, which would leave "Help me out and write ...".
  String.raw`(?:can|could) you help me out and ${POLITE}(?=${TASK_VERB}\b)`,
  String.raw`(?:would|could|can|will|might) (?:you|u) ${POLITE}(?:(?:be able to |be willing to |be so kind as to |be good enough to |be a dear and |go ahead and |do me a (?:favou?r|kindness) and )${POLITE})?(?=${HELP_ME}${TASK_VERB}\b)`,
  // Hedges of chatty-dev-10's styles (issue 25, 7th batch): "think u could", "lowkey need you to", "I humbly
  // ask if you could", "Would it be okay if you could", "what I need is for you to", "what I'm asking is can you".
  String.raw`(?:do you )?think (?:you|u) (?:could|can|would) ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`(?:I )?(?:(?:really|lowkey|kinda|just|so) )*(?:need|want) (?:you|u) to ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`I (?:humbly |would |'d |’d )?ask (?:if|that|whether) you (?:could|would|can|might) ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`would it be (?:okay|ok|alright|all right|fine) if you (?:could|would|can) ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`(?:so )?what I (?:need|want) is for you to ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`(?:I guess )?what I(?:'m| am|’m) asking is (?:(?:can|could|would) you |for you to )${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  // Ways of asking whether the assistant could, and of saying one would be glad if it did: only before a task verb.
  String.raw`(?:is there any way|(?:is there )?any chance|do you think) (?:that )?you (?:could|can|would|might) ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`I was (?:just )?wondering,? (?:could|can|would) you ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`(?:could|can|may) I ask you to ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`are you able to ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`I wonder (?:if|whether) you (?:could|can|would|might) ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`I was thinking (?:maybe |perhaps )?(?:that )?you (?:could|can|might) ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`I(?: would|'d|’d) love your help (?:to )?${POLITE}(?=${TASK_VERB}\b)`,
  String.raw`I (?:wanted|want|would like|(?:'|’)d like) to ask (?:if|whether) you (?:could|can|would) ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`(?:I(?:'m| am|’m) )?hoping (?:that )?you (?:can|could|will) ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`I was hoping (?:to get|for) your help (?:to )?${POLITE}(?=${TASK_VERB}\b)`,
  String.raw`do you have (?:the |some )?time to ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`(?:would|do) you mind (?:awfully |terribly )?if I (?:ask|asked) you to ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  // "I was kind of hoping you could maybe write ...", "I'd be super grateful if you could ..." (compress12's probes).
  String.raw`I was (?:(?:really|kind of|kinda|sort of|just) )?hoping (?:that )?you (?:could|can|would|might) ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`I(?: would|'d|’d| should) be (?:very |really |so |most |super |extremely |incredibly |eternally |forever )?grateful if you (?:could|would|can) ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`it(?: would|'d|’d) be (?:really |very |so |super |enormously |incredibly |extremely |hugely )?(?:great|helpful|nice|awesome|wonderful|amazing|lovely|fantastic) if you (?:could|would|can) ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  // "Would you mind checking ..." has no command form without rewriting the verb: only "helping me" goes.
  String.raw`(?:would|do) you mind ${POLITE}helping me (?:to )?(?=${TASK_VERB}\b)`,
  String.raw`(?:is|would) it (?:be )?possible (?:for you )?to ${POLITE}${NOT_A_COMMAND}`,
  String.raw`I(?: would|'d|’d) (?:really )?(?:like|love|(?:appreciate|love|like) it if) (?:for )?you(?:[ \t]+(?:to|could|would)|['’]d)?[ \t]+${POLITE}${NOT_A_COMMAND}`,
  String.raw`I (?:want|need|require) you to ${POLITE}${NOT_A_COMMAND}`,
  String.raw`I(?: would|'d|’d) like (?:to ask you|to request(?: that you)?) (?:to )?${POLITE}`,
  String.raw`(?:please )?help me (?:to )?(?=${TASK_VERB}\b)`,
].join("|");

/**
 * Statements of what the assistant is to do, which intent also makes commands, only before a task
 * verb. Unlike ASKS they can say more than "please": "You will receive a ticket ID" describes the
 * input, and became the command "Receive a ticket ID" while any verb could follow. The quality score
 * does not read them as framing, so such an edit still has to clear the floor on its words.
 */
const DUTIES = [
  String.raw`(?:your|the) (?:task|job|goal|role|mission|assignment) (?:is|will be) to ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
  String.raw`you (?:should|will|shall|are (?:going )?to|need to|have to) ${POLITE}(?=${HELP_ME}${TASK_VERB}\b)`,
].join("|");

// An emoji ends a sentence as a full stop does: "I'm panicking 😭 can you explain ...". The pattern has no u
// flag (the phrase scan reads words as \b does without it): an emoji above U+FFFF ends in a low surrogate.
const SENTENCE_START = String.raw`(?<=^|[.!?:][ \t]+|\n[ \t]*|[\u2600-\u27BF\u2B00-\u2BFF\uFE0F\uDC00-\uDFFF][ \t]+)`;
/** A sentence's opening that frames an indirect request, up to the request itself. */
const FRAMING = String.raw`${SENTENCE_START}(?:${COURTESY_IF})?(?:${ASKS}|${DUTIES})(?:${HELP_ME})`;
const FRAMING_WORDS = [
  "i",
  "would",
  "could",
  "can",
  "will",
  "do",
  "is",
  "are",
  "hoping",
  "your",
  "the",
  "please",
  "help",
  "you",
  "if",
  "when",
  "whenever",
  "any",
  "it",
  "may",
  "might",
  "think",
  "need",
  "want",
  "really",
  "lowkey",
  "kinda",
  "just",
  "so",
  "what",
  "have",
];
/**
 * The request up to its closing punctuation, every question mark of it ("Can you write a caption for the
 * opening?? Something fun" became "Write a caption for the opening.?"); the rest may start with a
 * protected span ("only reply ...").
 */
const REQUEST = new PhrasePattern({
  pattern: new RegExp(String.raw`${FRAMING}([a-z${PLACEHOLDER_OPEN_SOURCE}][^.!?\n]*)(\?+)?`, "gim"),
  words: FRAMING_WORDS,
});
/**
 * The framing before any character: in the unmasked text, a request that opens with a protected span
 * opens with the span's own first character, which may be no letter ("could you $56 ...").
 */
const FRAMED = new PhrasePattern({ pattern: new RegExp(String.raw`${FRAMING}(?=[\s\S])`, "gim"), words: FRAMING_WORDS });

/**
 * The framing of an indirect request at a sentence's start, up to the task: what intent removes. The
 * quality score reads sentences without it, so that "Would it be possible for you to write ..." and
 * "Write ..." ask for the same thing (its words "possible", "kind", "grateful" are no content).
 */
export const REQUEST_FRAMING = new RegExp(String.raw`^(?:${COURTESY_IF})?(?:${ASKS})(?:${HELP_ME})(?=[a-z])`, "i");

/**
 * Adverbs among the framing's courtesy that say how the task is to be done: they stay, before the verb.
 * "Could you briefly explain the rules of cricket ...?" became "Explain the rules of cricket ...", the score
 * read "briefly" as lost and the back-off undid every request the rule had turned (bench/data/chatty-dev-15.json).
 */
const MANNER = /\b(?:briefly|quickly)\b/gi;

/** What of a request's framing stays: its manner adverbs, each with a blank after it ("briefly "), or "". */
export function keptOfFraming(framing: string): string {
  const manner = framing.match(MANNER);
  return manner === null ? "" : `${manner.join(" ").toLowerCase()} `;
}

/** A question of its own joined to a request: "..., or should I ...", "... or is it better to ...". */
const ASKS_ON = new RegExp(String.raw`\bor[ \t]+(?:${AUXILIARY})[ \t]+(?:i|we|it|you|they|there|that|this)\b`, "i");

/**
 * Indirect requests become commands: "I was wondering if you could possibly help me write a poem?"
 * → "Write a poem." Negated requests never match: the negation is a protected span in the way.
 */
export const intent: CompressionRule = {
  name: "intent",
  minLevel: 0.2,
  apply(text, ctx) {
    // A request turned into a command no longer ends with a question mark, unless a question of its own follows
    // the command: "Suggestions, or should I just hire a professional?" (2 of 35 probes of
    // bench/data/compress-keep-13.json's writing ended "... hire a professional." once "Do you have any" went).
    return rewrite(
      text,
      REQUEST,
      (match, request, question) =>
        capitalize(keptOfFraming(match.slice(0, match.length - request!.length - question!.length)) + request!) +
        (question ? (ASKS_ON.test(request!) ? question : ".") : ""),
      ctx,
    );
  },
  // A match's framing holds no placeholder.
  mayChange: (original) => FRAMED.matches(original).length > 0,
};
