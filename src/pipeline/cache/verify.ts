import { extractFacets, stem, type PromptFacets } from "./facets";
import { NEGATING_PREFIXES } from "./lexicon";
import { orderClash } from "./order";
import type { SynonymTable } from "./synonyms";

/** Why two prompts may not share an answer. */
export type MismatchKind =
  | "scope"
  | "context"
  | "literal"
  | "number"
  | "operator"
  | "unit"
  | "negation"
  | "direction"
  | "language"
  | "format"
  | "entity"
  | "role"
  | "order"
  | "content";

export type Verdict = { equivalent: true } | { equivalent: false; kind: MismatchKind; detail: string };

/** One side of a comparison: the last user prompt and hashes of everything else that shapes the answer. */
export interface VerifiablePrompt {
  prompt: string;
  /** Hash of the earlier turns (everything but the last user message, system prompt included). */
  contextHash: string;
  /** Hash of the tenant, model and sampling options. */
  scopeKey: string;
  /** Facets of `prompt` when already known (cached entries keep theirs). */
  facets?: PromptFacets;
}

const EQUIVALENT: Verdict = { equivalent: true };

function mismatch(kind: MismatchKind, detail: string): Verdict {
  return { equivalent: false, kind, detail };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

function show(items: Iterable<string>): string {
  return `[${[...items].join(", ")}]`;
}

/** Items of `x` beyond those `y` has too; both lists sorted. */
function surplus(x: readonly string[], y: readonly string[]): string[] {
  const out: string[] = [];
  let j = 0;
  for (const item of x) {
    while (j < y.length && y[j]! < item) j++;
    if (j < y.length && y[j] === item) j++;
    else out.push(item);
  }
  return out;
}

/**
 * Quoted words one prompt has and the other writes without quotes ("will 'respond' if" / "will
 * respond if") are the same request. Quotations on both sides must agree: "'dog bites man'" is not
 * "'man bites dog'", and a word only one prompt has is a change.
 */
function quoteClash(a: PromptFacets, b: PromptFacets): string | undefined {
  if (a.quoted.length === 0 && b.quoted.length === 0) return undefined;
  const [sortedA, sortedB] = [[...a.quoted].sort(), [...b.quoted].sort()];
  const onlyA = surplus(sortedA, sortedB);
  const onlyB = surplus(sortedB, sortedA);
  if (onlyA.length > 0 && onlyB.length > 0) return `${show(onlyA)} vs ${show(onlyB)}`;
  // The same quotations in another order are other arguments ("x is 'hello' and y is 'he'"), which the
  // words alone may not show: "he" is no content word, and "'hello' and y" reads as a list.
  if (onlyA.length === 0 && onlyB.length === 0 && !sameList(a.quoted, b.quoted)) return `${show(a.quoted)} vs ${show(b.quoted)} in another order`;
  const [extra, other] = onlyA.length > 0 ? [onlyA, b] : [onlyB, a];
  for (const quote of extra) for (const word of quote.split(/[\s-]+/)) if (!other.words.has(word)) return `'${quote}' unquoted nowhere`;
  return undefined;
}

/** Directions clash when both prompts speak of the same pair but not with the same poles ("turn on" / "turn off"). */
function directionClash(a: PromptFacets, b: PromptFacets): string | undefined {
  for (const [pair, poles] of a.directions) {
    const other = b.directions.get(pair);
    if (other !== undefined && other !== poles) return `pair ${pair}: ${poles} vs ${other}`;
  }
  return undefined;
}

/** A name in one prompt that the other never mentions, in any case or inflection ("France" vs "Germany"; not "Philippines" vs "Philippine"). */
function missingEntity(a: PromptFacets, b: PromptFacets): string | undefined {
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const e of x.entities) if (!y.words.has(e) && !y.content.has(stem(e))) return e;
    // A name that is also an everyday word is that name only by its capital: "Is Apple a good investment?" /
    // "Is apple a good investment?", "the US" / "us", "Polish dumplings" / "polish" (cacheprobe13's pairs: 22 of
    // 24 such served). The other prompt must write it as a name too; a name general English writes capitalised
    // ("France", "DNA") still meets its lower-case spelling, as do frequent words written capitalised ("Go" / "go"), and
    // so does a writer who opens sentences in lower case ("should i buy apple shares?").
    if (!y.lowerCaseWriter) for (const e of x.capitalNames) if (!y.entities.has(e)) return `${e} as a name vs as a word`;
  }
  return undefined;
}

