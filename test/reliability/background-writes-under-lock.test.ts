import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CacheWriter, type CacheRow } from "../../src/pipeline/cache/persistence";
import { KeyRepository } from "../../src/auth/key-repository";
import { KeyIndex } from "../../src/auth/key-index";
import { openStore } from "../../src/store/db";

// Issue 23, item 4: a write lock another process holds (12 s in the report) froze every request, one
// timer-driven flush after another, and 25 s of it lost 48 cache writes. The background writes now
// answer busy at once and keep what they could not write.

const row = (id: string): CacheRow => ({
  id,
  appId: "app",
  exactKey: `k-${id}`,
  scopeKey: "scope",
  model: "gpt-4o-mini-2024-07-18",
  promptText: "what is the capital of france",
  contextHash: "ctx",
  embedding: null,
  response: '{"content":"Paris"}',
  createdAt: 1_000,
  expiresAt: 10_000_000_000_000,
  hits: 0,
  lastHitAt: null,
});

function locked(dir: string): Database {
  const other = new Database(join(dir, "svc.db"));
  other.run("BEGIN IMMEDIATE");
  return other;
}

describe("background writes under another process's write lock", () => {
  test("the cache writer returns at once, keeps its writes, and writes them once the lock is gone", () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-lock-cache-"));
    const store = openStore(dir);
    const warnings: string[] = [];
    const writer = new CacheWriter(store, 60_000, { warn: (_f, m) => warnings.push(m) });
    for (let i = 0; i < 48; i++) writer.upsert(row(`e${i}`));
    const other = locked(dir);
    // The old writer waited out the 5 s busy timeout here, then dropped the 48 writes.
    writer.flush();
    expect(writer.pending).toBe(48);
    other.run("COMMIT");
    other.close();
    writer.flush();
    expect(writer.pending).toBe(0);
    expect((store.sqlite.query("SELECT count(*) AS n FROM cache_entries").get() as { n: number }).n).toBe(48);
    expect(warnings).toEqual([]);
    // The main connection still waits for locks where it should (key changes): the pragma came back.
    expect((store.sqlite.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout).toBe(5000);
    store.close();
  });

  test("last_used_at updates are kept through a lock and written after it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-lock-keys-"));
    const store = openStore(dir);
    store.sqlite.run(
      "INSERT INTO api_keys (id, name, app_id, type, prefix, last4, hash, status, scopes, plan, created_at, sync_seq) VALUES ('key_a', 'a', 'app', 'live', 'svc_live_abc', 'abcd', 'h', 'active', '[]', 'free', 1, 1)",
    );
    const index = new KeyIndex(new KeyRepository(store));
    await index.sync();
    const entry = index.get("key_a")!;
    index.markUsed(entry, 5_000);
    const other = locked(dir);
    await index.flushUsage();
    other.run("COMMIT");
    other.close();
    expect((store.sqlite.query("SELECT last_used_at FROM api_keys WHERE id = 'key_a'").get() as { last_used_at: number | null }).last_used_at).toBeNull();
    await index.flushUsage();
    expect((store.sqlite.query("SELECT last_used_at FROM api_keys WHERE id = 'key_a'").get() as { last_used_at: number }).last_used_at).toBe(5_000);
    store.close();
  });
});
