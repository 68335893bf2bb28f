import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CacheWriter, cacheWriteThread, loadLiveRows, type CacheRow } from "../../src/pipeline/cache/persistence";
import { openStore, type SqliteStore } from "../../src/store/db";

let store: SqliteStore | undefined;
let writer: CacheWriter | undefined;
let dir = "";
afterEach(async () => {
  await writer?.close();
  writer = undefined;
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same writes on the caller's thread and on a write thread of its own (the gateway's). */
const WRITERS = [
  ["on the caller's thread", false],
  ["on a write thread", true],
] as const;

function open(threaded: boolean): { store: SqliteStore; writer: CacheWriter } {
  dir = mkdtempSync(join(tmpdir(), "svc-cache-persist-"));
  store = openStore(dir);
  const warnings: string[] = [];
  writer = new CacheWriter(store, 60_000, { warn: (_f, m) => warnings.push(m) }, threaded ? cacheWriteThread(store.path, 5000) : undefined);
  return { store, writer };
}

function row(over: Partial<CacheRow> = {}): CacheRow {
  return {
    id: "e1",
    appId: "app-a",
    exactKey: "key-1",
    scopeKey: "scope",
    model: "gpt-4o-mini-2024-07-18",
    promptText: "what is the capital of france",
    contextHash: "ctx",
    embedding: "sig:AAAA",
    response: '{"content":"Paris"}',
    createdAt: 1_000,
    expiresAt: 10_000,
    hits: 0,
    lastHitAt: null,
    ...over,
  };
}

describe.each(WRITERS)("CacheWriter, %s", (_name, threaded) => {
  test("a written row reads back with every column as written", async () => {
    const { store, writer } = open(threaded);
    writer.upsert(row());
    writer.upsert(row({ id: "e2", exactKey: "key-2", embedding: null, lastHitAt: 2_000, hits: 3 }));
    await writer.flush();
    expect((await loadLiveRows(store, 5_000, 100)).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      row(),
      row({ id: "e2", exactKey: "key-2", embedding: null, lastHitAt: 2_000, hits: 3 }),
    ]);
  });

  test("a second answer for the same tenant and exact key replaces the first, whole", async () => {
    const { store, writer } = open(threaded);
    writer.upsert(row());
    await writer.flush();
    const newer = row({
      id: "e9",
      scopeKey: "scope-2",
      model: "claude-3-haiku-20240307",
      promptText: "capital of france?",
      contextHash: "ctx-2",
      embedding: "sig:BBBB",
      response: '{"content":"Paris."}',
      createdAt: 2_000,
      expiresAt: 20_000,
      hits: 0,
      lastHitAt: null,
    });
    writer.upsert(newer);
    // Another tenant's entry with the same key is a row of its own.
    writer.upsert(row({ id: "b1", appId: "app-b" }));
    await writer.flush();
    const rows = await loadLiveRows(store, 5_000, 100);
    expect(rows.find((r) => r.appId === "app-a")).toEqual(newer);
    expect(rows.length).toBe(2);
  });

  test("a hit updates the count and time; a delete after an upsert in one batch wins", async () => {
    const { store, writer } = open(threaded);
    writer.upsert(row());
    writer.upsert(row({ id: "gone", exactKey: "key-gone" }));
    writer.touch("e1", 4, 3_000);
    writer.delete("gone");
    await writer.flush();
    expect(await loadLiveRows(store, 5_000, 100)).toEqual([row({ hits: 4, lastHitAt: 3_000 })]);
  });

  test("a full cache's evictions, one between each fill, leave exactly the rows filled after them", async () => {
    const { store, writer } = open(threaded);
    writer.upsert(row({ id: "a", exactKey: "key-a" }));
    await writer.flush();
    // Fill b, evict a; fill a again, evict b: the batch must run in the order it was queued.
    writer.upsert(row({ id: "b", exactKey: "key-b" }));
    writer.delete("a");
    writer.upsert(row({ id: "a", exactKey: "key-a" }));
    writer.delete("b");
    await writer.flush();
    expect((await loadLiveRows(store, 5_000, 100)).map((r) => r.id)).toEqual(["a"]);
  });

  test("a batch the store cannot take while another connection holds its write lock is kept, and goes before what was queued after it", async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-cache-persist-"));
    store = openStore(dir);
    const warnings: string[] = [];
    // The thread waits this long for the lock, then gives the batch back.
    writer = new CacheWriter(store, 60_000, { warn: (_f, m) => warnings.push(m) }, threaded ? cacheWriteThread(store.path, 50) : undefined);
    const other = new Database(store.path);
    other.run("BEGIN IMMEDIATE");
    writer.upsert(row({ id: "a", exactKey: "key-a" }));
    writer.upsert(row({ id: "b", exactKey: "key-b" }));
    await writer.flush();
    expect(writer.pending).toBe(2);
    other.run("COMMIT");
    other.close();
    writer.delete("a");
    await writer.flush();
    expect(writer.pending).toBe(0);
    expect((await loadLiveRows(store, 5_000, 100)).map((r) => r.id)).toEqual(["b"]);
    expect(warnings).toEqual([]);
  });

  test("a flush asked for while a batch is being written takes what was queued meanwhile, in order", async () => {
    const { store, writer } = open(threaded);
    writer.upsert(row({ id: "a", exactKey: "key-a" }));
    const first = writer.flush();
    writer.delete("a");
    writer.upsert(row({ id: "b", exactKey: "key-b" }));
    await Promise.all([first, writer.flush()]);
    expect((await loadLiveRows(store, 5_000, 100)).map((r) => r.id)).toEqual(["b"]);
  });
});
