import type { CachedAnswer } from "./types";

interface Leader {
  promise: Promise<CachedAnswer | null>;
  resolve: (answer: CachedAnswer | null) => void;
  lease: ReturnType<typeof setTimeout>;
}

/**
 * Identical requests in flight: the first (the leader) calls upstream, later ones wait for its
 * answer. A waiter gets null when the leader failed, produced nothing cacheable, or took longer
 * than the timeout; it then goes upstream itself.
 */
export class Coalescer {
  private readonly leaders = new Map<string, Leader>();

  /**
   * Registers the caller as leader for `key`; false when another request already leads it. The
   * leadership lapses after `leaseMs`, so a leader that never settles cannot stall its key.
   */
  lead(key: string, leaseMs: number): boolean {
    if (this.leaders.has(key)) return false;
    const { promise, resolve } = Promise.withResolvers<CachedAnswer | null>();
    const leader: Leader = { promise, resolve, lease: setTimeout(() => this.leaders.get(key) === leader && this.settle(key, null), leaseMs) };
    leader.lease.unref?.();
    this.leaders.set(key, leader);
    return true;
  }

  /** The leader's answer, or null; undefined when nobody leads `key`. */
  follow(key: string, timeoutMs: number): Promise<CachedAnswer | null> | undefined {
    const leader = this.leaders.get(key);
    if (!leader) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    return Promise.race([leader.promise, timeout]).finally(() => clearTimeout(timer));
  }

  /** Ends the leadership of `key`, handing `answer` (or null) to every waiter. */
  settle(key: string, answer: CachedAnswer | null): void {
    const leader = this.leaders.get(key);
    if (!leader) return;
    this.leaders.delete(key);
    clearTimeout(leader.lease);
    leader.resolve(answer);
  }

  get inFlight(): number {
    return this.leaders.size;
  }
}
