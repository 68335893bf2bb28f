import { ApiError } from "../core/errors";
import { SSE_DONE, sseData } from "../core/sse";
import type { StreamResult } from "../providers/call";
import { ProviderError, type Choice, type FinishReason, type StreamEvent, type Usage } from "../providers/types";
import type { Call, Outcome } from "./call";
import type { SvcMeta } from "./meta";
import { chunkFramer, closingFrames, includeUsage } from "./render";
import { estimateUsage } from "./usage";

/**
 * How the relay ends a call: the runner prices and settles it. Each returns, when the call's ledger row
 * went to a journal, the promise that it is written there (settle): the stream's last frames wait for it.
 */
export interface RelayEnds {
  /** The provider's stream ended with a whole answer; returns the closing chunk's svc_meta. */
  answered(out: Outcome): { meta: SvcMeta; journaled: Promise<void> | undefined };
  /** The stream failed, the client went away or the gateway stopped, after part of an answer went out: what went out. */
  partial(error: unknown, out: Outcome): Promise<void> | undefined;
  /** The same before any chunk went out. */
  failed(error: unknown): Promise<void> | undefined;
}

function readableOf<T>(events: AsyncIterable<T>): ReadableStream<T> {
  const it = events[Symbol.asyncIterator]();
  return new ReadableStream<T>({
    async pull(controller) {
      const next = await it.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await it.return?.();
    },
  });
}

/** The provider's events through every stage's stream transform, in list order; untouched when no stage has one. */
function transformed(call: Call, events: AsyncIterable<StreamEvent>): AsyncIterable<StreamEvent> {
  let stream: ReadableStream<StreamEvent> | undefined;
  for (const h of call.held) {
    const t = h.stage.stream?.(call, h.state);
    if (t) stream = (stream ?? readableOf(events)).pipeThrough(t);
  }
  return stream ?? events;
}

/**
 * Relays the provider's stream as OpenAI chunks the moment each arrives. The final chunk carries an
 * empty delta, the finish reason and the full svc_meta, then `[DONE]`. A provider failing mid-way
 * ends the stream with an error event and no `[DONE]`, so no client mistakes half an answer for a
 * whole one. The client going away aborts the upstream call. `stopping` aborts when the gateway's
 * shutdown grace runs out, which cuts the streams still open: they are recorded as stopped by the
 * gateway, not as closed by the client.
 */
export function relay(call: Call, r: StreamResult, ends: RelayEnds, stopping?: AbortSignal): ReadableStream<Uint8Array> {
  const chunk = chunkFramer(call, r.model.id);
  const iterator = transformed(call, r.events)[Symbol.asyncIterator]();
  const texts: string[] = [];
  const refusals: string[] = [];
  const finishes: FinishReason[] = [];
  let toolCalls = false;
  let usage: Usage | undefined;
  let finish: FinishReason = "stop";
  let delivered = 0;
  // Each choice's finish chunk goes out when the next one arrives; the last is held for the close,
  // which adds svc_meta to it (or follows it with the usage chunk the client asked for).
  let held: { index: number; finish_reason: FinishReason } | undefined;

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        for (;;) {
          const next = await iterator.next();
          if (next.done) break;
          const ev = next.value;
          if (ev.kind === "usage") {
            usage = ev.usage;
            continue;
          }
          const d = ev.delta;
          if (d.delta.content) texts[d.index] = (texts[d.index] ?? "") + d.delta.content;
          if (d.delta.refusal) refusals[d.index] = (refusals[d.index] ?? "") + d.delta.refusal;
          if (d.delta.tool_calls) toolCalls = true;
          let sent = false;
          if (d.finish_reason) {
            finish = d.finish_reason;
            finishes[d.index] = d.finish_reason;
            if (held) {
              controller.enqueue(chunk([{ index: held.index, delta: {}, finish_reason: held.finish_reason }]));
              sent = true;
            }
            held = { index: d.index, finish_reason: d.finish_reason };
            if (Object.keys(d.delta).length === 0 && d.logprobs === undefined) {
              if (!sent) continue;
              delivered++;
              return;
            }
          }
          controller.enqueue(chunk([{ index: d.index, delta: d.delta, ...(d.logprobs !== undefined && { logprobs: d.logprobs }), finish_reason: null }]));
          delivered++;
          return;
        }
        const out = outcome(!toolCalls);
        const { meta, journaled } = ends.answered(out);
        if (journaled) await journaled;
        for (const frame of closingFrames(chunk, [held ?? { index: 0, finish_reason: finish }], out.usage, meta, includeUsage(call))) controller.enqueue(frame);
        controller.enqueue(SSE_DONE);
        controller.close();
      } catch (e) {
        const journaled = end(e);
        if (journaled) await journaled;
        const err = e instanceof ApiError ? e : new ApiError("UPSTREAM_ERROR", "the provider failed while streaming");
        if (!(e instanceof ProviderError && e.kind === "aborted")) controller.enqueue(sseData(err.body(call.requestId)));
        controller.close();
      }
    },
    async cancel() {
      // The client went away mid-answer, or the gateway's shutdown grace ran out: stop the upstream call,
      // cache nothing, and charge what was delivered.
      void end(new ProviderError("aborted", "client closed the stream"));
      await iterator.return?.();
    },
  });

  /** The answer as relayed so far; for a stream cut short, usage counts the completion delivered when the provider reported none. */
  function outcome(cacheable: boolean): Outcome {
    const count = Math.max(texts.length, refusals.length, finishes.length);
    const choices: Choice[] = Array.from({ length: count }, (_, index) => {
      const message: Choice["message"] = { role: "assistant", content: texts[index] ?? "" };
      if (refusals[index]) message.refusal = refusals[index];
      return { index, message, finish_reason: finishes[index] ?? finish };
    });
    return {
      served: r.model,
      choices,
      usage: usage ?? estimateUsage(call.plan!.opt.messages, r.model, texts.join("")),
      reason: r.fallback ? "fallback" : call.plan!.reason,
      cacheHit: false,
      upstreamMs: r.upstreamMs,
      simulated: r.provider.simulated,
      cacheable,
    };
  }

  function end(e: unknown): Promise<void> | undefined {
    // Cutting the connections aborts the client's signal too, so the gateway's stop is asked first.
    const why = stopping?.aborted ? new ApiError("SHUTTING_DOWN", "the gateway stopped while the stream was open") : e;
    return delivered > 0 ? ends.partial(why, outcome(false)) : ends.failed(why);
  }
}
