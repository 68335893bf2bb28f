import { and, eq } from "drizzle-orm";
import { ApiError, validationError } from "../../core/errors";
import type { ChatMessage } from "../../core/messages";
import type { ModelInfo } from "../../catalog/catalog";
import type { Store } from "../../store/db";
import { conversations } from "../../store/schema";
import { countTokens } from "../../tokens/count";
import { reconcile, type StoredTurn } from "./history";
import { KeyedLock } from "./lock";
import { ConversationLeases } from "./lease";
import { summaryLines, summaryText } from "./summary";

/** GET /api/conversations/{id} (CONTRACT.md): counts of turns (messages), the summary text and the tokens saved so far. */
export interface ConversationView {
  id: string;
  turns: number;
  kept_turns: number;
  summarized_turns: number;
  summary: string | null;
  tokens_saved: number;
}

export interface ConversationSettings {
  /** max_turns_to_keep when a call names none. */
  turnsToKeep: number;
  /** Turns that gather beyond max_turns_to_keep before the summary takes them in (one step). */
  summaryStep: number;
  /** Turns one conversation may hold. */
  maxTurns: number;
  /** How long a conversation's lease in the store lasts unless its holder renews it (every third of it). */
  leaseMs: number;
  /** The model that writes summary steps (model-summary.ts); extractive without one. */
  summaryModel?: ModelInfo;
}

/** The per-message framing tokens of chat formats, as the token counter counts them. */
export const TOKENS_PER_MESSAGE = 3;
/** Lines the summary keeps; beyond, its oldest lines go (at a step, so the prefix still changes only then). */
const MAX_SUMMARY_LINES = 400;

interface Loaded {
  appId: string;
  id: string;
  exists: boolean;
  system: StoredTurn[];
  turns: StoredTurn[];
  lines: string[];
  summarized: number;
  summaryTokens: number;
  tokensSaved: number;
  createdAt: number;
  /** The row's updated_at as read: a commit writes only over the row it read (see record). */
  updatedAt: number;
}

/** What one call on a conversation sends and what its commit stores. */
export interface ConversationPlan {
  loaded: Loaded;
  /** The client's leading system messages when they differ from the stored ones: they go through the optimizer once. */
  systemNew: ChatMessage[];
  /** The stored system messages, reused as they were sent before (when systemNew is empty). */
  system: StoredTurn[];
  /** Stored turns that stay (a contradicting resend drops the rest). */
  keep: number;
  summarized: number;
  lines: string[];
  summary: string;
  summaryTokens: number;
  /** The turns this call adds (optimized, then stored with their sent form). */
  fresh: ChatMessage[];
  /** Messages between the system prompt and the fresh turns: the summary and the kept turns as sent before. */
  history: ChatMessage[];
  /** o200k tokens, framing included: what the stored part stands for as the client wrote it, and as it is sent. */
  originalTokens: number;
  sentTokens: number;
  /** Sent tokens the summary saved on this call (the turns it stands for, as they would be sent, less the summary). */
  savedTokens: number;
  /** Set when this call is a summary step: the stored turns [from, to) its new lines stand for. */
  step?: { from: number; to: number };
}

const tokensOf = (turns: readonly StoredTurn[], from: number, to: number, field: "tokens" | "sent_tokens") => {
  let n = 0;
  for (let i = from; i < to; i++) n += turns[i]![field] + TOKENS_PER_MESSAGE;
  return n;
};

/** A stored turn as it goes upstream: its sent form, byte for byte. */
export function sentMessage(t: StoredTurn): ChatMessage {
  const m: ChatMessage = { role: t.role, content: t.sent };
  if (t.name !== undefined) m.name = t.name;
  if (t.tool_call_id !== undefined) m.tool_call_id = t.tool_call_id;
  if (t.tool_calls !== undefined) m.tool_calls = t.tool_calls;
  return m;
}

export function storedTurn(original: ChatMessage, sent: string): StoredTurn {
  const tokens = countTokens(original.content);
  const t: StoredTurn = { role: original.role, content: original.content, sent, tokens, sent_tokens: sent === original.content ? tokens : countTokens(sent) };
  if (original.name !== undefined) t.name = original.name;
  if (original.tool_call_id !== undefined) t.tool_call_id = original.tool_call_id;
  if (original.tool_calls !== undefined) t.tool_calls = original.tool_calls;
  return t;
}

