import { DataType, encodeModel } from "../onnx/graph";

/**
 * The embedding table quantized to int8 with one float scale per row (symmetric, max-abs): a quarter of
 * the float32 size, and the cosine error it adds is far below the model's own error.
 */
export function quantizeRows(table: Float32Array, dims: number): { q: Int8Array; scale: Float32Array } {
  const rows = table.length / dims;
  const q = new Int8Array(table.length);
  const scale = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(table[r * dims + d]!));
    const s = max / 127 || 1;
    scale[r] = s;
    for (let d = 0; d < dims; d++) q[r * dims + d] = Math.round(table[r * dims + d]! / s);
  }
  return { q, scale };
}

/**
 * EmbeddingBag as ONNX: ids [n] int32, weights [1, n] float32 -> embedding [1, dims], unit length.
 * rows = Cast(Gather(table_q, ids)); w = weights * Gather(scale, ids); embedding = LpNormalize(w @ rows).
 */
export function embeddingGraph(table: Float32Array, dims: number, metadata: Record<string, string>): Uint8Array {
  const { q, scale } = quantizeRows(table, dims);
  const rows = scale.length;
  return encodeModel({
    name: "svc_hash_embedding",
    inputs: [
      { name: "ids", elemType: DataType.INT32, shape: ["n"] },
      { name: "weights", elemType: DataType.FLOAT, shape: [1, "n"] },
    ],
    outputs: [{ name: "embedding", elemType: DataType.FLOAT, shape: [1, dims] }],
    initializers: [
      { name: "table_q", dims: [rows, dims], data: q },
      { name: "row_scale", dims: [rows], data: scale },
    ],
    nodes: [
      { op: "Gather", inputs: ["table_q", "ids"], outputs: ["rows_q"], attributes: { axis: 0 } },
      { op: "Cast", inputs: ["rows_q"], outputs: ["rows"], attributes: { to: DataType.FLOAT } },
      { op: "Gather", inputs: ["row_scale", "ids"], outputs: ["scales"], attributes: { axis: 0 } },
      { op: "Mul", inputs: ["weights", "scales"], outputs: ["scaled_weights"] },
      { op: "MatMul", inputs: ["scaled_weights", "rows"], outputs: ["pooled"] },
      { op: "LpNormalization", inputs: ["pooled"], outputs: ["embedding"], attributes: { axis: 1, p: 2 } },
    ],
    metadata,
  });
}
