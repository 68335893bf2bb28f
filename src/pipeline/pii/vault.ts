import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { PlaceholderMap, type MappingEntry } from "./placeholders";

/**
 * Placeholder maps at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the server secret,
 * with the owner (tenant and conversation) as additional data, so a sealed map opens only for the
 * conversation it was sealed for and any tampering fails the tag check.
 */
export type MappingKey = Buffer;

export function deriveMappingKey(serverSecret: string): MappingKey {
  return Buffer.from(hkdfSync("sha256", serverSecret, "svc-pii", "placeholder-map-v1", 32));
}

/** `iv (12) | tag (16) | ciphertext`, base64. */
export function sealMap(map: PlaceholderMap, key: MappingKey, owner: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(owner, "utf8"));
  const body = Buffer.concat([cipher.update(JSON.stringify(map.entries()), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

/** The map sealed for `owner`, or undefined when the box was made for another owner, key or is damaged. */
export function openMap(sealed: string, key: MappingKey, owner: string): PlaceholderMap | undefined {
  try {
    const raw = Buffer.from(sealed, "base64");
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(owner, "utf8"));
    decipher.setAuthTag(raw.subarray(12, 28));
    const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    return PlaceholderMap.from(JSON.parse(json) as MappingEntry[]);
  } catch {
    return undefined;
  }
}

/**
 * The sealed maps of live conversations, in memory, for as long as a conversation is in use: the
 * least recently used goes first past `maxEntries`, and a map unused for `ttlMs` is dropped. Only
 * ciphertext is kept, so a heap dump shows no personal data.
 */
export class ConversationMaps {
  private readonly boxes = new Map<string, { sealed: string; at: number }>();

  constructor(
    private readonly key: MappingKey,
    private readonly maxEntries = 10_000,
    private readonly ttlMs = 24 * 3600_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(owner: string): PlaceholderMap | undefined {
    const box = this.boxes.get(owner);
    if (!box) return undefined;
    this.boxes.delete(owner);
    if (this.now() - box.at > this.ttlMs) return undefined;
    this.boxes.set(owner, box);
    return openMap(box.sealed, this.key, owner);
  }

  put(owner: string, map: PlaceholderMap): void {
    this.boxes.delete(owner);
    this.boxes.set(owner, { sealed: sealMap(map, this.key, owner), at: this.now() });
    if (this.boxes.size > this.maxEntries) this.boxes.delete(this.boxes.keys().next().value!);
  }

  delete(owner: string): void {
    this.boxes.delete(owner);
  }
}
