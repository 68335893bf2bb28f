import type { QuotaTicket } from "../../auth/quota";
import type { Services } from "../services";
import type { Stage } from "../stage";

/** The key's call limits: a call is taken at admission and given back when it fails (a failed call is never counted). */
export function quotaStage(s: Pick<Services, "quota">): Stage<QuotaTicket> {
  return {
    name: "quota",
    before: (call) => s.quota.consume(call.key, Date.now()),
    rollback: (_call, _error, ticket) => s.quota.refund(ticket),
  };
}
