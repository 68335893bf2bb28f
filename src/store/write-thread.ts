/** What a write thread answers each request with: its id, and the error it failed with, if any (SQLite's `code` kept). */
export type ThreadReply<R = object> = { id: number; error?: string; code?: string } & Partial<R>;

/** A worker that takes requests and answers each once, by id (the ledger's and the cache's writer threads). */
export interface WriteThread<S, R> {
  /** Resolves with the answer; rejects with the thread's error (its `code` kept), or when the thread died. */
  send(request: S): Promise<ThreadReply<R>>;
  terminate(): void;
}

/**
 * Starts a writer thread: `url`'s module answers each `{ ...request, id }` it is sent with a
 * ThreadReply of that id. An idle thread does not keep the process alive; a pending request does.
 */
export function startWriteThread<S extends object, R = object>(url: string, workerData: unknown, name: string): WriteThread<S, R> {
  const worker = new Worker(url, { workerData } as WorkerOptions);
  const waiting = new Map<number, { resolve: (r: ThreadReply<R>) => void; reject: (e: Error) => void }>();
  let next = 0;
  worker.onmessage = (ev: MessageEvent<ThreadReply<R>>) => {
    const w = waiting.get(ev.data.id);
    if (!w) return;
    waiting.delete(ev.data.id);
    if (ev.data.error !== undefined) w.reject(Object.assign(new Error(ev.data.error), { code: ev.data.code }));
    else w.resolve(ev.data);
  };
  worker.onerror = (ev) => {
    for (const w of waiting.values()) w.reject(new Error(`${name} failed: ${ev.message}`));
    waiting.clear();
  };
  worker.unref();
  return {
    send: (request) =>
      new Promise<ThreadReply<R>>((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ ...request, id });
      }).finally(() => {
        if (waiting.size === 0) worker.unref();
      }),
    terminate: () => void worker.terminate(),
  };
}
