import { TASK_CLASSES } from "../../src/ml/types";
import { DataType, encodeModel } from "../onnx/graph";
import type { ClassifierWeights } from "./train";

/**
 * The network as one ONNX graph: embedding [1, dims], features [1, f] and the word bag (word_ids [n]
 * int32, word_weights [1, n]) -> ReLU hidden layer -> probs [1, classes] (softmax, in TASK_CLASSES
 * order) and difficulty [1, 1] (sigmoid). The word bag is pooled as word_weights @ Gather(word_table, ids).
 */
export function classifierGraph(m: ClassifierWeights, dims: number, featureCount: number): Uint8Array {
  const K = TASK_CLASSES.length;
  return encodeModel({
    name: "svc_task_classifier",
    inputs: [
      { name: "embedding", elemType: DataType.FLOAT, shape: [1, dims] },
      { name: "features", elemType: DataType.FLOAT, shape: [1, featureCount] },
      { name: "word_ids", elemType: DataType.INT32, shape: ["n"] },
      { name: "word_weights", elemType: DataType.FLOAT, shape: [1, "n"] },
    ],
    outputs: [
      { name: "probs", elemType: DataType.FLOAT, shape: [1, K] },
      { name: "difficulty", elemType: DataType.FLOAT, shape: [1, 1] },
    ],
    initializers: [
      { name: "hidden_w", dims: [m.inputs, m.hidden], data: m.w1 },
      { name: "hidden_b", dims: [m.hidden], data: m.b1 },
      { name: "word_table", dims: [m.wordBuckets, m.hidden], data: m.wt },
      { name: "class_w", dims: [m.hidden, K], data: m.w2 },
      { name: "class_b", dims: [K], data: m.b2 },
      { name: "difficulty_w", dims: [m.hidden, 1], data: m.wd },
      { name: "difficulty_b", dims: [1], data: m.bd },
    ],
    nodes: [
      { op: "Concat", inputs: ["embedding", "features"], outputs: ["x"], attributes: { axis: 1 } },
      { op: "Gemm", inputs: ["x", "hidden_w", "hidden_b"], outputs: ["dense_pre"] },
      { op: "Gather", inputs: ["word_table", "word_ids"], outputs: ["word_rows"], attributes: { axis: 0 } },
      { op: "MatMul", inputs: ["word_weights", "word_rows"], outputs: ["word_pre"] },
      { op: "Add", inputs: ["dense_pre", "word_pre"], outputs: ["hidden_pre"] },
      { op: "Relu", inputs: ["hidden_pre"], outputs: ["hidden"] },
      { op: "Gemm", inputs: ["hidden", "class_w", "class_b"], outputs: ["logits"] },
      { op: "Softmax", inputs: ["logits"], outputs: ["probs"], attributes: { axis: 1 } },
      { op: "Gemm", inputs: ["hidden", "difficulty_w", "difficulty_b"], outputs: ["difficulty_logit"] },
      { op: "Sigmoid", inputs: ["difficulty_logit"], outputs: ["difficulty"] },
    ],
    metadata: { classes: TASK_CLASSES.join(",") },
  });
}
