/**
 * Social sentences and clauses recognised by their structure and a closed vocabulary, not by whole
 * phrases (issue 25, 5th batch). A unit opens with the marker of a class (a greeting, a wish, thanks,
 * praise of the assistant, an apology, a sign-off, an interjection, a state of mind) and every other word
 * of it is a word such a unit is made of: "Thanks heaps, legend 🙌", "You're a treasure!", "I trust you are
 * keeping well.", "Hmm, let me think." are units; "Thanks, keep it short." is not ("keep" and "short" are
 * no social words), nor anything with a digit, a name, a negation or a protected span's placeholder in it.
 * The phrase patterns of social.ts had been written to the phrasings of our own writers: on a new
 * author's chatty set (200 prompts) they removed 17.3% of the tokens, on the dev set of this batch
 * (bench/data/chatty-dev-8.json) 9.7%.
 *
 * The 6th batch added the words its styles use ("sup", "by the way", "waiting for your kind reply", "sorry for
 * the novel / the late ping / wasting your time", "owe you a coffee", "in this cold weather"): on the dev split of
 * bench/data/chatty-dev-9.json (80 prompts) 16.0% of tokens were removed as sent before that batch.
 *
 * A word scan, not a regex over the sentence: each sentence is read once, word by word, and no pattern
 * can backtrack.
 */

type SocialClass = "greeting" | "wish" | "thanks" | "praise" | "apology" | "signoff" | "interjection" | "state";

/** Words any unit may hold: pronouns, articles, particles, intensifiers, addressees, laughter, chat slang. */
const SHARED = `a an the and or but so to for of in on at with from about this that it its it's is was be been being am are i i'm me my myself
you you're your yours u ur ya y'all yall we us our all very really truly so such too quite super totally just
honestly seriously literally genuinely sincerely deeply truly most ever always again also still even
oh ah ahh ooh wow omg gosh okay ok okk alright well um hmm right yes yeah yep haha hahaha hehe lol lmao lmaoo lmaooo rofl xd
fr ngl tbh tho though like kinda sorta lowkey highkey deadass bro bruh bestie fam dude mate pal buddy man friend friends babe hun dear dearest
sir madam madame maam ma'am folks guys everyone everybody team all there assistant bot ai chatgpt gpt claude gemini
x xx xxx xo xoxo cheers will would should be do does did as greatly please pls plz kindly today btw by way`;

