import { TASK_CLASSES } from "../../src/ml/types";
import { DataType, encodeModel } from "../onnx/graph";
import type { LinearHeads } from "./train";

/**
 * Both heads as one ONNX graph: embedding [1, dims] and features [1, f] -> probs [1, classes] (softmax,
 * in TASK_CLASSES order) and difficulty [1, 1] (sigmoid).
 */
export function classifierGraph(heads: LinearHeads, dims: number, featureCount: number): Uint8Array {
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
      { name: "class_w", dims: [heads.inputs, K], data: heads.classWeights },
      { name: "class_b", dims: [K], data: heads.classBias },
      { name: "difficulty_w", dims: [heads.inputs, 1], data: heads.difficultyWeights },
      { name: "difficulty_b", dims: [1], data: heads.difficultyBias },
    ],
    nodes: [
      { op: "Concat", inputs: ["embedding", "features"], outputs: ["x"], attributes: { axis: 1 } },
      { op: "Gemm", inputs: ["x", "class_w", "class_b"], outputs: ["logits"] },
      { op: "Softmax", inputs: ["logits"], outputs: ["probs"], attributes: { axis: 1 } },
      { op: "Gemm", inputs: ["x", "difficulty_w", "difficulty_b"], outputs: ["difficulty_logit"] },
      { op: "Sigmoid", inputs: ["difficulty_logit"], outputs: ["difficulty"] },
    ],
    metadata: { classes: TASK_CLASSES.join(",") },
  });
}
