import { HashFeaturizer, type HashFeatureParams } from "../../src/ml/features";
import { Rng } from "../data/rng";
import { spearman } from "../data/stats";
import type { ScoredPair } from "../data/sts";

/**
 * Trains the hashed EmbeddingBag: embedding(text) = normalize(sum_f w_f * E[f]).
 * E starts as random vectors scaled by each bucket's IDF, which makes the untrained model a random
 * projection of a TF-IDF bag of words (a sound lexical baseline); CoSENT on scored STS pairs then moves
 * the rows of the words seen in training so that cosine order follows the gold order.
 */
export interface EmbeddingTrainConfig {
  seed: number;
  dims: number;
  features: HashFeatureParams;
  epochs: number;
  batchSize: number;
  learningRate: number;
  /** CoSENT temperature: larger values focus the loss on the pairs whose order is most wrong. */
  cosentScale: number;
  /** Pull of each touched row back toward its initial value (keeps unseen words on the lexical baseline). */
  decayToInit: number;
}

export interface TrainedEmbedding {
  dims: number;
  features: HashFeatureParams;
  /** buckets x dims, row-major. */
  table: Float32Array;
  /** STS-B dev Spearman after each epoch; the returned table is the best epoch's. */
  devCurve: number[];
  bestEpoch: number;
}

interface EncodedText {
  ids: Int32Array;
  weights: Float32Array;
}

function encodeAll(featurizer: HashFeaturizer, texts: Iterable<string>): Map<string, EncodedText> {
  const out = new Map<string, EncodedText>();
  for (const t of texts) {
    if (out.has(t)) continue;
    const bag = featurizer.featurize(t);
    out.set(t, { ids: bag.ids.slice(0, bag.length), weights: bag.weights.slice(0, bag.length) });
  }
  return out;
}

/** Inverse document frequency per bucket over a corpus, log((N + 1) / (df + 1)) + 1. */
export function bucketIdf(featurizer: HashFeaturizer, corpus: readonly string[]): Float32Array {
  const df = new Float32Array(featurizer.params.buckets);
  for (const text of corpus) {
    const bag = featurizer.featurize(text);
    for (let i = 0; i < bag.length; i++) df[bag.ids[i]!]! += 1;
  }
  const idf = new Float32Array(df.length);
  for (let i = 0; i < df.length; i++) idf[i] = Math.log((corpus.length + 1) / (df[i]! + 1)) + 1;
  return idf;
}

/** Pool one text into `out` (unnormalized) and return its norm. */
function pool(table: Float32Array, dims: number, t: EncodedText, out: Float32Array): number {
  out.fill(0);
  for (let k = 0; k < t.ids.length; k++) {
    const w = t.weights[k]!;
    const base = t.ids[k]! * dims;
    for (let d = 0; d < dims; d++) out[d]! += w * table[base + d]!;
  }
  let s = 0;
  for (let d = 0; d < dims; d++) s += out[d]! * out[d]!;
  return Math.sqrt(s) || 1e-9;
}

export function cosineWith(table: Float32Array, dims: number, a: EncodedText, b: EncodedText, sa: Float32Array, sb: Float32Array): number {
  const na = pool(table, dims, a, sa);
  const nb = pool(table, dims, b, sb);
  let dot = 0;
  for (let d = 0; d < dims; d++) dot += sa[d]! * sb[d]!;
  return dot / (na * nb);
}

export function evaluateSpearman(table: Float32Array, dims: number, featurizer: HashFeaturizer, pairs: readonly ScoredPair[]): number {
  const enc = encodeAll(
    featurizer,
    pairs.flatMap((p) => [p.a, p.b]),
  );
  const sa = new Float32Array(dims);
  const sb = new Float32Array(dims);
  const cos = pairs.map((p) => cosineWith(table, dims, enc.get(p.a)!, enc.get(p.b)!, sa, sb));
  return spearman(
    cos,
    pairs.map((p) => p.score),
  );
}

