/**
 * Token counts of the pieces seen recently, one memo per tokenizer family. BPE never merges across the
 * pre-tokenizer's pieces, so a text's count is the sum of its pieces' counts; words repeat (Zipf), and
 * a small table of the pieces seen recently is found faster than the vocabulary's 200k-entry one
 * (measured: 2.5x faster on 350-token English prompts).
 *
 * Keyed by the piece's characters where they lie in the text, not by a string: a Map needs the piece
 * sliced out and hashed as a new string, which took longer than finding the piece (measured: slicing
 * and Map lookups were over half the time once the split was fast). Open addressing, linear probing;
 * a slot holds the hash, the count and length, the key's first INLINE characters and where the rest
 * start in `chars`, a count of 0 marking an empty slot since a piece is at least one token. A hit needs
 * the same length and the same characters, not only the hash, so a collision costs a probe, never a
 * wrong count. Cleared when full rather than kept in LRU order: refilling costs one library call per
 * piece. The key's head lies in its slot so that a lookup reads one place in memory, not two: with
 * every key in `chars` the memo's lookups were the optimizer's largest self time on fresh prompts (13%
 * of its JavaScript samples, bun --cpu-prof), and the optimizer's thread CPU fell to 0.963x with this
 * layout (bench/optimizer-trees.ts, 2,000 fresh prompts, interleaved, load 10).
 */
const SLOTS = 1 << 16;
/** Entries before the memo is cleared: at most half the slots, which keeps probe runs short. */
const LIMIT = SLOTS / 2;
/** A piece longer than this (a base64 blob, a run of spaces) is counted but not remembered. */
const MAX_PIECE_LENGTH = 64;
/** Room for the characters of keys past their INLINE first: few pieces are longer. */
const CHARS = LIMIT * 8;

/** FNV-1a over the UTF-16 units of `text.slice(start, end)`. */
export function pieceHash(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

/** Units of a piece kept in its slot, two to an int: most pieces are shorter (o200k pieces average about five). */
const INLINE = 8;
/**
 * Ints per slot: hash, count | length << 16, the first INLINE units packed, where a longer key's rest
 * starts in `chars`, and one unused: 32 bytes, so no slot straddles a cache line.
 */
const WIDTH = 2 + INLINE / 2 + 1 + 1;

/** The units at `i` and `i + 1` of `text` (0 for one at or past `end`) packed in one int, as a slot keeps them. */
function unitPair(text: string, i: number, end: number): number {
  return (i < end ? text.charCodeAt(i) : 0) | ((i + 1 < end ? text.charCodeAt(i + 1) : 0) << 16);
}

export class PieceMemo {
  private readonly slots = new Int32Array(SLOTS * WIDTH);
  private readonly chars = new Uint16Array(CHARS);
  private charsUsed = 0;
  private size = 0;

  constructor(private readonly countPiece: (piece: string) => number) {}

  /** Tokens of `text.slice(start, end)`. */
  count(text: string, start: number, end: number): number {
    const length = end - start;
    if (length > MAX_PIECE_LENGTH) return this.countPiece(text.slice(start, end));
    const hash = pieceHash(text, start, end);
    const slots = this.slots;
    const home = (hash ^ (hash >>> 16)) & (SLOTS - 1); // fold the high bits into the ones the mask keeps
    let slot = home;
    for (;;) {
      const at = slot * WIDTH;
      const meta = slots[at + 1]!;
      if (meta === 0) break;
      if (slots[at] === hash && meta >>> 16 === length && this.holds(at, text, start, length)) return meta & 0xffff;
      slot = (slot + 1) & (SLOTS - 1);
    }
    const n = this.countPiece(text.slice(start, end));
    if (this.size >= LIMIT || (length > INLINE && this.charsUsed + length > CHARS)) {
      this.clear();
      slot = home;
    }
    const at = slot * WIDTH;
    slots[at] = hash;
    slots[at + 1] = n | (length << 16);
    for (let k = 0; k < INLINE; k += 2) slots[at + 2 + k / 2] = unitPair(text, start + k, end);
    if (length > INLINE) {
      slots[at + 2 + INLINE / 2] = this.charsUsed;
      for (let i = INLINE; i < length; i++) this.chars[this.charsUsed + i - INLINE] = text.charCodeAt(start + i);
      this.charsUsed += length - INLINE;
    }
    this.size++;
    return n;
  }

  /** Whether the key of the slot at `at` is `text.slice(start, start + length)`. */
  private holds(at: number, text: string, start: number, length: number): boolean {
    const slots = this.slots;
    for (let k = 0; k < length && k < INLINE; k += 2) if (slots[at + 2 + k / 2] !== unitPair(text, start + k, start + length)) return false;
    if (length <= INLINE) return true;
    const from = slots[at + 2 + INLINE / 2]!;
    for (let i = INLINE; i < length; i++) if (this.chars[from + i - INLINE] !== text.charCodeAt(start + i)) return false;
    return true;
  }

  private clear(): void {
    this.slots.fill(0);
    this.charsUsed = 0;
    this.size = 0;
  }
}
