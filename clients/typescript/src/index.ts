export { Svc, type SvcClientOptions, type RequestOptions, type FetchLike } from "./client.js";
export { Keys, Budgets, AgentRuns, Conversations, Protocols, Usage } from "./resources.js";
export { CompletionStream } from "./stream.js";
export { DEFAULT_BASE_URL, type ConnectionOptions } from "./config.js";
export { openAIClient, withSvcOptions, svcMetaOf } from "./openai.js";
export {
  SvcError,
  InvalidRequestError,
  AuthenticationError,
  BudgetExceededError,
  PermissionDeniedError,
  NotFoundError,
  RateLimitError,
  UpstreamError,
  ServiceUnavailableError,
  InternalServerError,
  ClientClosedError,
  MissingApiKeyError,
  SvcConnectionError,
  ERROR_STATUS,
  ERROR_CLASSES,
  errorFrom,
  parseRetryAfter,
  type ErrorCode,
  type ErrorDetails,
} from "./errors.js";
export { SseParser, type SseEvent } from "./sse.js";
export * from "./types.js";
