import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { PieceMemo, pieceHash } from "../../src/tokens/piece-memo";

/**
 * A stand-in for BPE that gives every distinct piece its own count (a real tokenizer gives most pieces
 * 1 or 2, which would hide a memo answering for the wrong piece), and records what it was asked.
 */
function fakeCounter() {
  const ids = new Map<string, number>();
  const asked: string[] = [];
  const count = (piece: string) => {
    asked.push(piece);
    let id = ids.get(piece);
    if (id === undefined) ids.set(piece, (id = ids.size + 1));
    return id;
  };
  return { count, asked, expected: (piece: string) => ids.get(piece) };
}

/** The i-th string of `width` lower-case letters. */
const word = (i: number, width: number) => Array.from({ length: width }, (_, d) => String.fromCharCode(97 + (Math.floor(i / 26 ** d) % 26))).join("");

describe("piece memo", () => {
  test("answers for pieces found anywhere in a text, remembered or not", () => {
    const fake = fakeCounter();
    const memo = new PieceMemo(fake.count);
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), fc.nat(), fc.nat(), (text, a, b) => {
        const start = text.length === 0 ? 0 : a % text.length;
        const end = start + (text.length === 0 ? 0 : b % (text.length - start + 1));
        if (end === start) return;
        const piece = text.slice(start, end);
        const first = memo.count(text, start, end);
        expect(first).toBe(fake.expected(piece)!);
        expect(memo.count(`x${text}`, start + 1, end + 1)).toBe(first);
      }),
      { numRuns: 3000 },
    );
  });

  test("two pieces with the same hash and length keep their own counts", () => {
    // Birthday search over random six-letter words: a 32-bit hash collides within about 80k of them
    // (words taken in counting order collide far later).
    let x = 1;
    const letter = () => 97 + (((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 16) % 26);
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    while (pair === undefined) {
      const w = String.fromCharCode(letter(), letter(), letter(), letter(), letter(), letter());
      const other = seen.get(pieceHash(w, 0, w.length));
      if (other !== undefined && other !== w) pair = [other, w];
      else seen.set(pieceHash(w, 0, w.length), w);
    }
    const [a, b] = pair;
    expect(pieceHash(a, 0, a.length)).toBe(pieceHash(b, 0, b.length));
    const fake = fakeCounter();
    const memo = new PieceMemo(fake.count);
    const countA = memo.count(a, 0, a.length);
    const countB = memo.count(b, 0, b.length);
    expect(countB).not.toBe(countA);
    expect(memo.count(a, 0, a.length)).toBe(countA);
    expect(memo.count(b, 0, b.length)).toBe(countB);
    expect(fake.asked).toEqual([a, b]);
  });

  test("stays exact while it fills up and is cleared, by entries and by room for characters", () => {
    const fake = fakeCounter();
    const memo = new PieceMemo(fake.count);
    // 40k distinct short pieces (over the 32k entries), then 50-64 character ones (over the room for
    // their characters), then the first ones again, each asked twice in a row.
    const pieces = [
      ...Array.from({ length: 40_000 }, (_, i) => word(i, 4)),
      ...Array.from({ length: 10_000 }, (_, i) => word(i, 50 + (i % 15))),
      ...Array.from({ length: 100 }, (_, i) => word(i, 4)),
    ];
    for (const p of pieces) {
      const asked = fake.asked.length;
      expect(memo.count(p, 0, p.length)).toBe(fake.expected(p)!);
      expect(memo.count(p, 0, p.length)).toBe(fake.expected(p)!);
      expect(fake.asked.length - asked).toBeLessThanOrEqual(1); // the second answer was remembered
    }
    // The first pieces were forgotten at a clear and counted again at the end.
    expect(fake.asked.filter((p) => p === pieces[0]).length).toBe(2);
  });

  test("a piece over 64 characters is counted every time, never remembered", () => {
    const fake = fakeCounter();
    const memo = new PieceMemo(fake.count);
    const long = "x".repeat(65);
    memo.count(long, 0, long.length);
    memo.count(long, 0, long.length);
    expect(fake.asked).toEqual([long, long]);
  });
});
