import { resolveConnection, type ConnectionOptions } from "./config.js";
import { errorFrom, SvcConnectionError, type SvcError } from "./errors.js";
import { CompletionStream } from "./stream.js";
import { AgentRuns, Budgets, Conversations, Keys, Protocols, Usage } from "./resources.js";
import type { Completion, CompletionRequest } from "./types.js";

export interface SvcClientOptions extends ConnectionOptions {
  /** Retries of a 429 or 503 answer (default 2). Other errors are never retried: a retried completion could be charged twice. */
  maxRetries?: number;
  /**
   * The longest wait before a retry, in ms (default 30,000). A `Retry-After` longer than this (a test
   * key's daily limit resets at midnight UTC) is not waited for: the error is thrown at once.
   */
  maxRetryDelayMs?: number;
  /** Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Sent with every request. */
  headers?: Record<string, string>;
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface RequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** Without `Retry-After`, retries wait 0.5 s, 1 s, 2 s, ... */
const BACKOFF_BASE_MS = 500;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The svc gateway: `complete()`, and the `/api/` resources (keys, budgets, agent runs, conversations,
 * protocols, usage), with typed `svc_options`, `svc_meta` and errors.
 */
export class Svc {
  readonly baseURL: string;
  readonly keys: Keys;
  readonly budgets: Budgets;
  readonly agentRuns: AgentRuns;
  readonly conversations: Conversations;
  readonly protocols: Protocols;
  readonly usage: Usage;
  private readonly apiKey: string;
  private readonly maxRetries: number;
  private readonly maxRetryDelayMs: number;
  private readonly fetchImpl: FetchLike;
  private readonly headers: Record<string, string>;

  /** @throws MissingApiKeyError when neither `apiKey` nor `SVC_API_KEY` gives a key. */
  constructor(options: SvcClientOptions = {}) {
    const { apiKey, baseURL } = resolveConnection(options);
    this.apiKey = apiKey;
    this.baseURL = baseURL;
    this.maxRetries = options.maxRetries ?? 2;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.fetchImpl = options.fetch ?? ((url, init) => fetch(url, init));
    this.headers = options.headers ?? {};
    this.keys = new Keys(this);
    this.budgets = new Budgets(this);
    this.agentRuns = new AgentRuns(this);
    this.conversations = new Conversations(this);
    this.protocols = new Protocols(this);
    this.usage = new Usage(this);
  }

  /** `POST /v1/complete`. With `stream: true` the promise gives an async iterable of chunks; the last carries `svc_meta`. */
  complete(body: CompletionRequest & { stream: true }, options?: RequestOptions): Promise<CompletionStream>;
  complete(body: CompletionRequest & { stream?: false }, options?: RequestOptions): Promise<Completion>;
  complete(body: CompletionRequest, options?: RequestOptions): Promise<Completion | CompletionStream>;
  async complete(body: CompletionRequest, options: RequestOptions = {}): Promise<Completion | CompletionStream> {
    const res = await this.request("POST", "/v1/complete", body, options);
    if (body.stream) return new CompletionStream(res, options.signal);
    return (await res.json()) as Completion;
  }

  /** `request()` with the answer's JSON body. */
  async json<T>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return (await (await this.request(method, path, body, options)).json()) as T;
  }

  /**
   * One HTTP call with the key, JSON in and out, and the retry policy; resolves with the 2xx response
   * or throws the typed error.
   */
  async request(method: string, path: string, body: unknown, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...this.headers, ...options.headers, authorization: `Bearer ${this.apiKey}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const init: RequestInit = { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: options.signal };
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchImpl(`${this.baseURL}${path}`, init);
      } catch (e) {
        if (options.signal?.aborted) throw e;
        throw new SvcConnectionError(`svc: could not reach ${this.baseURL}: ${(e as Error).message}`, { cause: e });
      }
      if (res.ok) return res;
      const err = await errorOf(res);
      const delay = this.retryDelay(err, attempt);
      if (delay === undefined) throw err;
      await sleep(delay, options.signal);
    }
  }

  /** How long to wait before retrying after `err`, or undefined to give up. */
  private retryDelay(err: SvcError, attempt: number): number | undefined {
    if (attempt >= this.maxRetries) return undefined;
    if (err.status !== 429 && err.status !== 503) return undefined;
    // The agent-loop guard trips on cost, call count or a loop: waiting changes none of them.
    if (err.code === "AGENT_GUARD") return undefined;
    const delay = err.retryAfter !== undefined ? err.retryAfter * 1000 : BACKOFF_BASE_MS * 2 ** attempt;
    return delay <= this.maxRetryDelayMs ? delay : undefined;
  }
}

async function errorOf(res: Response): Promise<SvcError> {
  const text = await res.text().catch(() => "");
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // A proxy's HTML error page: classed by its status.
  }
  return errorFrom(body, { status: res.status, requestId: res.headers.get("x-request-id"), retryAfter: res.headers.get("retry-after") });
}
