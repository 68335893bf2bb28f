/**
 * The labelled prompt pairs a learned equivalence judgement for the semantic cache would train on
 * (bench/cache-pair-model.ts), and the rows it would see of them: only pairs the cache brings to it (cosine at or
 * above the neighbour threshold, every difference the verifier finds one of wording, see `softRefusal`), with
 * two sets of features: how the prompts' information splits into shared and unmatched content words
 * (`alignmentFeatures`), and the prompts' embedding vectors (`vectorFeatures`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Rng } from "../../models/data/rng";
import { loadSemEval, loadStsBenchmark } from "../../models/data/sts";
import { DEFAULT_CACHE_CONFIG, embeddingText, extractFacets, type PromptFacets, type SynonymTable, wordsToEmbed } from "../../src/pipeline/cache";
import { contentStem } from "../../src/pipeline/cache/facets";
import { SHIPPED_SYNONYMS } from "../../src/pipeline/cache/request-synonyms";
import { allMismatches, substitutionAlignment, unmatchedWords, type Verdict } from "../../src/pipeline/cache/verify";
import { selfInformation } from "../../src/pipeline/compress/word-stats";
import { editedPairs, promptsBySource, splitPrompts, structuralEdits } from "./cache-hard-negatives";
import { loadFaqFile } from "./faq-replay";
import { readWordNet } from "./wordnet";
import { type NonSynonymy, wordnetSwap } from "./wordnet-relations";

export interface JudgePair {
  a: string;
  b: string;
  same: boolean;
  /** The file or data set and, for edits, the kind. */
  source: string;
}

export interface JudgeRow extends JudgePair {
  cosine: number;
  /** alignmentFeatures of the pair. */
  alignment: Float32Array;
  /** vectorFeatures of the pair. */
  vector: Float32Array;
}

const DATA = join(import.meta.dir, "..", "data");

/**
 * Every ordered pair of two questions of one FAQ file, which one tenant's cache holds together: two wordings of
 * one intent are the same request, two intents (or a unique question) are not.
 */
export function faqPairs(name: string): JudgePair[] {
  const corpus = loadFaqFile(join(DATA, `${name}.json`));
  const all = [...corpus.intents.flatMap((i) => i.questions.map((q) => ({ q, id: i.id }))), ...corpus.unique.map((q, n) => ({ q, id: `unique-${n}` }))];
  const out: JudgePair[] = [];
  for (const x of all) for (const y of all) if (x.q !== y.q) out.push({ a: x.q, b: y.q, same: x.id === y.id, source: name });
  return out;
}

/** A `--pairs` file of bench/cache-eval.ts ({ pairs: [{ a, b, same, class }] }). */
export function pairFile(name: string): JudgePair[] {
  const { pairs } = JSON.parse(readFileSync(join(DATA, `${name}.json`), "utf8")) as { pairs: { a: string; b: string; same: boolean }[] };
  return pairs.map((p) => ({ a: p.a, b: p.b, same: p.same, source: name }));
}

/** STS pairs scored equivalent (>= 4.8) or apart (<= 3), as bench/cache-eval.ts labels them. */
export function stsPairs(): JudgePair[] {
  return [...loadSemEval([2012, 2013, 2014, 2015]), ...loadStsBenchmark("train"), ...loadStsBenchmark("dev")]
    .filter((p) => p.score >= 4.8 || p.score <= 3)
    .map((p) => ({ a: p.a, b: p.b, same: p.score >= 4.8, source: p.source }));
}

const STOP: ReadonlySet<string> = new Set(["about", "after", "before", "could", "should", "would", "which", "their", "there", "these", "those", "please"]);
const RELATIONS: NonSynonymy[] = ["antonym", "sister term", "hypernym", "hyponym"];

/**
 * Near misses made from the tune sources' prompts only (bench/lib/cache-hard-negatives.ts; bench/cache-eval.ts
 * counts the test sources'): a word swapped for a WordNet antonym, sister term, hypernym or hyponym, and the
 * structural edits, with another seed than the bench's.
 */
export function editNegatives(perKind: number, seed: number): JudgePair[] {
  const prompts = splitPrompts(promptsBySource(DEFAULT_CACHE_CONFIG.semanticMaxChars), "tune");
  const rng = new Rng(seed);
  const wordnet = readWordNet();
  const swaps = Object.fromEntries(RELATIONS.map((r) => [`wordnet ${r}`, (t: string) => wordnetSwap(t, r, wordnet, rng, STOP)]));
  return editedPairs(prompts, { ...swaps, ...structuralEdits(rng) }, perKind, rng).map((p) => ({ a: p.a, b: p.b, same: false, source: `edit: ${p.kind}` }));
}

/** Where the pairs labelled the same request stand: below the neighbour threshold, served, refused for words only, refused for structure. */
export interface Reach {
  below: number;
  served: number;
  soft: number;
  structural: number;
}

