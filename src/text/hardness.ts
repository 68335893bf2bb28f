import { AnchoredMatches, type AnchoredPattern } from "./anchored-matches";
/**
 * What makes a prompt hard whatever its class, read from the user's text without a model: the
 * constraints an answer must satisfy, the steps it must take, how long an answer it asks for,
 * whether it asks for a judgement between options, and whether it names a calculation.
 * (The amount of context is the prompt's token count, which the signals already carry.) The router
 * sends a prompt that would go to the cheapest tier one tier up when one of these passes the operator's
 * threshold (capabilities.json `hard_prompt`); the task classifier reads the same counts as text features
 * (src/ml/text-features.ts), since a prompt bound by many conditions is a reasoning task more often than not.
 */
export interface Hardness {
  /**
   * Requirements the answer must meet: "must", "at most", "no more than", "unless", "before"... List items
   * are not counted: awesome-chatgpt-prompts' role-play set-ups average almost 3 each.
   */
  constraints: number;
  /** Sequence cues: "first", "then", "after that", "finally", "step by step", "step 2"... */
  steps: number;
  /** Words of output the prompt asks for ("in 1500 words", "a 3 page report"); 0 when it names no length. */
  requestedWords: number;
  /**
   * Requests to deliberate: "weigh", "trade-offs", "pros and cons", "justify", "argue", "reason it
   * through", "is it worth", "which would you choose"... A question that asks for a judgement between
   * options is reasoning whatever its topic or length.
   */
  deliberation: number;
  /**
   * Names of a mathematical operation to carry out: "factorial", "squared", "divisors of", "multiplied
   * by", "probability of", "derivative of", "solve for", "how many ways"... A short prompt that names one
   * asks for a calculation whatever its wording ("what's 7 factorial" came out chat).
   */
  calculation: number;
}

// Words that bind an answer to a condition or a quantity, each occurrence counted. Role-play set-ups
// ("you should only reply...", "never explain", "always answer in...") bind the style, not the problem:
// counting "should", "only", "never", "always", "without" and list items put 42% of
// awesome-chatgpt-prompts' chat rows (train and dev) at 8 cues or more; without them, 8% reach the
// bundled 6 (11% with the other three signals), the project's own chat and faq prompts none.
const CONSTRAINT =
  /\b(must(?: not)?|mustn't|has to|have to|needs? to|can't|cannot|can not|only (?:if|when)|at (?:least|most)|no (?:more|less|fewer|later|earlier) than|exactly|unless|except|before|after|between|within|limit(?:ed)? to|maximum|minimum|budget|deadline|allergic|refuses?)\b/gi;
const STEP =
  /\b(first(?:ly)?|second(?:ly)?|third(?:ly)?|then|next|after that|afterwards|finally|lastly|step by step|step \d+|in order|followed by|and then)\b/gi;
// Measured on the project's written prompts (train, dev and both fresh hold-outs): 103 of 447 reasoning
// prompts have one, 2 of 619 faq and chat; of the public corpora's faq and chat rows 62 of 3,223 (debate
// role-plays, "is it worth..." questions). "should I" and "recommend" are left out: "how long should I
// boil an egg" and "recommend a good book" are questions, not deliberation.
//
// The second line asks to weigh several explanations or options against each other ("which explanation fits
// best", "rank the causes", "what could explain", "how would I tell them apart"): issue 26's fifteenth round,
// for reasoning asked in a faq's words, which the classifier's border between "why does X happen" (faq) and
// "why did X happen, which cause" (reasoning) moves both ways whenever training rows are added. Over every
// labelled row, the written dev sets and the training files of rounds 9-14 its forms match 63 reasoning
// rows and 2 others (long role-play set-ups of awesome-chatgpt-prompts); "which is better", "most likely"
// and "should I ... or" were left out (they match faq, chat and corpus rows: "which is better, SSD or HDD").
// A counterfactual in the past ("what if the Aztecs had repelled the Spanish?") is one too: 10 of vicuna's
// and 1 written reasoning prompt, no other row; vicuna left out sent 6 of them to the cheapest tier as faq
// with a model trained on the thirteenth to fifteenth rounds' faq rows (so that fold's figure is a tuned one).
// "If X had (never)..., how might/would..." is the same counterfactual without "what": issue 26's seventeenth
// round, for round-9 dev's "If the Roman Empire had never split in two, how might European languages look
// today?" (also a fresh hold-out row), which a model trained on rounds 11-17 took for faq. Of the project's
// data files (check sets not read) it matches 10 prompts, all reasoning, and no row of ../shared/data.
const DELIBERATION =
  /\b(weigh(?: up)?|trade-?offs?|pros and cons|justify|argue|reason (?:it|about|through|out)|think (?:it |this )?through|is it (?:worth|better|smarter|wiser)|which (?:would|should) (?:you|i|we) (?:choose|pick|prioriti[sz]e|go with)|what would happen|(?:possible|competing|plausible|alternative|rival) (?:explanations|causes|reasons|hypotheses)|tell (?:them|these|those|the two) apart|what (?:could|might|would) explain|which (?:explanations?|causes?|reasons?|factors?|options?|one|theory|theories)(?: here)? (?:fits|is (?:the )?most likely|is (?:more|most) likely|is likelier|matters most|best explains|makes (?:the )?most sense)|which (?:one )?(?:is|seems) (?:more|most) likely|which (?:matters|counts|weighs) (?:more|most)|which (?:one )?(?:makes|would make) (?:more|the most) sense|rank (?:the |these |those )?(?:explanations|causes|reasons|possibilities|options|factors|hypotheses)|how (?:do|would|could|can|should) (?:i|we|you) (?:figure out|find out|work out|tell|know) which|brainstorm (?:the |some )?(?:reasons|causes|explanations)|how (?:they|these|those) interact|what if (?:\S+ ){1,8}?had(?:n't| not| never)?|if (?:\S+ ){1,8}?had(?:n't| not| never)? (?:\S+ ){0,10}?how (?:might|would|could))\b/gi;
