import type { ChatMessage } from "../../core/messages";
import type { MemoScope } from "../context/message-memo";
import type { Services } from "../services";
import type { Stage } from "../stage";

/**
 * A call without conversation_id that compresses: its leading messages seen in an earlier call go
 * upstream in the form they were sent then, and the optimizer works on the rest only
 * (context/message-memo.ts); once answered, its new messages' sent forms and the answer are remembered
 * for the next call, which resends them.
 */
export function messageMemoStage(s: Pick<Services, "messageMemo">): Stage<MemoScope | undefined> {
  return {
    name: "message-memo",
    before(call) {
      const o = call.req.svc_options;
      if (!s.messageMemo.enabled || o.conversation_id !== undefined || !o.compress) return undefined;
      const scope = { appId: call.key.appId, aggressiveness: o.max_aggressiveness, skipRules: o.skip_rules };
      const remembered = s.messageMemo.prefix(scope, call.req.messages);
      if (remembered) call.remembered = remembered;
      return scope;
    },
    commit(call, outcome, scope) {
      if (!scope || !call.plan) return;
      const fresh = call.req.messages.slice(call.remembered?.count ?? 0);
      const sent = call.plan.context ? call.plan.context.assembled.freshSent : call.plan.opt.messages;
      // The compression stage keeps one output message per input; were that ever not so, nothing is remembered.
      if (sent.length !== fresh.length) return;
      const choice = outcome.choices.length === 1 ? outcome.choices[0] : undefined;
      const answer: ChatMessage[] = choice
        ? [{ role: "assistant", content: choice.message.content ?? "", ...(choice.message.tool_calls && { tool_calls: choice.message.tool_calls }) }]
        : [];
      s.messageMemo.remember(scope, [...fresh, ...answer], [...sent, ...answer]);
    },
  };
}
