import type { CompressionRule } from "../types";
import { PhrasePattern } from "../text/phrase-patterns";
import { capitalize, rewrite } from "../text/rewrite";

/** Verbs that name a task: an indirect request for one of these is a command. */
const TASK_VERB =
  "(?:write|explain|help|create|generate|give|provide|tell|show|list|summari[sz]e|translate|describe|make|draft|compose|suggest|recommend|find|fix|rewrite|review|analy[sz]e|compare|calculate|solve|design|build|implement|convert|outline|plan|prepare|edit|check|correct|improve|proofread|answer|produce|come up with|brainstorm|classify|extract|identify|evaluate|debug|refactor|optimi[sz]e|simplify|paraphrase|format|sort|organi[sz]e|act|play|pretend|imagine|respond|reply|define|teach|walk me through|guide me through|name|predict|estimate|determine|convince|persuade|critique|assess|count|continue|quote|rate)";
const POLITE = String.raw`(?:(?:please|possibly|kindly|maybe|perhaps|just|quickly|briefly)[ \t]+)*`;
const HELP_ME = String.raw`(?:help[ \t]+me[ \t]+(?:to[ \t]+)?(?=${TASK_VERB}\b))?`;

/** Ways of asking for something without saying it: everything up to the verb goes. */
const INDIRECT = [
  String.raw`I was (?:just )?wondering (?:if|whether) you (?:could|can|would|might) ${POLITE}`,
  String.raw`I(?:'m| am) wondering (?:if|whether) you (?:could|can|would) ${POLITE}`,
  String.raw`(?:would|could|can|will) you ${POLITE}(?:be able to |be so kind as to )?(?=${HELP_ME}${TASK_VERB}\b)`,
  // "Would you mind checking ..." has no command form without rewriting the verb: only "helping me" goes.
  String.raw`(?:would|do) you mind ${POLITE}helping me (?:to )?(?=${TASK_VERB}\b)`,
  String.raw`(?:is|would) it (?:be )?possible (?:for you )?to ${POLITE}`,
  String.raw`I(?: would|'d|’d) (?:really )?(?:like|love|appreciate it if) (?:for )?you (?:to |could |would )?${POLITE}`,
  String.raw`I (?:want|need|require) you to ${POLITE}`,
  String.raw`I(?: would|'d|’d) like (?:to ask you|to request(?: that you)?) (?:to )?${POLITE}`,
  String.raw`(?:your|the) (?:task|job|goal|role|mission|assignment) (?:is|will be) to ${POLITE}`,
  String.raw`(?:please )?help me (?:to )?(?=${TASK_VERB}\b)`,
  // "You will need to provide" is no "Need to provide": the subject stays before need, be and have.
  String.raw`you (?:should|will|shall|are (?:going )?to|need to|have to) ${POLITE}(?!be\b|have\b|need\b)`,
].join("|");

const SENTENCE_START = String.raw`(?<=^|[.!?:][ \t]+|\n[ \t]*)`;
/** The request up to its closing punctuation; the rest may start with a protected span ("only reply ..."). */
const REQUEST = new PhrasePattern({
  pattern: new RegExp(
    String.raw`${SENTENCE_START}(?:${INDIRECT})(?:${HELP_ME})([a-z][^.!?
]*)(\?)?`,
    "gim",
  ),
  words: ["i", "would", "could", "can", "will", "do", "is", "your", "the", "please", "help", "you"],
});

/**
 * Indirect requests become commands: "I was wondering if you could possibly help me write a poem?"
 * → "Write a poem." Negated requests never match: the negation is a protected span in the way.
 */
export const intent: CompressionRule = {
  name: "intent",
  minLevel: 0.2,
  apply(text, ctx) {
    // A request turned into a command no longer ends with a question mark.
    return rewrite(text, REQUEST, (_m, request, question) => capitalize(request!) + (question ? "." : ""), ctx);
  },
};
