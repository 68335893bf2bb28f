import type { ChatMessage } from "../../core/messages";
import { completeWithFallback } from "../../providers/call";
import { MODEL_SUMMARY_MAX_TOKENS, modelSummaryLine, summaryRequest } from "../context/model-summary";
import { recordSideCall } from "../settle";
import { estimateUsage } from "../usage";
import type { Services } from "../services";
import type { Stage } from "../stage";
import type { Call } from "../call";

/**
 * `svc_options.conversation_id`: calls on one conversation run one at a time (this process's lock, then
 * the store's lease for other processes, taken at admission and let go at the settle), each planned from the stored turns (context/conversations.ts)
 * and, once answered, stored with the forms that went upstream and the answer. A failed call stores
 * nothing.
 */
type ConversationServices = Pick<Services, "conversations" | "log" | "providers" | "callPolicy" | "ledger" | "catalog">;

export function conversationStage(s: ConversationServices): Stage<(() => void) | undefined> {
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

/**
 * Waits for the conversation's earlier calls, in this process and then in others, then plans this one
 * (letting go if planning refuses it). The lease goes back before the lock, so this process's next call
 * finds it free.
 */
async function admitTo(s: ConversationServices, call: Call, id: string): Promise<() => void> {
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
    const maxTurns = call.req.svc_options.max_turns_to_keep;
    call.conversation = await c.plan(call.key.appId, id, call.req.messages, maxTurns);
    const step = call.conversation.step;
    const line = step && (await modelSummaryStep(s, call, call.conversation.loaded.turns.slice(step.from, step.to), step.from + 1));
    if (line) call.conversation = await c.plan(call.key.appId, id, call.req.messages, maxTurns, [line]);
  } catch (e) {
    release();
    throw e;
  }
  return release;
}

/**
 * A summary step written by the operator's summary model (SVC_CONVERSATION_SUMMARY_MODEL), recorded in
 * the ledger as a call of its own; undefined (the extractive lines stay) without a model, or when the
 * model fails or answers nothing: the summary never waits on a failing provider for more than one try.
 */
async function modelSummaryStep(s: ConversationServices, call: Call, turns: readonly ChatMessage[], firstTurn: number): Promise<string | undefined> {
  const model = s.conversations.settings.summaryModel;
  if (!model) return undefined;
  const messages = summaryRequest(turns, firstTurn);
  try {
    const r = await completeWithFallback(
      s.providers,
      { candidates: [model], messages, max_tokens: MODEL_SUMMARY_MAX_TOKENS, params: { temperature: 0 }, signal: call.signal },
      { ...s.callPolicy, retries: 0 },
    );
    const text = r.response.choices[0]?.message.content ?? "";
    recordSideCall(s, call, "summary", r.model, r.response.usage ?? estimateUsage(messages, r.model, text), r.upstreamMs);
    return modelSummaryLine(text, firstTurn, firstTurn + turns.length - 1);
  } catch (e) {
    s.log.warn(
      { err: { message: (e as Error).message }, conversation_id: call.req.svc_options.conversation_id },
      "conversation summary model failed; extractive summary used",
    );
    return undefined;
  }
}
