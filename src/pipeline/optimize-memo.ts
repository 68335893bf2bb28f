import type { OptimizeInput, OptimizeResult } from "./optimize-types";

/**
 * Remembers optimizer results by their input. Every stage is deterministic (same input and options,
 * byte-identical output), so a repeated request, the case the cache exists for, needs no worker
 * task at all: its exact-cache key can be formed from the remembered result. Bounded, least
 * recently used first out.
 */
export class OptimizeMemo {
  private readonly entries = new Map<string, OptimizeResult>();

  constructor(private readonly capacity: number) {}

  keyOf(input: OptimizeInput): string {
    return new Bun.CryptoHasher("sha256").update(JSON.stringify(input)).digest("base64");
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
