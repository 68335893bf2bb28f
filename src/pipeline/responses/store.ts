import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../store/db";
import { storedResponseItems, storedResponses } from "../../store/schema";

type Json = Record<string, unknown>;

export interface ResponseStoreSettings {
  /** How long a stored response is found (OpenAI keeps them 30 days). */
  ttlMs: number;
  /** Responses kept per app; beyond, the oldest go. */
  maxPerApp: number;
  /** Largest stored response (its conversation so far and the response object, as JSON); a larger one is not stored. */
  maxBytes: number;
}

/** Inserts between two trims of an app past its limit and of expired rows: each trim walks an index, not worth doing per insert. */
const TRIM_EVERY = 64;

/**
 * Responses kept for previous_response_id, item_reference and GET/DELETE /v1/responses/{id}: each
 * one's conversation (input and output as chat messages, instructions excluded, as OpenAI does not
 * carry them over) and the response object, per app, in the store, so every gateway process on it and
 * a restart find them. Bounded: a TTL, a count per app, a size per response.
 */
export class ResponseStore {
  private inserts = 0;

  constructor(
    private readonly db: Db,
    readonly settings: ResponseStoreSettings,
  ) {}

  /** The stored conversation a previous_response_id continues; undefined when unknown, expired, or another app's. */
  async messages(appId: string, id: string, now = Date.now()): Promise<Json[] | undefined> {
    const r = await this.db
      .select({ messages: storedResponses.messages })
      .from(storedResponses)
      .where(and(eq(storedResponses.appId, appId), eq(storedResponses.id, id), sql`${storedResponses.expiresAt} > ${now}`));
    return r[0] ? (JSON.parse(r[0].messages) as Json[]) : undefined;
  }

  async response(appId: string, id: string, now = Date.now()): Promise<Json | undefined> {
    const r = await this.db
      .select({ response: storedResponses.response })
      .from(storedResponses)
      .where(and(eq(storedResponses.appId, appId), eq(storedResponses.id, id), sql`${storedResponses.expiresAt} > ${now}`));
    return r[0] ? (JSON.parse(r[0].response) as Json) : undefined;
  }

  /** Output items by id, for input items of type item_reference (the AI SDK sends those for stored responses). */
  async items(appId: string, ids: readonly string[], now = Date.now()): Promise<Map<string, Json>> {
    const found = new Map<string, Json>();
    for (const id of new Set(ids)) {
      const r = await this.db
        .select({ item: storedResponseItems.item })
        .from(storedResponseItems)
        .where(and(eq(storedResponseItems.appId, appId), eq(storedResponseItems.id, id), sql`${storedResponseItems.expiresAt} > ${now}`));
      if (r[0]) found.set(id, JSON.parse(r[0].item) as Json);
    }
    return found;
  }

  /** Stores a response; false when it is over the size limit (it is then not found later). */
  async set(appId: string, id: string, messages: readonly Json[], response: Json, now = Date.now()): Promise<boolean> {
    const m = JSON.stringify(messages);
    const r = JSON.stringify(response);
    const bytes = Buffer.byteLength(m) + Buffer.byteLength(r);
    if (bytes > this.settings.maxBytes) return false;
    const expiresAt = now + this.settings.ttlMs;
    await this.db.insert(storedResponses).values({ appId, id, messages: m, response: r, bytes, createdAt: now, expiresAt });
    const output = Array.isArray(response.output) ? (response.output as Json[]) : [];
    const items = output
      .filter((i) => typeof i.id === "string")
      .map((i) => ({ appId, id: i.id as string, responseId: id, item: JSON.stringify(i), expiresAt }));
    if (items.length > 0) await this.db.insert(storedResponseItems).values(items).onConflictDoNothing();
    if (++this.inserts % TRIM_EVERY === 0) await this.trim(appId, now);
    return true;
  }

  /** DELETE /v1/responses/{id}: false when there was none for this app. */
  async delete(appId: string, id: string): Promise<boolean> {
    const gone = await this.db
      .delete(storedResponses)
      .where(and(eq(storedResponses.appId, appId), eq(storedResponses.id, id)))
      .returning({ id: storedResponses.id });
    await this.db.delete(storedResponseItems).where(and(eq(storedResponseItems.appId, appId), eq(storedResponseItems.responseId, id)));
    return gone.length > 0;
  }

  /** Expired rows go, then an app's oldest beyond its limit (with their items). */
  async trim(appId: string, now = Date.now()): Promise<void> {
    await this.db.delete(storedResponses).where(lt(storedResponses.expiresAt, now));
    await this.db.delete(storedResponseItems).where(lt(storedResponseItems.expiresAt, now));
    const edge = await this.db
      .select({ createdAt: storedResponses.createdAt })
      .from(storedResponses)
      .where(eq(storedResponses.appId, appId))
      .orderBy(desc(storedResponses.createdAt))
      .limit(1)
      .offset(this.settings.maxPerApp - 1);
    if (!edge[0]) return;
    const old = await this.db
      .delete(storedResponses)
      .where(and(eq(storedResponses.appId, appId), lt(storedResponses.createdAt, edge[0].createdAt)))
      .returning({ id: storedResponses.id });
    for (const o of old) await this.db.delete(storedResponseItems).where(and(eq(storedResponseItems.appId, appId), eq(storedResponseItems.responseId, o.id)));
  }
}