// Chosen on leave-one-source-out predictions and the written sets (issue 26, ninth round): among prompts
// under 80 tokens that the table sent to the cheapest tier, it names one in 6 code/math/reasoning prompts
// of the left-out corpora and 4 of the written sets, 0 faq or chat prompts. Words that also name
// everyday or financial things are left out or bound to "of"/"when": "the remainder of the year",
// "financial derivatives", "integrate Slack with my calendar".
const CALCULATION =
  /\b(factorials?|squared|cubed|(?:square|cube) roots? of|(?:positive |prime )?divisors of|multiplied by|divided by|prime factori[sz]ation|prime factors of|probability (?:of|that)|integral of|antiderivative|derivative of|differentiate|solve (?:for|the equation)|equations?|remainder when|gcd|lcm|modulo|eigenvalues?|determinant of|logarithm|how many ways)\b/gi;
/**
 * A calculation needs something to calculate with: a digit, a number word, an operator or a one-letter
 * variable. Without one the words ask about the idea or about everyday things: "What is a logarithm?",
 * "How many ways are there to say hello in Spanish?", "the probability of rain tomorrow", "How do I
 * differentiate between a cold and the flu?", "a team divided by the new policy" (a review of the
 * ninth round's signal lifted each to the balanced tier).
 */
const QUANTITY =
  /\d|[=^+*/×÷]|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|half|dozen)\b/i;
/** A one-letter variable ("solve for x"), not "a", "I" or the "s" of "what's". */
const VARIABLE = /(?<![A-Za-z'’])[b-hj-z](?![A-Za-z'’])/;
const LENGTH = /\b(\d{1,5}|a few hundred|a thousand|several thousand)[ -](words?|pages?|paragraphs?)\b/gi;
const WORDS_PER = { word: 1, words: 1, page: 500, pages: 500, paragraph: 120, paragraphs: 120 } as Record<string, number>;
const AMOUNT: Record<string, number> = { "a few hundred": 300, "a thousand": 1000, "several thousand": 3000 };

/**
 * Every word a match of CONSTRAINT, STEP and LENGTH can open with (LENGTH also at a digit), for one
 * scan that runs each pattern only there (see AnchoredMatches) rather than the engine trying each
 * alternation at every position. Exported for the test that holds the lists to the patterns.
 */
