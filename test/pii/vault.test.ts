import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { maskMessages, maskText } from "../../src/pipeline/pii/mask";
import { PlaceholderMap } from "../../src/pipeline/pii/placeholders";
import { restoreText } from "../../src/pipeline/pii/restore";
import { ConversationMaps, deriveMappingKey, openMap, sealMap } from "../../src/pipeline/pii/vault";
import { openStore, type SqliteStore } from "../../src/store/db";

const map = PlaceholderMap.from([{ type: "EMAIL", n: 1, value: "jane.doe@example.com" }]);
const key = deriveMappingKey("server-secret");

const dirs: string[] = [];
const stores: SqliteStore[] = [];
/** A store on a fresh data dir; `again` opens a second connection on the same dir, as another gateway process does. */
function store(again?: string): { dir: string; store: SqliteStore } {
  const dir = again ?? mkdtempSync(join(tmpdir(), "svc-pii-vault-"));
  if (!again) dirs.push(dir);
  const s = openStore(dir);
  stores.push(s);
  return { dir, store: s };
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

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

describe("conversation maps in the store", () => {
  test("a placeholder echoed turns later is restored by another process on the same store; the store holds only ciphertext", async () => {
    const a = store();
    const turn1 = new PlaceholderMap();
    maskMessages([{ role: "user", content: "I am reachable at jane.doe@example.com" }], turn1);
    await new ConversationMaps(a.store.db, key).put("app1", "conv1", turn1);
    // Turn 3 on another process: the client sends only the new message; the model echoes the old placeholder.
    const b = store(a.dir);
    const maps = new ConversationMaps(b.store.db, key);
    const turn3 = (await maps.get("app1", "conv1"))!;
    expect(maskMessages([{ role: "user", content: "What was my address again?" }], turn3).masked).toBe(false);
    expect(restoreText("Your address is [EMAIL_1].", turn3)).toBe("Your address is jane.doe@example.com.");
    // A new value in a later turn continues the numbering rather than reusing EMAIL_1.
    expect(maskText("and ops@example.org", turn3)).toBe("and [EMAIL_2]");
    // Another conversation, or the same id in another app, does not see it.
    expect(await maps.get("app1", "conv2")).toBeUndefined();
    expect(await maps.get("app2", "conv1")).toBeUndefined();
    // A row copied to another owner does not open there (the owner is the cipher's additional data).
    b.store.sqlite.run("INSERT INTO pii_maps SELECT 'app2', conversation_id, sealed, version, updated_at, expires_at FROM pii_maps");
    expect(await maps.get("app2", "conv1")).toBeUndefined();
    const rows = JSON.stringify(b.store.sqlite.query("SELECT * FROM pii_maps").all());
    expect(rows).not.toContain("jane");
    b.store.sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
    expect(readFileSync(join(a.dir, "svc.db")).toString("latin1")).not.toContain("jane.doe");
  });

  test("a map unused for its time to live is read as absent and deleted by a later write", async () => {
    let now = 1_000_000;
    const { store: s } = store();
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
    expect(s.sqlite.query("SELECT conversation_id FROM pii_maps").all()).toEqual([{ conversation_id: "new" }]);
  });

  test("two processes adding to one conversation at once: both values kept, the first writer keeps the name", async () => {
    const a = store();
    const b = store(a.dir);
    const onA = new ConversationMaps(a.store.db, key);
    const onB = new ConversationMaps(b.store.db, key);
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
    expect(b.store.sqlite.query("SELECT version FROM pii_maps").get()).toEqual({ version: 3 });
  });

  test("deleting a conversation's map, and a read waits for this process's write in flight", async () => {
    const { store: s } = store();
    const maps = new ConversationMaps(s.db, key);
    const write = maps.put("app", "c", map);
    expect((await maps.get("app", "c"))?.size).toBe(1);
    await write;
    await maps.delete("app", "c");
    expect(await maps.get("app", "c")).toBeUndefined();
  });
});