/**
 * A name one prompt repeats where the other repeats another: "Draw a line between point A and point B, then extend
 * it past B" / "... past A" (bench/data/cache-probe11.json: lead served it; one-letter names are no content words,
 * which the word check counts, and the entity check asks only whether a name is there).
 */
function entityCountSwap(a: PromptFacets, b: PromptFacets): string | undefined {
  const counts = (f: PromptFacets) => {
    const n = new Map<string, number>();
    for (const s of f.slots) if (s.key.startsWith("e:")) n.set(s.key, (n.get(s.key) ?? 0) + 1);
    return n;
  };
  const [inA, inB] = [counts(a), counts(b)];
  const more = (x: Map<string, number>, y: Map<string, number>) => [...x].find(([k, n]) => n > (y.get(k) ?? 0))?.[0];
  const [moreA, moreB] = [more(inA, inB), more(inB, inA)];
  return moreA !== undefined && moreB !== undefined ? `${moreA} vs ${moreB} once more` : undefined;
}

/** A word in one prompt whose antonym by prefix or suffix is in the other: safe/unsafe, useful/useless. */
function affixAntonym(a: PromptFacets, b: PromptFacets): string | undefined {
  for (const [x, y] of [
    [a.words, b.words],
    [b.words, a.words],
  ] as const) {
    for (const w of x) {
      if (y.has(w)) continue;
      for (const p of NEGATING_PREFIXES) {
        const root = w.slice(p.length);
        if (w.startsWith(p) && root.length >= 4 && y.has(root) && !x.has(root)) return `${w} vs ${root}`;
      }
      if (w.endsWith("less")) {
        const root = w.slice(0, -4);
        if (root.length >= 3 && (y.has(root) || y.has(`${root}ful`))) return `${w} vs ${root}(ful)`;
      }
    }
  }
  return undefined;
}

/**
 * A role both prompts fill with different words ("should" / "can", "why" / "how", "he" / "it"), or a
 * question word only one of them has: "Why did it take place?" asks for a reason, "Did it take place?"
 * for a yes or no. One exception, one way only: the answer to "How do I cancel my plan?" (`b`, the
 * cached prompt) answers "Can I cancel my plan?" (`a`, the query; see ABILITY_QUESTION in facets.ts),
 * the answer to "Can I ...?" (maybe a bare "Yes.") never "How do I ...?".
 */
const asksFuture = (f: PromptFacets) => f.roles.get("tense")?.includes("future") === true;

/**
 * How many of a kind a prompt speaks of, when its quantifier says more than an article does: all, each, every,
 * both, one of, and many, few, most, several before what they count (the "count" role of facets.ts: "Can I add
 * several users?" / "Can I add a user?"). On one side only it is a change ("Delete all the files in the folder" / "Delete a
 * file in the folder", "Pick one of the numbers" / "Pick a number": blind and adversarial pairs served them, the
 * stem reading "files" as "file"). "some" and "any" stay free on one side ("Is there any fee?" asks what "Is
 * there a fee?" asks), as do most, many and few as adverbs ("most likely", "The questions are many").
 */
const DEFINITE_QUANTITY: ReadonlySet<string> = new Set(["all", "both", "one"]);
function definiteQuantity(f: PromptFacets): string | undefined {
  return f.roles.get("quantity")?.find((q) => DEFINITE_QUANTITY.has(q)) ?? f.roles.get("count")?.[0];
}

