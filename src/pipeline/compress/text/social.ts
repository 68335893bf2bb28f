/**
 * Social content: greetings, well-wishing, thanks, apologies for asking, self-deprecation about the
 * question, laughter, sign-offs (issue 25). The pleasantries rule removes it whole; the data guard ends a
 * handed-over text before a closing paragraph of it; the quality score weighs none of it.
 */
export const ADDRESSEE = String.raw`(?:[ \t]+(?:dear[ \t]+)?(?:to you|there|all|everyone|team|friend|folks|guys|buddy|mate|pal|again|assistant|bot|ai|chat ?gpt|gpt|claude|gemini|bard|copilot))?`;

const EMOTICON = String.raw`[:;]-?[)(dp]|<3`;
/** Adjectives and times of well-wishing: "Hope you're having a chill Sunday." */
const NICE = "good|great|nice|lovely|wonderful|productive|relaxing|fantastic|awesome|amazing|brilliant|chill|beautiful|fabulous";
const PERIOD = "day|week|weekend|morning|afternoon|evening|holiday|break|monday|tuesday|wednesday|thursday|friday|saturday|sunday";
/** The unit before it ends its sentence: only closing punctuation, emoticons or blanks follow. */
const ENDS_HERE = String.raw`(?=[ \t]*[.!]|[ \t]*$)`;

/**
 * Sentences and clauses that ask for nothing: greetings, well-wishing, thanks, apologies for asking,
 * self-deprecation about the question, laughter, sign-offs (issue 25: removed whole, anywhere in a
 * message, so what remains reads as a well-formed prompt). Each alternative is a whole unit; a
 * sentence goes only when it is nothing but such units.
 */
