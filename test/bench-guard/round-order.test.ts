import { expect, test } from "bun:test";
import { roundOrder } from "../../bench/lib/measure";

const targets = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

/** Each target's predecessor in each round ("" for the first of a round). */
function predecessors(items: string[], rounds: number): Map<string, string[]> {
  const out = new Map(items.map((t) => [t, [] as string[]]));
  for (let r = 0; r < rounds; r++) {
    const order = roundOrder(items, r);
    order.forEach((t, i) => out.get(t)!.push(i > 0 ? order[i - 1]! : ""));
  }
  return out;
}

test("every round visits every target once, and over n rounds each target runs once in every position", () => {
  for (let n = 1; n <= 9; n++) {
    const items = targets(n);
    const positions = new Map(items.map((t) => [t, new Set<number>()]));
    for (let r = 0; r < n; r++) {
      const order = roundOrder(items, r);
      expect([...order].sort()).toEqual([...items].sort());
      order.forEach((t, i) => positions.get(t)!.add(i));
    }
    for (const t of items) expect(positions.get(t)!.size).toBe(n);
  }
  expect(roundOrder([], 3)).toEqual([]);
});

test("with an even number of targets, over n rounds each runs right after each other target exactly once", () => {
  for (const n of [2, 4, 6, 8]) {
    for (const [t, before] of predecessors(targets(n), n)) {
      const others = before.filter((p) => p !== "");
      expect(new Set(others).size).toBe(others.length);
      expect(others).not.toContain(t);
      expect(others.length).toBe(n - 1);
    }
  }
});

test("in the benchmark's three rounds no target follows the same neighbour every time", () => {
  for (let n = 2; n <= 9; n++) {
    for (const [, before] of predecessors(targets(n), 3)) expect(new Set(before).size).toBeGreaterThan(1);
  }
});
