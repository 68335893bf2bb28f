/**
 * Every error svc answers is `{"error": {message, type, code, request_id, param?}}` with the status of
 * CONTRACT.md's table. Each code family is one class, so callers can catch a family (`RateLimitError`)
 * and still read the exact `code`.
 */

/** The contract's error codes and their HTTP status (the server's `ERROR_CODES`; drift-checked by the tests). */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  MODEL_NOT_FOUND: 400,
  UNAUTHORIZED: 401,
  INVALID_KEY: 401,
  KEY_REVOKED: 401,
  BUDGET_EXCEEDED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  CLIENT_CLOSED: 499,
  QUOTA_EXCEEDED: 429,
  AGENT_GUARD: 429,
  INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502,
  NO_PROVIDER: 503,
  OVERLOADED: 503,
  STORE_UNAVAILABLE: 503,
  SHUTTING_DOWN: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetails {
  message: string;
  status: number;
  /** The contract's code; a string outside `ErrorCode` only from a newer server. */
  code: ErrorCode | (string & {});
  type?: string;
  /** `svc_req_…`, from the body or the `x-request-id` header: quote it when reporting a problem. */
  requestId?: string;
  /** Seconds to wait before retrying, from the `Retry-After` header (429s and some 503s). */
  retryAfter?: number;
  /** The field a validation error names. */
  param?: string;
  /** The whole parsed error body. */
  body?: unknown;
}

/** Base of every error svc answered. */
export class SvcError extends Error {
  readonly status: number;
  readonly code: ErrorCode | (string & {});
  readonly type: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfter: number | undefined;
  readonly param: string | undefined;
  readonly body: unknown;

  constructor(d: ErrorDetails) {
    super(d.message);
    this.name = new.target.name;
    this.status = d.status;
    this.code = d.code;
    this.type = d.type;
    this.requestId = d.requestId;
    this.retryAfter = d.retryAfter;
    this.param = d.param;
    this.body = d.body;
  }
}

/** 400/405/413/415: the request itself is wrong (a field, the model, the size); fix it, do not retry. */
export class InvalidRequestError extends SvcError {}
/** 401 UNAUTHORIZED, INVALID_KEY, KEY_REVOKED. */
export class AuthenticationError extends SvcError {}
/** 402 BUDGET_EXCEEDED: the call would overspend its `budget_id`. */
export class BudgetExceededError extends SvcError {}
/** 403 FORBIDDEN: the key lacks the scope or does not own the resource. */
export class PermissionDeniedError extends SvcError {}
/** 404 NOT_FOUND. */
export class NotFoundError extends SvcError {}
/** 429 RATE_LIMITED, QUOTA_EXCEEDED, AGENT_GUARD; `retryAfter` says when a retry can succeed. */
export class RateLimitError extends SvcError {}
/** 502 UPSTREAM_ERROR, 504 UPSTREAM_TIMEOUT: the provider failed after svc's retries and fallbacks. */
export class UpstreamError extends SvcError {}
/** 503 NO_PROVIDER, OVERLOADED, STORE_UNAVAILABLE, SHUTTING_DOWN. */
export class ServiceUnavailableError extends SvcError {}
/** 500 INTERNAL_ERROR, and any status the contract does not name. */
export class InternalServerError extends SvcError {}
/** The client went away before the answer (only ever recorded by the server; listed for completeness). */
export class ClientClosedError extends SvcError {}

type ErrorClass = new (d: ErrorDetails) => SvcError;

/** The class of each contract code. */
export const ERROR_CLASSES: Record<ErrorCode, ErrorClass> = {
  VALIDATION_ERROR: InvalidRequestError,
  MODEL_NOT_FOUND: InvalidRequestError,
  METHOD_NOT_ALLOWED: InvalidRequestError,
  PAYLOAD_TOO_LARGE: InvalidRequestError,
  URI_TOO_LONG: InvalidRequestError,
  HEADERS_TOO_LARGE: InvalidRequestError,
  UNSUPPORTED_MEDIA_TYPE: InvalidRequestError,
  UNAUTHORIZED: AuthenticationError,
  INVALID_KEY: AuthenticationError,
  KEY_REVOKED: AuthenticationError,
  BUDGET_EXCEEDED: BudgetExceededError,
  FORBIDDEN: PermissionDeniedError,
  NOT_FOUND: NotFoundError,
  RATE_LIMITED: RateLimitError,
  QUOTA_EXCEEDED: RateLimitError,
  AGENT_GUARD: RateLimitError,
  CLIENT_CLOSED: ClientClosedError,
  INTERNAL_ERROR: InternalServerError,
  UPSTREAM_ERROR: UpstreamError,
  UPSTREAM_TIMEOUT: UpstreamError,
  NO_PROVIDER: ServiceUnavailableError,
  OVERLOADED: ServiceUnavailableError,
  STORE_UNAVAILABLE: ServiceUnavailableError,
  SHUTTING_DOWN: ServiceUnavailableError,
};

/** An unknown code (from a newer server, or a proxy's error page) is classed by its status. */
function classOfStatus(status: number): ErrorClass {
  if (status === 401) return AuthenticationError;
  if (status === 402) return BudgetExceededError;
  if (status === 403) return PermissionDeniedError;
  if (status === 404) return NotFoundError;
  if (status === 429) return RateLimitError;
  if (status === 502 || status === 504) return UpstreamError;
  if (status === 503) return ServiceUnavailableError;
  if (status >= 400 && status < 500) return InvalidRequestError;
  return InternalServerError;
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null || value.trim() === "") return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/**
 * The typed error for a status and a parsed body (`{error: {...}}` or anything else). `status` may be
 * omitted for an error that arrived inside a stream, where the code alone names it.
 */
export function errorFrom(body: unknown, opts: { status?: number; requestId?: string | null; retryAfter?: string | null } = {}): SvcError {
  const e = (typeof body === "object" && body !== null && "error" in body ? (body as { error: unknown }).error : undefined) as
    | { message?: unknown; type?: unknown; code?: unknown; request_id?: unknown; param?: unknown }
    | undefined;
  const code = typeof e?.code === "string" ? e.code : undefined;
  const known = code !== undefined && code in ERROR_STATUS ? (code as ErrorCode) : undefined;
  const status = opts.status ?? (known ? ERROR_STATUS[known] : 500);
  const Class = known ? ERROR_CLASSES[known] : classOfStatus(status);
  const message =
    typeof e?.message === "string" ? e.message : `svc answered HTTP ${status}${typeof body === "string" && body ? `: ${body.slice(0, 200)}` : ""}`;
  const details: ErrorDetails = { message, status, code: code ?? `HTTP_${status}`, body };
  if (typeof e?.type === "string") details.type = e.type;
  const requestId = typeof e?.request_id === "string" ? e.request_id : opts.requestId;
  if (requestId) details.requestId = requestId;
  const retryAfter = parseRetryAfter(opts.retryAfter);
  if (retryAfter !== undefined) details.retryAfter = retryAfter;
  if (typeof e?.param === "string") details.param = e.param;
  return new Class(details);
}

/** Raised before any request: no API key in the options or (outside browsers) in `SVC_API_KEY`. */
export class MissingApiKeyError extends Error {
  constructor() {
    super(
      "svc: no API key. Pass one as new Svc({ apiKey }) or set the SVC_API_KEY environment variable " +
        "(in a browser the environment is not read: pass apiKey explicitly).",
    );
    this.name = "MissingApiKeyError";
  }
}

/** The request never got an answer from svc: connection refused or reset, DNS, a stream cut before its end. */
export class SvcConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SvcConnectionError";
  }
}