export function trainEmbedding(
  config: EmbeddingTrainConfig,
  train: readonly ScoredPair[],
  dev: readonly ScoredPair[],
  idfCorpus: readonly string[],
  log: (line: string) => void,
): TrainedEmbedding {
  const { dims, features } = config;
  const rng = new Rng(config.seed);
  const featurizer = new HashFeaturizer(features);
  const idf = bucketIdf(featurizer, idfCorpus);
  const rows = features.buckets;
  const table = new Float32Array(rows * dims);
  for (let r = 0; r < rows; r++) {
    const scale = idf[r]! / Math.sqrt(dims);
    for (let d = 0; d < dims; d++) table[r * dims + d] = rng.normal() * scale;
  }
  const init = table.slice();
  const m = new Float32Array(rows * dims);
  const v = new Float32Array(rows * dims);
  const grad = new Float32Array(rows * dims);
  const touched = new Uint8Array(rows);
  const touchedList: number[] = [];

  const enc = encodeAll(
    featurizer,
    train.flatMap((p) => [p.a, p.b]),
  );
  let best = { spearman: evaluateSpearman(table, dims, featurizer, dev), epoch: 0, table: table.slice() };
  const devCurve = [best.spearman];
  log(`epoch 0 (TF-IDF random projection): STS-B dev spearman ${best.spearman.toFixed(4)}`);

  const B = config.batchSize;
  const pooledA = Array.from({ length: B }, () => new Float32Array(dims));
  const pooledB = Array.from({ length: B }, () => new Float32Array(dims));
  const normA = new Float64Array(B);
  const normB = new Float64Array(B);
  const cos = new Float64Array(B);
  const dcos = new Float64Array(B);
  const g = new Float32Array(dims);
  const beta1 = 0.9;
  const beta2 = 0.999;
  let step = 0;

  const backprop = (t: EncodedText, self: Float32Array, selfNorm: number, other: Float32Array, otherNorm: number, c: number, upstream: number) => {
    // d cos / d s_self = (e_other - cos * e_self) / |s_self|
    for (let d = 0; d < dims; d++) g[d] = (upstream * (other[d]! / otherNorm - (c * self[d]!) / selfNorm)) / selfNorm;
    for (let k = 0; k < t.ids.length; k++) {
      const id = t.ids[k]!;
      const w = t.weights[k]!;
      if (!touched[id]) {
        touched[id] = 1;
        touchedList.push(id);
      }
      const base = id * dims;
      for (let d = 0; d < dims; d++) grad[base + d]! += w * g[d]!;
    }
  };

  for (let epoch = 1; epoch <= config.epochs; epoch++) {
    const order = rng.shuffle(train.map((_, i) => i));
    let lossSum = 0;
    for (let start = 0; start + 2 <= order.length; start += B) {
      const batch = order.slice(start, start + B).map((i) => train[i]!);
      const n = batch.length;
      for (let i = 0; i < n; i++) {
        const p = batch[i]!;
        const a = enc.get(p.a)!;
        const b = enc.get(p.b)!;
        normA[i] = pool(table, dims, a, pooledA[i]!);
        normB[i] = pool(table, dims, b, pooledB[i]!);
        let dot = 0;
        for (let d = 0; d < dims; d++) dot += pooledA[i]![d]! * pooledB[i]![d]!;
        cos[i] = dot / (normA[i]! * normB[i]!);
      }
      // CoSENT: log(1 + sum over gold_i > gold_j of exp(scale * (cos_j - cos_i)))
      const lam = config.cosentScale;
      let maxArg = 0;
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (batch[i]!.score > batch[j]!.score) maxArg = Math.max(maxArg, lam * (cos[j]! - cos[i]!));
      let z = Math.exp(-maxArg);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (batch[i]!.score > batch[j]!.score) z += Math.exp(lam * (cos[j]! - cos[i]!) - maxArg);
      lossSum += maxArg + Math.log(z);
      dcos.fill(0);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++)
          if (batch[i]!.score > batch[j]!.score) {
            const gij = (lam * Math.exp(lam * (cos[j]! - cos[i]!) - maxArg)) / z;
            dcos[j]! += gij;
            dcos[i]! -= gij;
          }
      for (let i = 0; i < n; i++) {
        const p = batch[i]!;
        backprop(enc.get(p.a)!, pooledA[i]!, normA[i]!, pooledB[i]!, normB[i]!, cos[i]!, dcos[i]!);
        backprop(enc.get(p.b)!, pooledB[i]!, normB[i]!, pooledA[i]!, normA[i]!, cos[i]!, dcos[i]!);
      }
      // Lazy Adam: only the rows this batch touched move.
      step++;
      const lr = (config.learningRate * Math.sqrt(1 - beta2 ** step)) / (1 - beta1 ** step);
      for (const id of touchedList) {
        const base = id * dims;
        for (let d = 0; d < dims; d++) {
          const k = base + d;
          const gk = grad[k]! + config.decayToInit * (table[k]! - init[k]!);
          m[k] = beta1 * m[k]! + (1 - beta1) * gk;
          v[k] = beta2 * v[k]! + (1 - beta2) * gk * gk;
          table[k]! -= (lr * m[k]!) / (Math.sqrt(v[k]!) + 1e-8);
          grad[k] = 0;
        }
        touched[id] = 0;
      }
      touchedList.length = 0;
    }
    const s = evaluateSpearman(table, dims, featurizer, dev);
    devCurve.push(s);
    log(`epoch ${epoch}: train loss ${(lossSum / Math.ceil(order.length / B)).toFixed(4)}, STS-B dev spearman ${s.toFixed(4)}`);
    if (s > best.spearman) best = { spearman: s, epoch, table: table.slice() };
  }
  return { dims, features, table: best.table, devCurve, bestEpoch: best.epoch };
}
