import { pieceHash } from "../tokens/piece-memo";

const RIGHT_QUOTE = 0x2019;
/** A unit as a table key spells it: ASCII capitals lower-cased, ’ as '; -1 for any other unit outside ASCII. */
function folded(code: number): number {
  if (code >= 0x41 && code <= 0x5a) return code + 0x20;
  if (code < 0x80) return code;
  return code === RIGHT_QUOTE ? 0x27 : -1;
}

/**
 * Lower-case ASCII words, found where they lie in a text (text[start, end), ASCII case ignored, ’ read
 * as '): the rules that check every word of a long message spent more on slicing and lower-casing
 * each word than on the lookup. A word with other units outside ASCII is sliced and lower-cased with
 * String.toLowerCase, which there can change its length or land in ASCII (the Kelvin sign is "k").
 * Open addressing, linear probing, at most half full.
 */
export class FoldedWordTable<V> {
  private readonly keys: string[] = [];
  private readonly values: V[] = [];
  private readonly byKey = new Map<string, number>();
  /**
   * Per slot, its entry (-1 when empty) and the entry's key hash side by side: a probe compares the
   * hash before it reads the key string, which for most probes is the only memory it touches (reading
   * each probed key was a fifth of the PII tagger's time, CPU profile of bench/pii-speed.ts).
   */
  private readonly slots: Int32Array;
  /**
   * The keys' units one after another (keys are ASCII), entry e's from offsets[e] to offsets[e + 1]:
   * a probe compares these, not the key strings (lookups 39 -> 31 ns each, the PII tagger's on the
   * pii-dense workload replayed).
   */
  private readonly pool: Uint8Array;
  private readonly offsets: Int32Array;
  /** No longer text can spell a key: folding keeps a word's length wherever it lands in ASCII. */
  private readonly longest: number;
  private readonly size: number;

  constructor(entries: Iterable<readonly [string, V]>) {
    for (const [key, value] of entries) {
      if (!/^[a-z']+$/.test(key)) throw new Error(`FoldedWordTable: "${key}" is not a lower-case ASCII word`);
      this.byKey.set(key, this.keys.length);
      this.keys.push(key);
      this.values.push(value);
    }
    this.longest = Math.max(0, ...this.keys.map((key) => key.length));
    this.offsets = new Int32Array(this.keys.length + 1);
    this.pool = new Uint8Array(this.keys.reduce((n, key) => n + key.length, 0));
    this.keys.forEach((key, i) => {
      const at = this.offsets[i]!;
      for (let k = 0; k < key.length; k++) this.pool[at + k] = key.charCodeAt(k);
      this.offsets[i + 1] = at + key.length;
    });
    let size = 16;
    while (size < this.keys.length * 2) size *= 2;
    this.size = size;
    this.slots = new Int32Array(size * 2).fill(-1);
    this.keys.forEach((key, i) => {
      const hash = pieceHash(key, 0, key.length);
      let slot = this.home(hash);
      while (this.slots[slot * 2] !== -1) slot = (slot + 1) & (size - 1);
      this.slots[slot * 2] = i;
      this.slots[slot * 2 + 1] = hash;
    });
  }

  /** Index of the entry spelled by text[start, end), or -1. */
  find(text: string, start: number, end: number): number {
    if (end - start > this.longest) return -1;
    // pieceHash, which placed the keys, over the folded units: the two must stay the same FNV-1a.
    let hash = 0x811c9dc5 | 0;
    for (let i = start; i < end; i++) {
      const code = folded(text.charCodeAt(i));
      if (code < 0) return this.entryOf(text.slice(start, end).toLowerCase().replaceAll("’", "'"));
      hash = Math.imul(hash ^ code, 0x01000193);
    }
    return this.findHashed(hash, text, start, end);
  }

  /**
   * find() for a caller that has already hashed text[start, end) as find() does (FNV-1a over the
   * folded units, pieceHash of the key): the PII tagger hashes every word it scores for its features.
   * Every unit of text[start, end) must fold (folded() not -1), as in a word of ASCII letters.
   */
  findHashed(hash: number, text: string, start: number, end: number): number {
    if (end - start > this.longest) return -1;
    const mask = this.size - 1;
    for (let slot = this.home(hash); ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot * 2]!;
      if (entry === -1) return -1;
      if (this.slots[slot * 2 + 1] !== hash) continue;
      // The key's units from the pool, compared in place (the key strings took a further pointer each, scattered over the heap).
      const from = this.offsets[entry]!;
      if (this.offsets[entry + 1]! - from !== end - start) continue;
      const pool = this.pool;
      let i = start;
      while (i < end && pool[from + i - start] === folded(text.charCodeAt(i))) i++;
      if (i === end) return entry;
    }
  }

  /** Index of the entry whose key is exactly `key` (already lower-case), or -1. */
  entryOf(key: string): number {
    return this.byKey.get(key) ?? -1;
  }

  key(entry: number): string {
    return this.keys[entry]!;
  }

  value(entry: number): V {
    return this.values[entry]!;
  }

  private home(hash: number): number {
    return (hash ^ (hash >>> 16)) & (this.size - 1);
  }
}