/**
 * A keyword query ("reset password", the role "ask" -> "keyword" of facets.ts) asks the steps that "How do I reset my
 * password?" gives, both ways: a plain "how", asked by "I" or nobody ("How do I reset his password?" and "How do you
 * reset a password?" are someone else's), in the present and with no auxiliary but "do" or "can" ("How should I" asks
 * advice, "How could I" a possibility, "How was it reset?" the past). "Can I cancel my subscription?" stays apart (the
 * "ask" roles differ: a permission), as does any other question word ("Why can't I cancel ...").
 */
function keywordAsksSteps(asking: PromptFacets, keyword: PromptFacets): boolean {
  return (
    sameList(keyword.roles.get("ask") ?? [], ["keyword"]) &&
    sameList(asking.roles.get("wh")!, ["how"]) &&
    sameList(asking.roles.get("person") ?? ["i"], ["i"]) &&
    sameList(asking.roles.get("tense") ?? ["present"], ["present"]) &&
    asking.frame.every((w) => !w.startsWith("m:") || w === "m:do")
  );
}

function roleClash(a: PromptFacets, b: PromptFacets): string | undefined {
  // "will" on one side only: "Has my prescription been refilled?" and "What happened after the trial
  // ended?" have no auxiliary the tense role reads, and still ask about another time than "Will my
  // prescription be refilled?" (probe-cache-2, 2 of its past-vs-future pairs after the tense role).
  if (asksFuture(a) !== asksFuture(b)) return "tense: future on one side";
  const quantified = definiteQuantity(a) ?? definiteQuantity(b);
  if (quantified && !(a.roles.has("quantity") && b.roles.has("quantity"))) return `quantity: ${quantified} on one side`;
  for (const [role, groups] of a.roles) {
    const other = b.roles.get(role);
    if (other && !sameList(groups, other)) return `${role}: ${show(groups)} vs ${show(other)}`;
  }
  // A question with a modal ("Should I cancel my subscription?", "Can I cancel my subscription?", "May
  // I ...?") against a text with no mood, no question word and no modal (a command or a fragment:
  // "cancel my subscription", also what "Can you cancel my subscription?" is once its courtesy is gone):
  // advice or permission is asked of the one, an action of the other; both were served (issue 24,
  // seventh session; bench/data/cache-probe5.json). Without a modal ("Do you ship to Canada?" /
  // "ship to Canada?", "Is there a free trial?" / "free trial?") the fragment asks the same, as before.
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    if (x.roles.has("modal") && x.roles.has("mood") && !y.roles.has("mood") && !y.roles.has("wh") && !y.roles.has("modal") && !x.roles.has("wh")) {
      return `modal: ${show(a.roles.get("modal") ?? [])} vs ${show(b.roles.get("modal") ?? [])}`;
    }
  }
  if (a.roles.has("wh") !== b.roles.has("wh")) {
    // "What languages are spoken in Peru?" asks what "languages spoken in Peru" asks; "Are languages
    // spoken in Peru?" asks yes or no. Any other question word asks what its absence does not.
    const [asking, other] = a.roles.has("wh") ? [a, b] : [b, a];
    if (asking === b && sameList(b.roles.get("wh")!, ["how"]) && sameList(a.roles.get("ask") ?? [], ["ability"])) return undefined;
    if (keywordAsksSteps(asking, other)) return undefined;
    const picksOne = sameList(asking.roles.get("wh")!, ["which"]);
    if (!picksOne || other.roles.has("mood")) return `wh: ${show(a.roles.get("wh") ?? [])} vs ${show(b.roles.get("wh") ?? [])}`;
  }
  return undefined;
}

/** A place or language that is the destination in one prompt and the origin in the other, or two different destinations. */
function targetClash(a: PromptFacets, b: PromptFacets): string | undefined {
  for (const t of a.targets) {
    const [dir, what] = t.split(":") as [string, string];
    if (b.targets.has(`${dir === "to" ? "from" : "to"}:${what}`) && !b.targets.has(t)) return `${t} reversed`;
  }
  const toA = [...a.targets].filter((t) => t.startsWith("to:"));
  const toB = [...b.targets].filter((t) => t.startsWith("to:"));
  if (toA.length > 0 && toB.length > 0 && !sameSet(new Set(toA), new Set(toB))) return `${show(toA)} vs ${show(toB)}`;
  return undefined;
}