/** Each class: the words that may open a unit of it (one or two words), and the words of its kind. */
const CLASSES: Record<SocialClass, { opens: string; words: string }> = {
  greeting: {
    opens: `hi hii hiii hiiii hello helloo hellooo hey heyy heyyy heya hiya howdy yo sup wassup greetings salutations dear respected good morning evening afternoon gday g'day hola namaste salaam`,
    words: `hi hii hello hey heyy hiya greetings salutations good morning afternoon evening day night to there how are doing today how's it going greeting greet
      again new here whoever young lady gentleman gentlemen helper colleague colleagues member members nice meet meeting see talk talking chatting back`,
  },
  wish: {
    opens: `hope hoping trust trusting wishing wish hopefully have enjoy`,
    words: `hope hoping trust wish wishing hopefully well good great fine okay alright safe healthy happy fab fabulous lovely wonderful nice chill restful relaxing
      productive blessed beautiful amazing awesome fantastic brilliant peaceful pleasant smooth smoothly sunny splendid grand bright kind kindly gentle
      wonderfully nicely better than long weather cold warm sunshine
      day days week weekend morning afternoon evening night today tonight start year holidays holiday time one
      doing keeping going treating treats treated finds find finding having had has have enjoy enjoying staying feeling getting been off spirits health
      message email note letter life things everything everyone everybody family yours side end where over there too as mine coffee cup tea
      monday tuesday wednesday thursday friday saturday sunday`,
  },
  thanks: {
    // Thanks in the languages people sign off in ("Arigatou in advance 😊", "Grazie mille!", "gracias!!": 7 of
    // the 150 prompts of bench/data/chatty-dev-12.json closed so): alone, no English word of a request.
    opens: `thanks thank thankyou thanku thx thnx thanx ty tysm tyvm tia ta many cheers appreciate appreciated grateful thankful obliged thanking with owe
      muchas gracias merci grazie danke arigatou arigato obrigado obrigada dankjewel`,
    words: `thanks thank thankyou thanku thx thnx thanx ty tysm tyvm tia ta many much lot lots ton tons bunch heaps loads million sm soo sooo
      appreciate appreciated appreciating appreciation grateful gratitude thankful thanking owe one big time
      advance anticipation help helping time patience kindness kind kindly assistance support consideration attention effort efforts everything
      remain remains obliged matter look looking forward response reply replies answer hearing hear trouble
      love luv ily ilysm ilu hugs legend legends champ star gem hero lifesaver sincere sincerest warmest heartfelt best regards
      questions listening ramble rambling helpful guidance waiting awaiting guess suppose coffee beer
      any ideas tips suggestions advice pointers thoughts input hugely massively enormously
      gracias muchas merci beaucoup grazie mille danke sehr schoen arigatou arigato gozaimasu obrigado obrigada dankjewel`,
  },
  praise: {
    opens: `you you're youre ur your love luv adore ily ilysm ilu`,
    words: `love adore awesome amazing incredible brilliant genius wonderful fantastic great best smartest greatest goat star legend gem treasure hero champ
      lifesaver life saver saving lifesaving saint angel rockstar rock rocks absolute talented helpful clever smart kind sweet good beautiful excellent outstanding
      such massive huge help helper thing person partner teacher assistant ever out there around world always nail nails these them this it work
      blown away amazed impressed genuinely chatting talking with`,
  },
  apology: {
    opens: `sorry soz sry apologies apologize apologise apologizing apologising forgive excuse pardon ugh know realise realize`,
    words: `sorry soz sry apologies apology apologize apologise apologizing apologising forgive excuse pardon ugh again advance
      bother bothering bug bugging trouble troubling pester pestering disturb disturbing interrupt interrupting pain nuisance pest
      ask asking asked question questions q one message post text long lengthy late rambling ramble venting vent spam spamming wall
      messy dumb stupid silly basic random weird odd lazy newbie noob obvious naive rush hurry mess delay wait
      my our ignorance intrusion interruption inconvenience english grammar typos spelling formatting writing
      probably wrong way poorly badly bad broken clumsy confusing confused old if thing things out nowhere quick else should know knew realise realize now already before
      get gets got time times lot asked answered covered heard
      ping pinging dm novel essay wasting waste information info common favour favor favours favors more request requests incoming dump dumping woman`,
  },
  signoff: {
    opens: `best regards kind kindest warm warmest yours sincerely respectfully faithfully cordially god blessings bless peace love much take
      all talk speak catch later ttyl bye goodbye cya see have xoxo xx xxx hugs cheers`,
    words: `best regards kind kindest warm warmest yours sincerely respectfully faithfully cordially truly god bless blessings blessed peace out love much lots
      take care all talk speak soon catch later ttyl bye goodbye cya see have great good nice lovely wonderful blessed day one week weekend
      evening night xoxo hugs cheers wishes`,
  },
  interjection: {
    opens: `hmm hmmm hmmmm um umm uh uhh ah oh okay ok alright well so anyway anyways right let let's lets wondering thinking long funny`,
    words: `hmm hmmm hmmmm um umm uh uhh ah oh okay ok alright well so anyway anyways right let let's lets me think see wondering thinking aloud loud out
      here dunno idk whatever long story short funny`,
  },
  // Only hyperbole about the hurry ("I'm literally freaking out", "my brain is mush"): a feeling that may be
  // what the question is about ("My dog died. I feel terrible.", "I'm anxious, how do I calm down?") stays.
  state: {
    opens: `i i'm im panicking freaking`,
    words: `feel feeling felt am panicking panic freaking out losing it dying dead cooked doomed fried begging want to cry crying brain mind dumb stupid silly
      head going crazy insane spinning`,
  },
};

/**
 * Words only social units hold, one of which each unit needs: the opening words of some classes are
 * common words ("take", "all", "so", "have"), and "Take it.", "All of it.", "So it is." are no units.
 */
