import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { and, eq, lte } from "drizzle-orm";
import type { Db } from "../../store/db";
import { piiMaps } from "../../store/schema";
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

/** How often a write also deletes the expired rows of every conversation. */
const SWEEP_EVERY_MS = 60_000;
/** Writes that found the row changed under them before giving up (each re-reads and merges). */
const WRITE_ATTEMPTS = 5;

/**
 * The sealed maps of conversations, in the store (table pii_maps), so a conversation that continues
 * on another gateway process still restores the placeholders of its earlier turns. Only ciphertext
 * reaches the store; the key stays with the process. A map unused for `ttlMs` expires: it is read as
 * absent, and a later write deletes it. Two processes writing one conversation merge, each writing
 * only over the version it read (PlaceholderMap.merge).
 */
export class ConversationMaps {
  /** This process's writes still in flight, by owner: a read of the same conversation waits for them. */
  private readonly pending = new Map<string, Promise<void>>();
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly key: MappingKey,
    private readonly ttlMs = 24 * 3600_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(appId: string, conversationId: string): Promise<PlaceholderMap | undefined> {
    const owner = ownerOf(appId, conversationId);
    await this.pending.get(owner);
    const row = await this.read(appId, conversationId);
    return row && row.expiresAt > this.now() ? openMap(row.sealed, this.key, owner) : undefined;
  }

  /** Stores `map` as the conversation's (merged with what another process stored meanwhile). */
  put(appId: string, conversationId: string, map: PlaceholderMap): Promise<void> {
    const owner = ownerOf(appId, conversationId);
    const write = (this.pending.get(owner) ?? Promise.resolve()).then(() => this.write(appId, conversationId, owner, map));
    const tracked = write.finally(() => {
      if (this.pending.get(owner) === tracked) this.pending.delete(owner);
    });
    this.pending.set(
      owner,
      tracked.catch(() => undefined),
    );
    return tracked;
  }

  async delete(appId: string, conversationId: string): Promise<void> {
    await this.pending.get(ownerOf(appId, conversationId));
    await this.db.delete(piiMaps).where(and(eq(piiMaps.appId, appId), eq(piiMaps.conversationId, conversationId)));
  }

  private async read(appId: string, conversationId: string) {
    const rows = await this.db
      .select({ sealed: piiMaps.sealed, version: piiMaps.version, expiresAt: piiMaps.expiresAt })
      .from(piiMaps)
      .where(and(eq(piiMaps.appId, appId), eq(piiMaps.conversationId, conversationId)));
    return rows[0];
  }

  private async write(appId: string, conversationId: string, owner: string, map: PlaceholderMap): Promise<void> {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const now = this.now();
      const row = await this.read(appId, conversationId);
      const stored = row && row.expiresAt > now ? openMap(row.sealed, this.key, owner) : undefined;
      const fields = {
        sealed: sealMap(stored ? PlaceholderMap.merge(stored, map) : map, this.key, owner),
        version: (row?.version ?? 0) + 1,
        updatedAt: now,
        expiresAt: now + this.ttlMs,
      };
      const written = row
        ? await this.db
            .update(piiMaps)
            .set(fields)
            .where(and(eq(piiMaps.appId, appId), eq(piiMaps.conversationId, conversationId), eq(piiMaps.version, row.version)))
            .returning({ version: piiMaps.version })
        : await this.db
            .insert(piiMaps)
            .values({ appId, conversationId, ...fields })
            .onConflictDoNothing()
            .returning({ version: piiMaps.version });
      if (written.length > 0) {
        if (now - this.lastSweep >= SWEEP_EVERY_MS) {
          this.lastSweep = now;
          await this.db.delete(piiMaps).where(lte(piiMaps.expiresAt, now));
        }
        return;
      }
    }
    throw new Error(`pii_maps: the conversation's map changed under ${WRITE_ATTEMPTS} writes in a row`);
  }
}

/** The additional data a map is sealed with: it opens only for the app and conversation it was sealed for. */
const ownerOf = (appId: string, conversationId: string) => `${appId}\u0000${conversationId}`;
