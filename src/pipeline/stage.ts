import type { Choice, StreamEvent } from "../providers/types";
import type { Call, Outcome } from "./call";

/**
 * A stateful step of the completion path. `before` runs at admission in list order (a throw refuses
 * the call: the stages admitted before it roll back); whatever it returns is the stage's state for
 * this call, handed back to the other hooks. Every admitted call is settled exactly once: `commit` in
 * list order when an answer went out, else `rollback` in reverse order. `stream` may return a
 * transform of the provider's events (e.g. restoring masked text across chunk boundaries) that the
 * relay pipes the stream through, in list order. `answer` may rewrite a whole answer's choices for
 * the client (JSON, and the cache's replay) without changing what the outcome keeps.
 */
export interface Stage<S = unknown> {
  readonly name: string;
  before?(call: Call): S | Promise<S>;
  commit?(call: Call, outcome: Outcome, state: S): void;
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

/** Runs the stages' `before` hooks in order, holding each admitted stage; a refusal throws (the settle rolls back what is held). */
export async function admit(call: Call, stages: readonly Stage[]): Promise<void> {
  for (const stage of stages) {
    const r = stage.before?.(call);
    // Only an asynchronous hook costs a turn of the event loop.
    call.held.push({ stage, state: r instanceof Promise ? await r : r });
  }
}

export function commit(call: Call, outcome: Outcome): void {
  for (const h of call.held) h.stage.commit?.(call, outcome, h.state);
}

export function rollback(call: Call, error: unknown): void {
  for (let i = call.held.length - 1; i >= 0; i--) {
    const h = call.held[i]!;
    h.stage.rollback?.(call, error, h.state);
  }
}
