/**
 * Text to hashed sparse features (words and the character n-grams of each word), the input
 * of the embedding model's EmbeddingBag. Training and runtime both use this one function so that the
 * shipped weights see exactly the features they were trained on.
 */

/** Stored next to the model (models/embedding/features.json); changing any field needs retraining. */
export interface HashFeatureParams {
  /** Number of hash buckets (rows of the embedding table); a power of two. */
  buckets: number;
  /** Character n-gram lengths taken from each word wrapped as `<word>`. */
  charNgrams: { min: number; max: number };
  /** Total weight of one word's character n-grams (split evenly among them). */
  charWeight: number;
  /** Words longer than this are cut (long tokens are ids, hashes, base64: their head is enough). */
  maxWordLength: number;
}

/** A bag of features: parallel bucket ids and weights, duplicates merged, `length` entries used. */
export interface FeatureBag {
  ids: Int32Array;
  weights: Float32Array;
  length: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SEED_WORD = 0x5bd1e995;
const SEED_CHAR = 0x27d4eb2f;

function fnv1a(text: string, start: number, end: number, seed: number): number {
  let h = (FNV_OFFSET ^ seed) >>> 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return finalMix(h);
}

/** Avalanche step (murmur3 fmix32) so that low bits, which pick the bucket, depend on every input bit. */
function finalMix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased word tokens, the unit every feature is built from. */
export function words(text: string, maxWordLength: number): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) out.push(m[0].length > maxWordLength ? m[0].slice(0, maxWordLength) : m[0]);
  return out;
}

interface WordFeatures {
  ids: Int32Array;
  weights: Float32Array;
}

/**
 * Featurizer with per-instance scratch space and a bounded per-word cache: prompts repeat most of their
 * words, and hashing every character n-gram again would dominate the cost of an embedding call.
 * One instance per thread; it is not re-entrant, and nothing is shared between instances.
 */
export class HashFeaturizer {
  private readonly accumulator: Float32Array;
  private readonly touched: Int32Array;
  private readonly cache = new Map<string, WordFeatures>();
  private readonly mask: number;
  private static readonly CACHE_LIMIT = 50_000;

  constructor(readonly params: HashFeatureParams) {
    if (params.buckets <= 0 || (params.buckets & (params.buckets - 1)) !== 0) throw new Error(`buckets must be a power of two, got ${params.buckets}`);
    this.mask = params.buckets - 1;
    this.accumulator = new Float32Array(params.buckets);
    this.touched = new Int32Array(params.buckets);
  }

  private wordFeatures(word: string): WordFeatures {
    const hit = this.cache.get(word);
    if (hit) return hit;
    const { min, max } = this.params.charNgrams;
    const wrapped = `<${word}>`;
    const grams: number[] = [];
    for (let n = min; n <= max; n++) for (let i = 0; i + n <= wrapped.length; i++) grams.push(fnv1a(wrapped, i, i + n, SEED_CHAR) & this.mask);
    const hash = fnv1a(word, 0, word.length, SEED_WORD);
    const ids = new Int32Array(grams.length + 1);
    const weights = new Float32Array(grams.length + 1);
    ids[0] = hash & this.mask;
    weights[0] = 1;
    const each = grams.length > 0 ? this.params.charWeight / grams.length : 0;
    for (let i = 0; i < grams.length; i++) {
      ids[i + 1] = grams[i]!;
      weights[i + 1] = each;
    }
    const features = { ids, weights };
    if (this.cache.size >= HashFeaturizer.CACHE_LIMIT) this.cache.clear();
    this.cache.set(word, features);
    return features;
  }

  /**
   * Features of `text` written into `out` (grown when too small; the returned bag may be a new one).
   * Weights are raw sums; the model normalizes the pooled vector, so only their ratios matter.
   */
  featurize(text: string, out?: FeatureBag): FeatureBag {
    const acc = this.accumulator;
    const touched = this.touched;
    let n = 0;
    const add = (id: number, w: number) => {
      if (acc[id] === 0) touched[n++] = id;
      acc[id]! += w;
    };
    for (const word of words(text, this.params.maxWordLength)) {
      const f = this.wordFeatures(word);
      for (let i = 0; i < f.ids.length; i++) add(f.ids[i]!, f.weights[i]!);
    }
    let bag = out;
    if (!bag || bag.ids.length < n) bag = { ids: new Int32Array(Math.max(n, 16)), weights: new Float32Array(Math.max(n, 16)), length: 0 };
    for (let i = 0; i < n; i++) {
      const id = touched[i]!;
      bag.ids[i] = id;
      bag.weights[i] = acc[id]!;
      acc[id] = 0;
    }
    bag.length = n;
    return bag;
  }
}
