import type { OptimizeInput, OptimizeResult } from "./optimize-types";
import { FieldHasher } from "./cache/keys";

/**
 * Remembers optimizer results by their input. Every stage is deterministic (same input and options,
 * byte-identical output), so a repeated request, the case the cache exists for, needs no worker
 * task at all: its exact-cache key can be formed from the remembered result. Bounded, least
 * recently used first out.
 */
export class OptimizeMemo {
  private readonly entries = new Map<string, OptimizeResult>();

  constructor(private readonly capacity: number) {}

  /** False when the memo holds nothing (capacity 0): callers then skip hashing the input at all. */
  get enabled(): boolean {
    return this.capacity > 0;
  }

  /** The messages go to the hash field by field; serialising the prompt to JSON first cost as much as the hash (9 against 20 µs a key). */
  keyOf(input: OptimizeInput): string {
    const { messages, ...rest } = input;
    const hasher = new FieldHasher().field(JSON.stringify(rest));
    for (const m of messages) hasher.message(m, m.content);
    return hasher.digest();
  }

  get(key: string): OptimizeResult | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, result: OptimizeResult): void {
    if (this.capacity === 0) return;
    this.entries.set(key, result);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
