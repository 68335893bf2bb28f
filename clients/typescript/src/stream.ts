import { errorFrom, SvcConnectionError } from "./errors.js";
import { SseParser } from "./sse.js";
import type { CompletionChunk, SvcMeta } from "./types.js";

/**
 * A streamed completion: iterate it once for its chunks. The last chunk has `finish_reason` set and
 * carries `svc_meta`, also kept in `meta`. An error svc reports mid-stream (the provider failed after
 * the first chunk) is thrown as its typed error; a stream that ends without `[DONE]` throws
 * `SvcConnectionError`, so half an answer is never mistaken for a whole one.
 */
export class CompletionStream implements AsyncIterable<CompletionChunk> {
  /** `svc_req_…` */
  readonly requestId: string | undefined;
  /** The final chunk's `svc_meta`, once iteration has reached it. */
  meta: SvcMeta | undefined;
  private started = false;

  constructor(
    readonly response: Response,
    private readonly signal?: AbortSignal,
  ) {
    this.requestId = response.headers.get("x-request-id") ?? undefined;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<CompletionChunk> {
    if (this.started) throw new Error("svc: a CompletionStream can be iterated only once");
    this.started = true;
    if (!this.response.body) throw new SvcConnectionError("svc: the stream has no body");
    const reader = this.response.body.getReader();
    const parser = new SseParser();
    let done = false;
    try {
      for (;;) {
        let read: Awaited<ReturnType<typeof reader.read>>;
        try {
          read = await reader.read();
        } catch (e) {
          if (this.signal?.aborted) throw e;
          throw new SvcConnectionError(`svc: the stream broke: ${(e as Error).message}`, { cause: e });
        }
        for (const ev of read.done ? parser.end() : parser.push(read.value)) {
          if (ev.data === "[DONE]") {
            done = true;
            return;
          }
          const payload = JSON.parse(ev.data) as CompletionChunk | { error: unknown };
          if ("error" in payload) throw errorFrom(payload, { requestId: this.requestId });
          if (payload.svc_meta) this.meta = payload.svc_meta;
          yield payload;
        }
        if (read.done) throw new SvcConnectionError(`svc: the stream ended before [DONE] (request ${this.requestId ?? "unknown"})`);
      }
    } finally {
      // A consumer that stops early (break) must not leave the connection open.
      if (!done) await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  }

  /** Reads the whole stream: the joined text of choice 0 and the final `svc_meta`. */
  async collect(): Promise<{ text: string; meta: SvcMeta | undefined; chunks: CompletionChunk[] }> {
    const chunks: CompletionChunk[] = [];
    let text = "";
    for await (const c of this) {
      chunks.push(c);
      text += c.choices.find((ch) => ch.index === 0)?.delta.content ?? "";
    }
    return { text, meta: this.meta, chunks };
  }
}