/**
 * What the verifier knows of single content words: their vectors (see `wordsToEmbed`) from the
 * cache's embedder, which know spellings and inflections, how close two vectors must be to count as
 * one meaning, and the synonym table, which knows meanings ("couch" / "sofa").
 */
export interface WordSimilarity {
  vectors: ReadonlyMap<string, Float32Array>;
  minSimilarity: number;
  synonyms?: SynonymTable;
}

/** Content words one prompt has more often than the other, on each side. */
export function unmatchedWords(a: PromptFacets, b: PromptFacets): { onlyA: string[]; onlyB: string[] } {
  const surplus = (x: PromptFacets, y: PromptFacets) => [...x.content].filter(([w, n]) => n > (y.content.get(w) ?? 0)).map(([w]) => w);
  return { onlyA: surplus(a, b), onlyB: surplus(b, a) };
}

/**
 * At most this many unmatched words are embedded for a candidate; past it the candidate is refused
 * unembedded. Of 26,500 pairs that reached the word check (STS-B train and dev, SemEval 2012-2015,
 * rewordings of the tune sources' prompts), none with four or more unmatched words was accepted (7 with
 * two, 4 with three), while embedding them set the first-verification p99 of bun bench/cache-lookup.ts:
 * each word is a model call on the event loop (memoised after).
 */
const MAX_WORDS_TO_EMBED = 4;

/**
 * Every word whose vector `substitutionAlignment` looks at: the unmatched words, when both sides have
 * some (else nothing can pair) and they are at most MAX_WORDS_TO_EMBED (else they are taken not to pair).
 */
export function wordsToEmbed(a: PromptFacets, b: PromptFacets): string[] {
  const { onlyA, onlyB } = unmatchedWords(a, b);
  return onlyA.length > 0 && onlyB.length > 0 && onlyA.length + onlyB.length <= MAX_WORDS_TO_EMBED ? [...onlyA, ...onlyB] : [];
}

function dot(x: Float32Array, y: Float32Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]! * y[i]!;
  return s;
}

/**
 * How well the content words one prompt adds or swaps in are explained by the other prompt: for
 * every unmatched word, the cosine of its nearest unmatched word on the other side (1 for a synonym
 * in `synonyms`), and of those the worst. "reset my password" / "reset my username" scores low,
 * "make a desk" / "build a desk" high.
 * A word only pairs with the other side's unmatched words: one the other prompt also uses elsewhere
 * still leaves a gap where it was swapped out ("visits 20 houses" / "visits 20 already ... every house").
 * 1 when nothing is unmatched; -1 when a vector is missing or a word has nothing to pair with.
 */
export function substitutionAlignment(
  a: PromptFacets,
  b: PromptFacets,
  vectors: ReadonlyMap<string, Float32Array> | undefined,
  synonyms?: SynonymTable,
): number {
  const { onlyA, onlyB } = unmatchedWords(a, b);
  // A conditional synonym group applies when both prompts share one of its context words ("my email").
  const shared = (s: string) => a.content.has(s) && b.content.has(s);
  let worst = 1;
  for (const [words, other] of [
    [onlyA, onlyB],
    [onlyB, onlyA],
  ] as const) {
    for (const w of words) {
      const v = vectors?.get(w);
      let best = -1;
      for (const o of other) {
        if (synonyms?.areSynonyms(w, o, shared)) {
          best = 1;
          break;
        }
        const u = vectors?.get(o);
        if (v && u) best = Math.max(best, dot(v, u));
      }
      worst = Math.min(worst, best);
    }
  }
  return worst;
}

