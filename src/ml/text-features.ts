import { AnchoredMatches, type AnchoredPattern } from "../text/anchored-matches";
import { countHardness, HARDNESS_PATTERNS, noHardness, rememberHardness } from "../text/hardness";
import { FoldedWordTable } from "../text/word-table";

/**
 * Cheap surface features of a prompt that the embedding blurs: code fences and symbols, digits and
 * operators, length, question form, and the few instruction verbs that name a task outright. The task
 * classifier reads them next to the embedding; training and runtime share this function.
 */
export const TEXT_FEATURE_NAMES = [
  "code_fence",
  "code_keyword",
  "symbol_ratio",
  "digit_ratio",
  "math_operator_ratio",
  "log_chars",
  "log_lines",
  "question_mark",
  "question_opening",
  "translate_verb",
  "summarize_verb",
  "extract_verb",
  "roleplay_opening",
  "creative_noun",
  "reasoning_cue",
  "math_cue",
  "shell_or_path",
  "config_syntax",
  "error_trace",
  "tech_vocabulary",
  "quantity_question",
  "trade_off_or_plan",
  "document_body",
  "non_latin_letters",
  "procedural_question",
  "logic_puzzle",
  "causal_question",
  "decision_question",
  "first_person",
  "imperative_opening",
  "constraint_cues",
  "step_cues",
] as const;

export const TEXT_FEATURE_COUNT = TEXT_FEATURE_NAMES.length;

