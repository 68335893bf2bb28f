import * as ort from "onnxruntime-node";
import type { FeatureBag } from "./features";

/** The ONNX inputs of one bag: ids [size] int32 and weights [1, size], padded with (0, 0). A type, not an interface, so it is a session's feeds as it stands. */
type SparseTensors = {
  ids: ort.Tensor;
  weights: ort.Tensor;
};

interface Slot {
  ids: Int32Array;
  weights: Float32Array;
  tensors: SparseTensors;
}

/**
 * Bag sizes are padded up to a few fixed sizes (four per power of two, at least 64) so that input
 * tensors are allocated once per size, not per call, while padding wastes at most a quarter of the work.
 */
function paddedSize(n: number): number {
  if (n <= 64) return 64;
  const step = 2 ** (Math.floor(Math.log2(n)) - 2);
  return Math.ceil(n / step) * step;
}

/**
 * Reusable input tensors for EmbeddingBag-style graphs (Gather rows by id, weight and sum them).
 * Padding rows point at bucket 0 with weight 0, so they add nothing to the pooled sum. Safe for
 * concurrent calls: each in-flight call holds its own tensors until it calls the release function.
 */
export class SparseInputPool {
  /** Free slots by padded size. */
  private readonly free = new Map<number, Slot[]>();

  /** Tensors holding `bag`, and the function that returns them to the pool once the session has run. */
  take(bag: FeatureBag): { tensors: SparseTensors; release: () => void } {
    const n = bag.length;
    const size = paddedSize(n);
    const { slot, release } = this.slot(size);
    slot.ids.set(bag.ids.subarray(0, n));
    slot.weights.set(bag.weights.subarray(0, n));
    slot.ids.fill(0, n);
    slot.weights.fill(0, n);
    return { tensors: slot.tensors, release };
  }

  /** A free slot of `size` (made when none is free), and the function that puts it back. */
  private slot(size: number): { slot: Slot; release: () => void } {
    let list = this.free.get(size);
    if (!list) this.free.set(size, (list = []));
    const slot = list.pop() ?? this.newSlot(size);
    const freeList = list;
    return { slot, release: () => freeList.push(slot) };
  }

  private newSlot(size: number): Slot {
    const ids = new Int32Array(size);
    const weights = new Float32Array(size);
    return { ids, weights, tensors: { ids: new ort.Tensor("int32", ids, [size]), weights: new ort.Tensor("float32", weights, [1, size]) } };
  }
}