const isSystem = (m: ChatMessage) => m.role === "system" || m.role === "developer";

/**
 * The conversation stage's store and rules: turns per (app_id, conversation_id), an extractive summary
 * of the turns beyond max_turns_to_keep rewritten only in steps, and every turn's sent form made once
 * and reused byte for byte. Calls on one conversation run one at a time: in this process in arrival
 * order (KeyedLock), across processes on one store by a lease row (ConversationLeases).
 */
export class Conversations {
  readonly lock = new KeyedLock();
  /** Orders calls across processes on one store (the lock orders this process's own first). */
  readonly leases: ConversationLeases;

  constructor(
    private readonly store: Store,
    readonly settings: ConversationSettings,
  ) {
    this.leases = new ConversationLeases(store, settings.leaseMs);
  }

  private get db() {
    return this.store.db;
  }

  async view(appId: string, id: string): Promise<ConversationView> {
    const l = await this.load(appId, id);
    if (!l.exists) throw new ApiError("NOT_FOUND", `no conversation '${id}' for this app`);
    const summary = summaryText(l.lines);
    return {
      id,
      turns: l.turns.length,
      kept_turns: l.turns.length - l.summarized,
      summarized_turns: l.summarized,
      summary: summary === "" ? null : summary,
      tokens_saved: l.tokensSaved,
    };
  }

  async delete(appId: string, id: string): Promise<ConversationView> {
    const v = await this.view(appId, id);
    await this.db.delete(conversations).where(and(eq(conversations.appId, appId), eq(conversations.id, id)));
    return v;
  }

  /** What a call sends: the stored part of its context, and the turns it adds. `stepLines` replaces a summary step's extractive lines. */
  async plan(
    appId: string,
    id: string,
    messages: readonly ChatMessage[],
    maxTurnsToKeep: number | undefined,
    stepLines?: readonly string[],
  ): Promise<ConversationPlan> {
    const loaded = await this.load(appId, id);
    let lead = 0;
    while (lead < messages.length && isSystem(messages[lead]!)) lead++;
    const sentSystem = messages.slice(0, lead);
    const same =
      sentSystem.length === 0 ||
      (sentSystem.length === loaded.system.length && sentSystem.every((m, i) => m.content === loaded.system[i]!.content && m.role === loaded.system[i]!.role));
    const systemNew = same ? [] : sentSystem;
    const system = same ? loaded.system : [];

    const r = reconcile(loaded.turns, messages.slice(lead));
    const keep = r.keep;
    const fresh = r.fresh;
    if (fresh.length === 0) throw validationError("messages", "no new turn to answer: the conversation already holds every message sent");
    if (keep + fresh.length + 1 > this.settings.maxTurns) {
      throw validationError(
        "svc_options.conversation_id",
        `conversation '${id}' would hold more than ${this.settings.maxTurns} turns (the operator's limit, SVC_CONVERSATION_MAX_TURNS); delete it or start a new one`,
      );
    }

    // A contradiction inside the summarized turns: the summary no longer stands for them; rebuild it.
    let summarized = loaded.summarized;
    let lines = loaded.lines;
    if (r.conflictAt !== undefined && r.conflictAt < summarized) {
      summarized = 0;
      lines = [];
    }
    const toKeep = maxTurnsToKeep ?? this.settings.turnsToKeep;
    const total = keep + fresh.length;
    let step: ConversationPlan["step"];
    if (total - summarized >= toKeep + this.settings.summaryStep) {
      // Never the turns of this call: they have no sent form yet.
      const target = Math.min(total - toKeep, keep);
      if (target > summarized) {
        step = { from: summarized, to: target };
        lines = [...lines, ...(stepLines ?? summaryLines(loaded.turns.slice(summarized, target), summarized + 1))];
        if (lines.length > MAX_SUMMARY_LINES) lines = lines.slice(lines.length - MAX_SUMMARY_LINES);
        summarized = target;
      }
    }
    const summary = summaryText(lines);
    const summaryTokens = summary === "" ? 0 : countTokens(summary);
    const summaryCost = summary === "" ? 0 : summaryTokens + TOKENS_PER_MESSAGE;

    const history: ChatMessage[] = [];
    if (summary !== "") history.push({ role: "system", content: summary });
    for (let i = summarized; i < keep; i++) history.push(sentMessage(loaded.turns[i]!));

    const systemOriginal = tokensOf(system, 0, system.length, "tokens");
    const systemSent = tokensOf(system, 0, system.length, "sent_tokens");
    return {
      loaded,
      systemNew,
      system,
      keep,
      summarized,
      lines,
      summary,
      summaryTokens,
      fresh,
      history,
      originalTokens: systemOriginal + tokensOf(loaded.turns, 0, keep, "tokens"),
      sentTokens: systemSent + summaryCost + tokensOf(loaded.turns, summarized, keep, "sent_tokens"),
      savedTokens: tokensOf(loaded.turns, 0, summarized, "sent_tokens") - summaryCost,
      ...(step && { step }),
    };
  }

