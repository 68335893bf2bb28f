/**
 * Where an FAQ file's repeats stand for the semantic cache, pair by pair: for every ordered pair of two wordings
 * of one intent, the embedding cosine (its distribution, and the share at or above the cache's neighbour
 * threshold), and what the verifier then does with those it sees (served, or refused: the mismatch kinds it
 * names, each pair counted once per kind). Pairs of two different questions (two intents, or a unique
 * question) are counted the same way: the ones it would serve are false hits. Two threshold-free figures of
 * the embedding alone: the ROC AUC of same-intent over different pairs, and the share of same-intent pairs
 * above the cosine that 99.9% of the different pairs stay below (what a threshold at that precision reaches).
 *
 *   bun bench/cache-intent-reach.ts [--models DIR] FAQ_FILE...
 *
 * `--models` points at another models directory (a baseline tree's) so two embeddings can be compared through
 * the same verifier in one run; `--word-models` takes the single-word vectors the verifier compares unmatched
 * words with from another directory (the neighbour search keeps `--models`'). `--threshold=T` replaces the
 * neighbour threshold (-1: the verifier sees every pair, so its own refusals show apart from the embedding's).
 * Only totals are printed.
 */
import { parseArgs } from "node:util";
import { basename } from "node:path";
import { DEFAULT_MODELS_DIR } from "../src/ml/load";
import { DEFAULT_CACHE_CONFIG, embeddingText, extractFacets, type PromptFacets, wordsToEmbed } from "../src/pipeline/cache";
import { SHIPPED_SYNONYMS } from "../src/pipeline/cache/request-synonyms";
import { allMismatches } from "../src/pipeline/cache/verify";
import { loadModels } from "../src/pipeline/models";
import { loadFaqFile } from "./lib/faq-replay";

const { values: args, positionals: files } = parseArgs({
  options: { models: { type: "string", default: DEFAULT_MODELS_DIR }, "word-models": { type: "string" }, threshold: { type: "string" } },
  allowPositionals: true,
});

const models = await loadModels(args.models);
const wordModels = args["word-models"] ? await loadModels(args["word-models"]) : models;
const config = { ...DEFAULT_CACHE_CONFIG, similarityThreshold: Number(args.threshold ?? DEFAULT_CACHE_CONFIG.similarityThreshold) };
const memo = new Map<string, Float32Array>();
const vec = async (text: string) => {
  let v = memo.get(text);
  if (!v) memo.set(text, (v = await models.embed(text)));
  return v;
};
const facetMemo = new Map<string, PromptFacets>();
const facetsOf = (t: string) => {
  let f = facetMemo.get(t);
  if (!f) facetMemo.set(t, (f = extractFacets(t)));
  return f;
};

interface Tally {
  pairs: number;
  cosines: number[];
  above: number;
  served: number;
  /** Refused pairs per mismatch kind the verifier names (a pair may name several). */
  reasons: Map<string, number>;
  /** Refused pairs per role check: the role the clash names (wh, modal, quantity, a slot or article key) or "frame". */
  roles: Map<string, number>;
  /** Refused pairs whose only difference is content words (which words, not how they stand). */
  contentOnly: number;
}
const tally = (): Tally => ({ pairs: 0, cosines: [], above: 0, served: 0, reasons: new Map(), roles: new Map(), contentOnly: 0 });

