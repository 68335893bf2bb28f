import type * as ort from "onnxruntime-node";
import { type Binding, binding, initOrt } from "onnxruntime-node/dist/binding";

/** A session's inputs by name. */
export type Feeds = Record<string, ort.Tensor>;
/** A session's outputs by name. */
export type Outputs = Record<string, ort.OnnxValue>;

/**
 * One ONNX Runtime session, run synchronously on the calling thread through onnxruntime-node's native
 * binding (its `dist/binding`, "a simple synchronized inference session object wrap", typed by the
 * package). The package's public `InferenceSession.run` calls the same native run on the same thread,
 * only after a `setImmediate` and a pass of argument checks and output re-wrapping: 45 µs against 19
 * for a 40-id bag of the embedding, 190 against 174 for a ~300-token prompt's 2,100 ids (p50, 3,000
 * workload prompts, the two ways interleaved), and the optimizer runs two models a request. Inline
 * optimize() with every stage on: thread CPU 0.843x, wall p50 0.80x, no result differing
 * (`bun bench/optimizer-trees.ts --calls 1500 --tree start=<main> --tree now=.`, load 4). Nothing was
 * let in by giving the thread back between the runs: a worker has no other work, and the event loop
 * runs a model task inline only while no other is in flight (pipeline/optimizer.ts).
 */
export class OnnxSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /** Every output, asked for by name as the public API asks for them when given none. */
  private readonly fetches: Record<string, null>;

  constructor(private readonly native: Binding.InferenceSession) {
    this.inputNames = native.inputMetadata.map((m) => m.name);
    this.outputNames = native.outputMetadata.map((m) => m.name);
    this.fetches = Object.fromEntries(this.outputNames.map((name) => [name, null]));
  }

  /** Runs the graph on `feeds`, which must hold every input; throws what the runtime throws. */
  run(feeds: Feeds): Outputs {
    for (const name of this.inputNames) if (feeds[name] === undefined) throw new Error(`input '${name}' is missing in 'feeds'.`);
    return this.native.run(feeds, this.fetches, {});
  }
}

/**
 * One ONNX Runtime session tuned for many tiny calls: one intra-op thread (the service runs one model
 * call per worker thread, and thread hand-offs would cost more than the matrix work), sequential
 * execution, full graph optimization.
 */
export function openSession(path: string): OnnxSession {
  const options: ort.InferenceSession.SessionOptions = {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  };
  initOrt();
  const native = new binding.InferenceSession();
  native.loadModel(path, options);
  return new OnnxSession(native);
}

/** The float32 data of a named session output, or a clear error if the model lacks it. */
export function floatOutput(result: Outputs, name: string): Float32Array {
  const t = result[name] as ort.Tensor | undefined;
  if (!t || !(t.data instanceof Float32Array)) throw new Error(`model output ${name} missing or not float32`);
  return t.data;
}