const KEYS = `hi hii hiii hello helloo hey heyy heyyy heya hiya howdy yo greetings salutations morning afternoon evening gday g'day hola namaste salaam
  hope hoping trust trusting wish wishing hopefully
  thanks thank thankyou thanku thx thnx thanx ty tysm tyvm tia ta cheers appreciate appreciated grateful thankful obliged thanking gratitude
  gracias merci grazie danke arigatou arigato obrigado obrigada dankjewel
  sorry soz sry apologies apology apologize apologise apologizing apologising forgive excuse pardon
  regards sincerely respectfully faithfully cordially bless blessings xoxo xx xxx ttyl bye goodbye cya care hugs
  hmm hmmm hmmmm um umm uh uhh dunno idk story wondering dear sir madam maam ma'am greeting wishes yours sup wassup`;
const words = (list: string) => new Set(list.split(/\s+/).filter((w) => w !== ""));
const SHARED_WORDS = words(SHARED);
const KEY_WORDS = words(KEYS);
/** Keys of several words, whose words alone are common: "all the best", "let me think". */
const KEY_PHRASES = [
  "all the best",
  "best wishes",
  "yours truly",
  "peace out",
  "let me think",
  "thinking out loud",
  "thinking aloud",
  "long story short",
  "love your work",
  "take care",
  "talk soon",
  "speak soon",
  "catch you later",
  "see you",
  "have a good one",
];
function hasKeyPhrase(ws: readonly string[]): boolean {
  const joined = ` ${ws.join(" ")} `;
  return KEY_PHRASES.some((p) => joined.includes(` ${p} `));
}
/** Words that may stand before the first opening word of a unit. */
const LEAD_WORDS = words(
  `i i'm im i'd i've i'll and also oh so but again anyway well really truly do must would should be most just once okay ok my please kindly omg team`,
);
// A class's opening words are words of it too ("Heya, hope u having a chill day").
const CLASS_WORDS = Object.fromEntries(Object.entries(CLASSES).map(([name, c]) => [name, words(`${c.opens} ${c.words}`)])) as Record<SocialClass, Set<string>>;
/** Class by opening word; "i" opens a state ("I'm so stressed") but also a wish ("I hope ..."), thanks ("I appreciate"), an apology. */
const OPENERS = new Map<string, SocialClass[]>();
for (const [name, c] of Object.entries(CLASSES) as [SocialClass, { opens: string }][]) {
  for (const w of words(c.opens)) OPENERS.set(w, [...(OPENERS.get(w) ?? []), name]);
}
/**
 * The word a class needs besides its opening one, where the opening word alone says nothing social: "You
 * are a treasure" is praise, "You are an editor" is a role; "I am stressed" is a state, "I am a nurse" is not.
 */
const NEEDS = {
  praise: words(`awesome amazing incredible brilliant genius wonderful fantastic best smartest greatest goat star legend gem treasure hero champ lifesaver
    saver saint angel rockstar rock rocks talented love luv adore ily ilysm ilu nail nails amazed impressed blown`),
  state: words(`panicking freaking losing dying cooked doomed fried begging cry crying crazy insane spinning dumb stupid silly`),
} as Partial<Record<SocialClass, Set<string>>>;

