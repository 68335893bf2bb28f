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
const CHAR_OFFSET = (FNV_OFFSET ^ SEED_CHAR) >>> 0;
const WRAP_OPEN = "<".charCodeAt(0);
const WRAP_CLOSE = ">".charCodeAt(0);

/** Avalanche step (murmur3 fmix32) so that low bits, which pick the bucket, depend on every input bit. */
function finalMix(h: number): number {
  return mixedBits(h) >>> 0;
}

/**
 * finalMix's bits as a signed 32-bit integer, for the bucket (its low bits): without finalMix's closing
 * `>>> 0`, whose result above 2^31 JavaScriptCore holds as a double.
 */
function mixedBits(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** One word character (a letter or digit, any script) at lastIndex: what splitWords takes runs of. */
const WORD_CHAR_AT = /[\p{L}\p{N}]/uy;

/** Length in UTF-16 units of the word character at `i` of `text` (2 for one outside the BMP), 0 when there is none. */
function wordCharAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) ? 1 : 0;
  WORD_CHAR_AT.lastIndex = i;
  return WORD_CHAR_AT.test(text) ? WORD_CHAR_AT.lastIndex - i : 0;
}

/**
 * A text's words (runs of letters and digits, lower-cased, cut at maxWordLength), held as places in the
 * lower-cased text with their hashes rather than as strings: the embedding's features and the
 * classifier's word bag read the characters and hashes, never a word as a string, and slicing the ~230
 * words of a ~300-token prompt took words() from 14.1 to 17.9 µs p50 (4,000 workload prompts,
 * interleaved, load 15).
 */
export interface WordSplit {
  /** The text lower-cased: word i is lower.slice(starts[i], starts[i] + lengths[i]). */
  readonly lower: string;
  readonly count: number;
  readonly starts: Int32Array;
  readonly lengths: Int32Array;
  /** Each word's hash (FNV-1a with the word seed, finalMix, before any bucket mask), hashed during the split. */
  readonly hashes: Uint32Array;
}

/**
 * The last text split. A request embeds a text and then classifies the same text, whose word bag
 * splits and hashes the same words: 8.8% of the optimizer's samples went to splitting and hashing
 * words, each done twice (bun --cpu-prof over 3,000 fresh ~300-token prompts, every stage on).
 */
let lastSplit: { text: string; maxWordLength: number; split: WordSplit } | undefined;
const WORD_OFFSET = (FNV_OFFSET ^ SEED_WORD) >>> 0;
/** The hashes, starts and lengths of the split in progress, copied out at its end. */
let hashScratch = new Uint32Array(256);
let startScratch = new Int32Array(256);
let lengthScratch = new Int32Array(256);

/** The words of `text`, the unit every feature is built from. Shared with the next caller: read only. */
export function splitWords(text: string, maxWordLength: number): WordSplit {
  if (lastSplit?.text === text && lastSplit.maxWordLength === maxWordLength) return lastSplit.split;
  // Runs of letters and digits (/[\p{L}\p{N}]+/gu) found by a char-code scan, the Unicode classes asked
  // only of non-ASCII characters: the regex's match took 13-15 µs on a ~300-token workload prompt, this
  // 8-9 µs (bench/lib/workload, 2,000 prompts, same run).
  const lower = text.toLowerCase();
  let count = 0;
  let start = -1;
  let h = 0;
  for (let i = 0; i <= lower.length; ) {
    const width = i < lower.length ? wordCharAt(lower, i) : 0;
    if (width > 0) {
      if (start < 0) {
        start = i;
        h = WORD_OFFSET;
      }
      // Each UTF-16 unit of the word up to its cut.
      for (let k = i; k < i + width && k - start < maxWordLength; k++) h = Math.imul(h ^ lower.charCodeAt(k), FNV_PRIME);
      i += width;
      continue;
    }
    if (start >= 0) {
      if (count === hashScratch.length) {
        hashScratch = grown(hashScratch, new Uint32Array(2 * count));
        startScratch = grown(startScratch, new Int32Array(2 * count));
        lengthScratch = grown(lengthScratch, new Int32Array(2 * count));
      }
      hashScratch[count] = finalMix(h);
      startScratch[count] = start;
      lengthScratch[count] = Math.min(i - start, maxWordLength);
      count++;
    }
    start = -1;
    i++;
  }
  const split = {
    lower,
    count,
    starts: startScratch.slice(0, count),
    lengths: lengthScratch.slice(0, count),
    hashes: hashScratch.slice(0, count),
  };
  lastSplit = { text, maxWordLength, split };
  return split;
}

