import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { maskMessages, maskText } from "../../src/pipeline/pii/mask";
import { PlaceholderMap } from "../../src/pipeline/pii/placeholders";
import { restoreText } from "../../src/pipeline/pii/restore";
import { ConversationMaps, deriveMappingKey, openMap, sealMap } from "../../src/pipeline/pii/vault";
import { openStore, type Db, type SqliteStore } from "../../src/store/db";
import { openPostgresStore } from "../../src/store/postgres";
import { freshDatabase } from "../support/pg-database";
import { requires } from "../support/services";

const map = PlaceholderMap.from([{ type: "EMAIL", n: 1, value: "jane.doe@example.com" }]);
const key = deriveMappingKey("server-secret");

const havePg = await requires("postgres");

/** A store on either database, a second process's connection to it (`again`), and raw SQL on it. */
interface Backend {
  db: Db;
  raw(text: string): Promise<Record<string, unknown>[]>;
  again(): Promise<Backend>;
}
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function sqliteBackend(dir = mkdtempSync(join(tmpdir(), "svc-pii-vault-"))): Backend & { dir: string; store: SqliteStore } {
  const store = openStore(dir);
  closers.push(() => store.close());
  if (closers.length === 1) closers.unshift(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    store,
    db: store.db,
    raw: async (text) => store.sqlite.query(text).all() as Record<string, unknown>[],
    again: async () => sqliteBackend(dir),
  };
}

async function postgresBackend(url?: string): Promise<Backend> {
  let dbUrl = url;
  if (!dbUrl) {
    const fresh = await freshDatabase("pii_vault");
    closers.push(() => fresh.drop());
    dbUrl = fresh.url;
  }
  const store = await openPostgresStore(dbUrl);
  closers.push(() => store.close());
  return { db: store.db, raw: (text) => store.sql.unsafe(text) as Promise<Record<string, unknown>[]>, again: () => postgresBackend(dbUrl) };
}

describe("placeholder maps at rest", () => {
  test("sealed with AES-GCM: no value in the box, opens for its owner only", () => {
    const sealed = sealMap(map, key, "app1/conv1");
    expect(Buffer.from(sealed, "base64").toString("latin1")).not.toContain("jane");
    expect(sealed).not.toContain("jane");
    expect(openMap(sealed, key, "app1/conv1")!.valueOf("EMAIL_1")).toBe("jane.doe@example.com");
    expect(openMap(sealed, key, "app2/conv1")).toBeUndefined();
    expect(openMap(sealed, deriveMappingKey("another-secret"), "app1/conv1")).toBeUndefined();
  });

  test("a tampered box does not open", () => {
    const raw = Buffer.from(sealMap(map, key, "o"), "base64");
    raw[raw.length - 1]! ^= 1;
    expect(openMap(raw.toString("base64"), key, "o")).toBeUndefined();
  });
});

