import * as ort from "onnxruntime-node";
import type { FeatureBag } from "./features";

/** The ONNX inputs of bags over shared ids: ids [size] int32 and weights [rows, size], padded with (0, 0). A type, not an interface, so it is a session's feeds as it stands. */
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
 * Bag sizes are padded up to fixed sizes (sixteen per power of two, at least 64) so that input tensors
 * are allocated once per size, not per call, while padding wastes at most a sixteenth of the work. A
 * padding pair weighs 0 and adds 0 to any pooled sum, so the size changes no output. Four sizes per
 * power of two padded a ~300-token prompt's ~2,100 ids to 2,560; at 2,176 the embedding graph's run
 * took 0.97-0.98x the time (2,200 workload bags, caches emptied before each run as optimize()'s other
 * stages empty them, the two sizes interleaved, load 15; every vector the same to the bit).
 */
function paddedSize(n: number): number {
  if (n <= 64) return 64;
  const step = 2 ** (Math.floor(Math.log2(n)) - 4);
  return Math.ceil(n / step) * step;
}

/**
 * Reusable input tensors for EmbeddingBag-style graphs (Gather rows by id, weight and sum them).
 * Padding rows point at bucket 0 with weight 0, so they add nothing to the pooled sum. Safe for
 * concurrent calls: each in-flight call holds its own tensors until it calls the release function.
 */
export class SparseInputPool {
  /** Free slots by rows of weights, then by padded size. */
  private readonly free = new Map<number, Map<number, Slot[]>>();

  /** Tensors holding `bag`, and the function that returns them to the pool once the session has run. */
  take(bag: FeatureBag): { tensors: SparseTensors; release: () => void } {
    const n = bag.length;
    return this.takeRows(n, 1, (ids, weights) => {
      ids.set(bag.ids.subarray(0, n));
      weights.set(bag.weights.subarray(0, n));
    });
  }

  /**
   * Tensors for `rows` rows of weights over `n` shared ids (ids [size], weights [rows, size]): `write`
   * fills ids[0, n) and each row's weights[r * size, r * size + n); the padding past n is zeroed here.
   */
  takeRows(n: number, rows: number, write: (ids: Int32Array, weights: Float32Array, size: number) => void): { tensors: SparseTensors; release: () => void } {
    const size = paddedSize(n);
    const { slot, release } = this.slot(size, rows);
    write(slot.ids, slot.weights, size);
    slot.ids.fill(0, n);
    for (let r = 0; r < rows; r++) slot.weights.fill(0, r * size + n, (r + 1) * size);
    return { tensors: slot.tensors, release };
  }

  /** A free slot of `size` by `rows` (made when none is free), and the function that puts it back. */
  private slot(size: number, rows: number): { slot: Slot; release: () => void } {
    let bySize = this.free.get(rows);
    if (!bySize) this.free.set(rows, (bySize = new Map()));
    let list = bySize.get(size);
    if (!list) bySize.set(size, (list = []));
    const slot = list.pop() ?? newSlot(size, rows);
    const freeList = list;
    return { slot, release: () => freeList.push(slot) };
  }
}

function newSlot(size: number, rows: number): Slot {
  const ids = new Int32Array(size);
  const weights = new Float32Array(rows * size);
  return { ids, weights, tensors: { ids: new ort.Tensor("int32", ids, [size]), weights: new ort.Tensor("float32", weights, [rows, size]) } };
}
