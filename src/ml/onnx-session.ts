import * as ort from "onnxruntime-node";

/**
 * One ONNX Runtime session tuned for many tiny calls: one intra-op thread (the service runs one model
 * call per worker thread, and thread hand-offs would cost more than the matrix work), sequential
 * execution, full graph optimization.
 */
export function openSession(pathOrBytes: string | Uint8Array): Promise<ort.InferenceSession> {
  const options: ort.InferenceSession.SessionOptions = {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  };
  return typeof pathOrBytes === "string" ? ort.InferenceSession.create(pathOrBytes, options) : ort.InferenceSession.create(pathOrBytes, options);
}

/** The float32 data of a named session output, or a clear error if the model lacks it. */
export function floatOutput(result: ort.InferenceSession.ReturnType, name: string): Float32Array {
  const t = result[name];
  if (!t || !(t.data instanceof Float32Array)) throw new Error(`model output ${name} missing or not float32`);
  return t.data;
}