const SOCIAL_UNITS = [
  // greetings
  String.raw`(?:hi+|hello+|hey+|heya|hiya|howdy|yo|greetings|good (?:morning|afternoon|evening|day))${ADDRESSEE}|(?:it['’]s )?me again|i['’]m new here|(?:(?:it['’]s |i['’]m )?(?:so )?(?:good|nice|great|happy) to (?:see|meet|talk to|be chatting with|be talking to) you(?: again)?)`,
  // An announcement of the request, not the request: "Quick favour to ask."
  String.raw`(?:i have )?(?:a |one )?(?:quick|small|little) (?:favou?r|question)(?: to ask(?: you)?| for you)?`,
  // Units that also open requests or warnings ("Morning, noon and night ...", "Take care, the API ...") count only before a full stop or "!".
  String.raw`(?:morning|afternoon|evening|take care|all the best|talk soon|speak soon|mate|buddy|pal|dude)${ENDS_HERE}`,
  // "Let me know, thanks!" is a sign-off; "Let me know, in detail, how ..." is a request.
  String.raw`let me know(?=[ \t]*(?:[.!]|,[ \t]*(?:thanks|thank you|thx|cheers)\b)|[ \t]*$)`,
  // An emoticon between social units: "Hello :) Happy Monday!".
  EMOTICON,
  // well-wishing
  String.raw`(?:i )?(?:really |truly |do )?hope (?:you(?:'re| are|’re) (?:doing |having |keeping )?(?:well|great|good|fine|okay|ok|amazing|awesome|fantastic|an? (?:${NICE}) (?:${PERIOD}))(?: today| this (?:week|morning|afternoon|evening))?|you (?:had|have had|['’]ve had|have|get) an? (?:${NICE}) (?:${PERIOD})|you slept well|(?:your|the) (?:${PERIOD}) (?:is|has been) (?:going )?(?:well|great|good|nice|okay|ok)|(?:your|the) (?:${PERIOD}) is (?:off to a (?:good|great|nice) start|treating you well)|(?:all|everything|things) (?:is|are|['’]s) (?:going )?(?:well|good|great|fine)(?: with you| on your (?:end|side)| over there)?|all['’]s (?:well|good)(?: with you| on your end)?|this (?:message |email |note )?finds you well|everything is (?:going )?well(?: with you)?|(?:that|this) makes sense|you can help(?: me)?(?: out| with this)?|someone can help|this is (?:clear|okay|ok|fine)|i['’]m not (?:bothering|disturbing) you|i am not (?:bothering|disturbing) you|to hear from you soon)`,
  String.raw`how are you(?: doing)?(?: today)?|how(?:['’]s| is| are) (?:it going|everything|things|life|your (?:day|week|weekend)(?: going)?)|how(?:['’]s| has) your (?:day|week|weekend) been|how have you been|what['’]s up|long time no (?:see|talk)`,
  String.raw`happy (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|new year|holidays)`,
  String.raw`have a (?:great|good|nice|lovely|wonderful) (?:day|one|week|weekend|evening)|best wishes`,
  // thanks
  String.raw`(?:thanks|thank you|thank u|thx|ty|tysm|tia|many thanks|cheers)(?: (?:so|very)(?: so)? much| a (?:lot|ton|bunch|million)| heaps| again| kindly)?(?: in advance)?(?: for (?:everything|taking the time to read this|being (?:so )?(?:helpful|patient|awesome|great)(?: lately)?|(?:your|the|any|all (?:your|the)|reading|looking|taking (?:a|the) (?:look|time))(?: (?:help|time|assistance|support|patience|input|advice|suggestions))?(?: (?:you can|on this|with this)(?: give| provide| offer)?| so far| earlier)?))?`,
  String.raw`(?:i(?:['’]d| would)? )?(?:really |truly |greatly |would )?appreciate (?:it|this|that|you|your help(?: with this)?|any help|the help|any (?:advice|input|tips|suggestions|guidance))(?: (?:so|very) much| a lot)?`,
  String.raw`(?:i['’]m |i am )?(?:so |really |very )?grateful for (?:any|your|all (?:your|the)|the) (?:help|advice|input|suggestions)(?: you can (?:give|offer|provide))?|i owe you (?:one|big time)|(?:i['’]m )?much obliged|(?:your help|this) means a lot(?: to me)?`,
  String.raw`(?:any|your) (?:help|advice|input|tips|suggestions|guidance|thoughts) (?:would be|is|are|will be) (?:really |greatly |much |very much |hugely )?(?:appreciated|welcome)`,
  String.raw`(?:much|greatly|really) appreciated`,
  String.raw`you(?:'re|’re| are) (?:the best|awesome|amazing|a (?:lifesaver|life saver|star|legend|gem|hero))|you rock`,
  String.raw`looking forward to (?:your|hearing|the) (?:reply|response|answer|help|thoughts|ideas)(?: from you)?`,
  String.raw`no rush(?: at all)?`,
  // apologies and self-deprecation about the question
  String.raw`(?:i['’]m |i am )?(?:so |really )?sorry(?: in advance)?(?: (?:if|for) (?:this is |this |my |the |asking )?(?:a |such a |a bit of a |kind of a )?(?:dumb|stupid|silly|basic|newbie|noob|long|random|weird|obvious|simple|vague|lengthy|rambling)(?: question| post| message| one)?| for (?:the |my )?(?:long|lengthy|rambling|late) (?:message|post|text|question)| (?:for (?:bothering|troubling|disturbing)|to (?:bother|trouble|disturb|bug)) you(?: again| with this)?| for (?:bothering|asking|rambling)| if this has been asked before| if i['’]m asking too much)?`,
  String.raw`(?:apologies|i apologi[sz]e)(?: in advance)?(?: (?:if|for) (?:this is |the |my )?(?:a )?(?:dumb|stupid|silly|basic|long|lengthy|rambling|obvious)(?: question| post| message)?| for (?:bothering|troubling|disturbing) you(?: again| with this)?)?`,
  String.raw`forgive me if (?:this has been asked before|this is (?:a )?(?:dumb|stupid|silly|basic|obvious)(?: question)?)`,
  String.raw`(?:i )?hope (?:this|it|that) (?:isn't|is not|isn’t) (?:a )?(?:dumb|stupid|silly|basic|weird|obvious)(?: question)?`,
  String.raw`(?:this|it) (?:might|may|could) be (?:a )?(?:dumb|stupid|silly|basic|obvious|weird)(?: question)?`,
  String.raw`(?:this is )?probably (?:a )?(?:dumb|stupid|silly|basic|obvious)(?: question)?`,
  // laughter and sign-offs
  String.raw`(?:ha){2,}h?|he(?:he)+|lol+|lmao|rofl|xd`,
  String.raw`(?:best|kind|warm) regards|regards|cheers|best|xoxo|ttyl`,
].join("|");
/** A sentence made only of social units, joined by commas, dashes or "and", with its closing punctuation and emoticons. */
const SOCIAL_SENTENCE = new RegExp(
  String.raw`^(?:so |oh |and |but |anyway,? |again,? |also,? )?(?:${SOCIAL_UNITS})(?:[ \t]*(?:[,;]|-+|—|–|and|\.\.\.|!+)?[ \t]*(?:(?:i )?(?:really |truly )?(?:${SOCIAL_UNITS})))*[ \t]*[.!?,~:;)(*^_\-\u2026\u{1F300}-\u{1FAFF}\u2600-\u27BF\uFE0F]*$`,
  "iu",
);
/** A social clause opening a sentence that goes on with the request: "Sorry if this is a dumb question, but how ...". */
// An emoticon ends a lead as a comma does: "Hi :) Could you ...".
const SOCIAL_LEAD = new RegExp(
  String.raw`^(?:(?:${SOCIAL_UNITS})[ \t]*(?:,|—|-)|(?:(?:${SOCIAL_UNITS})[ \t]*)?(?:${EMOTICON})(?=[ \t]))[ \t]*(?:but |so |and )?(?=[a-z])`,
  "i",
);
/** A closing clause after the request: "Write a poem, thanks!". */
export const SOCIAL_TAIL = /,[ \t]*(?:thanks|thank you|thx|ty|cheers)(?: (?:so|very) much| a lot)?(?: in advance)?[ \t]*(?=[.!]*$)/i;