/** A word: letters with inner apostrophes; emoji, emoticons and punctuation are skipped, digits and anything else end the scan. */
const TOKEN =
  /([a-z]+(?:['’][a-z]+)*)|[\s.,!?;:~…()*^_\-—–"“”'‘’/]+|<3|[:;]-?[)(dp]|(?:[\u2600-\u27BF\u2B00-\u2BFF]|[\uD83C-\uD83E][\uDC00-\uDFFF]|\uFE0F|\u200D)+|([\s\S])/gy;
const MAX_UNIT_CHARS = 200;

/** Lower-cased words of `text`, or null when it holds anything but words, blanks, punctuation and emoji. */
// Ends at the first word that neither opens a unit nor may stand before the word that does (classOfWords
// would refuse the unit there): most sentences are read no further than their first word, which kept the
// optimizer's cost on fresh workload prompts where it was (bench/optimizer-trees.ts).
function socialWords(text: string): string[] | null {
  if (text.length > MAX_UNIT_CHARS) return null;
  const lower = text.toLowerCase();
  const out: string[] = [];
  let opened = false;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < lower.length) {
    const m = TOKEN.exec(lower);
    if (m === null || m[2] !== undefined) return null;
    if (m[1] === undefined) continue;
    const word = m[1].replace("’", "'");
    if (!opened) {
      if (OPENERS.has(word)) opened = true;
      else if (!LEAD_WORDS.has(word)) return null;
    }
    out.push(word);
  }
  return out;
}

/** Laughter and stretched words typed as chat: "hahaha", "lolll", "thankss", "sooo". */
const STRETCHED = /(.)\1{2,}/g;
const LAUGHTER = /^(?:a?(?:ha){2,}h?|(?:he){2,}|lo+l+z?|lmf?ao+|rofl|xd+)$/;
function isKnown(word: string, classes: readonly SocialClass[]): boolean {
  return SHARED_WORDS.has(word) || classes.some((c) => CLASS_WORDS[c].has(word));
}
function known(word: string, classes: readonly SocialClass[]): boolean {
  if (isKnown(word, classes) || LAUGHTER.test(word)) return true;
  // A possessive of a social word: "an old man's ignorance".
  if (word.endsWith("'s") && isKnown(word.slice(0, -2), classes)) return true;
  const squeezed = word.replace(STRETCHED, "$1$1");
  if (squeezed !== word && isKnown(squeezed, classes)) return true;
  const single = word.replace(STRETCHED, "$1");
  return single !== word && isKnown(single, classes);
}

/** Words that name a role in "You are a helpful assistant": a system prompt's role, never praise. */
const ROLE = words(`assistant bot ai gpt chatgpt claude gemini model helper`);
/** Praise no role description holds: "You're the smartest assistant out there" is praise, "You are a helpful assistant" a role. */
const STRONG = words(`smartest greatest goat legend lifesaver genius amazed blown treasure gem star champ hero rock rocks rockstar saint angel love adore luv`);
/** Classes that need one of their NEEDS words besides the opening one. */
const NEEDY = new Set<SocialClass>(["praise", "state"]);

/**
 * The class of a unit whose words are all social, or null. A unit may join clauses of several classes
 * ("Sorry again and thank you for your patience!", "Heya 👋 hope u having a chill day!!"): every word
 * must be a shared word or a word of a class whose opening word is in the unit, and the first opening
 * word must come within the first four words ("And so sorry", "I'm really so grateful").
 */
function classOfWords(ws: readonly string[]): SocialClass | null {
  if (ws.length === 0) return null;
  let first: SocialClass | null = null;
  const present = new Set<SocialClass>();
  for (let i = 0; i < ws.length; i++) {
    const classes = OPENERS.get(ws[i]!);
    if (classes === undefined) {
      // Before the first opening word only a few light words: "I'm so sorry", "And thanks", not "Is it okay".
      if (first === null && !LEAD_WORDS.has(ws[i]!)) return null;
      continue;
    }
    first ??= classes[0]!;
    for (const c of classes) present.add(c);
  }
  if (first === null) return null;
  const classes = [...present];
  // "I" opens a state only when nothing else does: "I hope ..." is a wish, "I really appreciate it" thanks.
  if (first === "state" && classes.length > 1) first = classes.find((c) => c !== "state")!;
  for (const w of ws) if (!known(w, classes)) return null;
  const keyed = ws.some((w) => KEY_WORDS.has(w) || KEY_WORDS.has(w.replace(STRETCHED, "$1")) || LAUGHTER.test(w)) || hasKeyPhrase(ws);
  if (keyed) return first;
  if (!classes.some((c) => NEEDY.has(c) && ws.some((w) => NEEDS[c]!.has(w)))) return null;
  return ws.some((w) => ROLE.has(w)) && !ws.some((w) => STRONG.has(w)) ? null : first;
}

/** Whether a whole sentence is a social unit of the closed vocabulary: "Thanks heaps, legend 🙌", "Hmm, let me think." */
export function vocabSocialClass(sentence: string): SocialClass | null {
  const ws = socialWords(sentence);
  return ws === null ? null : classOfWords(ws);
}

const PLACEHOLDER_FIRST = /^[\uE000-\uF8FF]/;
/**
 * A sentence's first word, after any emoji or punctuation but a quotation mark: a sentence that opens a
 * quotation is quoted text, whose social words are data (the property test of mayChange found
 * '"Sorry if this is a dumb question, butI ...' losing its opening quote with the apology).
 */
const FIRST_WORD = /^[^a-z\uE000-\uF8FF"“”'‘’«»]{0,20}([a-z]+(?:['’][a-z]+)*)/i;

/** Whether a unit of the closed vocabulary may open `sentence`: its first word opens one or may stand before the word that does. */
export function mayOpenUnit(sentence: string): boolean {
  const first = FIRST_WORD.exec(sentence)?.[1]?.toLowerCase().replace("’", "'");
  return first !== undefined && (OPENERS.has(first) || LEAD_WORDS.has(first));
}
/** Where the clauses of a sentence may part: a comma, a dash, "but", or emoji. */
const CLAUSE_END = /[ \t]*(?:,|;|[ \t][—–-][ \t]|(?:[\u2600-\u27BF\u2B00-\u2BFF]|[\uD83C-\uD83E][\uDC00-\uDFFF]|\uFE0F|\u200D)+)[ \t]*|[ \t]+(?=but[ \t])/g;
/** What joins a dropped clause to the rest: "and" before another social clause, "but" / "so" before the request. */
const JOINER = /^(?:(?:and|but|so)[ \t]+)+/i;

/**
 * What a sentence left after a social lead may open with: a subject, a question word, an auxiliary, a
 * courtesy word, a verb of a request, or a protected span (a placeholder: a name, "My" read as one). Not
 * "the" or an adjective: "You are so good at this, seriously, the best partner ever." is one unit whose
 * second half is no sentence; nor "it" or "this", which may point into the lead ("Please excuse my
 * English, it is not my first language." lost its referent).
 */
const STARTS_SENTENCE =
  /^(?:[\uE000-\uF8FF]|(?:you|your|i|i['’]m|i['’]ve|i['’]d|i['’]ll|im|my|we|we['’]re|our|me|there|here|what|what['’]s|how|how['’]s|why|when|where|which|who|whose|can|could|would|will|should|is|are|am|do|does|did|was|were|have|has|please|pls|plz|kindly|now|also|if|any|write|explain|give|tell|show|list|suggest|recommend|help|make|create|draft|summari[sz]e|translate|describe|find|fix|rewrite|review|check|correct|compare|calculate|solve|plan|name|define|convert|proofread|edit|generate|come)\b)/i;

/**
 * The length of the social clauses, of the closed vocabulary, that a sentence opens with when a sentence
 * of at least three words follows them ("So sorry to ask again, I asked ..." -> "I asked ..."), or 0.
 */
export function vocabLeadLength(sentence: string, loose = false): number {
  if (sentence.length > 600) return 0;
  if (!mayOpenUnit(sentence)) return 0;
  let lead = 0;
  let from = 0;
  // Thanks or a sign-off before a name is a signature ("Many thanks, Bernard (aged 84)"), not a lead.
  let closes = false;
  CLAUSE_END.lastIndex = 0;
  for (let m = CLAUSE_END.exec(sentence); m !== null; m = CLAUSE_END.exec(sentence)) {
    if (m[0] === "") {
      CLAUSE_END.lastIndex++;
      continue;
    }
    const clause = sentence.slice(from, m.index).replace(JOINER, "");
    const cls = vocabSocialClass(clause);
    if (cls === null) break;
    if (cls === "thanks" || cls === "signoff") closes = true;
    let next = m.index + m[0].length;
    const joiner = JOINER.exec(sentence.slice(next));
    if (joiner) next += joiner[0].length;
    lead = next;
    from = next;
  }
  if (lead === 0 || loose) return lead;
  const rest = sentence.slice(lead);
  if (closes && PLACEHOLDER_FIRST.test(rest)) return 0;
  return STARTS_SENTENCE.test(rest) && rest.trim().split(/\s+/).length >= 3 ? lead : 0;
}

/** Sign-offs of one common word, social only before a name: "Best, K.", "Love, Mum". */
const BARE_SIGN_OFF = words(`best love warmly yours sincerely respectfully cheers thanks regards`);
/** The last characters of a message, where a sign-off with a name is looked for: no scan of a long text. */
const TAIL_CHARS = 160;
/** A name as signed: capitalised words and initials, one to three ("Jonathan", "D. Mensah", "Mrs. P. Whitfield", "HR"). */
const NAME = String.raw`(?:[A-Z][A-Za-z'’-]*\.?)(?:[ \t]+[A-Z][A-Za-z'’-]*\.?){0,2}`;
const NAME_ONLY = new RegExp(`^${NAME}$`);

/** Whether `line` is nothing but a name as signed ("Peter", "Mrs. Pauline Everett"). */
export function isSignedName(line: string): boolean {
  return NAME_ONLY.test(line);
}
const SIGNED = new RegExp(String.raw`(?:^|(?<=[.!?\n][ \t]*))([^\n.!?]{1,80}?)(?:[ \t]*[,.!]+[ \t]*|[ \t]+[—–-][ \t]*)(${NAME})[ \t]*[.!]?\s*$`);

/** Whether the last word of `text` (before a full stop or "!") opens with a capital: SIGNED is tried only then. */
function endsWithName(text: string): boolean {
  let end = text.length;
  while (end > 0 && /[\s.!]/.test(text[end - 1]!)) end--;
  let start = end;
  while (start > 0 && !/[\s,.!?]/.test(text[start - 1]!)) start--;
  const c = text.charCodeAt(start);
  return end > start && c >= 0x41 && c <= 0x5a;
}

/**
 * Where a sign-off or thanks with the sender's name that ends `text` starts ("... Kind regards, Jonathan",
 * "... Thank you most sincerely. Geoffrey Hale"), or -1. The name goes with the sign-off: without it a
 * name would dangle ("Explain it. Bernard"). A name on a line of its own stays (a pasted letter's).
 */
export function signedTailStart(text: string): number {
  if (!endsWithName(text)) return -1;
  const from = Math.max(0, text.length - TAIL_CHARS);
  const m = SIGNED.exec(from === 0 ? text : text.slice(from));
  if (m === null || (from > 0 && m.index === 0)) return -1;
  const cls = BARE_SIGN_OFF.has(m[1]!.trim().toLowerCase()) ? "signoff" : vocabSocialClass(m[1]!);
  return cls === "thanks" || cls === "signoff" ? from + m.index : -1;
}

/** What thanks may be for and still be for the help: "Many thanks for your time and consideration." */
const FOR_THE_HELP = words(
  `your the all any this and in advance time help patience consideration assistance support kindness attention effort efforts trouble everything`,
);

/**
 * A closing addressed to the assistant whatever the prompt asks to be written: thanks with no object but
 * the help, a sign-off, praise ("Thanks!!", "Many thanks for your time.", "Warm regards", "You're a
 * lifesaver!"). After a request to write a bio or a reminder such a closing is no line of it; after one to
 * write a thank-you card or a reply it may be (the caller looks for those first).
 */
export function isBareClosing(sentence: string): boolean {
  const ws = socialWords(sentence);
  if (ws === null) return false;
  const cls = classOfWords(ws);
  if (cls !== "thanks" && cls !== "signoff" && cls !== "praise") return false;
  const at = ws.indexOf("for");
  return at < 0 || ws.slice(at + 1).every((w) => FOR_THE_HELP.has(w));
}

/**
 * A request to write what may itself hold thanks, wishes, apologies, praise or greetings, or to play a
 * part: after it every closing may be a line of what is written ("Write a toast. Thank you thank you!").
 */
export const SOCIAL_GENRE =
  /\b(?:thank|thanks|thank-you|thankyou|grateful|gratitude|appreciat\w*|apolog\w*|sorry|greet\w*|card|toast|farewell|goodbye|welcome\w*|congrat\w*|condolences?|sympathy|wish\w*|bless\w*|sign-?offs?|compliments?|prais\w*|love|valentine|birthday|anniversary|retir\w*|holidays?|christmas|eid|diwali|new year|get well|cheers|regards|dialogue|dialog|script|lyrics|song|poem|story|speech|role-?play|pretend|character|reply|replies|respond|response|quote|say|says|saying)\b/i;