const CODE_KEYWORD = /\b(def|function|class|import|return|const|let|var|public|static|void|#include|SELECT|printf|console\.log|=>)\b|[{};]\s*$/m;
const QUESTION_OPENING = /^\s*(what|who|whom|whose|when|where|which|why|how|is|are|can|could|does|do|did|should|will|would)\b/i;
const LANGUAGES =
  "french|german|spanish|italian|japanese|chinese|mandarin|cantonese|english|portuguese|russian|korean|arabic|dutch|polish|swedish|norwegian|danish|finnish|greek|turkish|hindi|hebrew|thai|vietnamese|indonesian|ukrainian|czech|romanian|hungarian|swahili|latin";
const TRANSLATE = new RegExp(
  `\\btranslat(e|ion|ing)\\b|\\b(in|into|to|from) (${LANGUAGES})\\b|\\b(${LANGUAGES}) (to|into) (${LANGUAGES})\\b|\\bwhat does ["“'«].{1,60}["”'»] mean\\b`,
  "i",
);
const SUMMARIZE =
  /\bsumm?ar(y|ize|ise|izing|ising)\b|\btl;?dr\b|\bcondense\b|\bkey (points|takeaways)\b|\bmain (points?|idea)\b|\bsum (it|this|that|these) up\b|\bsum up\b|\bgist\b|\brecap\b|\bboil\b.{0,20}\bdown\b|\bshort(er)? version\b|\bbottom line\b|\boverview\b|\bhighlights\b|\bshorten\b/i;
// extract_verb: EXTRACT, which opens at a word, or EXTRACT_AT_START (one regex until the word-opened
// part joined the shared scan below, where it took 15% of textFeatures' samples).
const EXTRACT_AT_START = /^\s*(from|in|go through|read) (this|these|the following|the below)\b/i;
const EXTRACT =
  /\bextract\b|\bpull (out|the)\b|\bparse\b|\bgrab\b|\b(list|identify|find|get|give me) (all|every|each|the|just)\b.*\b(mentioned|from|in (the|this|these)|out of)\b|\b(as|into) (json|a table|a csv|csv)\b|\b(list|get|give me|tell me|find|pull|what are|which)\b.{0,60}\b(from|in|out of) (this|these|the following|the (text|email|message|log|table|list|document|page|transcript|notes?|below))\b|\bwhich\b.{0,40}\b(are|is) (mentioned|named|in this)\b/i;
const ROLEPLAY = /\b(act as|i want you to act|you are a|pretend (to be|you are)|role-?play)\b/i;
const CREATIVE = /\b(poem|story|stories|lyrics|song|novel|haiku|essay|screenplay|blog post|slogan|fiction)\b/i;
const REASONING = /\b(step by step|explain why|riddle|puzzle|logic|deduce|what if|would happen|estimate how many|prove that)\b/i;
// Decisions, comparisons, plans and counterfactuals: reasoning whatever the topic (a trip, a database, a mortgage).
const TRADE_OFF_OR_PLAN =
  /\b(pros and cons|trade-?offs?|for and against|arguments? (for|against)|which (factors?|matters?)|weigh|compare|comparison|versus|vs\.?|should (i|we)|which (is|would be|should) (better|best|more|i)|better (option|choice)|decide|decision|recommend one|plan (a|the|my|our)|schedule|prioriti[sz]e|what would happen|would have happened|suppose|imagine|consequences?|root cause|what could explain|most likely (reason|cause)|how (would|should) (i|you|we) (decide|choose|approach))\b/i;
// An instruction followed by material to work on: a colon or blank line, then a long stretch of text.
const DOCUMENT_BODY = /[:?.]\s*\n\s*\S[\s\S]{80,}|:\s+["“'][^"”']{60,}|^[\s\S]{200,}\n\s*\n\s*\S.{0,200}$/;
const COLON_THEN_QUOTE = /:\s+["“']/;
/*
 * What the prompt asks, whatever its topic (issue 26): the leave-one-source-out evaluation showed the
 * classifier learning which corpus a prompt came from (numbers read as math, a casual tone as chat).
 * These say what kind of answer is wanted: a procedure ("how do I..."), a deduction, a cause, a choice;
 * whether the writer speaks of their own situation; whether it opens with an instruction; and how many
 * conditions and steps bind the answer (the router's own hardness counts, src/text/hardness.ts).
 */
const PROCEDURAL =
  /(^|[.!?]\s+|\n)\s*(how (do|can|could|should|would) (i|we)|how to|is there a way|is it possible to|what(?:'s| is) the (command|formula|shortcut|syntax|setting|easiest way|best way))\b/i;
const LOGIC_PUZZLE =
  /\b(knights?|knaves?|liars?|always (lies|lie|tells? the truth)|exactly one|only one of|each (of them|person|has|have|owns?)|a different|necessarily|does it follow|can (we|you) conclude|who (is|has|owns|sat|sits|finished|is lying|is telling)|labell?ed|riddle|puzzle|in what order|is the order|seating)\b/i;
const CAUSAL =
  /\b(why (might|would|could|do you think|did|does my|is my|are my|has|have|was)|what could (explain|be causing|cause|be going on|be happening)|what(?:'s| is) (causing|going on)|(possible|likely|probable|root) (causes?|reasons?|explanations?)|hypothes[ie]s|how would (i|you|we) (figure out|tell|know|check)|rule (each|it|them|one) out|knock-on|second order|chain of (events|consequences))\b/i;
const DECISION =
  /\b(should (i|we)|which (is|would be|one is|option is) (better|smarter|cheaper|safer|the better)|is it (worth|smarter|better|cheaper|wiser)|better (deal|value|option|choice|off)|help me (decide|choose|think)|would you rather|or should|(decide|choose|pick) between|worth it|recommend one|what would you (do|pick|choose))\b/i;
const FIRST_PERSON = /\b(i|i'm|i've|i'd|my|we|we're|our|me|us)\b/i;
const IMPERATIVE_OPENING =
  /^\s*(?:(?:please|pls|can you|could you|would you|help me|i need you to|i want you to)\s+)?(write|implement|create|build|make|fix|debug|refactor|convert|design|explain|describe|list|give|tell|compare|plan|calculate|compute|solve|find|prove|show|translate|summari[sz]e|extract|generate|compose|draft|rank|sort|pick|choose|decide|estimate|assign|schedule|propose|recommend|evaluate|analy[sz]e|parse|pull|turn|rewrite|get)\b/i;
// "how many" alone is small talk as often as arithmetic ("how many times have you seen it?"); quantity_question pairs it with a number.
const MATH = /\b(solve|equation|integral|derivative|probability|calculate|sum of|percent|theorem)\b/i;
const QUANTITY = /\bhow (many|much)\b/i;
// Code work that reads as prose (system administration, set-up, configuration) still names commands, paths and files:
// shell_or_path is SHELL_COMMAND, which opens at a word (in the shared scan below), or SHELL_PATH_OR_FILE,
// which can match only where SHELL_PATH_MARK does ("$ ", a slash or backslash, a dot before a small
// letter), so prose without one skips it (one regex till both were split off: 10% of the classifier's
// JavaScript samples on fresh workload prompts).
const SHELL_COMMAND =
  /\b(sudo|apt-get|apt|yum|dnf|brew|pip3?|npm|npx|yarn|pnpm|cargo|git|docker|kubectl|systemctl|ssh|scp|curl|wget|chmod|chown|grep|sed|awk|bash|zsh|powershell|nixos-rebuild|cmake|gcc|clang)\s/;
const SHELL_PATH_MARK = /\$ |[/\\]|\.[a-z]/;
const SHELL_PATH_OR_FILE =
  /^\$ |(^|[\s"'`(])(~|\.{1,2})?(\/[\w.@-]+){2,}|\b[A-Z]:\\|\w\.(py|js|mjs|ts|tsx|jsx|java|kt|c|cc|cpp|h|hpp|cs|rs|go|rb|php|sh|ps1|nix|ya?ml|json|toml|ini|conf|cfg|xml|html?|css|scss|sql|lock|env|gradle|csproj|vue|svelte|dll|exe|so)\b/m;
const CONFIG_SYNTAX = /^\s*[\w.-]+\s*[:=]\s*\S.*\n\s*[\w.-]+\s*[:=]\s*\S|^\s*\[[\w. -]+\]\s*$|<\/?[a-zA-Z][\w-]*(\s[^>]*)?>/m;
const ERROR_TRACE =
  /\b(error|exception|traceback|stack ?trace|segfault|segmentation fault|errno|undefined reference|null ?pointer|nullreferenceexception|stderr|exit (code|status)|compil(e|er|ation|ing)|deprecat(ed|ion)|warning:|failed to|cannot find module|not found|permission denied)\b/i;
/**
 * Software and system-administration words. Seeded by the words most over-represented in the train split's
 * code prompts (arena-hard, mt-bench, vicuna coding) against every other class, completed by hand with
 * the tools and terms those prompts name; the embedding's hashed buckets blur such rare words.
 */
const TECH_WORDS = new FoldedWordTable(
  (
    "api apis server servers database databases sql query queries deploy deployment config configuration configure install installed " +
    "installation package packages library libraries framework compile compiler kernel linux ubuntu debian nixos nix windows macos docker " +
    "dockerfile kubernetes k8s nginx apache http https url urls json yaml xml css html javascript typescript python java rust golang php ruby " +
    "swift kotlin scala perl bash shell terminal script scripts scripting command commands cli endpoint endpoints backend frontend react vue " +
    "angular django flask node nodejs npm regex algorithm algorithms array arrays integer variable variables loop loops recursion recursive " +
    "function functions method methods class classes object objects debug debugging bug bugs repository repo github gitlab git commit branch " +
    "merge authentication auth oauth token tokens cache caching thread threads threading async await memory cpu gpu cuda runtime module modules " +
    "dependency dependencies sdk ide vscode vim emacs network networking port ports ip dns ssl tls ssh firewall proxy container containers " +
    "cluster vm virtualization unity excel vba macro spreadsheet formula pandas numpy dataframe datetime dict lambda callback snippet filename " +
    "directory dir disk filesystem partition boot bios driver drivers binary executable syntax parser parse implement implementation refactor " +
    "unittest pytest testing struct pointer pointers enum interface inheritance constructor exception exceptions stack heap queue hashmap hash " +
    "mutex socket sockets websocket graphql rest crud orm schema migration postgres postgresql mysql sqlite mongodb redis kafka aws azure gcp " +
    "vlookup xlookup pivot wordpress homebrew crontab bot macros formulas spreadsheets " +
    "terraform ansible jenkins ci cd pipeline webhook cron daemon systemd service localhost plugin plugins extension browser chrome firefox " +
    "webpack vite tsconfig eslint csv matlab latex arduino raspberry firmware microcontroller verilog assembly opengl shader blender godot"
  )
    .split(" ")
    .map((word) => [word, true] as const),
);

/**
 * The flags whose patterns open only at a word, with the feature each sets and every word a match can
 * open with (see AnchoredMatches): one scan of the head looks each word up once and runs a pattern only
 * where one of its words starts. JavaScriptCore tries an alternation at every position instead, 4-7 ns
 * a character per word list: textFeatures took 0.36x main's time with this scan (8,000 fresh workload
 * prompts, interleaved), the same features on all 419,222 strings of ../shared/data. QUANTITY's feature
 * also needs a digit, so it is set apart (-1). WORD_OPENED is exported for the test that holds the lists
 * to the patterns (test/compress/anchored-matches.test.ts).
 */
const WORD_OPENED_FLAGS: readonly (readonly [feature: number, pattern: RegExp, words: string, units?: string])[] = [
  [1, CODE_KEYWORD, "def function class import return const let var public static void select printf console", "#={};"],
  [
    16,
    SHELL_COMMAND,
    "sudo apt yum dnf brew pip npm npx yarn pnpm cargo git docker kubectl systemctl ssh scp curl wget chmod chown grep sed awk bash zsh powershell nixos cmake gcc clang",
  ],
  [9, TRANSLATE, `translate translation translating in into to from what ${LANGUAGES.replaceAll("|", " ")}`],
  [
    10,
    SUMMARIZE,
    "summary summarize summarise summarizing summarising sumary sumarize sumarise sumarizing sumarising tl tldr condense key main sum gist recap boil short shorter bottom overview highlights shorten",
  ],
  [11, EXTRACT, "extract pull parse grab list identify find get give as into tell what which"],
  [12, ROLEPLAY, "act i you pretend role roleplay"],
  [13, CREATIVE, "poem story stories lyrics song novel haiku essay screenplay blog slogan fiction"],
  [14, REASONING, "step explain riddle puzzle logic deduce what would estimate prove"],
  [15, MATH, "solve equation integral derivative probability calculate sum percent theorem"],
  [
    18,
    ERROR_TRACE,
    "error exception traceback stack stacktrace segfault segmentation errno undefined null nullpointer nullreferenceexception stderr exit compile compiler compilation compiling deprecated deprecation warning failed cannot not permission",
  ],
  [-1, QUANTITY, "how"],
  [
    21,
    TRADE_OFF_OR_PLAN,
    "pros trade tradeoff tradeoffs for argument arguments which weigh compare comparison versus vs should better decide decision recommend plan schedule prioritize prioritise what would suppose imagine consequence consequences root most how",
  ],
  [25, LOGIC_PUZZLE, "knight knights knave knaves liar liars always exactly only each a necessarily does can who labeled labelled riddle puzzle in is seating"],
  [26, CAUSAL, "why what possible likely probable root hypotheses hypothesis how rule knock second chain"],
  [27, DECISION, "should which is better help would or decide choose pick worth recommend what"],
  [28, FIRST_PERSON, "i my we our me us"],
];
export const WORD_OPENED: readonly AnchoredPattern[] = WORD_OPENED_FLAGS.map(([, pattern, words, units]) => ({
  pattern: new RegExp(pattern.source, `${pattern.flags}g`),
  words: words.split(" "),
  ...(units !== undefined && { units }),
}));
/**
 * The router's hardness counts (src/text/hardness.ts) come from the same scan, after these patterns:
 * textFeatures reads them of the same text, and routing then finds them remembered. Walking and looking
 * up the words once rather than twice: hardnessOf's own scan was a fifth of textFeatures' samples.
 */
const wordOpened = new AnchoredMatches([...WORD_OPENED, ...HARDNESS_PATTERNS]);
const QUANTITY_FLAG = WORD_OPENED_FLAGS.findIndex(([feature]) => feature === -1);

/** Character classes counted by charShares, as bits of CHAR_CLASS (ASCII) or by range (non-Latin letters). */
const SYMBOL = 1;
const DIGIT = 2;
const OPERATOR = 4;
const CHAR_CLASS = new Uint8Array(128);
for (const c of "{}()[];=<>_|\\&$#@") CHAR_CLASS[c.charCodeAt(0)]! |= SYMBOL;
for (const c of "0123456789") CHAR_CLASS[c.charCodeAt(0)]! |= DIGIT;
for (const c of "+-*/^=%") CHAR_CLASS[c.charCodeAt(0)]! |= OPERATOR;
const isNonLatinLetter = (c: number) => (c >= 0x370 && c <= 0x1fff) || (c >= 0x3040 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af);

/**
 * Shares of symbol, digit, operator and non-Latin letter characters in `head`, in one pass by char
 * code (a regex per character costs 10x more; four passes through a Set each cost 18 µs on a ~300-token
 * prompt, this one 3).
 */
function charShares(head: string): { symbols: number; digits: number; operators: number; nonLatin: number } {
  let symbols = 0;
  let digits = 0;
  let operators = 0;
  let nonLatin = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (c < 128) {
      const k = CHAR_CLASS[c]!;
      if (k & SYMBOL) symbols++;
      if (k & DIGIT) digits++;
      if (k & OPERATOR) operators++;
    } else if (isNonLatinLetter(c)) nonLatin++;
  }
  const n = head.length || 1;
  return { symbols: symbols / n, digits: digits / n, operators: operators / n, nonLatin: nonLatin / n };
}
/** FNV-1a as FoldedWordTable hashes a word's folded units (pieceHash). */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const isWordChar = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 35; // a-z 0-9 + #

/** Share of the words in `text` that are software or system-administration terms, times 5, at most 1. */
export function techShare(text: string): number {
  // A char-code scan: matchAll's match objects cost more than the rest of the features together; each
  // word looked up where it lies rather than sliced for a Set (techShare 0.80x over 3,000 workload
  // prompts). The words are read from `text` with ASCII capitals folded and hashed as they are read,
  // not from a lower-cased copy hashed again by TECH_WORDS.find: 11.7-12.9 µs -> 8.0-9.9 µs on a
  // ~300-token workload prompt (2,000 prompts, main and this interleaved). Lower-casing changes which
  // words there are only where a character outside ASCII becomes ASCII, which only İ (to "i" and a
  // combining dot) and the Kelvin sign (to "k") do (every code point checked in
  // test/ml/text-features.test.ts); a text with either is read lower-cased, as before.
  let words = 0;
  let tech = 0;
  let start = -1;
  let hash = 0;
  for (let i = 0; i <= text.length; i++) {
    let c = i < text.length ? text.charCodeAt(i) : 32;
    if (c >= 65 && c <= 90) c += 32;
    else if (c === 0x130 || c === 0x212a) return techShare(text.toLowerCase());
    if (start < 0) {
      if (c >= 97 && c <= 122) {
        start = i;
        hash = Math.imul(FNV_OFFSET ^ c, FNV_PRIME);
      }
    } else if (isWordChar(c)) hash = Math.imul(hash ^ c, FNV_PRIME);
    else {
      words++;
      if (TECH_WORDS.findHashed(hash, text, start, i) !== -1) tech++;
      start = -1;
    }
  }
  return words === 0 ? 0 : Math.min(1, (5 * tech) / words);
}

/** Features written into `out` (length TEXT_FEATURE_COUNT), each scaled to roughly 0..1. */
export function textFeatures(text: string, out: Float32Array = new Float32Array(TEXT_FEATURE_COUNT)): Float32Array {
  // Regex flags scan the whole text; ratios look at a bounded head, enough to tell code or math from prose.
  const head = text.length > 4000 ? text.slice(0, 4000) : text;
  // Line breaks found by indexOf, not a char-code loop over the text: 0.2-0.5 against 1.7-3.3 µs on a ~300-token workload prompt.
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  out[0] = text.includes("```") ? 1 : 0;
  const shares = charShares(head);
  out[2] = Math.min(1, shares.symbols * 10);
  out[3] = Math.min(1, shares.digits * 10);
  out[4] = Math.min(1, shares.operators * 20);
  out[5] = Math.log1p(text.length) / 10;
  out[6] = Math.log1p(lines) / 5;
  out[7] = text.includes("?") ? 1 : 0;
  out[8] = QUESTION_OPENING.test(text) ? 1 : 0;
  // Each alternative of CONFIG_SYNTAX spells a line break, "[" or "<", and of DOCUMENT_BODY a line break
  // or a colon, blank and quote: one-line prose, most prompts, skips both regexes.
  out[17] = (head.includes("\n") || head.includes("[") || head.includes("<")) && CONFIG_SYNTAX.test(head) ? 1 : 0;
  out[19] = techShare(head);
  out[22] = (head.includes("\n") || COLON_THEN_QUOTE.test(head)) && DOCUMENT_BODY.test(head) ? 1 : 0;
  out[23] = Math.min(1, shares.nonLatin * 5);
  out[24] = PROCEDURAL.test(head) ? 1 : 0;
  out[29] = IMPERATIVE_OPENING.test(head) ? 1 : 0;
  let opened = 0;
  const hardness = noHardness();
  wordOpened.each(head, (k, m) => {
    if (k < WORD_OPENED.length) opened |= 1 << k;
    else countHardness(hardness, head, k - WORD_OPENED.length, m);
  });
  // head is at most 4,000 characters, within what hardnessOf reads.
  rememberHardness(head, hardness);
  for (const [k, [feature]] of WORD_OPENED_FLAGS.entries()) if (feature >= 0) out[feature] = (opened >>> k) & 1;
  if (EXTRACT_AT_START.test(head)) out[11] = 1;
  if (out[16] === 0 && SHELL_PATH_MARK.test(head) && SHELL_PATH_OR_FILE.test(head)) out[16] = 1;
  out[20] = (opened >>> QUANTITY_FLAG) & 1 && out[3] > 0 ? 1 : 0;
  // The router's bundled thresholds (6 constraints, 5 steps) as the scale's top.
  out[30] = Math.min(1, hardness.constraints / 6);
  out[31] = Math.min(1, hardness.steps / 5);
  return out;
}
