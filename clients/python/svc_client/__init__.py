"""Python client for the svc gateway. Standard library only.

    from svc_client import Svc
    svc = Svc()  # the key from SVC_API_KEY
    r = svc.complete([{"role": "user", "content": "Hello"}], svc_options={"max_aggressiveness": 0.7})
    print(r["choices"][0]["message"]["content"], r["svc_meta"]["saved_usd"])
"""
from ._client import DEFAULT_BASE_URL, Keys, Svc, collect
from ._sse import SseParser
from .errors import (
    ERROR_CLASSES,
    ERROR_STATUS,
    AuthenticationError,
    BudgetExceededError,
    ClientClosedError,
    InternalServerError,
    InvalidRequestError,
    MissingApiKeyError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServiceUnavailableError,
    SvcConnectionError,
    SvcError,
    UpstreamError,
    error_from,
    parse_retry_after,
)
from .types import (
    SVC_META_FIELDS,
    SVC_OPTION_FIELDS,
    ChatMessage,
    Completion,
    CompletionChunk,
    CreatedKey,
    KeyRecord,
    RoutingReason,
    SvcMeta,
    SvcOptions,
)

__all__ = [
    "DEFAULT_BASE_URL",
    "Keys",
    "Svc",
    "collect",
    "SseParser",
    "ERROR_CLASSES",
    "ERROR_STATUS",
    "AuthenticationError",
    "BudgetExceededError",
    "ClientClosedError",
    "InternalServerError",
    "InvalidRequestError",
    "MissingApiKeyError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "ServiceUnavailableError",
    "SvcConnectionError",
    "SvcError",
    "UpstreamError",
    "error_from",
    "parse_retry_after",
    "SVC_META_FIELDS",
    "SVC_OPTION_FIELDS",
    "ChatMessage",
    "Completion",
    "CompletionChunk",
    "CreatedKey",
    "KeyRecord",
    "RoutingReason",
    "SvcMeta",
    "SvcOptions",
]
