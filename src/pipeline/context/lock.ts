import { ApiError } from "../../core/errors";

/**
 * One call at a time per key (here: per conversation), in arrival order. Two calls on one conversation
 * at once would otherwise both read the same stored turns and the later commit would drop the earlier
 * one's turns; serialised, the second sees the first's question and answer. Waiting ends when the
 * waiting client goes away.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    const before = this.tails.get(key);
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = before ? before.then(() => mine) : mine;
    this.tails.set(key, tail);
    const forget = () => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    if (before) {
      try {
        await waitOrAbort(before, signal);
      } catch (e) {
        // Our turn comes after `before` anyway: give it up now so those behind us wait only for `before`.
        release();
        void tail.then(forget);
        throw e;
      }
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
      forget();
    };
  }

  /** Keys held or waited on (for tests: nothing may stay locked after its calls settle). */
  get size(): number {
    return this.tails.size;
  }
}

function waitOrAbort(p: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new ApiError("VALIDATION_ERROR", "client closed the request while it waited for the conversation"));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new ApiError("VALIDATION_ERROR", "client closed the request while it waited for the conversation"));
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
