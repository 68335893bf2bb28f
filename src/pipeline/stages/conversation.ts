import type { ChatMessage } from "../../core/messages";
import type { Services } from "../services";
import type { Stage } from "../stage";
import type { Call } from "../call";

/**
 * `svc_options.conversation_id`: calls on one conversation run one at a time (this process's lock, then
 * the store's lease for other processes, taken at admission and let go at the settle), each planned from the stored turns (context/conversations.ts)
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
      try {
        const sent = call.plan?.context?.assembled;
        const choice = outcome.choices[0];
        const answer: ChatMessage | undefined = choice && {
          role: "assistant",
          content: choice.message.content ?? "",
          ...(choice.message.tool_calls && { tool_calls: choice.message.tool_calls }),
        };
        if (call.conversation && sent) s.conversations.record(call.conversation, sent.systemSent, sent.freshSent, answer);
      } finally {
        release();
      }
    },
    rollback: (_call, _error, release) => release?.(),
  };
}

/**
 * Waits for the conversation's earlier calls, in this process and then in others, then plans this one
 * (letting go if planning refuses it). The lease goes back before the lock, so this process's next call
 * finds it free.
 */
async function admitTo(s: Pick<Services, "conversations" | "log">, call: Call, id: string): Promise<() => void> {
  const c = s.conversations;
  const unlock = await c.lock.acquire(`${call.key.appId}\u0000${id}`, call.signal);
  let unlease: (() => Promise<void>) | undefined;
  const release = () => {
    if (!unlease) return unlock();
    // A lease that cannot be deleted expires by itself (the call's longest run): logged, never failing a settled call.
    unlease()
      .catch((e) => s.log.error({ err: { message: (e as Error).message }, conversation_id: id }, "conversation lease could not be released"))
      .finally(unlock);
  };
  try {
    unlease = await c.leases.acquire(call.key.appId, id, `${process.pid}:${call.requestId}`, call.signal);
    call.conversation = c.plan(call.key.appId, id, call.req.messages, call.req.svc_options.max_turns_to_keep);
  } catch (e) {
    release();
    throw e;
  }
  return release;
}
