import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { isBusy, isUnreachable, withoutWaiting } from "../../store/no-wait";
import { asc, eq, getTableColumns, gt, inArray, lte, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import type { Embedder } from "../../ml/types";
import { conflictTarget, writeAll, type Db, type Dialect, type Statement, type Store } from "../../store/db";
import * as schema from "../../store/schema";
import { cacheEntries } from "../../store/schema";
import { answerById, openWriterConnection, startWriteThread, type ThreadReply } from "../../store/write-thread";

/** Writes kept while the store is locked by another process: a bound, since the cache is an optimisation. */
const MAX_QUEUED = 100_000;

export type CacheRow = typeof cacheEntries.$inferSelect;

export type WriteOp = { kind: "upsert"; row: CacheRow } | { kind: "touch"; id: string; hits: number; lastHitAt: number } | { kind: "delete"; id: string };

export interface CacheLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Deletes go in chunks so one statement never exceeds SQLite's bound-parameter limit. */
const DELETE_CHUNK = 500;

function deleteIds(db: Db, ids: readonly string[]): Statement[] {
  const out: Statement[] = [];
  for (let i = 0; i < ids.length; i += DELETE_CHUNK) out.push(db.delete(cacheEntries).where(inArray(cacheEntries.id, ids.slice(i, i + DELETE_CHUNK))));
  return out;
}

/** `excluded.<column>`: the value the conflicting INSERT proposed, for an upsert's SET. */
const proposed = (column: { name: string }) => sql.raw(`excluded."${column.name}"`);

const COLUMNS = getTableColumns(cacheEntries);
// The conflict target keeps its values; every other column takes the new row's.
const UPDATED = Object.fromEntries(
  Object.entries(COLUMNS)
    .filter(([k]) => k !== "appId" && k !== "exactKey")
    .map(([k, c]) => [k, proposed(c)]),
);

/** The statement one queued write makes, with its values in it (PostgreSQL, where the round trip, not the building, is the cost). */
function statementOf(db: Db, dialect: Dialect, op: WriteOp): Statement {
  if (op.kind === "upsert")
    return db
      .insert(cacheEntries)
      .values(op.row)
      .onConflictDoUpdate({ target: conflictTarget(dialect, cacheEntries.appId, cacheEntries.exactKey), set: UPDATED });
  if (op.kind === "touch") return db.update(cacheEntries).set({ hits: op.hits, lastHitAt: op.lastHitAt }).where(eq(cacheEntries.id, op.id));
  return db.delete(cacheEntries).where(eq(cacheEntries.id, op.id));
}

/**
 * The statements every cache fill, hit and eviction write on SQLite, built once: drizzle assembling them
 * per row cost more than SQLite writing the row (about 250 against 70 µs per row, measured with batches of 8).
 */
function preparedWrites(db: Db) {
  const row = Object.fromEntries(Object.keys(COLUMNS).map((k) => [k, sql.placeholder(k)]));
  // The row a touch or an eviction names, bound at run time.
  const byId = eq(cacheEntries.id, sql.placeholder("id"));
  return {
    upsert: db
      .insert(cacheEntries)
      .values(row as unknown as CacheRow)
      .onConflictDoUpdate({ target: conflictTarget("sqlite", cacheEntries.appId, cacheEntries.exactKey), set: UPDATED })
      .prepare(),
    touch: db
      .update(cacheEntries)
      .set({ hits: sql.placeholder("hits"), lastHitAt: sql.placeholder("lastHitAt") } as unknown as Partial<CacheRow>)
      .where(byId)
      .prepare(),
    // A full cache evicts one row per fill, so deletes come one at a time between upserts; building an
    // IN (...) statement for each was a third of a flush.
    remove: db.delete(cacheEntries).where(byId).prepare(),
  };
}

/**
 * One batch, in queue order, in one SQLite transaction. The statements are synchronous, which only
 * SQLite's driver allows (test/architecture/sync-drizzle.test.ts): a PostgreSQL store never gets here,
 * and the check says so where the rule can see it.
 */
function applyOps(dialect: Dialect, db: Db, statements: ReturnType<typeof preparedWrites>, ops: readonly WriteOp[]): void {
  const { upsert, touch, remove } = statements;
  if (dialect === "sqlite") {
    db.transaction(() => {
      for (const op of ops) {
        if (op.kind === "upsert") upsert.run(op.row);
        else if (op.kind === "touch") touch.run({ id: op.id, hits: op.hits, lastHitAt: op.lastHitAt });
        else remove.run({ id: op.id });
      }
    });
  } else throw new Error("cache batches are applied synchronously only on SQLite");
}

/** Where a SQLite store's cache batches go when they are not written on the caller's thread. */
export interface CacheWriteThread {
  /** Resolves once the batch is committed; rejects with SQLite's error (its `code` kept: a busy store's batch is kept for later). */
  write(ops: readonly WriteOp[]): Promise<void>;
  close(): Promise<void>;
}

const WORKER = new URL("../../../workers/cache-writer.worker.ts", import.meta.url).href;

type Sent = { op: "write"; json: string } | { op: "close" };
type ThreadRequest = Sent & { id: number };

/**
 * Writes the cache's batches on a thread of its own with its own connection to the store's file. On the
 * event loop a batch cost 185-198 µs per ~300-token cache miss (a timing split of bench/miss-trees.ts's
 * miss, one request at a time, 3,000 requests, load 12 on 2 cores): SQLite's inserts of rows of 3-4 KB,
 * and now and then a WAL checkpoint that writes and fsyncs the database file, all of it landing on
 * whichever request came next. A batch goes as one JSON string, one copy across.
 */
export function cacheWriteThread(dbPath: string, busyTimeoutMs: number): CacheWriteThread {
  const thread = startWriteThread<Sent>(WORKER, { dbPath, busyTimeoutMs }, "cache writer");
  return {
    write: async (ops) => void (await thread.send({ op: "write", json: JSON.stringify(ops) })),
    close: async () => {
      await thread.send({ op: "close" }).catch(() => undefined);
      thread.terminate();
    },
  };
}

/**
 * The writer thread's side: its own connection, the statements the event loop's writer uses. It runs at
 * a lower priority (nice 5) where the system lets a thread have its own: a cache write can wait, the
 * next request should not. Not lower: under the benchmark's pinning (every server thread on one core)
 * a saturated gateway keeps the event loop and two optimizer workers runnable, against which nice 10
 * leaves the writer about 3.5% of the core and nice 5 about 10%; alone the thread wrote 13,800 rows a
 * second (3 KB rows in batches of 10, each evicting one, load 10), so a saturated miss rate of 325-430
 * a second (bench/run.ts) needs 2.5-3% of the core, too close to nice 10's share for a queue that would
 * grow while it lags. The busy timeout is the store's: waiting for another writer's lock holds up
 * only this thread.
 */
export function serveCacheWrites(dbPath: string, busyTimeoutMs: number, post: (r: ThreadReply) => void): (msg: ThreadRequest) => void {
  lowerThisThreadsPriority();
  const sqlite = openWriterConnection(dbPath, busyTimeoutMs);
  const db = drizzle({ client: sqlite, schema }) as unknown as Db;
  const statements = preparedWrites(db);
  return answerById<ThreadRequest>(post, (msg) => {
    if (msg.op === "close") sqlite.close();
    else applyOps("sqlite", db, statements, JSON.parse(msg.json) as WriteOp[]);
    return undefined;
  });
}

/** Linux gives each thread its own nice value (setpriority on the thread's id); elsewhere the thread keeps the process's. */
function lowerThisThreadsPriority(): void {
  try {
    // Five below the process's own: a gateway already started under nice 10 keeps the order.
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    setPriority(tid, Math.min(19, getPriority(tid) + 5));
  } catch {
    // Not Linux, or not allowed: the writes still run off the event loop.
  }
}

/**
 * Queues cache writes and applies them in one transaction a little later, so the response path never
 * waits for the disk: on a SQLite store with a write thread (the gateway's) the batch is written there,
 * else on the caller's thread (SQLite) or through the pool (PostgreSQL). Order is kept: a delete after
 * an upsert of the same row wins, and a batch the store could not take now goes before anything queued
 * after it.
 */
export class CacheWriter {
  private queue: WriteOp[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly statements: ReturnType<typeof preparedWrites> | undefined;
  /** The batch being written (PostgreSQL, or the write thread): the next one waits for it, so writes land in queue order. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly delayMs: number,
    private readonly log: CacheLog,
    private readonly thread?: CacheWriteThread,
  ) {
    if (store.dialect === "sqlite" && !thread) this.statements = preparedWrites(store.db);
  }

  upsert(row: CacheRow): void {
    this.push({ kind: "upsert", row });
  }

  touch(id: string, hits: number, lastHitAt: number): void {
    this.push({ kind: "touch", id, hits, lastHitAt });
  }

  delete(id: string): void {
    this.push({ kind: "delete", id });
  }

  get pending(): number {
    return this.queue.length;
  }

  /**
   * Writes everything queued now, without waiting for another process's write lock: a locked store (or
   * an unreachable PostgreSQL) keeps the batch for the next flush (up to MAX_QUEUED writes, the oldest
   * dropped past that). Any other failure is logged and the batch dropped: the cache is an
   * optimisation, never a reason to fail a call. On SQLite without a write thread the batch is written before this returns; otherwise the promise says when.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.length === 0) return this.writing;
    const store = this.store;
    if (store.dialect === "sqlite" && this.statements) {
      const ops = this.take();
      try {
        withoutWaiting(store.sqlite, () => applyOps(store.dialect, store.db, this.statements!, ops));
      } catch (err) {
        this.failed(ops, err);
      }
      return this.writing;
    }
    const write = this.thread ? this.thread.write : (ops: readonly WriteOp[]) => writeAll(store, (tx) => ops.map((op) => statementOf(tx, "postgres", op)));
    // The batch is taken when the one before it is done: one that failed is back in the queue by then, ahead of later writes.
    this.writing = this.writing.then(() => {
      const ops = this.take();
      if (ops.length > 0) return write(ops).catch((err: unknown) => this.failed(ops, err));
    });
    return this.writing;
  }

  /** Flushes, waits for every batch, and stops the write thread. */
  async close(): Promise<void> {
    await this.flush();
    await this.thread?.close();
  }

  private take(): WriteOp[] {
    const ops = this.queue;
    this.queue = [];
    return ops;
  }

  private failed(ops: WriteOp[], err: unknown): void {
    if (isBusy(err) || isUnreachable(err)) {
      const kept = ops.concat(this.queue);
      const dropped = Math.max(0, kept.length - MAX_QUEUED);
      if (dropped > 0) this.log.warn({ dropped }, "semantic cache: the store stayed unavailable; the oldest writes were dropped");
      this.queue = [];
      for (const op of kept.slice(dropped)) this.push(op);
      return;
    }
    this.log.warn({ err: (err as Error).message, dropped: ops.length }, "semantic cache: store write failed");
  }

  private push(op: WriteOp): void {
    this.queue.push(op);
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
    // A pending batch must not keep a finished process alive; close() flushes it.
    this.timer.unref?.();
  }
}

/**
 * The live rows, most recently used last, at most `limit` of them. Expired rows and rows past the
 * limit are deleted here, so the table stays as bounded as the memory.
 */
export async function loadLiveRows(store: Store, now: number, limit: number): Promise<CacheRow[]> {
  const db = store.db;
  await db.delete(cacheEntries).where(lte(cacheEntries.expiresAt, now));
  const recency = sql`coalesce(${cacheEntries.lastHitAt}, ${cacheEntries.createdAt})`;
  const rows = await db.select().from(cacheEntries).where(gt(cacheEntries.expiresAt, now)).orderBy(asc(recency), asc(cacheEntries.createdAt));
  const surplus = rows.length - limit;
  if (surplus <= 0) return rows;
  const dropped = rows.slice(0, surplus).map((r) => r.id);
  await writeAll(store, (tx) => deleteIds(tx, dropped));
  return rows.slice(surplus);
}

/** Sign bits of the first dimensions of a probe sentence's vector: two embedding models agree on about half of them, one model on all. */
const SIGNATURE_BITS = 128;
/** Bits allowed to differ between runs of one model (float noise near zero across thread counts or CPUs). */
const SIGNATURE_TOLERANCE = 6;

const SIGNATURE_PROBE = "semantic cache signature probe: how do I reset my password?";

/**
 * What text a prompt's vector is of (semantic-cache.ts embeddingText): the prompt as written until
 * 2026-11-27, its canonical request since ("t2"), and since issue 24's sixth session with its support phrases in one
 * wording ("t3": "stop my plan" embeds as "cancel my plan", see request-phrases.ts), and since the
 * seventh with its groups and phrases ("t4": "activate roaming" embeds as "enable roaming", "contact
 * customer service" as "contact support", "add a new profile" as "add a profile"). Vectors of another
 * text never meet: they would still be the same model's, and the probe alone cannot tell them apart.
 */
const EMBEDDED_TEXT = "t4";

/** The signature of the embedder's model, read from its vector of a fixed probe sentence, and of the text it embeds. */
export async function embedderSignature(embedder: Embedder): Promise<string> {
  const probe = await embedder.embed(SIGNATURE_PROBE);
  const bits = Math.min(SIGNATURE_BITS, probe.length);
  const bytes = new Uint8Array(Math.ceil(bits / 8));
  for (let i = 0; i < bits; i++) if (probe[i]! > 0) bytes[i >> 3]! |= 1 << (i & 7);
  return `${EMBEDDED_TEXT}.${Buffer.from(bytes).toString("base64url")}`;
}

function sameEmbedder(a: string, b: string): boolean {
  // base64url has no "."; a signature written before EMBEDDED_TEXT has no tag and matches none.
  const [textA, bitsA] = a.split(".");
  const [textB, bitsB] = b.split(".");
  if (textA !== textB || bitsA === undefined || bitsB === undefined) return false;
  const x = Buffer.from(bitsA, "base64url");
  const y = Buffer.from(bitsB, "base64url");
  if (x.length !== y.length) return false;
  let differing = 0;
  for (let i = 0; i < x.length; i++) for (let v = x[i]! ^ y[i]!; v; v &= v - 1) differing++;
  return differing <= SIGNATURE_TOLERANCE;
}

/**
 * Embeddings are stored as `<embedder signature>:<base64 of little-endian float32>`, so vectors of
 * another model (a retrained one after an upgrade) are never compared with this one's.
 */
export function encodeEmbedding(signature: string, vector: Float32Array): string {
  return `${signature}:${Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64")}`;
}

export function decodeEmbedding(text: string | null, signature: string, dimensions: number): Float32Array | null {
  if (!text) return null;
  const sep = text.indexOf(":");
  if (sep < 0 || !sameEmbedder(text.slice(0, sep), signature)) return null;
  const bytes = Buffer.from(text.slice(sep + 1), "base64");
  if (bytes.length !== dimensions * 4) return null;
  // Copy: a Buffer view may start at an offset that is not a multiple of 4.
  return new Float32Array(new Uint8Array(bytes).buffer);
}
