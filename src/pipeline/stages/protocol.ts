import type { Services } from "../services";
import type { Stage } from "../stage";

/** `svc_options.protocol_id`: the stored protocol, or 404 NOT_FOUND before any work (another app's id is unknown here). */
export function protocolStage(s: Pick<Services, "protocols">): Stage<void> {
  return {
    name: "protocol",
    before(call) {
      const id = call.req.svc_options.protocol_id;
      // Synchronous without a protocol: an asynchronous hook costs every call a turn of the event loop.
      if (id === undefined) return;
      return s.protocols.resolve(call.key.appId, id).then((p) => void (call.protocol = p));
    },
  };
}
