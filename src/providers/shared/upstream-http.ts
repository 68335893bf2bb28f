import type { EventSourceMessage } from "eventsource-parser";
import { DEFAULT_TIMEOUT_MS, ProviderError, type UpstreamErrorDetail } from "../types";
import { Deadline } from "./deadline";
import { pooledPost, type UpstreamResponse } from "./pooled-http";
import { parseRetryAfter } from "./retry-after";
import { readSse } from "./sse";

/** One POST of a JSON body to a provider. */
export interface UpstreamPost {
  /** Provider name, used in error messages. */
  provider: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  body: unknown;
  signal: AbortSignal;
  timeoutMs?: number;
  /** See ProviderRequest.deadlineAt: the call's one deadline, which no silence timer outlives. */
  deadlineAt?: number;
  /** See ProviderRequest.maxAnswerBytes. */
  maxAnswerBytes?: number;
  /** Values (API keys) that must never appear in an error message, even if a provider echoes them. */
  secrets: readonly string[];
}

const MAX_ERROR_DETAIL = 300;
/** Four concurrent 50 MB answers took the process to about 1 GB (issue 23); a chat answer is kilobytes. */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

const deadlineOf = (post: UpstreamPost) => new Deadline(post.timeoutMs ?? DEFAULT_TIMEOUT_MS, post.signal, post.deadlineAt);

function tooLarge(post: UpstreamPost, cap: number): ProviderError {
  return new ProviderError("protocol", `${post.provider} sent an answer larger than ${cap} bytes`);
}

/** The body as text, refused past the cap: by its declared length before reading, else as it arrives. */
async function cappedText(res: UpstreamResponse, post: UpstreamPost): Promise<string> {
  const cap = post.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (declared > cap) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge(post, cap);
  }
  if (Number.isFinite(declared) || !res.body) return res.text();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > cap) throw tooLarge(post, cap);
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * POSTs and returns the parsed JSON answer. The timeout covers the whole exchange, body included.
 * Connections are reused: pooled-http keeps them for plain-http upstreams, Bun's fetch for the rest.
 */
export async function postJson(post: UpstreamPost): Promise<unknown> {
  const deadline = deadlineOf(post);
  try {
    const res = await open(post, deadline);
    let text: string;
    try {
      text = await cappedText(res, post);
    } catch (e) {
      throw failure(e, post, deadline);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new ProviderError("protocol", `${post.provider} answered with a body that is not JSON`);
    }
  } finally {
    deadline.clear();
  }
}

/**
 * POSTs and yields the server-sent events of the answer. The timeout bounds each wait for data (the first
 * byte and every silence after it). Failures while reading, including a connection closed mid-stream,
 * surface as ProviderError from the iteration.
 */
export async function* postForEvents(post: UpstreamPost): AsyncGenerator<EventSourceMessage> {
  const deadline = deadlineOf(post);
  const cap = post.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  let size = 0;
  const onChunk = (bytes: number) => {
    size += bytes;
    if (size > cap) throw tooLarge(post, cap);
    deadline.extend();
  };
  try {
    const res = await open(post, deadline);
    if (!res.body) throw new ProviderError("protocol", `${post.provider} answered a stream request without a body`);
    try {
      for await (const event of readSse(res.body, onChunk)) yield event;
    } catch (e) {
      throw failure(e, post, deadline);
    }
  } finally {
    deadline.clear();
  }
}

/** Fetch reads the proxy variables; the pooled sockets would go around a proxy, so they step aside. */
const PROXIED = ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"].some((name) => process.env[name]);
const pooledUrls = new Map<string, URL | null>();

/** The parsed URL when the pooled client may carry this upstream, else null (https, proxied). Providers have a few fixed URLs. */
function pooledTarget(url: string): URL | null {
  let target = pooledUrls.get(url);
  if (target === undefined) {
    const parsed = new URL(url);
    target = parsed.protocol === "http:" && !PROXIED ? parsed : null;
    if (pooledUrls.size < 1000) pooledUrls.set(url, target);
  }
  return target;
}

const JSON_HEADERS = { "content-type": "application/json" };
/** A provider's headers with the JSON content type, made once per headers object (pooled-http keeps the head it writes per object). */
const withJsonType = new WeakMap<object, Readonly<Record<string, string>>>();

function jsonHeaders(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  let merged = withJsonType.get(headers);
  if (!merged) withJsonType.set(headers, (merged = { ...JSON_HEADERS, ...headers }));
  return merged;
}

