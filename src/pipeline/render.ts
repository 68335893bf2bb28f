import { SSE_DONE, sseData } from "../core/sse";
import type { FinishReason, Usage } from "../providers/types";
import type { CachedAnswer } from "./cache";
import { replayDeltas } from "./cache";
import type { Call, Outcome } from "./call";
import type { SvcMeta } from "./meta";

/** What POST /v1/complete answers with: a JSON body, or an SSE byte stream (a cache replay is whole at once, a Blob). */
export type CompletionResult = { kind: "json"; body: CompletionBody } | { kind: "sse"; stream: ReadableStream<Uint8Array> | Blob };

export type CompletionBody = ReturnType<typeof completionBody>;

function usageOf(u: Usage) {
  return { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.prompt_tokens + u.completion_tokens };
}

export function completionBody(call: Call, out: Outcome, meta: SvcMeta) {
  return {
    id: call.requestId,
    object: "chat.completion" as const,
    created: Math.floor(Date.now() / 1000),
    model: out.served.id,
    choices: out.choices,
    usage: usageOf(out.usage),
    svc_meta: meta,
  };
}

export type ChunkFramer = (choices: unknown[], extra?: Record<string, unknown>) => Uint8Array;

/** Frames OpenAI `chat.completion.chunk` events for one answer. */
export function chunkFramer(call: Call, model: string): ChunkFramer {
  const created = Math.floor(Date.now() / 1000);
  return (choices, extra) => sseData({ id: call.requestId, object: "chat.completion.chunk", created, model, choices, ...extra });
}

/** The closing chunk: an empty delta, the finish reason, usage and the full svc_meta. */
export function finalChunk(chunk: ChunkFramer, finish: FinishReason, u: Usage, meta: SvcMeta): Uint8Array {
  return chunk([{ index: 0, delta: {}, finish_reason: finish }], { usage: usageOf(u), svc_meta: meta });
}

/** A cached answer replayed as the chunks a provider would have streamed, then the closing chunk and `[DONE]`. */
export function replayFrames(call: Call, out: Outcome, answer: CachedAnswer, meta: SvcMeta): Blob {
  const chunk = chunkFramer(call, out.served.id);
  const frames: Uint8Array[] = [];
  const deltas = replayDeltas(answer);
  for (const d of deltas) if (!d.finish_reason) frames.push(chunk([d]));
  const finish = deltas.find((d) => d.finish_reason)?.finish_reason ?? "stop";
  frames.push(finalChunk(chunk, finish, out.usage, meta), SSE_DONE);
  return new Blob(frames);
}
