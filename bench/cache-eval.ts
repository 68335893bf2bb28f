/**
 * Semantic cache precision and hit rate on labelled prompt pairs, and the similarity threshold that
 * keeps precision at the target.
 *
 *   bun bench/cache-eval.ts [--models DIR] [--target 0.99] [--per-kind 300]
 *
 * Pairs: true paraphrases are STS pairs scored >= 4 (of 5); negatives are STS pairs scored <= 3 plus
 * minimal edits of real prompts (a changed number, a dropped negation, a swapped operator, entity,
 * language, direction, unit or format, and a swapped ordinary word, which no word list covers).
 * The threshold is tuned on STS-B dev and half of the edited prompts; the figures that count are on
 * SemEval 2016 (never seen by the embedding model in training) and the other half of the edits.
 * A hit is what the cache does: cosine >= threshold and the verifier finds no difference.
 */
import { parseArgs } from "node:util";
import { createHash } from "node:crypto";
import { loadModels, DEFAULT_MODELS_DIR } from "../src/ml/load";
import { compareFacets, embeddingText, extractFacets, substitutionAlignment, wordsToEmbed, DEFAULT_CACHE_CONFIG } from "../src/pipeline/cache";
import { loadSemEval, loadStsBenchmark, type ScoredPair } from "../models/data/sts";
import { loadPromptCorpus } from "../models/data/corpus";
import { Rng } from "../models/data/rng";

type Label = "same" | "different" | "gray";
interface LabelledPair {
  a: string;
  b: string;
  label: Label;
  /** Data source for STS pairs, edit kind for generated negatives. */
  group: string;
}
interface ScoredResult extends LabelledPair {
  similarity: number;
  /** The facet difference the verifier names ("" when the facets agree). */
  facetRefusal: string;
  /** substitutionAlignment of the pair (1 when no word was substituted). */
  alignment: number;
}

const { values: args } = parseArgs({
  options: { models: { type: "string", default: DEFAULT_MODELS_DIR }, target: { type: "string", default: "0.99" }, "per-kind": { type: "string", default: "300" } },
});
const TARGET = Number(args.target);
const PER_KIND = Number(args["per-kind"]);
const MAX_CHARS = DEFAULT_CACHE_CONFIG.semanticMaxChars;

function labelSts(pairs: ScoredPair[]): LabelledPair[] {
  return pairs.map((p) => ({ a: p.a, b: p.b, group: p.source, label: p.score >= 4 ? "same" : p.score <= 3 ? "different" : "gray" }));
}

// ---- minimal edits of real prompts -------------------------------------------------------------

function swapWord(text: string, pairs: readonly [string, string][]): string | null {
  for (const [x, y] of pairs) {
    for (const [from, to] of [
      [x, y],
      [y, x],
    ] as const) {
      const re = new RegExp(`(?<![\\w+#])${from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w+#])`, "i");
      const m = re.exec(text);
      if (!m) continue;
      const cased = m[0][0] === m[0][0]!.toUpperCase() && m[0].length > 1 && m[0] !== m[0].toUpperCase() ? to[0]!.toUpperCase() + to.slice(1) : m[0] === m[0].toUpperCase() && m[0].length > 1 ? to.toUpperCase() : to;
      return text.slice(0, m.index) + cased + text.slice(m.index + m[0].length);
    }
  }
  return null;
}

const DIRECTIONS: [string, string][] = [
  ["turn on", "turn off"], ["switch on", "switch off"], ["increase", "decrease"], ["before", "after"], ["encrypt", "decrypt"], ["encode", "decode"],
  ["largest", "smallest"], ["maximum", "minimum"], ["ascending", "descending"], ["higher", "lower"], ["more", "less"], ["best", "worst"],
  ["positive", "negative"], ["buy", "sell"], ["upload", "download"], ["import", "export"], ["enable", "disable"], ["open", "close"], ["add", "remove"],
  ["first", "last"], ["left", "right"], ["north", "south"], ["input", "output"], ["hot", "cold"], ["advantages", "disadvantages"], ["pros", "cons"], ["longest", "shortest"],
];
const LANGUAGES: [string, string][] = [
  ["C++", "C"], ["Python", "JavaScript"], ["JavaScript", "TypeScript"], ["Java", "Kotlin"], ["Rust", "Go"], ["SQL", "Python"], ["Bash", "PowerShell"], ["HTML", "Markdown"],
  ["English", "French"], ["Spanish", "Italian"], ["German", "Dutch"], ["Chinese", "Japanese"],
];
const FORMATS: [string, string][] = [["JSON", "YAML"], ["CSV", "XML"], ["table", "bulleted list"], ["essay", "poem"], ["paragraph", "haiku"], ["email", "tweet"], ["markdown", "plain text"], ["story", "song"]];
const UNITS: [string, string][] = [["km", "miles"], ["kilometers", "miles"], ["kg", "pounds"], ["celsius", "fahrenheit"], ["hours", "minutes"], ["meters", "feet"], ["dollars", "euros"], ["seconds", "milliseconds"], ["%", " dollars"]];
const OPERATOR_WORDS: [string, string][] = [["plus", "minus"], ["times", "divided by"], ["sum", "product"], ["greater than", "less than"]];
const OPERATOR_SYMBOLS: Record<string, string> = { "+": "-", "-": "+", "*": "/", "/": "*" };

