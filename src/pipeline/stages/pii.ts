import type { Services } from "../services";
import type { Stage } from "../stage";
import { remaskText, restoreChoices, restoreEvents } from "../pii/answer";
import { PlaceholderMap } from "../pii/placeholders";
import { maskRequest, piiTypesOf } from "../pii/request";

interface PiiState {
  /** The call's placeholders (a conversation's so far, plus this call's new ones). Holds the values. */
  map: PlaceholderMap;
  /** Where the map is kept between turns: the app and its conversation_id. */
  owner?: string;
}

/**
 * svc_options.mask_pii: masks the request's messages at admission, before compression, routing and
 * the cache key see them (a cached answer keeps placeholders and is restored with each call's own
 * values, so it never carries one request's PII into another's); restores the answer for the client
 * (JSON, cache replay, stream events, tool-call arguments); keeps a conversation's placeholders,
 * sealed, so a placeholder the model echoes turns later is still restored. Before the cache fill in
 * STAGES: its commit masks the reassembled stream answer again before the fill stores it.
 */
export function piiStage(s: Pick<Services, "settings" | "piiMaps">): Stage<PiiState | undefined> {
  const enabled = piiTypesOf(s.settings.piiTypes);
  return {
    name: "pii",
    before(call) {
      if (!call.req.svc_options.mask_pii) return undefined;
      const conversation = call.req.svc_options.conversation_id;
      const owner = conversation === undefined ? undefined : `${call.key.appId}\u0000${conversation}`;
      const map = (owner !== undefined && s.piiMaps.get(owner)) || new PlaceholderMap();
      const masked = maskRequest(call.req, enabled, map);
      call.req = masked.req;
      call.pii = { found: masked.found, masked: masked.masked };
      return owner === undefined ? { map } : { map, owner };
    },
    commit(_call, out, state) {
      if (!state) return;
      // A stream's answer was reassembled from the restored events: what is kept keeps placeholders.
      out.choices = out.choices.map((c) => ({
        ...c,
        message: { ...c.message, content: c.message.content === null ? null : remaskText(c.message.content, state.map) },
      }));
      if (state.owner !== undefined && state.map.size > 0) s.piiMaps.put(state.owner, state.map);
    },
    answer: (_call, choices, state) => (state ? restoreChoices(choices, state.map) : choices),
    stream: (_call, state) => (state && state.map.size > 0 ? restoreEvents(state.map) : undefined),
  };
}
