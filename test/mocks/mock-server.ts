import { createHash } from "node:crypto";
import type { Server } from "bun";

/** What a mock answers, before a wire format dresses it. */
export interface MockReply {
  model: string;
  /** The answer text, a function of the last user message so tests can tell answers apart. */
  text: string;
  /** The text in stream-sized pieces (one word with its trailing space each); they join to `text`. */
  pieces: string[];
  /** Every prompt token, cached or not (OpenAI's prompt_tokens). */
  promptTokens: number;
  /** Of promptTokens, read from the provider's prompt cache. */
  cachedTokens: number;
  /** Of promptTokens, written to the prompt cache (Anthropic bills these at 1.25x). */
  cacheWriteTokens: number;
  completionTokens: number;
  /** Number of choices / candidates asked for. */
  n: number;
  /** Answer with this tool call instead of (after) text, when set and the request declares tools. */
  toolCall?: { id: string; name: string; arguments: Record<string, unknown> };
  /** Raw wire value (e.g. "max_tokens", "MAX_TOKENS", "length") overriding the natural one. */
  stopReason?: string;
  /** Answer with this refusal instead of text (formats that have one). */
  refusal?: string;
  /** Wire fields merged into the answer: `top` into the body (every chunk of a stream), `choice`, `message`, `usage`. */
  extras?: MockExtras;
}

export interface MockExtras {
  top?: Record<string, unknown>;
  choice?: Record<string, unknown>;
  message?: Record<string, unknown>;
  usage?: Record<string, unknown>;
}

/** One piece of a prompt in order (a system block, a message, a content block): what a provider's prompt cache keys on. */
export interface PromptSegment {
  /** The piece's exact wire form: two prompts share a cached prefix only when these match. */
  key: string;
  /** Its text, for the token count (one token per word, as the rest of the mock counts). */
  text: string;
  /** Marked with a cache breakpoint (Anthropic's cache_control). */
  breakpoint: boolean;
}

/**
 * How a provider caches prompt prefixes: `automatic` caches every prompt of at least `minTokens` and
 * reads the longest prefix seen before, in steps of `step` tokens (OpenAI: 1,024 and 128; Gemini's
 * implicit cache: no step); `explicit` caches only up to segments marked as breakpoints, when that
 * prefix has `minTokens` (Anthropic: 1,024 on Sonnet and Opus).
 */
export interface PromptCachePolicy {
  mode: "automatic" | "explicit";
  minTokens: number;
  step: number;
}

/** How one provider's wire format is read and written. */
export interface WireFormat {
  name: string;
  promptCache?: PromptCachePolicy;
  /** The parsed request's meaning, or undefined when the path is not an endpoint of this API. */
  parse(
    url: URL,
    body: unknown,
  ):
    | {
        model: string;
        stream: boolean;
        n: number;
        hasTools: boolean;
        texts: string[];
        lastUserText: string;
        endsWithToolResult?: boolean;
        segments?: PromptSegment[];
      }
    | undefined;
  /** The credential the request presents, if any. */
  presentedKey(headers: Headers): string | null;
  /** Why the request's headers are invalid for this API (answered with a 400), if they are. */
  headerProblem?(headers: Headers): string | undefined;
  errorBody(status: number, message: string): unknown;
  /** The answer to an embeddings request, for formats that have one (OpenAI's POST /v1/embeddings). */
  embeddings?(url: URL, body: unknown): unknown | undefined;
  completion(reply: MockReply): unknown;
  /** The stream as SSE frames, each a complete `event:`/`data:` block ending in a blank line. */
  streamFrames(reply: MockReply): string[];
}

export interface RecordedRequest {
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** Client port of the TCP connection: the same port twice means the connection was reused. */
  remotePort: number;
  /** The client went away (aborted or timed out) before the answer was complete. */
  aborted: boolean;
  /** When the mock finished sending (ms, performance.now()); undefined until then or when cut/aborted. */
  finishedAt?: number;
}

export interface MockOptions {
  port?: number;
  /** When set, requests without this key get a 401 in the wire format. */
  apiKey?: string;
  latencyMs?: number;
  chunkDelayMs?: number;
  /**
   * Keep every request and reply in `requests` and `replies` (default true, what tests assert on). The
   * benchmark's mock answers millions of requests: kept, they grew it past 6 GiB within one run.
   */
  record?: boolean;
}

const CUT_FLUSH_MS = 20;

interface PlannedFailure {
  status: number;
  retryAfter?: string;
  /** The error body as the provider would send it, instead of the format's generic one. */
  body?: unknown;
}

