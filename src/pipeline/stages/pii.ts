import type { Services } from "../services";
import type { Call } from "../call";
import type { Stage } from "../stage";
import { remaskText, restoreChoices, restoreEvents } from "../pii/answer";
import { PlaceholderMap } from "../pii/placeholders";
import { maskRequest, piiTypesOf } from "../pii/request";

interface PiiState {
  /** The call's placeholders (a conversation's so far, plus this call's new ones). Holds the values. */
  map: PlaceholderMap;
  /** How many entries the map had before this call: a commit stores it only when the call added some. */
  had: number;
  /** Where the map is kept between turns: the app and its conversation_id. */
  conversation?: { appId: string; id: string };
}

/**
 * svc_options.mask_pii: masks the request's messages at admission, before compression, routing and
 * the cache key see them (a cached answer keeps placeholders and is restored with each call's own
 * values, so it never carries one request's PII into another's); restores the answer for the client
 * (JSON, cache replay, stream events, tool-call arguments); keeps a conversation's placeholders,
 * sealed, in the store, so a placeholder the model echoes turns later is still restored, by whichever
 * gateway process serves that turn. Before the cache fill in STAGES: its commit masks the reassembled
 * stream answer again before the fill stores it.
 */
export function piiStage(s: Pick<Services, "settings" | "piiMaps" | "log">): Stage<PiiState | undefined> {
  const enabled = piiTypesOf(s.settings.piiTypes);
  const admit = (call: Call, map: PlaceholderMap, conversation?: PiiState["conversation"]): PiiState => {
    const had = map.size;
    const masked = maskRequest(call.req, enabled, map);
    call.req = masked.req;
    call.pii = { found: masked.found, masked: masked.masked };
    return conversation === undefined ? { map, had } : { map, had, conversation };
  };
  return {
    name: "pii",
    before(call) {
      if (!call.req.svc_options.mask_pii) return undefined;
      const id = call.req.svc_options.conversation_id;
      if (id === undefined) return admit(call, new PlaceholderMap());
      const conversation = { appId: call.key.appId, id };
      return s.piiMaps.get(conversation.appId, id).then((stored) => admit(call, stored ?? new PlaceholderMap(), conversation));
    },
    commit(_call, out, state) {
      if (!state) return;
      // A stream's answer was reassembled from the restored events: what is kept keeps placeholders.
      out.choices = out.choices.map((c) => ({
        ...c,
        message: { ...c.message, content: c.message.content === null ? null : remaskText(c.message.content, state.map) },
      }));
      const conversation = state.conversation;
      if (conversation === undefined || state.map.size === state.had) return;
      // Not awaited: the answer does not wait for the store (a later turn of this conversation in this
      // process waits for the write). A failure is logged without the map or the statement's values.
      s.piiMaps.put(conversation.appId, conversation.id, state.map).catch((e: unknown) => {
        s.log.warn({ err: (e as Error).name }, "pii: a conversation's placeholder map could not be stored");
      });
    },
    answer: (_call, choices, state) => (state ? restoreChoices(choices, state.map) : choices),
    stream: (_call, state) => (state && state.map.size > 0 ? restoreEvents(state.map) : undefined),
  };
}
