/**
 * A learned pair verifier for the semantic cache, tried in issue 24's fifth session and not shipped:
 * a logistic regression over alignment features of two prompts (how much of their information the
 * shared content words carry, how much the unmatched words carry that no synonym or close word
 * vector on the other side explains, the prompts' cosine, counts), deciding the pairs the rule checks
 * pass on structure (order, role, operator, number, negation, entity...) and the word check refuses
 * today. This prints what it would add at a threshold calibrated to no false hit on a split it never
 * trained on, and on SemEval 2016, which it never saw.
 *
 *   bun bench/cache-pair-model.ts [--show]
 *
 * Data (../shared/data and hand-written files only):
 * - train: SemEval STS 2012-2015 and STS-B train (scored >= 4.8 same, <= 3 different); the FAQ files
 *   bench/data/faq-replay, faq-holdout, faq-fresh (two wordings of one intent same, of two intents
 *   different); edits of half the tune sources' prompts (bench/lib/cache-hard-negatives.ts
 *   TUNE_SOURCES): a content word replaced by another of the corpus, or one inserted before it
 *   ("reset my password" / "reset my router password"), both different.
 * - calibration (the threshold only): STS-B dev, faq-dev, faq-dev2, faq-dev3 and the same edits of
 *   the other half of the tune prompts; the threshold is the lowest probability above every
 *   calibration negative.
 * - test: SemEval 2016.
 * Result (2026-11-27, this branch's verifier; bench/results/cache-pair-model.md): on SemEval 2016 it
 * accepts 1 of the 56 paraphrases only the word check refuses, and 4 of 149 non-paraphrases (false
 * hits); in calibration 12 of 159 paraphrases at no false hit. Without knowledge of which different
 * words mean the same ("fine" / "okay", "repair" / "fix"), which neither the character n-gram word
 * vectors nor the embedding's single-word rows carry (cosine of the word rows: fine/okay 0.05,
 * repair/fix 0.08, password/username 0.09), the features cannot tell a paraphrase from a changed request.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { promptsBySource, splitPrompts } from "./lib/cache-hard-negatives";
import { DEFAULT_CACHE_CONFIG, embeddingText, extractFacets, wordsToEmbed, compareFacets, substitutionAlignment } from "../src/pipeline/cache";
import { selfInformation } from "../src/pipeline/compress/word-stats";
import { contentStem, type PromptFacets } from "../src/pipeline/cache/facets";
import type { SynonymTable } from "../src/pipeline/cache/synonyms";
import { SHIPPED_SYNONYMS } from "../src/pipeline/cache/request-synonyms";
import { loadModels } from "../src/pipeline/models";
import { Rng } from "../models/data/rng";
import { loadSemEval, loadStsBenchmark } from "../models/data/sts";
import { dot, memoEmbed } from "./lib/vectors";

const { values: args } = parseArgs({ options: { show: { type: "boolean", default: false } } });
const config = DEFAULT_CACHE_CONFIG;
const models = await loadModels();
const vec = memoEmbed((text) => models.embed(text));

interface Pair {
  a: string;
  b: string;
  same: boolean;
  source: string;
}

function sts(pairs: { a: string; b: string; score: number; source: string }[]): Pair[] {
  return pairs.filter((p) => p.score >= 4.8 || p.score <= 3).map((p) => ({ a: p.a, b: p.b, same: p.score >= 4.8, source: p.source }));
}

function faq(name: string): Pair[] {
  const corpus = JSON.parse(readFileSync(join(import.meta.dir, "data", `${name}.json`), "utf8")) as {
    intents: { id: string; questions: string[] }[];
    unique: string[];
  };
  const all = [...corpus.intents.flatMap((i) => i.questions.map((q) => ({ q, id: i.id }))), ...corpus.unique.map((q, n) => ({ q, id: `unique-${n}` }))];
  const out: Pair[] = [];
  for (const x of all) for (const y of all) if (x.q !== y.q) out.push({ a: x.q, b: y.q, same: x.id === y.id, source: name });
  return out;
}

/** Bits of the rarest word, from which a word counts as fully informative (en-unigram.json's unknownBits is 15.99). */
const MAX_BITS = 16;

/** Self-information of a content stem: of the rarest word of the prompt with that stem (stems are not words). */
function stemBits(stem: string, words: ReadonlySet<string>): number {
  let bits = 0;
  for (const w of words) if (contentStem(w) === stem) bits = Math.max(bits, selfInformation(w));
  return Math.min(bits === 0 ? MAX_BITS : bits, MAX_BITS) / MAX_BITS;
}

