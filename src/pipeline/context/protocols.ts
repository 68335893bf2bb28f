import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { ApiError } from "../../core/errors";
import type { Store } from "../../store/db";
import { protocols } from "../../store/schema";
import { countTokens } from "../../tokens/count";
import type { Optimizer } from "../optimizer";

/** A protocol as listed (seed: `/api/protocols`); `content` and `compressed_content` only on a single read. */
export interface ProtocolRecord {
  id: string;
  name: string;
  version: number;
  original_tokens: number;
  compressed_tokens: number;
  created_at: string;
  updated_at: string;
  content?: string;
  compressed_content?: string;
}

/** What a call with `protocol_id` prepends: the stored compressed form, never recomputed. */
export interface ResolvedProtocol {
  id: string;
  version: number;
  compressed: string;
  originalTokens: number;
  compressedTokens: number;
}

/** Compresses a protocol's text once, at registration or a new version (the optimizer's compression with its quality floor). */
export type ProtocolCompressor = (content: string) => Promise<string>;

type Row = typeof protocols.$inferSelect;

const ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
function newId(): string {
  let s = "proto_";
  for (const b of randomBytes(20)) s += ID_ALPHABET[b % 36];
  return s;
}

function recordOf(r: Row, full: boolean): ProtocolRecord {
  return {
    id: r.id,
    name: r.name,
    version: r.version,
    original_tokens: r.originalTokens,
    compressed_tokens: r.compressedTokens,
    created_at: new Date(r.createdAt).toISOString(),
    updated_at: new Date(r.updatedAt).toISOString(),
    ...(full && { content: r.content, compressed_content: r.compressed }),
  };
}

/**
 * Reusable system prompts per app_id. The compressed form is made once, when a version is written, and
 * stored: every call (on any node, after any restart) sends those exact bytes, so a provider's prefix
 * cache keeps hitting. Rows are read from the store on each call (a primary-key read, microseconds),
 * so a new version written by another process is seen at once.
 */
export class Protocols {
  constructor(
    private readonly store: Store,
    private readonly compress: ProtocolCompressor,
  ) {}

  private get db() {
    return this.store.db;
  }

  async create(appId: string, name: string, content: string): Promise<ProtocolRecord> {
    const compressed = await this.compress(content);
    const now = Date.now();
    const row: Row = {
      appId,
      id: newId(),
      name,
      content,
      compressed,
      originalTokens: countTokens(content),
      compressedTokens: countTokens(compressed),
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    await this.db.insert(protocols).values(row);
    return recordOf(row, false);
  }

  async list(appId: string): Promise<ProtocolRecord[]> {
    return (await this.db.select().from(protocols).where(eq(protocols.appId, appId)).orderBy(asc(protocols.createdAt))).map((r) => recordOf(r, false));
  }

  async get(appId: string, id: string): Promise<ProtocolRecord> {
    return recordOf(await this.row(appId, id), true);
  }

  /** A new version: the content replaced and compressed again, once. */
  async update(appId: string, id: string, content: string): Promise<ProtocolRecord> {
    const before = await this.row(appId, id);
    const compressed = content === before.content ? before.compressed : await this.compress(content);
    const row: Row = {
      ...before,
      content,
      compressed,
      originalTokens: countTokens(content),
      compressedTokens: countTokens(compressed),
      version: before.version + 1,
      updatedAt: Date.now(),
    };
    const done = await this.db
      .update(protocols)
      .set({ content, compressed, originalTokens: row.originalTokens, compressedTokens: row.compressedTokens, version: row.version, updatedAt: row.updatedAt })
      // Two concurrent updates: the second, which read the same version, must not claim it too.
      .where(and(eq(protocols.appId, appId), eq(protocols.id, id), eq(protocols.version, before.version)))
      .returning({ version: protocols.version });
    if (done.length === 0) return this.update(appId, id, content);
    return recordOf(row, true);
  }

  async delete(appId: string, id: string): Promise<ProtocolRecord> {
    const row = await this.row(appId, id);
    await this.db.delete(protocols).where(and(eq(protocols.appId, appId), eq(protocols.id, id)));
    return recordOf(row, false);
  }

  /** For a call: the protocol's stored compressed form, or 404 (another app's id is as unknown as a made-up one). */
  async resolve(appId: string, id: string): Promise<ResolvedProtocol> {
    const r = await this.row(appId, id);
    return { id: r.id, version: r.version, compressed: r.compressed, originalTokens: r.originalTokens, compressedTokens: r.compressedTokens };
  }

  private async row(appId: string, id: string): Promise<Row> {
    const [r] = await this.db
      .select()
      .from(protocols)
      .where(and(eq(protocols.appId, appId), eq(protocols.id, id)));
    if (!r) throw new ApiError("NOT_FOUND", `no protocol '${id}' for this app`);
    return r;
  }
}

/**
 * A protocol's text through the optimizer's compression (with its quality floor), as one system
 * message at the default level: the same stage and guards as a prompt, run once per version.
 */
export function optimizerCompressor(optimizer: Pick<Optimizer, "run">, model: string, qualityFloor: number): ProtocolCompressor {
  return async (content) => {
    const opt = await optimizer.run({
      messages: [{ role: "system", content }],
      model,
      options: {
        compress: true,
        route: false,
        cache: false,
        cache_nondeterministic: false,
        score: false,
        mask_pii: false,
        max_aggressiveness: 0.5,
        skip_rules: [],
      },
      params: {},
      maxTokens: 1,
      availableModels: [model],
      wantEmbedding: false,
      countTokens: false,
      qualityFloor,
    });
    return opt.messages[0]?.content ?? content;
  };
}
