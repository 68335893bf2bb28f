/** The contract's error codes, each with its HTTP status and OpenAI-style error type. */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, type: "invalid_request_error" },
  MODEL_NOT_FOUND: { status: 400, type: "invalid_request_error" },
  UNAUTHORIZED: { status: 401, type: "authentication_error" },
  INVALID_KEY: { status: 401, type: "authentication_error" },
  KEY_REVOKED: { status: 401, type: "authentication_error" },
  BUDGET_EXCEEDED: { status: 402, type: "invalid_request_error" },
  FORBIDDEN: { status: 403, type: "permission_error" },
  NOT_FOUND: { status: 404, type: "invalid_request_error" },
  METHOD_NOT_ALLOWED: { status: 405, type: "invalid_request_error" },
  PAYLOAD_TOO_LARGE: { status: 413, type: "invalid_request_error" },
  /** A URL over SVC_MAX_URL_BYTES (src/http/header-limits.ts). */
  URI_TOO_LONG: { status: 414, type: "invalid_request_error" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, type: "invalid_request_error" },
  RATE_LIMITED: { status: 429, type: "rate_limit_error" },
  /** A header block over SVC_MAX_HEADER_BYTES (src/http/header-limits.ts). */
  HEADERS_TOO_LARGE: { status: 431, type: "invalid_request_error" },
  /** nginx's convention for a client that left before the answer; only ever seen in logs and the ledger. */
  CLIENT_CLOSED: { status: 499, type: "invalid_request_error" },
  QUOTA_EXCEEDED: { status: 429, type: "rate_limit_error" },
  AGENT_GUARD: { status: 429, type: "rate_limit_error" },
  INTERNAL_ERROR: { status: 500, type: "api_error" },
  UPSTREAM_ERROR: { status: 502, type: "api_error" },
  NO_PROVIDER: { status: 503, type: "api_error" },
  OVERLOADED: { status: 503, type: "api_error" },
  /** The gateway's shutdown grace ran out while a stream was open; only seen in the ledger and logs. */
  SHUTTING_DOWN: { status: 503, type: "api_error" },
  /** The store cannot record usage (full disk, locked, failing): billable calls are refused, not answered unrecorded. */
  STORE_UNAVAILABLE: { status: 503, type: "api_error" },
  UPSTREAM_TIMEOUT: { status: 504, type: "api_error" },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorBody {
  /** `code` is one of ErrorCode, or a provider's own code (context_length_exceeded, ...) passed on; `fields` add members (an AGENT_GUARD's run totals). */
  error: { message: string; type: string; code: string; request_id: string; param?: string; [field: string]: unknown };
}

/** Every failure the gateway reports to a client is one of these; anything else becomes INTERNAL_ERROR. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /**
     * `shouldRetry: false` sends `x-should-retry: false`, which the OpenAI SDKs obey over their own retry
     * rules: for waits they must not sleep through (a daily limit) and failures svc already retried.
     * `fields`: more members of the error object (an AGENT_GUARD's run totals).
     */
    readonly extra: { param?: string; retryAfterS?: number; shouldRetry?: boolean; fields?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.status = ERROR_CODES[code].status;
    this.type = ERROR_CODES[code].type;
  }

  body(requestId: string): ErrorBody {
    const error: ErrorBody["error"] = { message: this.message, type: this.type, code: this.code, request_id: requestId };
    if (this.extra.param) error.param = this.extra.param;
    if (this.extra.fields) Object.assign(error, this.extra.fields);
    return { error };
  }

  headers(requestId: string): Record<string, string> {
    const h: Record<string, string> = { "content-type": "application/json", "x-request-id": requestId };
    if (this.extra.retryAfterS !== undefined) h["retry-after"] = String(Math.max(1, Math.ceil(this.extra.retryAfterS)));
    if (this.extra.shouldRetry !== undefined) h["x-should-retry"] = String(this.extra.shouldRetry);
    return h;
  }
}

export function validationError(param: string, message: string): ApiError {
  return new ApiError("VALIDATION_ERROR", `${param}: ${message}`, { param });
}
