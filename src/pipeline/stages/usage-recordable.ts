import { ApiError } from "../../core/errors";
import type { Services } from "../services";
import type { Stage } from "../stage";

/**
 * Refuses a billable call the ledger could not record (its journal cannot be written, or the store has
 * stopped taking rows): answering it would be a call nobody pays for (issue 23: 21,047 calls answered on a
 * full disk, 376 recorded).
 */
export function usageRecordableStage(s: Pick<Services, "ledger">): Stage<void> {
  return {
    name: "usage-recordable",
    before: () => {
      const problem = s.ledger.problem;
      if (problem) throw new ApiError("STORE_UNAVAILABLE", `usage cannot be recorded now: ${problem}; retry shortly`, { retryAfterS: 5 });
    },
  };
}
