"""The Python client's parts that need no gateway: error classes, Retry-After, SSE parsing, retries."""
import email.utils
import json
import os
import random
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from unittest import mock

from svc_client import (
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
    SseParser,
    Svc,
    SvcConnectionError,
    SvcError,
    UpstreamError,
    error_from,
    parse_retry_after,
)

# The server's codes when run by test/clients/python-client.test.ts, so a code the server gains fails here.
SERVER_CODES = json.loads(os.environ.get("SVC_TEST_SERVER_FIELDS", "{}")).get("error_codes") or ERROR_STATUS

# The family of each status, stated independently of the client's code table.
FAMILY = {
    401: AuthenticationError,
    402: BudgetExceededError,
    403: PermissionDeniedError,
    404: NotFoundError,
    429: RateLimitError,
    499: ClientClosedError,
    500: InternalServerError,
    502: UpstreamError,
    503: ServiceUnavailableError,
    504: UpstreamError,
}


class ErrorTable(unittest.TestCase):
    def test_every_contract_code_maps_to_its_class(self):
        self.assertEqual(ERROR_STATUS, SERVER_CODES)
        for code, status in SERVER_CODES.items():
            with self.subTest(code=code):
                body = {"error": {"message": f"m {code}", "type": "t", "code": code, "request_id": "svc_req_abc"}}
                e = error_from(json.dumps(body).encode(), status, "svc_req_header", "7")
                self.assertIsInstance(e, FAMILY.get(status, InvalidRequestError))
                self.assertEqual((e.code, e.status, e.message, e.request_id, e.retry_after), (code, status, f"m {code}", "svc_req_abc", 7.0))
                # Inside a stream there is no status: the code alone gives it.
                self.assertEqual(error_from(body).status, status)

    def test_unknown_code_or_html_is_classed_by_status(self):
        self.assertIsInstance(error_from({"error": {"code": "NEW_THING"}}, 429), RateLimitError)
        e = error_from(b"<html>Bad Gateway</html>", 502, "svc_req_h")
        self.assertIsInstance(e, UpstreamError)
        self.assertEqual((e.code, e.request_id), ("HTTP_502", "svc_req_h"))
        self.assertIn("Bad Gateway", e.message)

    def test_retry_after(self):
        self.assertEqual(parse_retry_after("120"), 120.0)
        self.assertAlmostEqual(parse_retry_after(email.utils.formatdate(1_000_030, usegmt=True), now=1_000_000), 30.0)
        self.assertIsNone(parse_retry_after("soon"))
        self.assertIsNone(parse_retry_after(None))


class Config(unittest.TestCase):
    def test_key_from_argument_then_environment(self):
        with mock.patch.dict(os.environ, {"SVC_API_KEY": "svc_test_env", "SVC_BASE_URL": "http://example.test:9/"}):
            self.assertEqual(Svc()._api_key, "svc_test_env")
            self.assertEqual(Svc().base_url, "http://example.test:9")
            self.assertEqual(Svc("svc_test_arg")._api_key, "svc_test_arg")
        with mock.patch.dict(os.environ, {}, clear=True):
            self.assertEqual(Svc("svc_test_arg").base_url, "http://127.0.0.1:8080")
            with self.assertRaises(MissingApiKeyError) as ctx:
                Svc()
            self.assertIn("SVC_API_KEY", str(ctx.exception))


class Sse(unittest.TestCase):
    def test_any_split_and_line_ending_give_the_same_events(self):
        rnd = random.Random(34)
        alphabet = ["a", "é", "😀", " ", ":", "{", "}", '"', "x"]
        for _ in range(500):
            eol = rnd.choice(["\n", "\r\n", "\r"])
            events = []
            text = ""
            for _ in range(rnd.randint(1, 5)):
                name = rnd.choice(["message", "error", "ping"])
                lines = ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 6))).lstrip(" ") for _ in range(rnd.randint(1, 3))]
                events.append((name, "\n".join(lines)))
                if rnd.random() < 0.3:
                    text += ": keep-alive" + eol
                if name != "message":
                    text += f"event: {name}{eol}"
                text += "".join(f"data: {l}{eol}" for l in lines) + eol
            raw = text.encode("utf-8")
            cuts = sorted({rnd.randint(0, len(raw)) for _ in range(rnd.randint(0, 10))}) + [len(raw)]
            parser = SseParser()
            got = []
            prev = 0
            for c in cuts:
                got += parser.push(raw[prev:c])
                prev = c
            got += parser.end()
            self.assertEqual(got, events, repr(raw))


