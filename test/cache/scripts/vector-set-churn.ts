import { VectorSet } from "../../../src/pipeline/cache/vector-set";

/**
 * A bounded cache under churn: LIVE vectors, each new one evicting the oldest, for ROUNDS insertions.
 * Prints the set's size and whether every live vector is still its own nearest neighbour.
 */
const [LIVE, ROUNDS] = [1_000, 20_000];
const DIMS = 64;
let x = 7;
const random = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32 - 0.5;
function unit(): Float32Array {
  const v = Float32Array.from({ length: DIMS }, random);
  const norm = Math.hypot(...v);
  return v.map((c) => c / norm);
}
const set = new VectorSet({ dimensions: DIMS, quantization: "f16" });
const live = new Map<bigint, Float32Array>();
for (let i = 0; i < LIVE + ROUNDS; i++) {
  const v = unit();
  set.add(BigInt(i), v);
  live.set(BigInt(i), v);
  if (i >= LIVE) {
    set.remove(BigInt(i - LIVE));
    live.delete(BigInt(i - LIVE));
  }
}
let found = 0;
for (const [label, v] of live) if (set.nearest(v, 1)[0]?.label === label) found++;
console.log(JSON.stringify({ size: set.size, live: live.size, found }));
