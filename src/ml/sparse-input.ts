import * as ort from "onnxruntime-node";
import type { FeatureBag } from "./features";

/** The ONNX inputs of one bag (or of two: see takePair): ids [size] int32 and weights [rows, size], padded with (0, 0). A type, not an interface, so it is a session's feeds as it stands. */
type SparseTensors = {
  ids: ort.Tensor;
  weights: ort.Tensor;
};

interface Slot {
  ids: Int32Array;
  /** `rows` rows of `size` weights, row-major. */
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
  /** Free slots by padded size: one map for single bags, one for pairs. */
  private readonly free = [new Map<number, Slot[]>(), new Map<number, Slot[]>()] as const;
  /** Column of each bucket id while takePair merges two bags; -1 when absent. Grown on demand. */
  private column = new Int32Array(0);
  /** The merged ids while takePair runs. */
  private union = new Int32Array(0);

  /** Tensors holding `bag`, and the function that returns them to the pool once the session has run. */
  take(bag: FeatureBag): { tensors: SparseTensors; release: () => void } {
    const n = bag.length;
    const size = paddedSize(n);
    const { slot, release } = this.slot(1, size);
    slot.ids.set(bag.ids.subarray(0, n));
    slot.weights.set(bag.weights.subarray(0, n));
    slot.ids.fill(0, n);
    slot.weights.fill(0, n);
    return { tensors: slot.tensors, release };
  }

  /**
   * Two bags as one input: the union of their ids, and one weight row per bag (0 where a bag lacks the
   * id). A graph that pools with weights @ Gather(table, ids) then gathers each shared row once and
   * pools both bags in one call: a text and its compressed version share most of their features.
   */
  takePair(a: FeatureBag, b: FeatureBag): { tensors: SparseTensors; release: () => void } {
    // Typed scratch and plain loops: this runs once per quality score, where an array of ids grown by
    // push and a closure per bag cost 19 µs on a 200-token pair; this costs about a quarter of that.
    const most = a.length + b.length;
    if (this.union.length < most) this.union = new Int32Array(most);
    const union = this.union;
    let n = 0;
    n = this.addColumns(a, union, n);
    n = this.addColumns(b, union, n);
    const size = paddedSize(n);
    const { slot, release } = this.slot(2, size);
    slot.ids.set(union.subarray(0, n));
    slot.ids.fill(0, n);
    slot.weights.fill(0);
    const column = this.column;
    for (let i = 0; i < a.length; i++) slot.weights[column[a.ids[i]!]!] = a.weights[i]!;
    for (let i = 0; i < b.length; i++) slot.weights[size + column[b.ids[i]!]!] = b.weights[i]!;
    for (let i = 0; i < n; i++) column[union[i]!] = -1;
    return { tensors: slot.tensors, release };
  }

  /** Gives each id of `bag` not yet seen the next column of `union`; returns the new column count. */
  private addColumns(bag: FeatureBag, union: Int32Array, n: number): number {
    for (let i = 0; i < bag.length; i++) {
      const id = bag.ids[i]!;
      if (id >= this.column.length) {
        const grown = new Int32Array(Math.max(id + 1, this.column.length * 2)).fill(-1);
        grown.set(this.column);
        this.column = grown;
      }
      if (this.column[id] === -1) {
        this.column[id] = n;
        union[n++] = id;
      }
    }
    return n;
  }

  /** A free slot of `rows` x `size` (made when none is free), and the function that puts it back. */
  private slot(rows: 1 | 2, size: number): { slot: Slot; release: () => void } {
    const free = this.free[rows - 1]!;
    let list = free.get(size);
    if (!list) free.set(size, (list = []));
    const slot = list.pop() ?? this.newSlot(rows, size);
    const freeList = list;
    return { slot, release: () => freeList.push(slot) };
  }

  private newSlot(rows: 1 | 2, size: number): Slot {
    const ids = new Int32Array(size);
    const weights = new Float32Array(rows * size);
    return { ids, weights, tensors: { ids: new ort.Tensor("int32", ids, [size]), weights: new ort.Tensor("float32", weights, [rows, size]) } };
  }
}
