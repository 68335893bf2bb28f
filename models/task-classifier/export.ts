import { TASK_CLASSES } from "../../src/ml/types";
import { DataType, encodeModel } from "../onnx/graph";
import type { ClassifierWeights } from "./train";

/**
 * The network as one ONNX graph: embedding [1, dims] and features [1, f] -> ReLU hidden layer -> probs
 * [1, classes] (softmax, in TASK_CLASSES order) and difficulty [1, 1] (sigmoid).
 */
export function classifierGraph(m: ClassifierWeights, dims: number, featureCount: number): Uint8Array {
  const K = TASK_CLASSES.length;
  return encodeModel({
    name: "svc_task_classifier",
    inputs: [
      { name: "embedding", elemType: DataType.FLOAT, shape: [1, dims] },
      { name: "features", elemType: DataType.FLOAT, shape: [1, featureCount] },
    ],
    outputs: [
      { name: "probs", elemType: DataType.FLOAT, shape: [1, K] },
      { name: "difficulty", elemType: DataType.FLOAT, shape: [1, 1] },
    ],
    initializers: [
      { name: "hidden_w", dims: [m.inputs, m.hidden], data: m.w1 },
      { name: "hidden_b", dims: [m.hidden], data: m.b1 },
      { name: "class_w", dims: [m.hidden, K], data: m.w2 },
      { name: "class_b", dims: [K], data: m.b2 },
      { name: "difficulty_w", dims: [m.hidden, 1], data: m.wd },
      { name: "difficulty_b", dims: [1], data: m.bd },
    ],
    nodes: [
      { op: "Concat", inputs: ["embedding", "features"], outputs: ["x"], attributes: { axis: 1 } },
      { op: "Gemm", inputs: ["x", "hidden_w", "hidden_b"], outputs: ["hidden_pre"] },
      { op: "Relu", inputs: ["hidden_pre"], outputs: ["hidden"] },
      { op: "Gemm", inputs: ["hidden", "class_w", "class_b"], outputs: ["logits"] },
      { op: "Softmax", inputs: ["logits"], outputs: ["probs"], attributes: { axis: 1 } },
      { op: "Gemm", inputs: ["hidden", "difficulty_w", "difficulty_b"], outputs: ["difficulty_logit"] },
      { op: "Sigmoid", inputs: ["difficulty_logit"], outputs: ["difficulty"] },
    ],
    metadata: { classes: TASK_CLASSES.join(",") },
  });
}
