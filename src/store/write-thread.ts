import { Database } from "bun:sqlite";

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
  // Once the thread has died or been stopped, a request posted to it would never be answered: the
  // cache writer's chain of batches would wait forever and its queue grow with every miss, and
  // shutdown would wait on it before closing the ledger. Every later request fails at once instead.
  let dead: string | undefined;
  const die = (why: string) => {
    dead ??= why;
    for (const w of waiting.values()) w.reject(new Error(dead));
    waiting.clear();
    worker.unref();
  };
  worker.onmessage = (ev: MessageEvent<ThreadReply<R>>) => {
    const w = waiting.get(ev.data.id);
    if (!w) return;
    waiting.delete(ev.data.id);
    if (ev.data.error !== undefined) w.reject(Object.assign(new Error(ev.data.error), { code: ev.data.code }));
    else w.resolve(ev.data);
  };
  worker.onerror = (ev) => die(`${name} failed: ${ev.message}`);
  worker.addEventListener("close", () => die(`${name} stopped`));
  worker.unref();
  return {
    send: (request) => {
      if (dead !== undefined) return Promise.reject(new Error(dead));
      return new Promise<ThreadReply<R>>((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ ...request, id });
      }).finally(() => {
        if (waiting.size === 0) worker.unref();
      });
    },
    terminate: () => {
      die(`${name} stopped`);
      void worker.terminate();
    },
  };
}

/**
 * A writer thread's own connection to the store's file: the store's busy timeout (waiting for another
 * writer's lock holds up only this thread), and synchronous NORMAL per connection like the store's own
 * (in WAL mode it survives a killed process; FULL would fsync every batch).
 */
export function openWriterConnection(dbPath: string, busyTimeoutMs: number): Database {
  const sqlite = new Database(dbPath, { strict: true });
  sqlite.run(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  sqlite.run("PRAGMA synchronous = NORMAL");
  return sqlite;
}

/** The thread's side of startWriteThread: answers each request by its id with what `handle` returns, or with its error (SQLite's `code` kept). */
export function answerById<Q extends { id: number }, R = object>(post: (r: ThreadReply<R>) => void, handle: (msg: Q) => Partial<R> | undefined) {
  return (msg: Q): void => {
    try {
      post({ ...handle(msg), id: msg.id } as ThreadReply<R>);
    } catch (e) {
      post({ id: msg.id, error: (e as Error).message, code: (e as { code?: string }).code } as ThreadReply<R>);
    }
  };
}
