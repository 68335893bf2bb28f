/**
 * Token counts of the pieces seen recently, one memo per tokenizer family. BPE never merges across the
 * pre-tokenizer's pieces, so a text's count is the sum of its pieces' counts; words repeat (Zipf), and
 * a small table of the pieces seen recently is found faster than the vocabulary's 200k-entry one
 * (measured: 2.5x faster on 350-token English prompts).
 *
 * Keyed by the piece's characters where they lie in the text, not by a string: a Map needs the piece
 * sliced out and hashed as a new string, which took longer than finding the piece (measured: slicing
 * and Map lookups were over half the time once the split was fast). Open addressing, linear probing;
 * a slot is four ints (hash, count, where the key's characters start in `chars`, their length), count 0
 * marking an empty slot since a piece is at least one token. A hit needs the same length and the same
 * characters, not only the hash, so a collision costs a probe, never a wrong count. Cleared when full
 * rather than kept in LRU order: refilling costs one library call per piece.
 */
const SLOTS = 1 << 16;
/** Entries before the memo is cleared: at most half the slots, which keeps probe runs short. */
const LIMIT = SLOTS / 2;
/** A piece longer than this (a base64 blob, a run of spaces) is counted but not remembered. */
const MAX_PIECE_LENGTH = 64;
/** Room for the keys' characters: pieces average about five, so eight per entry rarely clears early. */
const CHARS = LIMIT * 8;

/** FNV-1a over the UTF-16 units of `text.slice(start, end)`. */
export function pieceHash(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

export class PieceMemo {
  private readonly slots = new Int32Array(SLOTS * 4);
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
      const n = slots[slot * 4 + 1]!;
      if (n === 0) break;
      if (slots[slot * 4] === hash && slots[slot * 4 + 3] === length && this.holds(slots[slot * 4 + 2]!, text, start, length)) return n;
      slot = (slot + 1) & (SLOTS - 1);
    }
    const n = this.countPiece(text.slice(start, end));
    if (this.size >= LIMIT || this.charsUsed + length > CHARS) {
      this.clear();
      slot = home;
    }
    const at = this.charsUsed;
    for (let i = 0; i < length; i++) this.chars[at + i] = text.charCodeAt(start + i);
    this.charsUsed += length;
    this.size++;
    slots[slot * 4] = hash;
    slots[slot * 4 + 1] = n;
    slots[slot * 4 + 2] = at;
    slots[slot * 4 + 3] = length;
    return n;
  }

  /** Whether the key whose characters start at `at` is `text.slice(start, start + length)`. */
  private holds(at: number, text: string, start: number, length: number): boolean {
    for (let i = 0; i < length; i++) if (this.chars[at + i] !== text.charCodeAt(start + i)) return false;
    return true;
  }

  private clear(): void {
    this.slots.fill(0);
    this.charsUsed = 0;
    this.size = 0;
  }
}