class _Planned(BaseHTTPRequestHandler):
    """A real HTTP server answering in svc's shapes, with planned failures: the gateway cannot be made
    to answer a short Retry-After, or cut a stream, on demand."""

    plan = []
    seen = []
    stream_body = b""

    def log_message(self, *args):
        pass

    def _answer(self):
        type(self).seen.append(time.monotonic())
        length = int(self.headers.get("content-length") or 0)
        self.rfile.read(length)
        if type(self).plan:
            status, retry_after, code = type(self).plan.pop(0)
            body = json.dumps({"error": {"message": "planned", "type": "t", "code": code, "request_id": "svc_req_p"}}).encode()
            self.send_response(status)
            if retry_after is not None:
                self.send_header("Retry-After", retry_after)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if type(self).stream_body:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("x-request-id", "svc_req_s")
            self.end_headers()
            self.wfile.write(type(self).stream_body)
            self.close_connection = True
            return
        body = b'{"id": "svc_req_ok", "choices": [], "svc_meta": {}}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer


class AgainstALocalServer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ThreadingHTTPServer(("127.0.0.1", 0), _Planned)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.url = f"http://127.0.0.1:{cls.server.server_address[1]}"

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def setUp(self):
        _Planned.plan = []
        _Planned.seen = []
        _Planned.stream_body = b""

    def svc(self, **kw):
        return Svc("svc_test_x", self.url, **kw)

    def test_retry_after_is_waited_for(self):
        _Planned.plan = [(429, "1", "RATE_LIMITED"), (503, "1", "OVERLOADED")]
        self.assertEqual(self.svc().complete([{"role": "user", "content": "hi"}])["id"], "svc_req_ok")
        s = _Planned.seen
        self.assertEqual(len(s), 3)
        self.assertGreaterEqual(s[1] - s[0], 0.95)
        self.assertGreaterEqual(s[2] - s[1], 0.95)

    def test_retry_after_beyond_the_cap_is_not_waited_for(self):
        _Planned.plan = [(429, "3600", "RATE_LIMITED")]
        with self.assertRaises(RateLimitError) as ctx:
            self.svc().complete([{"role": "user", "content": "hi"}])
        self.assertEqual(ctx.exception.retry_after, 3600.0)
        self.assertEqual(len(_Planned.seen), 1)

    def test_retries_stop_and_some_codes_are_never_retried(self):
        _Planned.plan = [(503, "0", "NO_PROVIDER")] * 4
        with self.assertRaises(ServiceUnavailableError):
            self.svc(max_retries=2).complete([{"role": "user", "content": "hi"}])
        self.assertEqual(len(_Planned.seen), 3)
        for status, code in ((429, "AGENT_GUARD"), (502, "UPSTREAM_ERROR"), (500, "INTERNAL_ERROR")):
            with self.subTest(code=code):
                _Planned.plan = [(status, "0", code)]
                _Planned.seen = []
                with self.assertRaises(SvcError) as ctx:
                    self.svc().complete([{"role": "user", "content": "hi"}])
                self.assertEqual(ctx.exception.code, code)
                self.assertEqual(len(_Planned.seen), 1)

    def test_an_error_inside_a_stream_raises_its_class_after_the_chunks_before_it(self):
        chunk = {"id": "svc_req_s", "choices": [{"index": 0, "delta": {"content": "half"}, "finish_reason": None}]}
        err = {"error": {"message": "provider died", "type": "api_error", "code": "UPSTREAM_ERROR", "request_id": "svc_req_s"}}
        _Planned.stream_body = f"data: {json.dumps(chunk)}\r\n\r\ndata: {json.dumps(err)}\n\n".encode()
        got = []
        with self.assertRaises(UpstreamError) as ctx:
            for c in self.svc().complete([{"role": "user", "content": "hi"}], stream=True):
                got.append(c)
        self.assertEqual(got, [chunk])
        self.assertEqual((ctx.exception.status, ctx.exception.request_id), (502, "svc_req_s"))

    def test_a_stream_cut_before_done_is_a_connection_error(self):
        chunk = {"id": "svc_req_s", "choices": [{"index": 0, "delta": {"content": "half"}, "finish_reason": None}]}
        _Planned.stream_body = f"data: {json.dumps(chunk)}\n\n".encode()
        with self.assertRaises(SvcConnectionError):
            list(self.svc().complete([{"role": "user", "content": "hi"}], stream=True))

    def test_no_server_is_a_connection_error(self):
        with self.assertRaises(SvcConnectionError) as ctx:
            Svc("svc_test_x", "http://127.0.0.1:9").keys.list()
        self.assertIn("127.0.0.1:9", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