for (const dialect of ["sqlite", "postgres"] as const)
  describe.skipIf(dialect === "postgres" && !havePg)(`conversation maps in the store (${dialect})`, () => {
    const backend = () => (dialect === "sqlite" ? Promise.resolve(sqliteBackend()) : postgresBackend());

    test("a placeholder echoed turns later is restored by another process on the same store; the store holds only ciphertext", async () => {
      const a = await backend();
      const turn1 = new PlaceholderMap();
      maskMessages([{ role: "user", content: "I am reachable at jane.doe@example.com" }], turn1);
      await new ConversationMaps(a.db, key).put("app1", "conv1", turn1);
      // Turn 3 on another process: the client sends only the new message; the model echoes the old placeholder.
      const b = await a.again();
      const maps = new ConversationMaps(b.db, key);
      const turn3 = (await maps.get("app1", "conv1"))!;
      expect(maskMessages([{ role: "user", content: "What was my address again?" }], turn3).masked).toBe(false);
      expect(restoreText("Your address is [EMAIL_1].", turn3)).toBe("Your address is jane.doe@example.com.");
      // A new value in a later turn continues the numbering rather than reusing EMAIL_1.
      expect(maskText("and ops@example.org", turn3)).toBe("and [EMAIL_2]");
      // Another conversation, or the same id in another app, does not see it.
      expect(await maps.get("app1", "conv2")).toBeUndefined();
      expect(await maps.get("app2", "conv1")).toBeUndefined();
      // A row copied to another owner does not open there (the owner is the cipher's additional data).
      await b.raw("INSERT INTO pii_maps SELECT 'app2', conversation_id, sealed, version, updated_at, expires_at FROM pii_maps");
      expect(await maps.get("app2", "conv1")).toBeUndefined();
      const rows = JSON.stringify(await b.raw("SELECT * FROM pii_maps"));
      expect(rows).not.toContain("jane");
      if (dialect === "sqlite") {
        await b.raw("PRAGMA wal_checkpoint(TRUNCATE)");
        expect(readFileSync(join((a as ReturnType<typeof sqliteBackend>).dir, "svc.db")).toString("latin1")).not.toContain("jane.doe");
      }
    });

    test("a map unused for its time to live is read as absent and deleted by a later write", async () => {
      let now = 1_000_000;
      const s = await backend();
      const maps = new ConversationMaps(s.db, key, 1000, () => now);
      await maps.put("app", "old", map);
      now += 500;
      expect((await maps.get("app", "old"))?.valueOf("EMAIL_1")).toBe("jane.doe@example.com");
      now += 1000;
      expect(await maps.get("app", "old")).toBeUndefined();
      // An expired map is not merged into a new one: the conversation starts over.
      await maps.put("app", "old", PlaceholderMap.from([{ type: "PHONE", n: 1, value: "+44 20 7946 0958" }]));
      expect((await maps.get("app", "old"))?.entries().map((e) => e.type)).toEqual(["PHONE"]);
      now += 120_000;
      await maps.put("app", "new", map);
      expect(await s.raw("SELECT conversation_id FROM pii_maps")).toEqual([{ conversation_id: "new" }]);
    });

    test("two processes adding to one conversation at once: both values kept, the first writer keeps the name", async () => {
      const a = await backend();
      const b = await a.again();
      const onA = new ConversationMaps(a.db, key);
      const onB = new ConversationMaps(b.db, key);
      await onA.put("app", "c", map);
      // Both read the map with EMAIL_1, then each masks a different new address as EMAIL_2.
      const [mapA, mapB] = [(await onA.get("app", "c"))!, (await onB.get("app", "c"))!];
      expect(maskText("cc ann@example.com", mapA)).toBe("cc [EMAIL_2]");
      expect(maskText("cc bob@example.com", mapB)).toBe("cc [EMAIL_2]");
      await onA.put("app", "c", mapA);
      await onB.put("app", "c", mapB);
      const merged = (await onA.get("app", "c"))!;
      expect(merged.entries().map((e) => [e.n, e.value])).toEqual([
        [1, "jane.doe@example.com"],
        [2, "ann@example.com"],
        [3, "bob@example.com"],
      ]);
      expect(await b.raw("SELECT version FROM pii_maps")).toEqual([{ version: 3 }]);
    });

    test("three processes writing one conversation at once, three rounds: every value kept, each under one name", async () => {
      const first = await backend();
      const procs = [first, await first.again(), await first.again()].map((b) => new ConversationMaps(b.db, key));
      for (let round = 0; round < 3; round++)
        await Promise.all(
          procs.map(async (maps, p) => {
            const m = (await maps.get("app", "busy")) ?? new PlaceholderMap();
            maskText(`mail user${round}x${p}@example.com`, m);
            await maps.put("app", "busy", m);
          }),
        );
      const values = (await procs[0]!.get("app", "busy"))!.entries();
      expect(values.map((e) => e.value).sort()).toEqual([0, 1, 2].flatMap((r) => [0, 1, 2].map((p) => `user${r}x${p}@example.com`)).sort());
      expect(new Set(values.map((e) => e.n)).size).toBe(9);
    });

    test("deleting a conversation's map, and a read waits for this process's write in flight", async () => {
      const s = await backend();
      const maps = new ConversationMaps(s.db, key);
      const write = maps.put("app", "c", map);
      expect((await maps.get("app", "c"))?.size).toBe(1);
      await write;
      await maps.delete("app", "c");
      expect(await maps.get("app", "c")).toBeUndefined();
    });
  });