export const HARDNESS_PATTERNS: readonly AnchoredPattern[] = [
  {
    pattern: CONSTRAINT,
    words:
      "must mustn has have need needs can cannot only at no exactly unless except before after between within limit limited maximum minimum budget deadline allergic refuse refuses".split(
        " ",
      ),
  },
  { pattern: STEP, words: "first firstly second secondly third thirdly then next after afterwards finally lastly step in followed and".split(" ") },
  { pattern: LENGTH, words: ["a", "several"], units: "0123456789" },
  {
    pattern: DELIBERATION,
    words:
      "weigh trade tradeoff tradeoffs pros justify argue reason think is which what possible competing plausible alternative rival tell rank how brainstorm if".split(
        " ",
      ),
  },
  {
    pattern: CALCULATION,
    words:
      "factorial factorials squared cubed square cube positive prime divisors multiplied divided probability integral antiderivative derivative differentiate solve equation equations remainder gcd lcm modulo eigenvalue eigenvalues determinant logarithm how".split(
        " ",
      ),
  },
];
const hardnessScan = new AnchoredMatches(HARDNESS_PATTERNS);
const [CONSTRAINT_K, STEP_K, LENGTH_K, DELIBERATION_K, CALCULATION_K] = [CONSTRAINT, STEP, LENGTH, DELIBERATION, CALCULATION].map((p) =>
  HARDNESS_PATTERNS.findIndex((h) => h.pattern === p),
);

// A length is asked for when it follows a word that sizes an output ("in 500 words", "a 3 page report",
// "give me 5 paragraphs", "at most 200 words") or opens the prompt. One the writer reports ("I finally
// finished my thesis!! 87 pages", "my 40 page report") is context, not output: counted as asked, it sent
// small talk to balanced as long_output (fresh hold-out 2's one faq/chat lift the oracle also made).
const SIZES_OUTPUT = new Set(
  "a an in of about around roughly approximately approx under over within than least most to max maximum me us write give need want exactly only just into another some each per".split(
    " ",
  ),
);
const WORD_BEFORE = /([A-Za-z]+)[ \t-]*$/;

/** Whether the length at `at` is one the prompt asks for: see SIZES_OUTPUT. */
function asksForLength(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 24), at);
  if (before.trim() === "" && at <= 24) return true;
  const word = WORD_BEFORE.exec(before)?.[1];
  return word !== undefined && SIZES_OUTPUT.has(word.toLowerCase());
}

/** Only the head of a very long prompt is read: past it the context size itself (promptTokens) speaks. */
export const HARDNESS_SAMPLE_CHARS = 8000;

/**
 * The last text read and what was found, returned again for the same text: one request reads the
 * classifier's text (src/ml/text-features.ts) and then routing's user text, which are the same string
 * for a one-line prompt (91% of the benchmark's fresh prompts), and the three scans cost 20 µs on
 * ~300 tokens. Callers only read the result.
 */
let last: { text: string; hardness: Readonly<Hardness> } | undefined;

export function hardnessOf(userText: string): Readonly<Hardness> {
  if (last?.text === userText) return last.hardness;
  const hardness = scan(userText);
  last = { text: userText, hardness };
  return hardness;
}

function scan(userText: string): Hardness {
  const text = userText.length > HARDNESS_SAMPLE_CHARS ? userText.slice(0, HARDNESS_SAMPLE_CHARS) : userText;
  const hardness = noHardness();
  hardnessScan.each(text, (k, m) => countHardness(hardness, text, k, m));
  return hardness;
}

export const noHardness = (): Hardness => ({ constraints: 0, steps: 0, requestedWords: 0, deliberation: 0, calculation: 0 });

/**
 * Adds match `m` of HARDNESS_PATTERNS[k] in `text` (the text read, at most HARDNESS_SAMPLE_CHARS long)
 * to `hardness`; in whatever order the matches come, the counts are the same.
 */
export function countHardness(hardness: Hardness, text: string, k: number, m: RegExpExecArray): void {
  if (k === CONSTRAINT_K) hardness.constraints++;
  else if (k === STEP_K) hardness.steps++;
  else if (k === DELIBERATION_K) hardness.deliberation++;
  else if (k === CALCULATION_K && (QUANTITY.test(text) || VARIABLE.test(text))) hardness.calculation++;
  else if (k === LENGTH_K && asksForLength(text, m.index)) {
    const amount = AMOUNT[m[1]!.toLowerCase()] ?? Number(m[1]);
    hardness.requestedWords = Math.max(hardness.requestedWords, amount * (WORDS_PER[m[2]!.toLowerCase()] ?? 1));
  }
}

/**
 * Records `hardness` as that of `userText` (at most HARDNESS_SAMPLE_CHARS long), counted by a caller
 * that found HARDNESS_PATTERNS' matches in it within a scan of its own (src/ml/text-features.ts), so
 * that hardnessOf on the same text does not scan it again.
 */
export function rememberHardness(userText: string, hardness: Readonly<Hardness>): void {
  if (userText.length > HARDNESS_SAMPLE_CHARS) throw new RangeError(`rememberHardness: a text of ${userText.length} characters is read only in part`);
  last = { text: userText, hardness };
}
