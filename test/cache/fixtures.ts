import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Embedder } from "../../src/ml/types";
import { openStore, type SqliteStore } from "../../src/store/db";
import type { CachedAnswer, CacheRequest } from "../../src/pipeline/cache";

/**
 * A plain lexical embedder (hashed words and character trigrams, L2-normalised) standing in for the
 * trained model until models/embedding ships. Paraphrases that share most words score high, which is
 * what these tests need: near-misses get past the similarity threshold and must be stopped by the verifier.
 */
export class LexicalEmbedder implements Embedder {
  readonly dimensions = 256;
  calls = 0;

  async embed(text: string): Promise<Float32Array> {
    this.calls++;
    const v = new Float32Array(this.dimensions);
    const add = (feature: string, weight: number) => {
      let h = 2166136261;
      for (let i = 0; i < feature.length; i++) h = Math.imul(h ^ feature.charCodeAt(i), 16777619);
      v[(h >>> 0) % this.dimensions]! += (h & 1 ? 1 : -1) * weight;
    };
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      add(`w:${word}`, 1);
      const padded = `<${word}>`;
      for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, 0.3);
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    return v.map((x) => x / norm);
  }
}

/** A temporary data directory; `open` may be called again after a store is closed, as a restarted process would. */
export class TempStoreDir {
  readonly dir = mkdtempSync(join(tmpdir(), "svc-cache-"));
  private readonly open_ = new Set<SqliteStore>();

  open(): SqliteStore {
    const store = openStore(this.dir);
    this.open_.add(store);
    const close = store.close.bind(store);
    store.close = async () => {
      this.open_.delete(store);
      await close();
    };
    return store;
  }

  cleanup(): void {
    for (const store of this.open_) store.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function request(prompt: string, over: Partial<CacheRequest> = {}): CacheRequest {
  return {
    appId: "app_a",
    model: "gpt-4o-mini-2024-07-18",
    messages: [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: prompt },
    ],
    maxTokens: 1000,
    params: { temperature: 0 },
    ...over,
  };
}

/** An upstream that answers with a counter, so every test can tell which call produced an answer. */
export class CountingUpstream {
  calls = 0;

  constructor(
    private readonly delayMs = 0,
    private readonly failFirst = 0,
  ) {}

  readonly call = async (): Promise<CachedAnswer> => {
    const n = ++this.calls;
    if (this.delayMs > 0) await Bun.sleep(this.delayMs);
    if (n <= this.failFirst) throw new Error(`upstream failure ${n}`);
    return {
      model: "gpt-4o-mini-2024-07-18",
      choices: [{ index: 0, message: { role: "assistant", content: `answer #${n}` }, finish_reason: "stop" }],
      usage: { prompt_tokens: 12, completion_tokens: 3 },
    };
  };
}