async function open(post: UpstreamPost, deadline: Deadline): Promise<UpstreamResponse> {
  let res: UpstreamResponse;
  try {
    const headers = jsonHeaders(post.headers);
    const body = JSON.stringify(post.body);
    const target = pooledTarget(post.url);
    res = target ? await pooledPost(target, headers, body, deadline) : await fetch(post.url, { method: "POST", headers, body, signal: deadline.signal });
  } catch (e) {
    throw failure(e, post, deadline);
  }
  if (res.ok) return res;
  let detail: UpstreamErrorDetail;
  try {
    detail = errorDetail(await res.text(), res.status);
  } catch (e) {
    throw failure(e, post, deadline);
  }
  detail.message = redact(detail.message, post.secrets);
  const message = `${post.provider} answered HTTP ${res.status}${detail.message ? `: ${shorten(detail.message)}` : ""}`;
  throw new ProviderError("http", message, res.status, parseRetryAfter(res.headers), undefined, detail);
}

/** Turns whatever fetch or a body read threw into a ProviderError that says what happened. */
function failure(e: unknown, post: UpstreamPost, deadline: Deadline): ProviderError {
  if (e instanceof ProviderError) return e;
  if (post.signal.aborted) return new ProviderError("aborted", `${post.provider} call aborted by the caller`);
  if (deadline.pastEnd) return new ProviderError("deadline", `the call's deadline passed while ${post.provider} was answering`);
  if (deadline.expired) return new ProviderError("timeout", `${post.provider} sent nothing for ${deadline.ms} ms`);
  const code = (e as { code?: unknown } | null)?.code;
  const origin = new URL(post.url).origin;
  if (code === "ECONNREFUSED" || code === "ConnectionRefused") return new ProviderError("connection", `${post.provider} refused the connection at ${origin}`);
  if (code === "ECONNRESET") return new ProviderError("connection", `${post.provider} closed the connection before the answer was complete`);
  const reason = e instanceof Error ? e.message : String(e);
  return new ProviderError("connection", redact(`${post.provider} at ${origin} failed: ${reason}`, post.secrets));
}

/** OpenAI's error type for an HTTP status, for providers whose errors name none OpenAI clients know. */
function typeOfStatus(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 429) return "rate_limit_error";
  return status < 500 ? "invalid_request_error" : "api_error";
}

/** Anthropic's error types that OpenAI has under another name. */
const OPENAI_TYPE: Record<string, string> = {
  not_found_error: "invalid_request_error",
  request_too_large: "invalid_request_error",
  overloaded_error: "api_error",
};

/**
 * A provider's error body in OpenAI's terms. OpenAI sends {error: {message, type, code, param}}, Anthropic
 * {type: "error", error: {type, message}}, Gemini {error: {code, message, status}}.
 */
function errorDetail(body: string, status: number): UpstreamErrorDetail {
  const detail: UpstreamErrorDetail = { message: body.replace(/\s+/g, " ").trim(), type: typeOfStatus(status), code: null };
  try {
    const parsed = JSON.parse(body) as {
      error?: { message?: unknown; type?: unknown; code?: unknown; param?: unknown; status?: unknown } | string;
      message?: unknown;
    };
    const e = typeof parsed.error === "object" && parsed.error !== null ? parsed.error : undefined;
    const message = typeof parsed.error === "string" ? parsed.error : (e?.message ?? parsed.message);
    if (typeof message === "string") detail.message = message;
    if (typeof e?.type === "string") detail.type = OPENAI_TYPE[e.type] ?? e.type;
    if (typeof e?.code === "string") detail.code = e.code;
    else if (typeof e?.status === "string") detail.code = e.status.toLowerCase();
    if (typeof e?.param === "string") detail.param = e.param;
  } catch {
    // Not JSON: the raw text is the best description there is.
  }
  // Anthropic and Gemini say "prompt is too long" where OpenAI has a code for it that clients test.
  if (status === 400 && !detail.code && /prompt is too long|exceeds the maximum number of tokens|context length/i.test(detail.message))
    detail.code = "context_length_exceeded";
  return detail;
}

function shorten(text: string): string {
  return text.length > MAX_ERROR_DETAIL ? `${text.slice(0, MAX_ERROR_DETAIL)}…` : text;
}

function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join("[redacted]");
  return out;
}