async function decide(a: string, b: string, t: Tally): Promise<void> {
  if (a.length > config.semanticMaxChars || b.length > config.semanticMaxChars) return;
  t.pairs++;
  const [va, vb] = [await vec(embeddingText(a)), await vec(embeddingText(b))];
  let cosine = 0;
  for (let i = 0; i < va.length; i++) cosine += va[i]! * vb[i]!;
  t.cosines.push(cosine);
  if (cosine < config.similarityThreshold) return;
  t.above++;
  const [fa, fb] = [facetsOf(a), facetsOf(b)];
  // The words the verifier compares by vector, embedded as the cache embeds them (semantic-cache.ts).
  const vectors = new Map<string, Float32Array>();
  for (const w of wordsToEmbed(fa, fb)) vectors.set(w, await wordModels.embed(w));
  const mismatches = allMismatches(fa, fb, { vectors, minSimilarity: config.minWordSimilarity, synonyms: SHIPPED_SYNONYMS });
  if (mismatches.length === 0) {
    t.served++;
    return;
  }
  for (const kind of new Set(mismatches.map((m) => m.kind))) t.reasons.set(kind, (t.reasons.get(kind) ?? 0) + 1);
  // roleClash and articleClash name a key before a colon ("wh: ...", "modal: ..."); frameClash names none.
  const roles = mismatches.filter((m) => m.kind === "role").map((m) => /^([\w ]+):/.exec(m.detail)?.[1] ?? "frame");
  for (const role of new Set(roles)) t.roles.set(role, (t.roles.get(role) ?? 0) + 1);
  if (mismatches.every((m) => m.kind === "content")) t.contentOnly++;
}

const quantile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const pct = (n: number, of: number) => `${of === 0 ? "0.0" : ((100 * n) / of).toFixed(1)}%`;
const reasons = (counts: ReadonlyMap<string, number>) =>
  [...counts]
    .sort((x, y) => y[1] - x[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(", ") || "-";

console.log(`models: ${args.models}; word vectors: ${args["word-models"] ?? args.models}; neighbour threshold ${config.similarityThreshold}\n`);
/** Probability that a same-intent pair has the higher cosine than a different pair (ties count half). */
function auc(pos: readonly number[], neg: readonly number[]): number {
  const all = [...pos.map((x) => ({ x, p: true })), ...neg.map((x) => ({ x, p: false }))].sort((u, v) => u.x - v.x);
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]!.x === all[i]!.x) j++;
    for (let k = i; k < j; k++) if (all[k]!.p) rankSum += (i + j + 1) / 2;
    i = j;
  }
  return (rankSum - (pos.length * (pos.length + 1)) / 2) / (pos.length * neg.length);
}

console.log(
  `| file | side | pairs | cosine p10 / p25 / p50 / p75 / p90 | >= threshold | served | refused: content only | refused, per kind named | role refusals by check |`,
);
console.log(`|---|---|---|---|---|---|---|---|---|`);
const rankings: string[] = [];
for (const file of files) {
  const corpus = loadFaqFile(file);
  const all = [...corpus.intents.flatMap((i) => i.questions.map((q) => ({ q, id: i.id }))), ...corpus.unique.map((q, n) => ({ q, id: `unique-${n}` }))];
  const same = tally();
  const different = tally();
  for (const x of all) for (const y of all) if (x.q !== y.q) await decide(x.q, y.q, x.id === y.id ? same : different);
  for (const [side, t] of [
    ["same intent", same],
    ["different (served = false hit)", different],
  ] as const) {
    const qs = [0.1, 0.25, 0.5, 0.75, 0.9].map((q) => quantile(t.cosines, q).toFixed(2)).join(" / ");
    console.log(
      `| ${basename(file, ".json")} | ${side} | ${t.pairs} | ${qs} | ${t.above} (${pct(t.above, t.pairs)}) | ${t.served} | ${t.contentOnly} | ${reasons(t.reasons)} | ${reasons(t.roles)} |`,
    );
  }
  const cut = quantile(different.cosines, 0.999);
  const reached = same.cosines.filter((c) => c > cut).length;
  rankings.push(
    `| ${basename(file, ".json")} | ${auc(same.cosines, different.cosines).toFixed(4)} | ${cut.toFixed(2)} | ${reached} of ${same.pairs} (${pct(reached, same.pairs)}) |`,
  );
}
console.log(`\n| file | AUC same vs different | cosine 99.9% of different pairs stay below | same-intent pairs above it |`);
console.log(`|---|---|---|---|`);
for (const line of rankings) console.log(line);
