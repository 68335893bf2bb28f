/** Cosine of two unit-length vectors (what every Embedder returns): their dot product. */
export function cosineOfUnit(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`vectors differ in length: ${a.length} vs ${b.length}`);
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}
