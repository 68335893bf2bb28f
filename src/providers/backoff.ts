import { ProviderError } from "./types";

/**
 * Wait before retry number `attempt` (0-based): exponential from `baseMs`, with ±50 % jitter so that
 * clients failing together do not retry together. A provider's Retry-After is honoured up to `maxRetryAfterMs`;
 * beyond that the answer is undefined: better to try another model than to hold the client that long.
 */
export function backoffDelay(
  attempt: number,
  baseMs: number,
  retryAfterMs: number | undefined,
  maxRetryAfterMs: number,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs > maxRetryAfterMs) return undefined;
  const exponential = baseMs * 2 ** attempt * (0.5 + random());
  return Math.max(exponential, retryAfterMs ?? 0);
}

/** Sleeps, unless the signal aborts first, in which case it throws an aborted ProviderError at once. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => new ProviderError("aborted", "call aborted by the caller while waiting to retry");
    if (signal.aborted) return reject(aborted());
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
