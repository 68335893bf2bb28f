import type { ChatMessage } from "../../core/messages";
import type { ConversationPlan } from "./conversations";
import { sentMessage, TOKENS_PER_MESSAGE } from "./conversations";
import type { ResolvedProtocol } from "./protocols";
import type { RememberedPrefix } from "./message-memo";

/**
 * Where a call's messages come from when it names a protocol or a conversation: the optimizer sees only
 * what is new (the call's own turns, a system prompt not seen before), and what is stored goes upstream
 * as it was sent before, in a fixed order that keeps the stable part first:
 * protocol, system prompt, summary, older turns, then the new turns. Between summary steps each
 * call's messages start with the previous call's, byte for byte, so providers' prefix caches hit.
 */
export interface Frame {
  /** What the optimizer runs on. */
  toOptimize: ChatMessage[];
  /** o200k tokens (framing included) of the stored part: as the client wrote it, and as it is sent. */
  originalTokens: number;
  sentTokens: number;
  /** Tokens the conversation's summary kept from this call. */
  conversationSavedTokens: number;
  /** What goes upstream, given the optimizer's output for `toOptimize`. */
  assemble(optimized: readonly ChatMessage[]): Assembled;
}

export interface Assembled {
  messages: ChatMessage[];
  /** Leading messages that are the stable prefix: the next call of the conversation starts with them. */
  prefixLength: number;
  /** Leading messages that are the protocol and the system prompt: stable across summary steps too. */
  systemLength: number;
  /** The optimizer's output, split: the new system messages and the new turns (what the conversation stores). */
  systemSent: ChatMessage[];
  freshSent: ChatMessage[];
}

const leadingSystem = (ms: readonly ChatMessage[]) => {
  let n = 0;
  while (n < ms.length && (ms[n]!.role === "system" || ms[n]!.role === "developer")) n++;
  return n;
};

/**
 * Where a provider that caches only at marked points (Anthropic) should mark: the end of the protocol
 * and system prompt (stable across summary steps), the end of the stored prefix, and the end of the
 * request (so the next call, which starts with this one, reads it from the cache). At most three of
 * Anthropic's four.
 */
export function cacheBreakpoints(a: Assembled): number[] {
  return [...new Set([a.systemLength - 1, a.prefixLength - 1, a.messages.length - 1])].filter((i) => i >= 0);
}

export function frameOf(
  messages: ChatMessage[],
  protocol: ResolvedProtocol | undefined,
  conversation: ConversationPlan | undefined,
  remembered?: RememberedPrefix,
): Frame | undefined {
  if (!protocol && !conversation && !remembered) return undefined;
  const head: ChatMessage[] = protocol ? [{ role: "system", content: protocol.compressed }] : [];
  const protoOriginal = protocol ? protocol.originalTokens + TOKENS_PER_MESSAGE : 0;
  const protoSent = protocol ? protocol.compressedTokens + TOKENS_PER_MESSAGE : 0;
  if (!conversation) {
    // Without a conversation, the leading messages seen before (message-memo.ts) go as they were sent then.
    const kept = remembered?.messages ?? [];
    return {
      toOptimize: remembered ? messages.slice(remembered.count) : messages,
      originalTokens: protoOriginal + (remembered?.originalTokens ?? 0),
      sentTokens: protoSent + (remembered?.sentTokens ?? 0),
      conversationSavedTokens: 0,
      assemble: (out) => {
        const stable = kept.length > 0 ? kept : out;
        const systemLength = head.length + leadingSystem(stable);
        const prefixLength = kept.length > 0 ? head.length + kept.length : systemLength;
        return { messages: [...head, ...kept, ...out], prefixLength, systemLength, systemSent: [], freshSent: [...out] };
      },
    };
  }
  const p = conversation;
  const toOptimize = [...p.systemNew, ...p.fresh];
  return {
    toOptimize,
    originalTokens: protoOriginal + p.originalTokens,
    sentTokens: protoSent + p.sentTokens,
    conversationSavedTokens: p.savedTokens,
    assemble(optimized) {
      // The compression stage keeps one output message per input; were that ever not so, the turns go as sent by the client.
      const out = optimized.length === toOptimize.length ? optimized : toOptimize;
      const systemSent = out.slice(0, p.systemNew.length);
      const freshSent = out.slice(p.systemNew.length);
      const system = p.systemNew.length > 0 ? systemSent : p.system.map(sentMessage);
      const messages = [...head, ...system, ...p.history, ...freshSent];
      return { messages, prefixLength: messages.length - freshSent.length, systemLength: head.length + system.length, systemSent, freshSent };
    },
  };
}