/** Courtesy clauses inside a request, between commas or before its end: "Can you list them, if you don't mind?". */
export const SOCIAL_CLAUSE =
  /,[ \t]*(?:if (?:it's|it is|that's|that is|it’s|that’s) not too much (?:trouble|bother|to ask)|if you don't mind|if you do not mind|if you don’t mind|if possible|if you can)[ \t]*(?=[,.!?]|$)/gim;

/** Candidate words, to skip the sentence scan in texts that hold none of them. */
export const SOCIAL_WORD =
  /\b(?:hi|hello|hey|hiya|howdy|yo|greetings|good|morning|afternoon|evening|hope|how|have|happy|what|long|take|all|talk|speak|thanks|thank|thx|ty|tysm|many|cheers|appreciate|appreciated|grateful|any|your|much|greatly|really|you|looking|no|sorry|apologies|forgive|this|probably|ha|he|lol|lmao|rofl|xd|best|kind|warm|regards|xoxo|ttyl|apologi|owe|tia|let|mate|buddy|pal|dude|me|quick|small|little|nice|great|obliged|means)/i;

/** A sentence of one line with its closing punctuation and emoticons. */
// The variation selector (U+FE0F) stands outside the class: it only ever follows an emoji.
const SENTENCE = /[^\n.!?]+[.!?]*[ \t]*(?:[)(:;*^_~\-\u{1F300}-\u{1FAFF}\u2600-\u27BF]|\uFE0F)*/gu;

const MAX_SOCIAL_CHARS = 240;
/** Words a SOCIAL_SENTENCE can open with, as its first word. */
const SOCIAL_OPENING =
  /^\s*(?:[:;]-?[)(dp]|<3|(?:so|oh|and|but|anyway|again|also|hi+|hello|hey|hiya|howdy|yo|greetings|good|morning|afternoon|evening|hope|how|have|what['’]s|thanks|thank|thx|ty|tysm|tia|many|cheers|really|truly|greatly|would|appreciate|grateful|much|looking|sorry|apologies|forgive|probably|ha\w*|he\w*|lol\w*|lmao|rofl|xd|best|kind|warm|regards|xoxo|ttyl|mate|buddy|pal|dude|me)\b|(?:all(?: the best|['’]s| is| are)|long time|take care|talk soon|speak soon|let me know|no rush|(?:a |one )?(?:quick|small|little) (?:favou?r|question)|(?:nice|great|happy) to|happy (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|new|holidays))\b|i(?:['’][md]\b|[ \t]+(?:hope|really|truly|do|have|would|appreciate|am|owe|apologi[sz]e)\b)|it(?:['’]s\b|[ \t]+(?:might|may|could)\b)|this[ \t]+(?:might|may|could|is[ \t]+probably|means)\b|you(?:['’]re\b|[ \t]+(?:are|rock)\b)|(?:your|any)[ \t]+(?:help|advice|input|tips|suggestions|guidance|thoughts)\b)/i;

/** Whether a trimmed sentence is SOCIAL_SENTENCE, deciding most sentences by their length or first word. */
export function isSocialSentence(sentence: string): boolean {
  return sentence.length <= MAX_SOCIAL_CHARS && SOCIAL_OPENING.test(sentence) && SOCIAL_SENTENCE.test(sentence);
}

/** Whether `sentence` opens with a word a social sentence or lead can open with: neither isSocialSentence nor socialLead holds of one that does not. */
export function opensSocially(sentence: string): boolean {
  return SOCIAL_OPENING.test(sentence);
}

// The variation selector and the zero-width joiner stand outside the class: they only join emoji.
const EMOJI_ONLY = /^(?:[\u{1F300}-\u{1FAFF}\u2600-\u27BF]|\uFE0F|\u200D|[:;]-?[)(DPp]|<3|\s)+$/u;
/**
 * Emoji and emoticons alone: social right after a social sentence on their line ("Thanks!!! 🙏"), and
 * nothing to go anywhere else, where they may be the text a task is about ("Guess the movie:\n\n🧙‍♂️🚪📚").
 */
export function isEmojiOnly(sentence: string): boolean {
  return EMOJI_ONLY.test(sentence);
}

/**
 * The social clause a sentence opens with ("Sorry if this is a dumb question, but "), or null. Only
 * sentences opening with a social word are tried: SOCIAL_LEAD tries its hundred alternatives at the start
 * of every other sentence too, which took more than a percent of the optimizer's samples.
 */
export function socialLead(sentence: string): RegExpExecArray | null {
  return SOCIAL_OPENING.test(sentence) ? SOCIAL_LEAD.exec(sentence) : null;
}

/** A sentence opening with a social clause, "Sorry if this is a dumb question, but ...", without it. */
export function withoutSocialClauses(sentence: string): string {
  const lead = socialLead(sentence);
  let out = lead ? sentence.slice(lead[0].length) : sentence;
  if (out.includes(",")) out = out.replace(SOCIAL_TAIL, "").replace(SOCIAL_CLAUSE, "");
  return out;
}

/** "If you have a minute, could you ...": a courtesy condition, which intent removes with the request's framing. */
export const COURTESY_IF = String.raw`(?:if (?:it(?:'s| is|’s)|that(?:'s| is|’s)) not too much (?:trouble|bother|to ask)|if you (?:have|get|got) (?:a )?(?:minute|moment|sec(?:ond)?|chance|spare minute)|when(?:ever)? you (?:have|get) (?:a )?(?:minute|moment|chance|time|sec(?:ond)?)|if you can|if possible),?[ \t]+`;
const COURTESY_CONDITION = new RegExp(String.raw`\b${COURTESY_IF}`, "gi");

/**
 * The [start, end) ranges of the whole sentences of `text` that are social, and of the courtesy
 * conditions inside other sentences, in order. A condition's words are no content: protected, the "not"
 * of "If it's not too much trouble" and the capital of "Whenever" (no word the statistics know, so read
 * as a name) kept intent from removing the condition with the request's framing.
 */
export function socialSentenceRanges(text: string): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  if (!SOCIAL_WORD.test(text)) return ranges;
  for (const m of text.matchAll(COURTESY_CONDITION)) ranges.push({ start: m.index, end: m.index + m[0].trimEnd().length });
  SENTENCE.lastIndex = 0;
  for (let m = SENTENCE.exec(text); m !== null; m = SENTENCE.exec(text)) {
    // Social sentences are short and open with one of a few words: most sentences are never matched.
    if (!isSocialSentence(m[0].trim())) continue;
    const lead = m[0].length - m[0].trimStart().length;
    ranges.push({ start: m.index + lead, end: m.index + m[0].trimEnd().length });
  }
  // No social unit holds such a condition, so the ranges never overlap; they go in text order.
  return ranges.length > 1 ? ranges.sort((a, b) => a.start - b.start) : ranges;
}
