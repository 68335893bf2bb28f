import { isBusy, isUnreachable } from "../store/no-wait";
import type { KeyEntry } from "./key-record";
import type { KeyRepository } from "./key-repository";

/**
 * Every key's HMAC in memory, so an unknown key is refused without a database query. The index
 * follows the store by polling `sync_seq`, which is how a key created or revoked by the CLI (or by
 * another gateway node on the same database) takes effect here within one poll interval.
 */
export class KeyIndex {
  private readonly byHash = new Map<string, KeyEntry>();
  private readonly byId = new Map<string, KeyEntry>();
  private readonly usedSinceFlush = new Map<string, number>();
  private seq = 0;
  private readonly announcers: ((id: string) => void)[] = [];

  constructor(private readonly repo: KeyRepository) {}

  /** Tells `announce` of every key this process creates or revokes (the Redis broadcast to other nodes). */
  onLocalChange(announce: (id: string) => void): void {
    this.announcers.push(announce);
  }

  /** A change this process made to the store: applied here at once, and announced. */
  changed(e: KeyEntry): void {
    this.put(e);
    for (const a of this.announcers) a(e.id);
  }

  /** Picks up every change since the last call. Cheap when nothing changed: one indexed query. */
  async sync(): Promise<void> {
    const { entries, seq } = await this.repo.changedSince(this.seq);
    for (const e of entries) this.put(e);
    this.seq = Math.max(this.seq, seq);
  }

  /** Applies a change at once, before the next poll. */
  put(e: KeyEntry): void {
    const known = this.byId.get(e.id);
    if (known) e.lastUsedAt = Math.max(known.lastUsedAt ?? 0, e.lastUsedAt ?? 0) || null;
    this.byHash.set(e.hash, e);
    this.byId.set(e.id, e);
  }

  lookup(hash: string): KeyEntry | undefined {
    const e = this.byHash.get(hash);
    if (!e) return undefined;
    // The map lookup already matched; comparing the digests in constant time keeps any later change
    // of the lookup structure from turning into a timing oracle.
    return sameDigest(e.hash, hash) ? e : undefined;
  }

  get(id: string): KeyEntry | undefined {
    return this.byId.get(id);
  }

  /** Notes a use in memory; `flushUsage` writes them in one batch. */
  markUsed(e: KeyEntry, at: number): void {
    e.lastUsedAt = at;
    this.usedSinceFlush.set(e.id, at);
  }

  async flushUsage(): Promise<void> {
    if (this.usedSinceFlush.size === 0) return;
    const used = [...this.usedSinceFlush].map(([id, at]) => ({ id, at }));
    this.usedSinceFlush.clear();
    try {
      await this.repo.touchMany(used);
    } catch (e) {
      // Another process holds the store's write lock, or PostgreSQL cannot be reached: keep the uses
      // (the newer one wins) for the next flush.
      if (!isBusy(e) && !isUnreachable(e)) throw e;
      for (const u of used) if ((this.usedSinceFlush.get(u.id) ?? 0) < u.at) this.usedSinceFlush.set(u.id, u.at);
    }
  }

  get size(): number {
    return this.byId.size;
  }
}

/**
 * Equal hex digests, compared in time that does not depend on where they differ. On the strings
 * themselves: decoding both to Buffers for timingSafeEqual cost 1% of the relay's CPU per request.
 */
function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
