import { ApiError } from "../core/errors";
import { parseKey } from "./key-format";
import type { KeyIndex } from "./key-index";
import type { KeyEntry } from "./key-record";
import type { KeyHasher } from "./secret";

/**
 * Bearer-key authentication, entirely from memory: the shape and checksum refuse malformed keys
 * before hashing, the HMAC index refuses unknown ones, and a revoked key is refused the moment the
 * index learns of it.
 */
export function authenticate(authorization: string | null, index: KeyIndex, hash: KeyHasher, now: number): KeyEntry {
  if (!authorization) throw new ApiError("UNAUTHORIZED", "missing Authorization header; send 'Authorization: Bearer <API key>'");
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!m) throw new ApiError("UNAUTHORIZED", "Authorization header must be 'Bearer <API key>'");
  const value = m[1]!;
  if (!parseKey(value)) throw new ApiError("INVALID_KEY", "invalid API key");
  const entry = index.lookup(hash(value));
  if (!entry) throw new ApiError("INVALID_KEY", "invalid API key");
  if (entry.status === "revoked") throw new ApiError("KEY_REVOKED", "this API key has been revoked");
  index.markUsed(entry, now);
  return entry;
}
