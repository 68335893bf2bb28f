import type { ChatMessage } from "../../core/messages";

/** A turn as the conversation stores it: the client's original and the form that went upstream, each counted once (o200k). */
export interface StoredTurn {
  role: ChatMessage["role"];
  content: string;
  name?: string;
  tool_call_id?: string;
  tool_calls?: ChatMessage["tool_calls"];
  sent: string;
  tokens: number;
  sent_tokens: number;
}

/** How the messages of a call relate to what the conversation holds. */
export interface Reconciled {
  /** Stored turns that stay; fewer than stored when a resent history contradicts them. */
  keep: number;
  /** The turns this call adds, in order, as the client sent them. */
  fresh: ChatMessage[];
  /** The client resent its whole history (rather than only the new turns). */
  resent: boolean;
  /** Index of the first stored turn a resent history contradicts, when one does. */
  conflictAt?: number;
}

export function sameTurn(a: ChatMessage, b: ChatMessage | StoredTurn): boolean {
  return (
    a.role === b.role &&
    a.content === b.content &&
    (a.name ?? "") === (b.name ?? "") &&
    (a.tool_call_id ?? "") === (b.tool_call_id ?? "") &&
    JSON.stringify(a.tool_calls ?? null) === JSON.stringify(b.tool_calls ?? null)
  );
}

/**
 * Tells a resent history from new turns, and settles a contradiction (README, "Conversations"):
 * - The call's turns (its messages after the leading system ones) are a **resend** when there are at
 *   least two of them and the first equals the conversation's first stored turn. A client sending only
 *   new turns sends one turn (or a tool result and more) that is new, so a single message is always new.
 * - A resend whose stored turns are a prefix of it adds the rest.
 * - A resend that differs from the stored turns at turn i (an edited message, a regenerated answer, a
 *   branch) is a **conflict**: the client's history wins. The stored turns from i on are dropped and the
 *   resent ones from i on take their place; a summary that covered a dropped turn is rebuilt. A resend
 *   that stops inside the stored turns (the client regenerating an earlier answer) drops the stored
 *   turns after it, and its last turn is sent again as new.
 * - Anything else is new turns, appended after the stored ones.
 */
export function reconcile(stored: readonly StoredTurn[], turns: readonly ChatMessage[]): Reconciled {
  if (stored.length === 0 || turns.length < 2 || !sameTurn(turns[0]!, stored[0]!)) return { keep: stored.length, fresh: [...turns], resent: false };
  const n = Math.min(stored.length, turns.length);
  let d = 1;
  while (d < n && sameTurn(turns[d]!, stored[d]!)) d++;
  if (d === stored.length) return { keep: d, fresh: turns.slice(d), resent: true };
  // A resend that ends inside the stored turns: its last turn is the one to answer again.
  const keep = d === turns.length ? d - 1 : d;
  return { keep, fresh: turns.slice(keep), resent: true, conflictAt: keep };
}