/** `into` holding `from` at its start. */
function grown<T extends Uint32Array | Int32Array>(from: T, into: T): T {
  into.set(from);
  return into;
}

/**
 * Featurizer with per-instance scratch space. One instance per thread; it is not re-entrant, and
 * nothing is shared between instances.
 */
export class HashFeaturizer {
  private readonly accumulator: Float32Array;
  private readonly touched: Int32Array;
  private readonly mask: number;
  /** One word's n-gram buckets, by start position then size. */
  private readonly gramScratch: Int32Array;
  /** One word's units wrapped as `<word>`. */
  private readonly codeScratch: Int32Array;

  constructor(readonly params: HashFeatureParams) {
    if (params.buckets <= 0 || (params.buckets & (params.buckets - 1)) !== 0) throw new Error(`buckets must be a power of two, got ${params.buckets}`);
    this.mask = params.buckets - 1;
    this.accumulator = new Float32Array(params.buckets);
    this.touched = new Int32Array(params.buckets);
    this.gramScratch = new Int32Array((params.maxWordLength + 2) * (params.charNgrams.max - params.charNgrams.min + 1));
    this.codeScratch = new Int32Array(params.maxWordLength + 2);
  }

  /**
   * Features of `text` written into `out` (grown when too small; the returned bag may be a new one).
   * Each word adds its own bucket with weight 1 and its character n-grams (of the word wrapped as
   * `<word>`) sharing `charWeight`. Weights are raw sums; the model normalizes the pooled vector, so
   * only their ratios matter.
   */
  featurize(text: string, out?: FeatureBag): FeatureBag {
    const acc = this.accumulator;
    const touched = this.touched;
    const n = this.addWords(splitWords(text, this.params.maxWordLength), acc, touched);
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

  /**
   * Adds the features of `split` (splitWords with this featurizer's maxWordLength) to `acc`, a weight
   * per bucket, and writes each bucket it finds at zero to `touched` in order of first addition: returns
   * how many it wrote. With `acc` all zero this is featurize's bag, left in place: HashEmbedder pools it
   * from there rather than from a bag it would copy out and scatter back (see HashEmbedder.pool).
   *
   * `inBagOrder` false: `touched` may list the buckets in another order (HashEmbedder.pool reads them
   * as a set, in bucket order), and each n-gram is added as it is hashed, not stored and read back size
   * by size. The weights are the same to the bit: a word's n-grams all add the same `each`, so every
   * bucket receives the same values in the same order of words, whatever the order within a word.
   */
  addWords(split: WordSplit, acc: Float32Array, touched: Int32Array, inBagOrder = true): number {
    const mask = this.mask;
    const { min, max } = this.params.charNgrams;
    let n = 0;
    // Hashing the n-grams again beats memoising them per word: a Map lookup per word costs more than
    // the dozen short hashes, and so did a direct-mapped memo of 4,096 words in typed arrays, keyed by
    // the word's hash and checked against its characters (71% hits on fresh ~300-token workload prompts,
    // yet 48.7 against 43.1 µs p50, interleaved). The n-grams
    // starting at one position share their prefix, so one running FNV hash per start yields every
    // size (FNV is sequential), read from the word as if wrapped in "<" and ">" without building that
    // string. They are added size by size, as they always were: the order fixes the bag's order, which
    // training (models/embedding) depends on to reproduce the shipped weights byte for byte.
    const sizes = max - min + 1;
    const grams = this.gramScratch;
    const codes = this.codeScratch;
    // Each word's characters, read from the lower-cased text at offset + i for position i of `<word>`.
    const { lower: chars, count: wordCount, starts, lengths, hashes } = split;
    for (let w = 0; w < wordCount; w++) {
      const offset = starts[w]! - 1;
      let id = hashes[w]! & mask;
      if (acc[id] === 0) touched[n++] = id;
      acc[id]! += 1;
      const wrappedLength = lengths[w]! + 2;
      let count = 0;
      for (let size = min; size <= max; size++) count += Math.max(0, wrappedLength - size + 1);
      if (count === 0) continue;
      const each = Math.fround(this.params.charWeight / count);
      // `<word>`'s units, read once each rather than once per n-gram holding them, and each bucket from
      // mixedBits: the featurizer 40.3 -> 38.2 and 39.7 -> 37.7 µs p50 in two runs (3,500 fresh ~300-token
      // workload prompts, old and new interleaved, load 15), the same bags on 296,030 strings (every line
      // and JSON string of ../shared/data and 4,000 workload prompts, twice over).
      codes[0] = WRAP_OPEN;
      for (let i = 1; i < wrappedLength - 1; i++) codes[i] = chars.charCodeAt(offset + i);
      codes[wrappedLength - 1] = WRAP_CLOSE;
      if (!inBagOrder) {
        for (let start = 0; start + min <= wrappedLength; start++) {
          let h = CHAR_OFFSET;
          const end = Math.min(start + max, wrappedLength);
          for (let i = start; i < end; i++) {
            h = Math.imul(h ^ codes[i]!, FNV_PRIME);
            if (i - start + 1 < min) continue;
            id = mixedBits(h) & mask;
            if (acc[id] === 0) touched[n++] = id;
            acc[id]! += each;
          }
        }
        continue;
      }
      for (let start = 0; start + min <= wrappedLength; start++) {
        let h = CHAR_OFFSET;
        const end = Math.min(start + max, wrappedLength);
        for (let i = start; i < end; i++) {
          h = Math.imul(h ^ codes[i]!, FNV_PRIME);
          const size = i - start + 1;
          if (size >= min) grams[start * sizes + size - min] = mixedBits(h) & mask;
        }
      }
      for (let size = min; size <= max; size++) {
        for (let start = 0; start + size <= wrappedLength; start++) {
          id = grams[start * sizes + size - min]!;
          if (acc[id] === 0) touched[n++] = id;
          acc[id]! += each;
        }
      }
    }
    return n;
  }
}

/**
 * The words of `text` hashed into `buckets` (a power of two) with weight log(1 + count), scaled to
 * unit length: the task classifier's vocabulary input. Unlike the embedding, which is trained to place
 * paraphrases together, this keeps rare words apart ("pinia", "ansible", "k8s"), and those are what tell
 * a code question written as prose from small talk.
 */
export function wordBag(text: string, buckets: number, maxWordLength: number): FeatureBag {
  // Counted in a per-size scratch array, buckets in order of first occurrence (the order a Map gave
  // them, which the bag keeps): a Map update per word cost 2.4% of the optimizer's samples (bun
  // --cpu-prof, fresh ~300-token prompts, every stage on).
  const counts = bagScratch(buckets);
  const mask = buckets - 1;
  const { hashes, count } = splitWords(text, maxWordLength);
  const order = new Int32Array(count);
  let size = 0;
  for (let i = 0; i < count; i++) {
    const id = hashes[i]! & mask;
    if (counts[id] === 0) order[size++] = id;
    counts[id]!++;
  }
  const ids = order.slice(0, size);
  const weights = new Float32Array(size);
  let norm = 0;
  for (let i = 0; i < size; i++) {
    norm += (weights[i] = Math.log1p(counts[ids[i]!]!)) ** 2;
    counts[ids[i]!] = 0;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let k = 0; k < weights.length; k++) weights[k]! *= scale;
  return { ids, weights, length: size };
}

/** wordBag's counts by bucket, all zero between calls; one per bucket count. */
const bagCounts = new Map<number, Int32Array>();
function bagScratch(buckets: number): Int32Array {
  let counts = bagCounts.get(buckets);
  if (!counts) bagCounts.set(buckets, (counts = new Int32Array(buckets)));
  return counts;
}
