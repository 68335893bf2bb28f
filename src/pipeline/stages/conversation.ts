import type { ChatMessage } from "../../core/messages";
import type { Services } from "../services";
import type { Stage } from "../stage";
import type { Call } from "../call";

/**
 * `svc_options.conversation_id`: calls on one conversation run one at a time (the lock is taken at
 * admission and let go at the settle), each planned from the stored turns (context/conversations.ts)
 * and, once answered, stored with the forms that went upstream and the answer. A failed call stores
 * nothing.
 */
export function conversationStage(s: Pick<Services, "conversations" | "log">): Stage<(() => void) | undefined> {
  return {
    name: "conversation",
    before(call) {
      const id = call.req.svc_options.conversation_id;
      // Synchronous without a conversation: an asynchronous hook costs every call a turn of the event loop.
      if (id === undefined) return undefined;
      return admitTo(s, call, id);
    },
    commit(call, outcome, release) {
      if (!release) return;
      const sent = call.plan?.context?.assembled;
      const choice = outcome.choices[0];
      const answer: ChatMessage | undefined = choice && {
        role: "assistant",
        content: choice.message.content ?? "",
        ...(choice.message.tool_calls && { tool_calls: choice.message.tool_calls }),
      };
      // The lock is let go once the turns are stored, so the conversation's next call plans from them.
      if (call.conversation && sent)
        void s.conversations
          .record(call.conversation, sent.systemSent, sent.freshSent, answer)
          .catch((e: Error) =>
            s.log.error({ err: { message: e.message }, conversation_id: call.req.svc_options.conversation_id }, "conversation: the turns were not stored"),
          )
          .finally(release);
      else release();
    },
    rollback: (_call, _error, release) => release?.(),
  };
}

/** Waits for the conversation's earlier calls, then plans this one (letting go if planning refuses it). */
async function admitTo(s: Pick<Services, "conversations">, call: Call, id: string): Promise<() => void> {
  const release = await s.conversations.lock.acquire(`${call.key.appId}\u0000${id}`, call.signal);
  try {
    call.conversation = await s.conversations.plan(call.key.appId, id, call.req.messages, call.req.svc_options.max_turns_to_keep);
  } catch (e) {
    release();
    throw e;
  }
  return release;
}