/** The rows the judgement would decide: pairs close enough to be compared whose only differences are of wording. */
export async function judgeRows(pairs: readonly JudgePair[], embed: (text: string) => Promise<Float32Array>): Promise<{ rows: JudgeRow[]; reach: Reach }> {
  const config = DEFAULT_CACHE_CONFIG;
  const memo = new Map<string, Float32Array>();
  const vec = async (text: string) => {
    let v = memo.get(text);
    if (!v) memo.set(text, (v = await embed(text)));
    return v;
  };
  const facets = new Map<string, PromptFacets>();
  const facetsOf = (t: string) => {
    let f = facets.get(t);
    if (!f) facets.set(t, (f = extractFacets(t)));
    return f;
  };
  const rows: JudgeRow[] = [];
  const reach: Reach = { below: 0, served: 0, soft: 0, structural: 0 };
  const count = (p: JudgePair, bucket: keyof Reach) => {
    if (p.same) reach[bucket]++;
  };
  for (const p of pairs) {
    if (p.a.length > config.semanticMaxChars || p.b.length > config.semanticMaxChars || p.a.trim() === "" || p.b.trim() === "") continue;
    const [va, vb] = [await vec(embeddingText(p.a)), await vec(embeddingText(p.b))];
    let cosine = 0;
    for (let i = 0; i < va.length; i++) cosine += va[i]! * vb[i]!;
    if (cosine < config.similarityThreshold) {
      count(p, "below");
      continue;
    }
    const [fa, fb] = [facetsOf(p.a), facetsOf(p.b)];
    const needed = wordsToEmbed(fa, fb);
    const vectors = needed.length > 0 ? new Map<string, Float32Array>() : undefined;
    // A word as the cache embeds it: as it is (semantic-cache.ts).
    for (const w of needed) vectors!.set(w, await vec(w));
    const mismatches = allMismatches(fa, fb, { vectors: vectors ?? new Map(), minSimilarity: config.minWordSimilarity, synonyms: SHIPPED_SYNONYMS });
    if (mismatches.length === 0) count(p, "served");
    else if (!softRefusal(mismatches)) count(p, "structural");
    else {
      count(p, "soft");
      rows.push({ ...p, cosine, alignment: alignmentFeatures(fa, fb, cosine, vectors, SHIPPED_SYNONYMS), vector: vectorFeatures(va, vb, cosine) });
    }
  }
  return { rows, reach };
}

/**
 * A refusal a learned judgement could be let overturn: every difference the verifier finds is one of content
 * words (which words, not how they stand), none structural (a number, operator, negation, direction, quantifier,
 * role, order, name, literal, language, format, unit).
 */
export function softRefusal(mismatches: readonly Verdict[]): boolean {
  return mismatches.length > 0 && mismatches.every((m) => !m.equivalent && m.kind === "content");
}

/** Bits of the rarest word, from which a word counts as fully informative (en-unigram.json's unknownBits is 15.99). */
const MAX_BITS = 16;

/** Self-information of a content stem, in [0, 1]: of the rarest word of the prompt with that stem (a stem is no word). */
function stemBits(stem: string, words: ReadonlySet<string>): number {
  let bits = 0;
  for (const w of words) if (contentStem(w) === stem) bits = Math.max(bits, selfInformation(w));
  return Math.min(bits === 0 ? MAX_BITS : bits, MAX_BITS) / MAX_BITS;
}

export const ALIGNMENT_FEATURES = [
  "cosine",
  "alignment",
  "shared information",
  "unmatched information",
  "largest unmatched",
  "fewer unmatched",
  "more unmatched",
  "content words",
] as const;

/**
 * The prompts' cosine, the verifier's substitution alignment (-1 when the words were not embedded), how much of
 * the two prompts' information their shared content words carry, how much the unmatched ones carry, and counts.
 */
export function alignmentFeatures(
  a: PromptFacets,
  b: PromptFacets,
  cosine: number,
  vectors: ReadonlyMap<string, Float32Array> | undefined,
  synonyms: SynonymTable | undefined,
): Float32Array {
  const { onlyA, onlyB } = unmatchedWords(a, b);
  let shared = 0;
  let total = 0;
  let unmatched = 0;
  let largest = 0;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const [s, n] of x.content) {
      const bits = stemBits(s, x.words);
      const common = Math.min(n, y.content.get(s) ?? 0);
      shared += common * bits;
      total += n * bits;
      if (n > common) {
        unmatched += (n - common) * bits;
        largest = Math.max(largest, bits);
      }
    }
  }
  return Float32Array.from([
    cosine,
    vectors === undefined ? -1 : substitutionAlignment(a, b, vectors, synonyms),
    total === 0 ? 1 : shared / total,
    unmatched,
    largest,
    Math.min(onlyA.length, onlyB.length),
    Math.max(onlyA.length, onlyB.length),
    Math.min(a.content.size, b.content.size),
  ]);
}

/** The two prompts' embeddings compared dimension by dimension (products and absolute differences) and their cosine. */
export function vectorFeatures(u: Float32Array, v: Float32Array, cosine: number): Float32Array {
  const out = new Float32Array(2 * u.length + 1);
  for (let i = 0; i < u.length; i++) {
    out[i] = u[i]! * v[i]!;
    out[u.length + i] = Math.abs(u[i]! - v[i]!);
  }
  out[2 * u.length] = cosine;
  return out;
}