/**
 * What the learned pair verifier reads of two prompts whose structure agrees (every structural check
 * passed) but whose content words do not all pair: how much of the two prompts' information their
 * shared words carry, and how much the unmatched words carry that no word on the other side explains
 * (a synonym, or a close word vector). All in [0, 1] or small counts; the order is PAIR_FEATURES'.
 */
function pairFeatures(
  a: PromptFacets,
  b: PromptFacets,
  vectors: ReadonlyMap<string, Float32Array>,
  synonyms: SynonymTable | undefined,
  sentenceSimilarity: number,
): number[] {
  const shared = (s: string) => a.content.has(s) && b.content.has(s);
  let sharedBits = 0;
  let totalBits = 0;
  let unexplained = 0;
  let maxUnexplained = 0;
  let unmatched = 0;
  let worstPartner = 1;
  let sides = 0;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    const only: string[] = [];
    for (const [s, n] of x.content) {
      const bits = stemBits(s, x.words);
      const common = Math.min(n, y.content.get(s) ?? 0);
      sharedBits += common * bits;
      totalBits += n * bits;
      if (n > common) only.push(s);
    }
    const others = [...y.content].filter(([s, n]) => n > (x.content.get(s) ?? 0)).map(([s]) => s);
    if (only.length > 0) sides++;
    for (const s of only) {
      unmatched++;
      let partner = 0;
      const v = vectors.get(s);
      for (const o of others) {
        if (synonyms?.areSynonyms(s, o, shared)) {
          partner = 1;
          break;
        }
        const u = vectors.get(o);
        if (v && u) partner = Math.max(partner, dot(v, u));
      }
      worstPartner = Math.min(worstPartner, partner);
      const left = stemBits(s, x.words) * (1 - partner);
      unexplained += left;
      maxUnexplained = Math.max(maxUnexplained, left);
    }
  }
  return [sentenceSimilarity, totalBits === 0 ? 1 : sharedBits / totalBits, unexplained, maxUnexplained, unmatched, worstPartner, sides === 1 ? 1 : 0];
}

const PAIR_FEATURES = ["cosine", "shared information", "unexplained information", "largest unexplained", "unmatched words", "worst partner", "one-sided"];

const WORD = /\b[a-z]{4,}\b/g;
const STOP = new Set(
  "about after also because before being could does from have into just like more most only other should some such than that their them then there these they this those very what when where which while will with would your please".split(
    " ",
  ),
);

/** A content word of `text` replaced by another word of the corpus, or a corpus word inserted before it. */
function edit(text: string, vocabulary: readonly string[], rng: Rng, insert: boolean): string | null {
  const words = [...text.matchAll(WORD)].filter((m) => !STOP.has(m[0]));
  if (words.length === 0) return null;
  const m = words[rng.int(words.length)]!;
  const other = vocabulary[rng.int(vocabulary.length)]!;
  if (other === m[0]) return null;
  return text.slice(0, m.index) + (insert ? `${other} ${m[0]}` : other) + text.slice(m.index! + m[0].length);
}

function edits(prompts: readonly string[], rng: Rng, source: string): Pair[] {
  const vocabulary = [...new Set(prompts.flatMap((p) => [...p.matchAll(WORD)].map((m) => m[0]).filter((w) => !STOP.has(w))))].sort();
  const out: Pair[] = [];
  for (const p of prompts) {
    for (const insert of [false, true]) {
      const b = edit(p, vocabulary, rng, insert);
      if (b !== null) out.push({ a: p, b, same: false, source: `${source} ${insert ? "inserted" : "replaced"} word` });
    }
  }
  return out;
}

interface Row extends Pair {
  x: number[];
}

/** The pairs the model decides: close enough, structure equal, refused by today's word check. */
async function rows(pairs: Pair[]): Promise<Row[]> {
  const out: Row[] = [];
  for (const p of pairs) {
    if (p.a.length > config.semanticMaxChars || p.b.length > config.semanticMaxChars) continue;
    const cosine = dot(await vec(embeddingText(p.a)), await vec(embeddingText(p.b)));
    if (cosine < config.similarityThreshold) continue;
    const fa = extractFacets(p.a);
    const fb = extractFacets(p.b);
    if (!compareFacets(fa, fb, { vectors: new Map(), minSimilarity: -Infinity }).equivalent) continue;
    const vectors = new Map<string, Float32Array>();
    for (const w of wordsToEmbed(fa, fb)) vectors.set(w, await vec(w));
    if (substitutionAlignment(fa, fb, vectors, SHIPPED_SYNONYMS) >= config.minWordSimilarity) continue;
    out.push({ ...p, x: pairFeatures(fa, fb, vectors, SHIPPED_SYNONYMS, cosine) });
  }
  return out;
}

