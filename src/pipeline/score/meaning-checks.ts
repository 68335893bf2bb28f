import { eachMatch } from "../../text/each-match";
import { saidOnce } from "../compress/text/sentences";

/**
 * Hard checks that compression kept the parts of a prompt that carry its exact meaning. Sentence
 * vectors barely move when "not" disappears or 15 becomes 51; these checks see it. Each check lists
 * what the original has and the compressed text lacks.
 */
export interface LostContent {
  numbers: string[];
  negations: string[];
  /** Capitalized names, acronyms and identifiers (a heuristic: no NER model here). */
  entities: string[];
  codeSpans: string[];
  urls: string[];
  quotes: string[];
}

export const CHECK_NAMES = ["numbers", "negations", "entities", "codeSpans", "urls", "quotes"] as const satisfies readonly (keyof LostContent)[];

const CODE_BLOCK = /```[\s\S]*?```|`[^`\n]+`/g;
const URL = /\b(?:https?:\/\/|www\.)[^\s<>"'`]+[^\s<>"'`.,;:!?)\]]/gi;
const QUOTE = /"([^"\n]{1,200})"|“([^”\n]{1,200})”|(?<![\p{L}])'([^'\n]{2,200})'(?![\p{L}])/gu;
const NUMBER = /(?<![\p{L}\d.])[-+]?\d+(?:[.,]\d+)*(?:%|st|nd|rd|th)?/gu;
const NEGATION = /\b(?:not|no|never|none|nobody|nothing|neither|nor|without|cannot|nowhere)\b|\b\w+n['’]t\b/gi;
const NUMBER_WORDS =
  /\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|half|double|twice)\b/gi;
