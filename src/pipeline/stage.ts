import type { Choice, StreamEvent } from "../providers/types";
import type { Call, Outcome, Plan, Priced } from "./call";

/**
 * A stateful step of the completion path. `before` runs at admission in list order (a throw refuses
 * the call: the stages admitted before it roll back); whatever it returns is the stage's state for
 * this call, handed back to the other hooks. `planned` runs in list order once routing has chosen the
 * candidates and the cache has missed, just before the provider call (a throw refuses the call, which
 * rolls back): what depends on the model, such as a reservation of the call's worst-case cost, is
 * decided there. Every admitted call is settled exactly once: `commit` in list order when an answer
 * went out (it may add to the answer's svc_meta, not yet sent), else `rollback` in reverse order. `stream` may return a
 * transform of the provider's events (e.g. restoring masked text across chunk boundaries) that the
 * relay pipes the stream through, in list order. `answer` may rewrite a whole answer's choices for
 * the client (JSON, and the cache's replay) without changing what the outcome keeps.
 */
export interface Stage<S = unknown> {
  readonly name: string;
  before?(call: Call): S | Promise<S>;
  planned?(call: Call, plan: Plan, state: S): void | Promise<void>;
  commit?(call: Call, outcome: Outcome, state: S, priced: Priced): void;
  rollback?(call: Call, error: unknown, state: S): void;
  stream?(call: Call, state: S): TransformStream<StreamEvent, StreamEvent> | undefined;
  answer?(call: Call, choices: Choice[], state: S): Choice[];
}

/** The choices as the client gets them: through every held stage's `answer`, in list order. */
export function forClient(call: Call, choices: Choice[]): Choice[] {
  let out = choices;
  for (const h of call.held) if (h.stage.answer) out = h.stage.answer(call, out, h.state);
  return out;
}

/**
 * Runs the stages' `before` hooks in order, holding each admitted stage; a refusal throws, or rejects
 * once a hook went asynchronous (the settle rolls back what is held). A promise only when a hook
 * returned one, like `planned`: a relayed call's hooks all answer at once, and the async function this
 * was cost it an await and a promise per call (admit was 0.9% of the relay's event-loop samples under
 * load, bun --cpu-prof).
 */
export function admit(call: Call, stages: readonly Stage[], from = 0): void | Promise<void> {
  for (let i = from; i < stages.length; i++) {
    const stage = stages[i]!;
    const start = call.befores ? performance.now() : 0;
    const r = stage.before?.(call);
    if (r instanceof Promise)
      return r.then((state) => {
        hold(call, stage, state, start);
        return admit(call, stages, i + 1);
      });
    hold(call, stage, r, start);
  }
}

function hold(call: Call, stage: Stage, state: unknown, start: number): void {
  call.held.push({ stage, state });
  call.befores?.push({ name: stage.name, start, end: performance.now() });
}

/**
 * Runs the admitted stages' `planned` hooks in order, before the provider call. A promise only when a
 * hook returned one: a call no stage reserves for takes no extra turn of the event loop.
 */
export function planned(call: Call, plan: Plan, from = 0): void | Promise<void> {
  for (let i = from; i < call.held.length; i++) {
    const h = call.held[i]!;
    const r = h.stage.planned?.(call, plan, h.state);
    if (r instanceof Promise) return r.then(() => planned(call, plan, i + 1));
  }
}

export function commit(call: Call, outcome: Outcome, priced: Priced): void {
  for (const h of call.held) h.stage.commit?.(call, outcome, h.state, priced);
}

export function rollback(call: Call, error: unknown): void {
  for (let i = call.held.length - 1; i >= 0; i--) {
    const h = call.held[i]!;
    h.stage.rollback?.(call, error, h.state);
  }
}