const rng = new Rng(20261126);
const tunePrompts = rng.shuffle(splitPrompts(promptsBySource(config.semanticMaxChars), "tune"));
const half = Math.floor(tunePrompts.length / 2);
const train = await rows([
  ...sts([...loadSemEval([2012, 2013, 2014, 2015]), ...loadStsBenchmark("train")]),
  ...["faq-replay", "faq-holdout", "faq-fresh"].flatMap(faq),
  ...edits(tunePrompts.slice(0, half), rng, "edit"),
]);
const calibration = await rows([
  ...sts(loadStsBenchmark("dev")),
  ...["faq-dev", "faq-dev2", "faq-dev3"].flatMap(faq),
  ...edits(tunePrompts.slice(half), rng, "edit"),
]);

/** L2-regularised logistic regression by full-batch gradient descent; a false hit weighs NEGATIVE_WEIGHT positives. */
const NEGATIVE_WEIGHT = 4;
function fit(data: Row[]): { weights: number[]; bias: number } {
  const d = PAIR_FEATURES.length;
  const w = new Array<number>(d).fill(0);
  let b = 0;
  const lr = 0.5;
  const l2 = 1e-3;
  const total = data.reduce((s, r) => s + (r.same ? 1 : NEGATIVE_WEIGHT), 0);
  for (let epoch = 0; epoch < 4000; epoch++) {
    const gw = new Array<number>(d).fill(0);
    let gb = 0;
    for (const r of data) {
      let z = b;
      for (let i = 0; i < d; i++) z += w[i]! * r.x[i]!;
      const err = (1 / (1 + Math.exp(-z)) - (r.same ? 1 : 0)) * (r.same ? 1 : NEGATIVE_WEIGHT);
      for (let i = 0; i < d; i++) gw[i]! += err * r.x[i]!;
      gb += err;
    }
    for (let i = 0; i < d; i++) w[i] = w[i]! - lr * (gw[i]! / total + l2 * w[i]!);
    b -= (lr * gb) / total;
  }
  return { weights: w, bias: b };
}

const fitted = fit(train);
/** The fitted model's probability that a row's prompts ask the same thing. */
function p(r: Row): number {
  let z = fitted.bias;
  for (let i = 0; i < r.x.length; i++) z += fitted.weights[i]! * r.x[i]!;
  return 1 / (1 + Math.exp(-z));
}

/** The lowest threshold above every negative's probability in the calibration split, rounded up. */
const worstNegative = Math.max(0, ...calibration.filter((r) => !r.same).map(p));
const threshold = Math.ceil((worstNegative + 1e-6) * 1000) / 1000;

function summary(name: string, data: Row[]): string {
  const bySource = new Map<string, { same: number; accepted: number; different: number; falseHits: number }>();
  for (const r of data) {
    const s = bySource.get(r.source) ?? { same: 0, accepted: 0, different: 0, falseHits: 0 };
    const hit = p(r) >= threshold;
    if (r.same) {
      s.same++;
      if (hit) s.accepted++;
    } else {
      s.different++;
      if (hit) s.falseHits++;
    }
    bySource.set(r.source, s);
  }
  const lines = [...bySource].sort().map(([k, s]) => `| ${k} | ${s.accepted} of ${s.same} | ${s.falseHits} of ${s.different} |`);
  return [`\n## ${name}\n`, "| source | same accepted | different accepted (false hits) |", "|---|---|---|", ...lines].join("\n");
}

console.log(
  `train ${train.length} rows (${train.filter((r) => r.same).length} same), calibration ${calibration.length} (${calibration.filter((r) => r.same).length} same)`,
);
console.log(
  `weights ${PAIR_FEATURES.map((f, i) => `${f} ${fitted.weights[i]!.toFixed(4)}`).join(", ")}, bias ${fitted.bias.toFixed(4)}; threshold ${threshold}`,
);
console.log(summary("train", train));
console.log(summary("calibration", calibration));
console.log(summary("test (SemEval 2016, never trained or calibrated on)", await rows(sts(loadSemEval([2016])))));
if (args.show) {
  for (const r of calibration.filter((r) => p(r) >= threshold - 0.15).sort((x, y) => p(y) - p(x)))
    console.log(`- ${r.same ? "same" : "DIFF"} ${p(r).toFixed(3)} [${r.x.map((v) => v.toFixed(2)).join(" ")}] ${r.source}: ${r.a} / ${r.b}`);
}
