/** The cache benches' vector helpers: one embedding per distinct text for a run, and the dot product they compare pairs by. */

/** `embed`, called once per distinct text: the benches score each text against many others. */
export function memoEmbed(embed: (text: string) => Promise<Float32Array>): (text: string) => Promise<Float32Array> {
  const memo = new Map<string, Float32Array>();
  return async (text) => {
    let v = memo.get(text);
    if (!v) memo.set(text, (v = await embed(text)));
    return v;
  };
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
