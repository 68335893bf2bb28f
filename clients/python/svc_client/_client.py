import json
import os
import time
import urllib.error
import urllib.request
from http.client import HTTPResponse
from typing import Any, Dict, Iterator, List, Literal, Optional, Union, overload

from ._sse import SseParser
from .errors import MissingApiKeyError, SvcConnectionError, SvcError, error_from
from ._resources import AgentRuns, Budgets, Conversations, Keys, Protocols, Usage
from .types import ChatMessage, Completion, CompletionChunk, SvcOptions

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
#: Without Retry-After, retries wait 0.5 s, 1 s, 2 s, ...
_BACKOFF_BASE_S = 0.5
_READ_SIZE = 65536


class Svc:
    """The svc gateway: ``complete()`` and the ``/api/`` resources (``keys``, ``budgets``, ``agent_runs``,
    ``conversations``, ``protocols``, ``usage``), with typed ``svc_options``, ``svc_meta`` and errors.

    ``api_key`` defaults to ``SVC_API_KEY``; ``base_url`` (the server's root) to ``SVC_BASE_URL``, then
    http://127.0.0.1:8080. 429 and 503 answers are retried up to ``max_retries`` times after their
    ``Retry-After`` (or 0.5 s, 1 s, ...), unless that wait exceeds ``max_retry_delay`` seconds (a test
    key's daily limit resets at midnight UTC): then the error is raised at once. Other errors are never
    retried, so a completion is never charged twice.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        max_retries: int = 2,
        max_retry_delay: float = 30.0,
        timeout: float = 600.0,
        headers: Optional[Dict[str, str]] = None,
    ) -> None:
        key = api_key if api_key is not None else os.environ.get("SVC_API_KEY")
        if not key:
            raise MissingApiKeyError()
        self._api_key = key
        self.base_url = (base_url or os.environ.get("SVC_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.max_retries = max_retries
        self.max_retry_delay = max_retry_delay
        self.timeout = timeout
        self._headers = dict(headers or {})
        self.keys = Keys(self)
        self.budgets = Budgets(self)
        self.agent_runs = AgentRuns(self)
        self.conversations = Conversations(self)
        self.protocols = Protocols(self)
        self.usage = Usage(self)

    @overload
    def complete(
        self,
        messages: List[ChatMessage],
        *,
        model: str = ...,
        stream: Literal[False] = ...,
        svc_options: Optional[SvcOptions] = ...,
        max_tokens: Optional[int] = ...,
        **params: Any,
    ) -> Completion: ...

    @overload
    def complete(
        self,
        messages: List[ChatMessage],
        *,
        model: str = ...,
        stream: Literal[True],
        svc_options: Optional[SvcOptions] = ...,
        max_tokens: Optional[int] = ...,
        **params: Any,
    ) -> Iterator[CompletionChunk]: ...

    def complete(
        self,
        messages: List[ChatMessage],
        *,
        model: str = "auto",
        stream: bool = False,
        svc_options: Optional[SvcOptions] = None,
        max_tokens: Optional[int] = None,
        **params: Any,
    ) -> Union[Completion, Iterator[CompletionChunk]]:
        """``POST /v1/complete``. Other OpenAI parameters (temperature, stop, ...) pass through ``params``.

        With ``stream=True`` the call is made at once (so an error before the first chunk raises here)
        and a generator of chunks is returned; the last chunk carries ``svc_meta``.
        """
        body: Dict[str, Any] = {"messages": messages, "model": model, **params}
        if stream:
            body["stream"] = True
        if svc_options is not None:
            body["svc_options"] = svc_options
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if not stream:
            return self.json("POST", "/v1/complete", body)
        return _chunks(self.request("POST", "/v1/complete", body))

    def json(self, method: str, path: str, body: Any = None) -> Any:
        """``request()`` with the answer's JSON body."""
        with self.request(method, path, body) as res:
            return json.loads(res.read())

    def request(self, method: str, path: str, body: Any = None) -> HTTPResponse:
        """One HTTP call with the key, JSON in, the retry policy; returns the open 2xx response or raises
        the typed error."""
        headers = {**self._headers, "Authorization": f"Bearer {self._api_key}", "Accept": "application/json, text/event-stream"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        attempt = 0
        while True:
            req = urllib.request.Request(self.base_url + path, data=data, headers=headers, method=method)
            try:
                return urllib.request.urlopen(req, timeout=self.timeout)
            except urllib.error.HTTPError as e:
                with e:
                    err = error_from(e.read(), e.code, e.headers.get("x-request-id"), e.headers.get("retry-after"))
            except (urllib.error.URLError, OSError) as e:
                reason = getattr(e, "reason", e)
                raise SvcConnectionError(f"svc: could not reach {self.base_url}: {reason}") from e
            delay = self._retry_delay(err, attempt)
            if delay is None:
                raise err
            time.sleep(delay)
            attempt += 1

    def _retry_delay(self, err: SvcError, attempt: int) -> Optional[float]:
        if attempt >= self.max_retries or err.status not in (429, 503):
            return None
        # The agent-loop guard trips on cost, call count or a loop: waiting changes none of them.
        if err.code == "AGENT_GUARD":
            return None
        delay = err.retry_after if err.retry_after is not None else _BACKOFF_BASE_S * 2**attempt
        return delay if delay <= self.max_retry_delay else None


def _chunks(res: HTTPResponse) -> Iterator[CompletionChunk]:
    """The chunks of an SSE response. An error svc reports mid-stream raises its typed error; a stream
    that ends without ``[DONE]`` raises SvcConnectionError, so half an answer is never taken for a whole one."""
    request_id = res.headers.get("x-request-id")
    parser = SseParser()
    with res:
        while True:
            try:
                data = res.read1(_READ_SIZE)
            except OSError as e:
                raise SvcConnectionError(f"svc: the stream broke: {e}") from e
            for _event, payload in parser.push(data) if data else parser.end():
                if payload == "[DONE]":
                    return
                chunk = json.loads(payload)
                if "error" in chunk:
                    raise error_from(chunk, None, request_id)
                yield chunk
            if not data:
                raise SvcConnectionError(f"svc: the stream ended before [DONE] (request {request_id or 'unknown'})")


def collect(chunks: Iterator[CompletionChunk]) -> Dict[str, Any]:
    """Reads a whole stream: ``{"text": <choice 0's text>, "svc_meta": <the final svc_meta>, "chunks": [...]}``."""
    text: List[str] = []
    meta = None
    seen = []
    for c in chunks:
        seen.append(c)
        for ch in c.get("choices", []):
            if ch.get("index") == 0 and ch.get("delta", {}).get("content"):
                text.append(ch["delta"]["content"])
        if "svc_meta" in c:
            meta = c["svc_meta"]
    return {"text": "".join(text), "svc_meta": meta, "chunks": seen}