/**
 * A preposition one prompt has and the other drops between the same two words, which then stand side by side
 * in the same order after a determiner: "the fish in my tank" / "my fish tank", "the test in my suite" / "my
 * test suite". Without the preposition the first word qualifies the second, a compound of another head (a
 * tank, not a fish), and the second adversarial probe had 15 such pairs served (bench/data/cache-probe10.json).
 * Without a determiner the first word is no noun phrase's start ("unmatch with someone" / "unmatch someone",
 * "a factory reset on my thermostat" / "factory reset my thermostat", "open on Sundays" / "open Sundays"). Where the words
 * change places instead ("the storage on my phone" / "my phone storage") the order check decides; where they
 * do not stand together in the other prompt, or another preposition stands between them ("a refund on my order" /
 * "a refund for my order"), the content and order checks do.
 */
function compoundFromPreposition(x: PromptFacets, y: PromptFacets): string | undefined {
  for (let k = 1; k < x.slots.length; k++) {
    const { prep, key } = x.slots[k]!;
    if (prep === undefined || y.frame.includes(`p:${prep}`)) continue;
    const before = x.slots[k - 1]!.key;
    for (let j = 1; j < y.slots.length; j++) {
      const joined = y.slots[j]!;
      if (joined.key === key && y.slots[j - 1]!.key === before && y.slots[j - 1]!.opens && joined.prep === undefined && joined.rel === "")
        return `'${prep}' between ${before} and ${key} on one side only`;
    }
  }
  return undefined;
}

/**
 * The question's auxiliary and the prepositions must agree when both prompts have them: "how should I" /
 * "how do I" and "the man in the car" / "the man on the car" ask two things each, while "Can I X" / "How
 * do I X" one. Strict on both (a preposition on one side only refused) the FAQ replays served 22-64%
 * fewer repeats (`bun bench/cache-eval.ts`); a preposition on one side only is refused where it made a
 * compound of its two words (compoundFromPreposition), and one closing a sentence ("s:to") must be on both sides.
 */
function frameClash(a: PromptFacets, b: PromptFacets): string | undefined {
  const agree = (prefix: string) => {
    const x = a.frame.filter((w) => w.startsWith(prefix));
    const y = b.frame.filter((w) => w.startsWith(prefix));
    return x.length === 0 || y.length === 0 || sameList(x, y);
  };
  const stranded = (f: PromptFacets) => f.frame.filter((w) => w.startsWith("s:"));
  if (!agree("m:") || !agree("p:") || !sameList(stranded(a), stranded(b))) return `${show(a.frame)} vs ${show(b.frame)}`;
  return compoundFromPreposition(a, b) ?? compoundFromPreposition(b, a);
}

/**
 * "a door" in one prompt and "the doors" in the other: one of them against all of them, which the stem reads as one word
 * ("How do I unlock one of the doors?", read "unlock a door", / "How do I unlock the doors?" was served by this session's
 * probe, bench/data/cache-probe-s10.json). A bare plural ("Do you sell gift cards?") or "my items" say nothing against "a".
 */
function articleClash(a: PromptFacets, b: PromptFacets): string | undefined {
  const articles = (f: PromptFacets) => new Map(f.slots.filter((s) => s.article !== undefined).map((s) => [s.key, s.article]));
  const inB = articles(b);
  if (inB.size === 0) return undefined;
  for (const [key, article] of articles(a)) {
    const other = inB.get(key);
    if (other !== undefined && other !== article) return `${key}: '${article}' vs '${other}'`;
  }
  return undefined;
}

type Check = (a: PromptFacets, b: PromptFacets, words?: WordSimilarity) => Verdict | undefined;

