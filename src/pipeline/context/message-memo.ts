import type { ChatMessage } from "../../core/messages";
import { FieldHasher } from "../cache/keys";
import { TOKENS_PER_MESSAGE, sentMessage, storedTurn } from "./conversations";
import type { StoredTurn } from "./history";

/** The leading messages of a call that were seen before: sent again in the form they went upstream then. */
export interface RememberedPrefix {
  /** How many of the call's leading messages this stands for. */
  count: number;
  /** Their sent forms, byte for byte as before. */
  messages: ChatMessage[];
  /** o200k tokens, framing included: as the client wrote them, and as they are sent. */
  originalTokens: number;
  sentTokens: number;
}

/** The compression settings a sent form depends on: a form made under other settings is not reused. */
export interface MemoScope {
  appId: string;
  aggressiveness: number;
  skipRules: readonly string[];
}

/**
 * Work once per message without a conversation_id (issue 28): a client that resends its whole history
 * on every call (what the OpenAI SDKs, LangChain and the AI SDK do) has every earlier message
 * optimized once. Each message's sent form (its compressed form, or an answer as it came) is remembered
 * by the message's content, per app and compression settings; a later call whose leading messages are
 * all remembered sends those forms again, byte for byte (so the provider's prefix cache hits), and the
 * optimizer sees only the rest. In this process's memory, least recently used first out, bounded by
 * the characters it holds (SVC_MESSAGE_MEMO_CHARS).
 */
export class MessageMemo {
  private readonly entries = new Map<string, Remembered>();
  private chars = 0;
  private pending: { scope: MemoScope; originals: readonly ChatMessage[]; sent: readonly ChatMessage[] }[] = [];

  constructor(private readonly maxChars: number) {}

  get enabled(): boolean {
    return this.maxChars > 0;
  }

  /** The longest run of leading messages, never the last one, whose sent forms are remembered; undefined when none is. */
  prefix(scope: MemoScope, messages: readonly ChatMessage[]): RememberedPrefix | undefined {
    this.settle();
    const sent: ChatMessage[] = [];
    let originalTokens = 0;
    let sentTokens = 0;
    for (let i = 0; i < messages.length - 1; i++) {
      const m = messages[i]!;
      if (m.parts !== undefined) break;
      const found = this.get(keyOf(scope, m));
      if (!found) break;
      const hit = turnOf(found);
      sent.push(sentMessage(hit));
      originalTokens += hit.tokens + TOKENS_PER_MESSAGE;
      sentTokens += hit.sent_tokens + TOKENS_PER_MESSAGE;
    }
    return sent.length === 0 ? undefined : { count: sent.length, messages: sent, originalTokens, sentTokens };
  }

  /**
   * Remembers each message's sent form (`sent[i]` for `originals[i]`); messages with non-text parts are
   * not. The work (hashing each message) is done after the current task, so after the answer it comes
   * with has gone out, or by the next lookup if that comes first: a later call sees every earlier call's
   * messages all the same. Done in the call's commit it was 37 µs p50 of a ~300-token cache miss's
   * answer (a timing split of `bun bench/miss-trees.ts`'s miss, one request at a time), the largest part
   * of a miss after the optimizer and the upstream call. A message's tokens are counted only when a
   * later call reuses it (see turnOf).
   */
  remember(scope: MemoScope, originals: readonly ChatMessage[], sent: readonly ChatMessage[]): void {
    if (this.pending.length === 0) setImmediate(() => this.settle());
    this.pending.push({ scope, originals, sent });
  }

  private settle(): void {
    const queued = this.pending;
    if (queued.length === 0) return;
    this.pending = [];
    for (const r of queued) this.rememberNow(r.scope, r.originals, r.sent);
  }

  private rememberNow(scope: MemoScope, originals: readonly ChatMessage[], sent: readonly ChatMessage[]): void {
    for (let i = 0; i < originals.length; i++) {
      const m = originals[i]!;
      const form = sent[i]?.content ?? m.content;
      if (m.parts !== undefined || m.content.length + form.length > this.maxChars / 16) continue;
      const key = keyOf(scope, m);
      if (this.entries.has(key)) {
        this.get(key);
        continue;
      }
      const entry: Remembered = { original: m, sent: form };
      this.entries.set(key, entry);
      this.chars += size(entry);
      for (const [k, old] of this.entries) {
        if (this.chars <= this.maxChars) break;
        this.entries.delete(k);
        this.chars -= size(old);
      }
    }
  }

  get size(): number {
    this.settle();
    return this.entries.size;
  }

  private get(key: string): Remembered | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }
}

/**
 * A remembered message and its sent form; its stored turn (both forms' token counts) is made the first
 * time a call reuses it. Counting on every remember tokenised each message of every call two or three
 * times after its answer (originals, sent forms, the answer), 70 µs of the event loop per ~300-token
 * cache miss in `bun bench/profile.ts --config miss --connections 1`, for messages most of which no
 * later call resends.
 */
interface Remembered {
  original: ChatMessage;
  sent: string;
  turn?: StoredTurn;
}

function turnOf(r: Remembered): StoredTurn {
  r.turn ??= storedTurn(r.original, r.sent);
  return r.turn;
}

const size = (r: Remembered) => r.original.content.length + r.sent.length;

function keyOf(scope: MemoScope, m: ChatMessage): string {
  return new FieldHasher().field(scope.appId).field(String(scope.aggressiveness)).field(scope.skipRules.join(",")).message(m, m.content).digest();
}