/** Swaps an arithmetic symbol between two operands ("3 + x", "(a)*b"); a dash or a bullet is not an operator. */
function editOperator(text: string): string | null {
  const m = /(?<=(?:\b[a-zA-Z]|\d|\))\s?)[-+*/](?=\s?(?:\d|[a-zA-Z]\b|\())/.exec(text);
  if (m) return text.slice(0, m.index) + OPERATOR_SYMBOLS[m[0]] + text.slice(m.index + 1);
  return swapWord(text, OPERATOR_WORDS);
}
const AUXILIARIES = /\b(is|are|was|were|can|could|should|would|will|does|do|did|has|have)\b/i;

function editNumber(text: string, rng: Rng): string | null {
  const m = /\d+(?:\.\d+)?/.exec(text);
  if (!m) return null;
  const n = Number(m[0]);
  const changed = String(n + 1 + rng.int(9));
  return text.slice(0, m.index) + changed + text.slice(m.index + m[0].length);
}

function editNegation(text: string): string | null {
  const dropped = text.replace(/\bcan't\b/i, "can").replace(/\bwon't\b/i, "will").replace(/n't\b/i, "").replace(/\s(not|never)\b/i, "");
  if (dropped !== text) return dropped;
  const aux = AUXILIARIES.exec(text);
  if (!aux) return null;
  return `${text.slice(0, aux.index + aux[0].length)} not${text.slice(aux.index + aux[0].length)}`;
}

function editEntity(text: string, pool: readonly string[], rng: Rng): string | null {
  const m = /(?<=[a-z,;] )[A-Z][a-z]{3,}\b/.exec(text);
  if (!m) return null;
  let other = m[0];
  for (let tries = 0; tries < 10 && other === m[0]; tries++) other = pool[rng.int(pool.length)]!;
  if (other === m[0]) return null;
  return text.slice(0, m.index) + other + text.slice(m.index + m[0].length);
}

function editFormat(text: string): string | null {
  return swapWord(text, FORMATS) ?? `${text.trimEnd()} Format the answer as JSON.`;
}

const STOP = new Set("about above after again against because before being below between both could does doing during each from further having here into itself more most other ought same should some such than that their theirs them then there these they this those through under until very what when where which while whom would your yours yourself please write following given using there".split(" "));

/** An ordinary content word replaced by another from the corpus: a change of subject no word list knows. */
function editContentWord(text: string, vocabulary: readonly string[], rng: Rng): string | null {
  const words = [...text.matchAll(/\b[a-z]{5,}\b/g)].filter((m) => !STOP.has(m[0]));
  if (words.length === 0) return null;
  const m = words[rng.int(words.length)]!;
  let other = m[0];
  for (let tries = 0; tries < 10 && other === m[0]; tries++) other = vocabulary[rng.int(vocabulary.length)]!;
  return text.slice(0, m.index) + other + text.slice(m.index! + m[0].length);
}

function promptEdits(prompts: readonly string[], rng: Rng): LabelledPair[] {
  const entityPool = [...new Set(prompts.flatMap((p) => [...p.matchAll(/(?<=[a-z,;] )[A-Z][a-z]{3,}\b/g)].map((m) => m[0])))];
  const vocabulary = [...new Set(prompts.flatMap((p) => [...p.matchAll(/\b[a-z]{5,}\b/g)].map((m) => m[0]).filter((w) => !STOP.has(w))))];
  const editors: Record<string, (t: string) => string | null> = {
    number: (t) => editNumber(t, rng),
    negation: editNegation,
    operator: editOperator,
    entity: (t) => editEntity(t, entityPool, rng),
    language: (t) => swapWord(t, LANGUAGES),
    direction: (t) => swapWord(t, DIRECTIONS),
    unit: (t) => swapWord(t, UNITS),
    format: editFormat,
    "content word": (t) => editContentWord(t, vocabulary, rng),
  };
  const out: LabelledPair[] = [];
  for (const [kind, edit] of Object.entries(editors)) {
    let made = 0;
    for (const p of rng.shuffle([...prompts])) {
      if (made >= PER_KIND) break;
      const edited = edit(p);
      if (edited === null || edited === p) continue;
      out.push({ a: p, b: edited, label: "different", group: `edit: ${kind}` });
      made++;
    }
  }
  return out;
}

// ---- scoring -----------------------------------------------------------------------------------

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

async function score(pairs: LabelledPair[], embed: (t: string) => Promise<Float32Array>): Promise<ScoredResult[]> {
  const memo = new Map<string, Promise<Float32Array>>();
  const vec = (t: string) => {
    const key = embeddingText(t);
    let v = memo.get(key);
    if (!v) memo.set(key, (v = embed(key)));
    return v;
  };
  const out: ScoredResult[] = [];
  for (const p of pairs) {
    const fa = extractFacets(p.a);
    const fb = extractFacets(p.b);
    // With every substitution allowed, what is left to refuse is a facet difference.
    const verdict = compareFacets(fa, fb, { vectors: new Map(), minSimilarity: -Infinity });
    const vectors = new Map<string, Float32Array>();
    for (const w of wordsToEmbed(fa, fb)) vectors.set(w, await vec(w));
    out.push({ ...p, similarity: dot(await vec(p.a), await vec(p.b)), facetRefusal: verdict.equivalent ? "" : verdict.kind, alignment: substitutionAlignment(fa, fb, vectors) });
  }
  return out;
}

interface Point {
  threshold: number;
  precision: number;
  hitRate: number;
  falseHits: number;
  hits: number;
}

/** What the cache decides for a pair: similar enough, and (with the verifier) no facet difference and no unmatched substitution. */
function isHit(r: ScoredResult, threshold: number, wordSimilarity: number | null): boolean {
  if (r.similarity < threshold) return false;
  return wordSimilarity === null || (r.facetRefusal === "" && r.alignment >= wordSimilarity);
}

function at(results: readonly ScoredResult[], threshold: number, wordSimilarity: number | null): Point {
  let tp = 0;
  let fp = 0;
  let positives = 0;
  for (const r of results) {
    if (r.label === "gray") continue;
    if (r.label === "same") positives++;
    const hit = isHit(r, threshold, wordSimilarity);
    if (hit && r.label === "same") tp++;
    if (hit && r.label === "different") fp++;
  }
  return { threshold, precision: tp + fp === 0 ? 1 : tp / (tp + fp), hitRate: positives === 0 ? 0 : tp / positives, falseHits: fp, hits: tp + fp };
}

const GRID = Array.from({ length: 50 }, (_, i) => Math.round((0.5 + i * 0.01) * 100) / 100);

/** The lowest threshold at which precision (over every hit at or above it) reaches the target; 1 when none does. */
function chooseThreshold(results: readonly ScoredResult[], wordSimilarity: number | null): number {
  return GRID.find((t) => at(results, t, wordSimilarity).precision >= TARGET) ?? 1;
}

const WORD_GRID = [0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1];

/** The sentence and word thresholds with the best hit rate at the target precision. */
function choose(results: readonly ScoredResult[]): { threshold: number; wordSimilarity: number } {
  let best = { threshold: 1, wordSimilarity: 1, hitRate: -1 };
  for (const wordSimilarity of WORD_GRID) {
    const threshold = chooseThreshold(results, wordSimilarity);
    const { hitRate } = at(results, threshold, wordSimilarity);
    if (hitRate > best.hitRate) best = { threshold, wordSimilarity, hitRate };
  }
  return best;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const eligible = (p: LabelledPair) => p.a.length <= MAX_CHARS && p.b.length <= MAX_CHARS && p.a.trim() !== "" && p.b.trim() !== "";
const half = (text: string) => createHash("sha256").update(text).digest()[0]! & 1;

// ---- run ---------------------------------------------------------------------------------------

const t0 = performance.now();
const models = await loadModels(args.models);
const rng = new Rng(7);
const prompts = [...new Set(loadPromptCorpus().map((p) => p.trim()))].filter((p) => p.length >= 20 && p.length <= MAX_CHARS);
const tunePrompts = prompts.filter((p) => half(p) === 0);
const testPrompts = prompts.filter((p) => half(p) === 1);

const tune = await score([...labelSts(loadStsBenchmark("dev")), ...promptEdits(tunePrompts, rng)].filter(eligible), (t) => models.embed(t));
const test = await score([...labelSts(loadSemEval([2016])), ...promptEdits(testPrompts, rng)].filter(eligible), (t) => models.embed(t));

const { threshold, wordSimilarity } = choose(tune);
const embeddingOnlyThreshold = chooseThreshold(tune, null);
const chosen = at(test, threshold, wordSimilarity);
const tuned = at(tune, threshold, wordSimilarity);
const baseline = at(test, embeddingOnlyThreshold, null);
const baselineSame = at(test, threshold, null);

console.log(`# Semantic cache eval\n`);
console.log(`embedding: ${models.embedder.constructor.name} (${models.embedder.dimensions} dims), target precision ${TARGET}, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
console.log(`tune: STS-B dev + edits of ${tunePrompts.length} prompts (${tune.length} pairs); test: SemEval 2016 + edits of ${testPrompts.length} other prompts (${test.length} pairs)\n`);
console.log(`## Chosen: similarityThreshold ${threshold.toFixed(2)}, minWordSimilarity ${wordSimilarity.toFixed(2)} (tuned: precision ${tuned.precision.toFixed(4)}, hit rate ${pct(tuned.hitRate)}); test split\n`);
console.log(`| method | threshold | precision | hit rate on true paraphrases | false hits | hits |`);
console.log(`|---|---|---|---|---|---|`);
console.log(`| embedding + verifier (the cache) | ${threshold.toFixed(2)} / words ${wordSimilarity.toFixed(2)} | ${chosen.precision.toFixed(4)} | ${pct(chosen.hitRate)} | ${chosen.falseHits} | ${chosen.hits} |`);
console.log(`| embedding alone, same threshold | ${threshold.toFixed(2)} | ${baselineSame.precision.toFixed(4)} | ${pct(baselineSame.hitRate)} | ${baselineSame.falseHits} | ${baselineSame.hits} |`);
console.log(`| embedding alone, tuned to the target | ${embeddingOnlyThreshold.toFixed(2)} | ${baseline.precision.toFixed(4)} | ${pct(baseline.hitRate)} | ${baseline.falseHits} | ${baseline.hits} |`);

console.log(`\n## By group, test split, at ${threshold.toFixed(2)}\n`);
console.log(`| group | label | pairs | hits | hit share | refused by verifier (above threshold) |`);
console.log(`|---|---|---|---|---|---|`);
const groups = new Map<string, ScoredResult[]>();
for (const r of test) groups.set(`${r.group}\u0000${r.label}`, [...(groups.get(`${r.group}\u0000${r.label}`) ?? []), r]);
for (const [key, rows] of [...groups].sort()) {
  const [group, label] = key.split("\u0000");
  const above = rows.filter((r) => r.similarity >= threshold);
  const hits = above.filter((r) => isHit(r, threshold, wordSimilarity)).length;
  console.log(`| ${group} | ${label} | ${rows.length} | ${hits} | ${pct(hits / rows.length)} | ${above.length - hits} |`);
}

console.log(`\n## Sweep (test split)\n`);
console.log(`| threshold | precision (cache) | hit rate (cache) | precision (embedding alone) | hit rate (embedding alone) |`);
console.log(`|---|---|---|---|---|`);
for (const t of GRID.filter((_, i) => i % 5 === 0).concat(threshold).sort((x, y) => x - y)) {
  const c = at(test, t, wordSimilarity);
  const e = at(test, t, null);
  console.log(`| ${t.toFixed(2)}${t === threshold ? " (chosen)" : ""} | ${c.precision.toFixed(4)} | ${pct(c.hitRate)} | ${e.precision.toFixed(4)} | ${pct(e.hitRate)} |`);
}
