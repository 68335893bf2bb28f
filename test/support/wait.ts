/**
 * Waits on a condition instead of sleeping a guessed time: polls `fn` until it returns a value other
 * than undefined/false, every `everyMs`, at most `tries` times, then fails naming what it waited for.
 * The bound is a count, generous on purpose: a loaded 2-core machine is slow, never wrong.
 */
export async function waitUntil<T>(
  what: string,
  fn: () => T | undefined | false | Promise<T | undefined | false>,
  { tries = 250, everyMs = 20 } = {},
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    await Bun.sleep(everyMs);
  }
  throw new Error(`gave up waiting for ${what} (${tries} tries, ${everyMs} ms apart)`);
}

/** Keys made by the CLI reach a running server on its next sync (every 100 ms in tests). */
export function waitForKey(url: string, key: string): Promise<true> {
  return waitUntil("the key to become usable", async () => (await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).status === 200);
}
