import { SSE_DONE, sseData } from "../core/sse";
import type { Choice, FinishReason, Usage } from "../providers/types";
import type { CachedAnswer } from "./cache";
import { replayDeltas } from "./cache";
import type { Call, Outcome } from "./call";
import type { SvcMeta } from "./meta";

/** What POST /v1/complete answers with: a JSON body, or an SSE byte stream (a cache replay is whole at once, a Blob). */
export type CompletionResult = { kind: "json"; body: CompletionBody } | { kind: "sse"; stream: ReadableStream<Uint8Array> | Blob };

export type CompletionBody = ReturnType<typeof completionBody>;

/** OpenAI's usage object: the provider's details (cached_tokens, reasoning_tokens) go on as reported, and a cached share any provider reported in OpenAI's place for it. */
function usageOf(u: Usage) {
  const { cached_tokens, cache_write_tokens: _written, ...wire } = u;
  const usage: typeof wire & { total_tokens: number } = { ...wire, total_tokens: u.prompt_tokens + u.completion_tokens };
  if (cached_tokens !== undefined && usage.prompt_tokens_details === undefined) usage.prompt_tokens_details = { cached_tokens };
  return usage;
}

/** The JSON answer: `choices` as the client gets them (the stages' `answer`, see forClient), the rest from the outcome. */
export function completionBody(call: Call, out: Outcome, choices: Choice[], meta: SvcMeta) {
  return {
    id: call.requestId,
    object: "chat.completion" as const,
    created: Math.floor(Date.now() / 1000),
    model: out.served.id,
    choices,
    usage: usageOf(out.usage),
    ...out.extra,
    svc_meta: meta,
  };
}

export type ChunkFramer = (choices: unknown[], extra?: Record<string, unknown>) => Uint8Array;

/** Frames OpenAI `chat.completion.chunk` events for one answer. */
export function chunkFramer(call: Call, model: string): ChunkFramer {
  const created = Math.floor(Date.now() / 1000);
  return (choices, extra) => sseData({ id: call.requestId, object: "chat.completion.chunk", created, model, choices, ...extra });
}

/**
 * The end of a stream, as OpenAI ends it: every choice's finish chunk (an empty delta and its
 * finish_reason), then, when the client asked with stream_options.include_usage, a chunk with
 * `choices: []` and the usage. svc_meta rides on the last chunk sent, so it is there either way.
 */
export function closingFrames(
  chunk: ChunkFramer,
  finishes: readonly { index: number; finish_reason: FinishReason }[],
  u: Usage,
  meta: SvcMeta,
  includeUsage: boolean,
): Uint8Array[] {
  const last = finishes.length - 1;
  const frames = finishes.map((f, i) =>
    chunk([{ index: f.index, delta: {}, finish_reason: f.finish_reason }], i === last && !includeUsage ? { svc_meta: meta } : undefined),
  );
  if (includeUsage) frames.push(chunk([], { usage: usageOf(u), svc_meta: meta }));
  return frames;
}

/** A cached answer replayed as the chunks a provider would have streamed, then the closing chunks and `[DONE]`. */
export function replayFrames(call: Call, out: Outcome, answer: CachedAnswer, meta: SvcMeta): Blob {
  const chunk = chunkFramer(call, out.served.id);
  const frames: Uint8Array[] = [];
  const finishes: { index: number; finish_reason: FinishReason }[] = [];
  for (const d of replayDeltas(answer)) {
    if (d.finish_reason) finishes.push({ index: d.index, finish_reason: d.finish_reason });
    else frames.push(chunk([d]));
  }
  if (finishes.length === 0) finishes.push({ index: 0, finish_reason: "stop" });
  frames.push(...closingFrames(chunk, finishes, out.usage, meta, includeUsage(call)), SSE_DONE);
  return new Blob(frames);
}

/** stream_options.include_usage, as the client sent it. */
export function includeUsage(call: Call): boolean {
  return call.req.params.stream_options?.include_usage === true;
}
