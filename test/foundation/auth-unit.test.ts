import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { authenticate } from "../../src/auth/authenticate";
import { generateKey, parseKey } from "../../src/auth/key-format";
import { KeyIndex } from "../../src/auth/key-index";
import type { KeyRepository } from "../../src/auth/key-repository";
import type { KeyEntry } from "../../src/auth/key-record";
import { keyHasher } from "../../src/auth/secret";
import { ApiError } from "../../src/core/errors";

/** A repository that counts every call, to prove authentication never reaches the store. */
function countingRepo(entries: KeyEntry[]) {
  const calls: string[] = [];
  const repo = {
    changedSince: (seq: number) => (calls.push("changedSince"), { entries: seq === 0 ? entries : [], seq: 1 }),
    touchMany: () => void calls.push("touchMany"),
  } as unknown as KeyRepository;
  return { repo, calls };
}

const hash = keyHasher("unit-secret-unit-secret-unit-secret!");

function entryFor(value: string, status: "active" | "revoked" = "active"): KeyEntry {
  return {
    id: "key_1",
    name: "k",
    appId: "a",
    type: "live",
    prefix: value.slice(0, 12),
    last4: value.slice(-4),
    hash: hash(value),
    status,
    scopes: ["complete"],
    plan: "free",
    createdAt: 0,
    lastUsedAt: null,
    revokedAt: null,
    budgetId: null,
    runLimits: { maxCostMicros: null, maxCalls: null, maxRepeats: null },
  };
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
  return "ok";
}

describe("key format", () => {
  test("generated keys parse; any single-character change fails the checksum", () => {
    for (const type of ["live", "test"] as const) {
      const k = generateKey(type);
      expect(parseKey(k)).toBe(type);
      let caught = 0;
      for (let i = 9; i < k.length; i++) {
        const c = k[i] === "A" ? "B" : "A";
        if (parseKey(k.slice(0, i) + c + k.slice(i + 1)) === undefined) caught++;
      }
      expect(caught).toBe(k.length - 9);
    }
  });

  test("keys are unique", () => {
    const seen = new Set(Array.from({ length: 2000 }, () => generateKey("live")));
    expect(seen.size).toBe(2000);
  });
});

describe("key hashing", () => {
  test("is HMAC-SHA256 hex under the secret, call after call, so stored hashes stay valid", () => {
    const secret = "unit-secret-unit-secret-unit-secret!";
    const values = [generateKey("live"), generateKey("test"), generateKey("live")];
    for (const round of [1, 2]) {
      for (const v of values) expect(`${round}:${hash(v)}`).toBe(`${round}:${createHmac("sha256", secret).update(v).digest("hex")}`);
    }
    expect(keyHasher("another-secret")(values[0]!)).toBe(createHmac("sha256", "another-secret").update(values[0]!).digest("hex"));
  });
});

describe("authenticate", () => {
  test("malformed and unknown keys are refused from memory, without a store query", async () => {
    const known = generateKey("live");
    const { repo, calls } = countingRepo([entryFor(known)]);
    const index = new KeyIndex(repo);
    await index.sync();
    calls.length = 0;
    expect(codeOf(() => authenticate(null, index, hash, 1))).toBe("UNAUTHORIZED");
    expect(codeOf(() => authenticate("Bearer svc_live_short", index, hash, 1))).toBe("INVALID_KEY");
    expect(codeOf(() => authenticate(`Bearer ${generateKey("live")}`, index, hash, 1))).toBe("INVALID_KEY");
    expect(codeOf(() => authenticate(`Bearer ${known}`, index, hash, 1))).toBe("ok");
    expect(calls).toEqual([]);
  });

  test("a revoked key is KEY_REVOKED as soon as the index holds the change", async () => {
    const known = generateKey("test");
    const { repo } = countingRepo([entryFor(known)]);
    const index = new KeyIndex(repo);
    await index.sync();
    expect(codeOf(() => authenticate(`Bearer ${known}`, index, hash, 1))).toBe("ok");
    index.put(entryFor(known, "revoked"));
    expect(codeOf(() => authenticate(`Bearer ${known}`, index, hash, 2))).toBe("KEY_REVOKED");
  });

  test("use is remembered in memory and written in one batch", async () => {
    const known = generateKey("live");
    const { repo, calls } = countingRepo([entryFor(known)]);
    const index = new KeyIndex(repo);
    await index.sync();
    for (let i = 0; i < 50; i++) authenticate(`Bearer ${known}`, index, hash, 1000 + i);
    expect(index.get("key_1")!.lastUsedAt).toBe(1049);
    calls.length = 0;
    index.flushUsage();
    expect(calls).toEqual(["touchMany"]);
  });
});