  /**
   * Stores the call's turns with the forms that went upstream and the answer. `systemSent` and
   * `freshSent` are the optimizer's output for `systemNew` and `fresh`, message for message.
   */
  async record(p: ConversationPlan, systemSent: readonly ChatMessage[], freshSent: readonly ChatMessage[], answer: ChatMessage | undefined): Promise<void> {
    const system = p.systemNew.length > 0 ? p.systemNew.map((m, i) => storedTurn(m, systemSent[i]?.content ?? m.content)) : p.system;
    const added = p.fresh.map((m, i) => storedTurn(m, freshSent[i]?.content ?? m.content));
    if (answer) added.push(storedTurn(answer, answer.content));
    const saved = Math.max(0, p.savedTokens);
    if (
      await this.write(
        p.loaded,
        { system, turns: [...p.loaded.turns.slice(0, p.keep), ...added], lines: p.lines, summarized: p.summarized, summaryTokens: p.summaryTokens },
        saved,
      )
    )
      return;
    // Another gateway process on the same store wrote this conversation after this call read it (this
    // process's lock orders only its own calls): this call's turns go after what the conversation holds now.
    for (let attempt = 0; attempt < 5; attempt++) {
      const now = await this.load(p.loaded.appId, p.loaded.id);
      if (
        await this.write(
          now,
          {
            system: now.system.length > 0 ? now.system : system,
            turns: [...now.turns, ...added],
            lines: now.lines,
            summarized: now.summarized,
            summaryTokens: now.summaryTokens,
          },
          saved,
        )
      )
        return;
    }
    // Five other writers in between: the answer has gone out already, so this call's turns are left out rather than failing it.
  }

  /** Writes a conversation's new state over the row `read` (or as a new row); false when the row changed since. */
  private async write(
    read: Loaded,
    next: { system: StoredTurn[]; turns: StoredTurn[]; lines: string[]; summarized: number; summaryTokens: number },
    saved: number,
  ): Promise<boolean> {
    const now = Math.max(Date.now(), read.updatedAt + 1);
    const changes = {
      turns: next.turns as unknown[],
      summary: next.lines.length === 0 ? null : next.lines.join("\n"),
      turnCount: next.turns.length,
      systemMessages: next.system as unknown[],
      summarizedTurns: next.summarized,
      summaryTokens: next.summaryTokens,
      tokensSaved: read.tokensSaved + saved,
      updatedAt: now,
    };
    const key = and(eq(conversations.appId, read.appId), eq(conversations.id, read.id));
    const written = read.exists
      ? await this.db
          .update(conversations)
          .set(changes)
          .where(and(key, eq(conversations.updatedAt, read.updatedAt), eq(conversations.turnCount, read.turns.length)))
          .returning({ id: conversations.id })
      : await this.db
          .insert(conversations)
          .values({ appId: read.appId, id: read.id, createdAt: now, ...changes })
          .onConflictDoNothing()
          .returning({ id: conversations.id });
    return written.length > 0;
  }

  private async load(appId: string, id: string): Promise<Loaded> {
    const [r] = await this.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.appId, appId), eq(conversations.id, id)));
    if (!r) return { appId, id, exists: false, system: [], turns: [], lines: [], summarized: 0, summaryTokens: 0, tokensSaved: 0, createdAt: 0, updatedAt: 0 };
    return {
      appId,
      id,
      exists: true,
      system: r.systemMessages as StoredTurn[],
      turns: r.turns as StoredTurn[],
      lines: r.summary ? r.summary.split("\n") : [],
      summarized: r.summarizedTurns,
      summaryTokens: r.summaryTokens,
      tokensSaved: r.tokensSaved,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }
}
