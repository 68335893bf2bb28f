import type { Stage } from "../stage";

/** A cache miss's fill (set by the cache step): completed with the answer, or failed so waiting duplicates call upstream themselves. */
export function cacheFillStage(): Stage<void> {
  return {
    name: "cache-fill",
    commit(call, out) {
      if (!call.fill) return;
      if (out.cacheable) call.fill.complete({ model: out.served.id, choices: out.choices, usage: out.usage });
      else call.fill.fail();
    },
    rollback: (call) => call.fill?.fail(),
  };
}