/** The checks in the order compareFacets runs them: the cheap, structural ones first, the word vectors last. */
const CHECKS: readonly Check[] = [
  (a, b) => (sameList(a.literals, b.literals) ? undefined : mismatch("literal", `${show(a.literals)} vs ${show(b.literals)}`)),
  (a, b) => {
    const quote = quoteClash(a, b);
    return quote ? mismatch("literal", quote) : undefined;
  },
  (a, b) => (sameList(a.numbers, b.numbers) ? undefined : mismatch("number", `${show(a.numbers)} vs ${show(b.numbers)}`)),
  (a, b) => (sameList(a.operators, b.operators) ? undefined : mismatch("operator", `${show(a.operators)} vs ${show(b.operators)}`)),
  (a, b) => (sameList(a.symbols, b.symbols) ? undefined : mismatch("operator", `${a.symbols.join(" ")} vs ${b.symbols.join(" ")}`)),
  (a, b) => (sameList(a.units, b.units) ? undefined : mismatch("unit", `${show(a.units)} vs ${show(b.units)}`)),
  (a, b) => (a.negations === b.negations ? undefined : mismatch("negation", `${a.negations} vs ${b.negations} negations`)),
  (a, b) => (sameList(a.negated, b.negated) ? undefined : mismatch("negation", `negating ${show(a.negated)} vs ${show(b.negated)}`)),
  (a, b) => {
    const antonym = affixAntonym(a, b);
    return antonym ? mismatch("negation", antonym) : undefined;
  },
  (a, b) => (sameSet(a.languages, b.languages) ? undefined : mismatch("language", `${show(a.languages)} vs ${show(b.languages)}`)),
  (a, b) => (sameSet(a.formats, b.formats) ? undefined : mismatch("format", `${show(a.formats)} vs ${show(b.formats)}`)),
  (a, b) => {
    const direction = directionClash(a, b) ?? targetClash(a, b);
    return direction ? mismatch("direction", direction) : undefined;
  },
  (a, b) => {
    const entity = missingEntity(a, b) ?? entityCountSwap(a, b);
    return entity ? mismatch("entity", entity) : undefined;
  },
  (a, b) => {
    const role = roleClash(a, b);
    return role ? mismatch("role", role) : undefined;
  },
  (a, b) => {
    const article = articleClash(a, b);
    return article ? mismatch("role", article) : undefined;
  },
  (a, b) => {
    const order = orderClash(a.slots, b.slots);
    return order ? mismatch("order", order) : undefined;
  },
  (a, b, words) => {
    if (substitutionAlignment(a, b, words?.vectors, words?.synonyms) >= (words?.minSimilarity ?? 1)) return undefined;
    const { onlyA, onlyB } = unmatchedWords(a, b);
    return mismatch("content", `${show(onlyA)} vs ${show(onlyB)}`);
  },
  // Last, so that a pair another check refuses is refused for that check's reason.
  (a, b) => {
    const frame = frameClash(a, b);
    return frame ? mismatch("role", frame) : undefined;
  },
];

/** Compares the facets of two prompts; the first difference found is the reason to refuse. */
export function compareFacets(a: PromptFacets, b: PromptFacets, words?: WordSimilarity): Verdict {
  for (const check of CHECKS) {
    const verdict = check(a, b, words);
    if (verdict) return verdict;
  }
  return EQUIVALENT;
}

/** Every difference the checks find, not only the first: where recall is lost (bench/cache-misses.ts). */
export function allMismatches(a: PromptFacets, b: PromptFacets, words?: WordSimilarity): (Verdict & { equivalent: false })[] {
  return CHECKS.map((check) => check(a, b, words)).filter((v): v is Verdict & { equivalent: false } => v !== undefined && !v.equivalent);
}

/**
 * Decides whether a cached answer to `cached` may answer `query`. Embedding similarity says two
 * prompts are about the same thing; this says they ask the same thing. Pure and synchronous: the
 * word vectors (see `wordsToEmbed`) are embedded by the caller beforehand.
 */
export function verifyEquivalent(query: VerifiablePrompt, cached: VerifiablePrompt, words?: WordSimilarity): Verdict {
  if (query.scopeKey !== cached.scopeKey) return mismatch("scope", "tenant, model or sampling options differ");
  if (query.contextHash !== cached.contextHash) return mismatch("context", "earlier turns or system prompt differ");
  return compareFacets(query.facets ?? extractFacets(query.prompt), cached.facets ?? extractFacets(cached.prompt), words);
}