/** Politeness idioms whose negation carries no meaning: removing them is filler removal, not a flip. */
const IDIOMATIC_NEGATION =
  /\b(?:if (?:it|that)(?:'s| is) not (?:too much )?(?:trouble|a problem)|if you don['’]t mind|no problem|no worries|not sure (?:if|whether)|i was wondering if you couldn['’]t)\b/gi;

/**
 * Capitalized word, acronym or CamelCase token; the sentence's first word is only an entity if it is not a
 * plain word. The lookbehind (no letter, digit or "_" before the word) is tested after the first capital,
 * so it runs at capitals only, not at every position: the same matches as `(?<![\p{L}\p{N}_])\p{Lu}...`
 * in 0.58x the time over 3,000 workload prompts (protect/spans.ts's ACRONYM does the same). Exported for
 * the test that holds it to that form.
 */
export const CAPITALIZED = /\p{Lu}(?<![\p{L}\p{N}_]\p{Lu})[\p{L}\p{N}_-]*/gu;

/** Words that are capitalized for grammar, not because they name something. */
const COMMON_CAPITALIZED = new Set(
  "I A An The This That These Those It Its We You He She They My Your Our Their Please Can Could Would Should Will Do Does Did Is Are Was Were Be If When Where What Which Who Why How And But Or So Also Then Now Here There Hi Hello Thanks Thank Yes No Not Note Make Write Give Tell Explain Summarize List Find Use Create Let Just Basically Actually Really Kindly OK Okay In On At For To Of By With From As".split(
    " ",
  ),
);

function all(re: RegExp, text: string, group = 0): string[] {
  const out: string[] = [];
  eachMatch(text, re, (m) => {
    out.push(group === 0 ? m[0] : (m.slice(1).find((g) => g !== undefined) ?? m[0]));
  });
  return out;
}

/** Items of `expected` that `actual` does not cover, counting repeats (a multiset difference). */
function missing(expected: string[], actual: string[], normalize: (s: string) => string = (s) => s): string[] {
  const pool = new Map<string, number>();
  for (const a of actual) pool.set(normalize(a), (pool.get(normalize(a)) ?? 0) + 1);
  const lost: string[] = [];
  for (const e of expected) {
    const k = normalize(e);
    const n = pool.get(k) ?? 0;
    if (n > 0) pool.set(k, n - 1);
    else lost.push(e);
  }
  return lost;
}

function entities(text: string): string[] {
  const out: string[] = [];
  eachMatch(text, CAPITALIZED, (m) => {
    const word = m[0];
    if (COMMON_CAPITALIZED.has(word)) return;
    const start = m.index;
    const before = text.slice(Math.max(0, start - 3), start);
    // An emoji ends a sentence in chatty text ("Hope you're well 💸 Sorry, ..."), as the compressor reads it
    // (protect/spans.ts): U+2600-27BF, a variation selector, or the low surrogate ending one above U+FFFF.
    const sentenceStart = start === 0 || /(?:[.!?:\n\u2600-\u27BF\uDC00-\uDFFF]|\uFE0F)\s*$/.test(before) || /^\s*$/.test(text.slice(0, start));
    const marked = word.length > 1 && (word === word.toUpperCase() || /\p{Lu}/u.test(word.slice(1)) || /\d/.test(word));
    if (sentenceStart && !marked) return;
    out.push(word);
  });
  return out;
}

/**
 * An entity's edges as `CAPITALIZED` draws them: a hyphen may come before it ("al-Jazeera",
 * "pro-Palestinians") but belongs to it after ("AWS-east").
 */
const CHAR_BEFORE_WORD = /[\p{L}\p{N}_]/u;
const CHAR_AFTER_WORD = /[\p{L}\p{N}_-]/u;

/**
 * Entities of `expected` that `text` does not hold as whole words, counting repeats. Searching for the
 * few entities beats splitting the whole text into words (a quarter of the checks' time on 200 tokens).
 */
function missingWords(expected: string[], text: string): string[] {
  const needed = new Map<string, number>();
  for (const e of expected) needed.set(e, (needed.get(e) ?? 0) + 1);
  const lost: string[] = [];
  for (const [word, want] of needed) {
    let found = 0;
    for (let at = text.indexOf(word); at >= 0 && found < want; at = text.indexOf(word, at + 1)) {
      const before = at > 0 ? text[at - 1]! : "";
      const after = text[at + word.length] ?? "";
      if (!CHAR_BEFORE_WORD.test(before) && !CHAR_AFTER_WORD.test(after)) found++;
    }
    for (let i = found; i < want; i++) lost.push(word);
  }
  return lost;
}

const stripCode = (text: string) => text.replace(CODE_BLOCK, " ");
const numberKey = (s: string) => s.replace(/,/g, "").replace(/^\+/, "").toLowerCase();

export function meaningChecks(original: string, compressed: string): LostContent {
  const codeSpans = all(CODE_BLOCK, original).filter((span) => !compressed.includes(span));
  // Code is compared verbatim above; the other checks look at the prose around it. A sentence said
  // twice is one thing said: dropping the repeat (the dedup and repeat rules) loses nothing it counts.
  const a = saidOnce(stripCode(original));
  const b = stripCode(compressed);
  const urls = all(URL, a).filter((u) => !compressed.includes(u));
  const quotes = all(QUOTE, a, 1).filter((q) => !compressed.includes(q));
  // The compressed side is only scanned for what the original has: most prompts have no numbers,
  // negations or quotes, and these scans are most of the checks' time.
  const lostFrom = (found: string[], scan: () => string[], normalize: (s: string) => string) => (found.length === 0 ? [] : missing(found, scan(), normalize));
  return {
    numbers: [
      ...lostFrom(all(NUMBER, a), () => all(NUMBER, b), numberKey),
      ...lostFrom(
        all(NUMBER_WORDS, a),
        () => all(NUMBER_WORDS, b),
        (s) => s.toLowerCase(),
      ),
    ],
    negations: lostFrom(
      all(NEGATION, a.replace(IDIOMATIC_NEGATION, " ")),
      () => all(NEGATION, b.replace(IDIOMATIC_NEGATION, " ")),
      (s) => s.toLowerCase().replace("’", "'"),
    ),
    entities: missingWords(entities(a), b),
    codeSpans,
    urls,
    quotes,
  };
}
