import { randomBytes } from "node:crypto";

/**
 * Key values: `svc_live_` or `svc_test_`, 32 random base62 characters, then a 6-character base62
 * CRC-32 of everything before it. The checksum lets a mistyped or made-up key be refused from its
 * shape alone, before any hashing or lookup.
 */
export type KeyType = "live" | "test";
export const KEY_PREFIXES: Record<KeyType, string> = { live: "svc_live_", test: "svc_test_" };

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LEN = 32;
const CHECK_LEN = 6;
const KEY_RE = /^svc_(live|test)_[0-9A-Za-z]{38}$/;

function base62Fixed(n: number, width: number): string {
  let s = "";
  for (let i = 0; i < width; i++) {
    s = BASE62[n % 62] + s;
    n = Math.floor(n / 62);
  }
  return s;
}

function checksum(body: string): string {
  return base62Fixed(Bun.hash.crc32(body), CHECK_LEN);
}

function randomBase62(len: number): string {
  // Rejection sampling keeps every character uniformly likely (256 is not a multiple of 62).
  let s = "";
  while (s.length < len) {
    for (const b of randomBytes(len * 2)) {
      if (b < 248 && s.length < len) s += BASE62[b % 62];
    }
  }
  return s;
}

export function generateKey(type: KeyType): string {
  const body = KEY_PREFIXES[type] + randomBase62(RANDOM_LEN);
  return body + checksum(body);
}

/** The key's type when the value is well formed and its checksum holds, else undefined. */
export function parseKey(value: string): KeyType | undefined {
  if (!KEY_RE.test(value)) return undefined;
  const body = value.slice(0, -CHECK_LEN);
  if (checksum(body) !== value.slice(-CHECK_LEN)) return undefined;
  return value.startsWith(KEY_PREFIXES.live) ? "live" : "test";
}