/**
 * A real HTTP server speaking one provider's wire format, with knobs for the failures the gateway must
 * survive: latency, slow chunks, failing requests, streams cut mid-way, requests that never get an answer.
 */
export class MockProvider {
  readonly requests: RecordedRequest[] = [];
  readonly replies: MockReply[] = [];
  latencyMs: number;
  chunkDelayMs: number;
  /** Close the connection after this many stream frames (every stream request until cleared). */
  cutAfterChunks: number | undefined;
  /** Never answer; the request stays open until the client gives up. */
  hang = false;
  toolCall: MockReply["toolCall"];
  stopReason: string | undefined;
  /** Fails every request this answers a status for, by its last user message (a fixed share of concurrent calls). */
  failWhen: ((lastUserText: string) => number | undefined) | undefined;
  refusal: string | undefined;
  extras: MockExtras | undefined;
  /** Answer this text instead of the echo (e.g. a JSON object for structured-output clients). */
  fixedText: string | undefined;
  private readonly failures: PlannedFailure[] = [];
  /** Prefix hashes the provider's prompt cache holds (per model, as providers key it). */
  private readonly prefixCache = new Set<string>();
  private readonly server: Server<undefined>;

  constructor(
    private readonly format: WireFormat,
    private readonly options: MockOptions = {},
  ) {
    this.latencyMs = options.latencyMs ?? 0;
    this.chunkDelayMs = options.chunkDelayMs ?? 0;
    this.server = Bun.serve({
      port: options.port ?? 0,
      hostname: "127.0.0.1",
      // A hanging request must stay open until the client gives up, not until Bun's idle timer fires.
      idleTimeout: 0,
      fetch: (req, server) => this.handle(req, server.requestIP(req)?.port ?? 0),
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  get port(): number {
    return this.server.port ?? 0;
  }

  /** The next `count` requests answer `status` (with Retry-After when given). */
  failNext(count: number, status: number, retryAfter?: string, body?: unknown): void {
    for (let i = 0; i < count; i++) this.failures.push({ status, ...(retryAfter !== undefined && { retryAfter }), ...(body !== undefined && { body }) });
  }

  /** Back to a well-behaved server with an empty log; latency and chunk delay return to the start options. */
  reset(): void {
    this.requests.length = 0;
    this.replies.length = 0;
    this.failures.length = 0;
    this.latencyMs = this.options.latencyMs ?? 0;
    this.chunkDelayMs = this.options.chunkDelayMs ?? 0;
    this.cutAfterChunks = undefined;
    this.prefixCache.clear();
    this.hang = false;
    this.toolCall = undefined;
    this.stopReason = undefined;
    this.failWhen = undefined;
    this.refusal = undefined;
    this.extras = undefined;
    this.fixedText = undefined;
  }

  get abortedCount(): number {
    return this.requests.filter((r) => r.aborted).length;
  }

  stop(): void {
    this.server.stop(true);
  }

  private async handle(req: Request, remotePort: number): Promise<Response> {
    const url = new URL(req.url);
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      return this.error(400, "body is not JSON");
    }
    const record: RecordedRequest = { path: url.pathname + url.search, headers: Object.fromEntries(req.headers), body, remotePort, aborted: false };
    if (this.options.record !== false) this.requests.push(record);
    req.signal.addEventListener("abort", () => {
      if (record.finishedAt === undefined) record.aborted = true;
    });
    if (this.hang) {
      await new Promise((resolve) => req.signal.addEventListener("abort", resolve));
      return new Response(null, { status: 499 });
    }
    if (this.latencyMs > 0) await Bun.sleep(this.latencyMs);
    const failure = this.failures.shift();
    if (failure) return this.error(failure.status, `planned failure ${failure.status}`, failure.retryAfter, failure.body);
    const presented = this.format.presentedKey(req.headers);
    // Echoes the key it got, as real providers partly do, so tests can check the gateway never repeats it.
    if (this.options.apiKey && presented !== this.options.apiKey) return this.error(401, `invalid api key: ${presented}`);
    const headerProblem = this.format.headerProblem?.(req.headers);
    if (headerProblem) return this.error(400, headerProblem);
    const embedded = this.format.embeddings?.(url, body);
    if (embedded !== undefined) {
      record.finishedAt = performance.now();
      return Response.json(embedded);
    }
    const parsed = this.format.parse(url, body);
    if (!parsed) return this.error(404, `no such endpoint ${url.pathname}`);
    const planned = this.failWhen?.(parsed.lastUserText);
    if (planned !== undefined) return this.error(planned, `planned failure ${planned}`);
    const reply = this.reply(parsed);
    if (this.options.record !== false) this.replies.push(reply);
    if (!parsed.stream) {
      record.finishedAt = performance.now();
      return Response.json(this.format.completion(reply));
    }
    return this.streamResponse(this.format.streamFrames(reply), record);
  }

  private reply(parsed: NonNullable<ReturnType<WireFormat["parse"]>>): MockReply {
    const digest = createHash("sha256").update(parsed.lastUserText).digest("hex").slice(0, 8);
    const echo = parsed.lastUserText.split(/\s+/).filter(Boolean).slice(0, 6).join(" ");
    const text = this.fixedText ?? `${this.format.name} ${digest} heard: ${echo}`;
    const pieces = text.match(/\S+\s*/g) ?? [];
    const promptTokens = parsed.texts.join(" ").split(/\s+/).filter(Boolean).length + 7;
    const reply: MockReply = {
      model: parsed.model,
      text,
      pieces,
      promptTokens,
      ...this.promptCache(parsed.model, parsed.segments, promptTokens),
      completionTokens: pieces.length,
      n: parsed.n,
    };
    // After a tool result the conversation gets its text answer, as a model ends a tool loop.
    if (this.toolCall && parsed.hasTools && !parsed.endsWithToolResult) reply.toolCall = this.toolCall;
    if (this.stopReason) reply.stopReason = this.stopReason;
    if (this.refusal) reply.refusal = this.refusal;
    if (this.extras) reply.extras = this.extras;
    return reply;
  }

  /** Cached and written prompt tokens of a request, as the provider would count them; records what it caches. */
  private promptCache(model: string, segments: PromptSegment[] | undefined, promptTokens: number): { cachedTokens: number; cacheWriteTokens: number } {
    const policy = this.format.promptCache;
    // Below the minimum nothing is cached: no hashing (the benchmark's mock answers thousands of short prompts a second).
    if (!policy || !segments || promptTokens < policy.minTokens) return { cachedTokens: 0, cacheWriteTokens: 0 };
    const bounds: { hash: string; tokens: number; breakpoint: boolean }[] = [];
    let hash = model;
    let tokens = 0;
    for (const s of segments) {
      hash = createHash("sha256").update(hash).update("\u0000").update(s.key).digest("hex");
      tokens += s.text.split(/\s+/).filter(Boolean).length;
      bounds.push({ hash, tokens, breakpoint: s.breakpoint });
    }
    if (policy.mode === "automatic") {
      let read = 0;
      for (const b of bounds) if (this.prefixCache.has(b.hash)) read = b.tokens;
      for (const b of bounds) this.prefixCache.add(b.hash);
      return { cachedTokens: policy.step > 1 ? Math.floor(read / policy.step) * policy.step : read, cacheWriteTokens: 0 };
    }
    const lastBreakpoint = bounds.findLastIndex((b) => b.breakpoint);
    if (lastBreakpoint < 0) return { cachedTokens: 0, cacheWriteTokens: 0 };
    let read = 0;
    for (let i = 0; i <= lastBreakpoint; i++) if (bounds[i]!.tokens >= policy.minTokens && this.prefixCache.has(bounds[i]!.hash)) read = bounds[i]!.tokens;
    let written = read;
    for (let i = 0; i <= lastBreakpoint; i++) {
      const b = bounds[i]!;
      if (!b.breakpoint || b.tokens < policy.minTokens) continue;
      this.prefixCache.add(b.hash);
      written = Math.max(written, b.tokens);
    }
    return { cachedTokens: read, cacheWriteTokens: written - read };
  }

  private streamResponse(frames: string[], record: RecordedRequest): Response {
    const encoder = new TextEncoder();
    const cutAfter = this.cutAfterChunks;
    const delay = this.chunkDelayMs;
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (cutAfter !== undefined && sent >= cutAfter) {
          // Let the frames already sent reach the client, then error the body: Bun drops the connection
          // without the final chunk, which is what a stream cut by a crash or a proxy looks like.
          await Bun.sleep(Math.max(delay, CUT_FLUSH_MS));
          controller.error();
          return;
        }
        if (sent > 0 && delay > 0) await Bun.sleep(delay);
        controller.enqueue(encoder.encode(frames[sent++]!));
        if (sent === frames.length) {
          record.finishedAt = performance.now();
          controller.close();
        }
      },
      cancel() {
        if (record.finishedAt === undefined) record.aborted = true;
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  }

  private error(status: number, message: string, retryAfter?: string, body?: unknown): Response {
    const headers: Record<string, string> = {};
    if (retryAfter !== undefined) headers["retry-after"] = retryAfter;
    return Response.json(body ?? this.format.errorBody(status, message), { status, headers });
  }
}

/** `data: <json>` SSE frame, optionally with an event name. */
export function sseFrame(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}
