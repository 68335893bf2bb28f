"""Typed errors. Every error svc answers is ``{"error": {message, type, code, request_id, param?}}``
with the status of CONTRACT.md; each code family is one class, and ``code`` keeps the exact code."""
import email.utils
import json
import time
from typing import Any, Dict, Optional, Type

#: The contract's error codes and their HTTP status (the server's ERROR_CODES).
ERROR_STATUS: Dict[str, int] = {
    "VALIDATION_ERROR": 400,
    "MODEL_NOT_FOUND": 400,
    "UNAUTHORIZED": 401,
    "INVALID_KEY": 401,
    "KEY_REVOKED": 401,
    "BUDGET_EXCEEDED": 402,
    "FORBIDDEN": 403,
    "NOT_FOUND": 404,
    "METHOD_NOT_ALLOWED": 405,
    "PAYLOAD_TOO_LARGE": 413,
    "URI_TOO_LONG": 414,
    "HEADERS_TOO_LARGE": 431,
    "UNSUPPORTED_MEDIA_TYPE": 415,
    "RATE_LIMITED": 429,
    "CLIENT_CLOSED": 499,
    "QUOTA_EXCEEDED": 429,
    "AGENT_GUARD": 429,
    "INTERNAL_ERROR": 500,
    "UPSTREAM_ERROR": 502,
    "NO_PROVIDER": 503,
    "OVERLOADED": 503,
    "STORE_UNAVAILABLE": 503,
    "SHUTTING_DOWN": 503,
    "UPSTREAM_TIMEOUT": 504,
}


class SvcError(Exception):
    """Base of every error svc answered."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str,
        type: Optional[str] = None,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        param: Optional[str] = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.type = type
        #: ``svc_req_…``: quote it when reporting a problem.
        self.request_id = request_id
        #: Seconds to wait before retrying, from ``Retry-After``.
        self.retry_after = retry_after
        #: The field a validation error names.
        self.param = param
        self.body = body

    def __str__(self) -> str:
        rid = f", request {self.request_id}" if self.request_id else ""
        return f"{self.status} {self.code}: {self.message}{rid}"


class InvalidRequestError(SvcError):
    """400/405/413/415: the request itself is wrong; fix it, do not retry."""


class AuthenticationError(SvcError):
    """401 UNAUTHORIZED, INVALID_KEY, KEY_REVOKED."""


class BudgetExceededError(SvcError):
    """402 BUDGET_EXCEEDED."""


class PermissionDeniedError(SvcError):
    """403 FORBIDDEN."""


class NotFoundError(SvcError):
    """404 NOT_FOUND."""


class RateLimitError(SvcError):
    """429 RATE_LIMITED, QUOTA_EXCEEDED, AGENT_GUARD."""


class UpstreamError(SvcError):
    """502 UPSTREAM_ERROR, 504 UPSTREAM_TIMEOUT."""


class ServiceUnavailableError(SvcError):
    """503 NO_PROVIDER, OVERLOADED, STORE_UNAVAILABLE, SHUTTING_DOWN."""


class InternalServerError(SvcError):
    """500 INTERNAL_ERROR, and any status the contract does not name."""


class ClientClosedError(SvcError):
    """499: the client went away (only ever recorded by the server)."""


ERROR_CLASSES: Dict[str, Type[SvcError]] = {
    "VALIDATION_ERROR": InvalidRequestError,
    "MODEL_NOT_FOUND": InvalidRequestError,
    "METHOD_NOT_ALLOWED": InvalidRequestError,
    "PAYLOAD_TOO_LARGE": InvalidRequestError,
    "URI_TOO_LONG": InvalidRequestError,
    "HEADERS_TOO_LARGE": InvalidRequestError,
    "UNSUPPORTED_MEDIA_TYPE": InvalidRequestError,
    "UNAUTHORIZED": AuthenticationError,
    "INVALID_KEY": AuthenticationError,
    "KEY_REVOKED": AuthenticationError,
    "BUDGET_EXCEEDED": BudgetExceededError,
    "FORBIDDEN": PermissionDeniedError,
    "NOT_FOUND": NotFoundError,
    "RATE_LIMITED": RateLimitError,
    "QUOTA_EXCEEDED": RateLimitError,
    "AGENT_GUARD": RateLimitError,
    "CLIENT_CLOSED": ClientClosedError,
    "INTERNAL_ERROR": InternalServerError,
    "UPSTREAM_ERROR": UpstreamError,
    "UPSTREAM_TIMEOUT": UpstreamError,
    "NO_PROVIDER": ServiceUnavailableError,
    "OVERLOADED": ServiceUnavailableError,
    "STORE_UNAVAILABLE": ServiceUnavailableError,
    "SHUTTING_DOWN": ServiceUnavailableError,
}

_BY_STATUS: Dict[int, Type[SvcError]] = {
    401: AuthenticationError,
    402: BudgetExceededError,
    403: PermissionDeniedError,
    404: NotFoundError,
    429: RateLimitError,
    502: UpstreamError,
    503: ServiceUnavailableError,
    504: UpstreamError,
}


def _class_of_status(status: int) -> Type[SvcError]:
    """An unknown code (a newer server, a proxy's error page) is classed by its status."""
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    return InvalidRequestError if 400 <= status < 500 else InternalServerError


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """``Retry-After`` as seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if value is None or not value.strip():
        return None
    v = value.strip()
    try:
        return max(0.0, float(v))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(v)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def error_from(
    body: Any,
    status: Optional[int] = None,
    request_id: Optional[str] = None,
    retry_after: Optional[str] = None,
) -> SvcError:
    """The typed error for a parsed body (or raw text). ``status`` may be omitted for an error that
    arrived inside a stream, where the code alone names it."""
    if isinstance(body, (bytes, str)):
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        try:
            body = json.loads(text)
        except ValueError:
            body = text
    err = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), dict) else {}
    code = err.get("code") if isinstance(err.get("code"), str) else None
    known = code in ERROR_STATUS
    if status is None:
        status = ERROR_STATUS[code] if known else 500
    cls = ERROR_CLASSES[code] if known else _class_of_status(status)
    if isinstance(err.get("message"), str):
        message = err["message"]
    else:
        message = f"svc answered HTTP {status}" + (f": {body[:200]}" if isinstance(body, str) and body else "")
    return cls(
        message,
        status=status,
        code=code or f"HTTP_{status}",
        type=err.get("type") if isinstance(err.get("type"), str) else None,
        request_id=err.get("request_id") if isinstance(err.get("request_id"), str) else request_id,
        retry_after=parse_retry_after(retry_after),
        param=err.get("param") if isinstance(err.get("param"), str) else None,
        body=body,
    )


class MissingApiKeyError(Exception):
    """Raised before any request: no ``api_key`` argument and no ``SVC_API_KEY``."""

    def __init__(self) -> None:
        super().__init__("svc: no API key. Pass Svc(api_key=...) or set the SVC_API_KEY environment variable.")


class SvcConnectionError(Exception):
    """The request never got an answer: connection refused or reset, DNS, a stream cut before its end."""
