"""The Python client against a real svc process with mock upstreams.

test/clients/python-client.test.ts starts the gateway and runs these with its address, an admin key
and the rig's layout in SVC_TEST_* variables; without them the tests are skipped.
"""
import hashlib
import json
import os
import time
import unittest
from unittest import mock

from svc_client import (
    SVC_META_FIELDS,
    SVC_OPTION_FIELDS,
    AuthenticationError,
    InvalidRequestError,
    MissingApiKeyError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServiceUnavailableError,
    Svc,
    SvcError,
    UpstreamError,
    collect,
)

ENV = os.environ
BASE_URL = ENV.get("SVC_TEST_BASE_URL")
ADMIN_KEY = ENV.get("SVC_TEST_ADMIN_KEY", "")
APP = ENV.get("SVC_TEST_APP", "")
MODELS = json.loads(ENV.get("SVC_TEST_MODELS", "{}"))
SERVER = json.loads(ENV.get("SVC_TEST_SERVER_FIELDS", "{}"))
OFF = {"compress": False, "cache": False}


def ask(text):
    return [{"role": "user", "content": text}]


def mock_answer(text):
    """What the OpenAI mock (test/mocks/mock-server.ts) answers to an uncompressed prompt."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    return f"openai {digest} heard: {' '.join(text.split()[:6])}"


@unittest.skipUnless(BASE_URL, "needs a running svc: run through test/clients/python-client.test.ts")
class AgainstSvc(unittest.TestCase):
    def admin(self, **kw):
        return Svc(ADMIN_KEY, BASE_URL, **kw)

    def assert_error(self, ctx, cls, code, status):
        e = ctx.exception
        self.assertIsInstance(e, cls)
        self.assertIsInstance(e, SvcError)
        self.assertEqual(e.code, code)
        self.assertEqual(e.status, status)
        self.assertTrue(e.request_id and e.request_id.startswith("svc_req_"), e.request_id)

    def test_complete_with_typed_meta(self):
        text = "What is the capital of Portugal?"
        r = self.admin().complete(ask(text), model=MODELS["ok"], svc_options=OFF)
        self.assertTrue(r["id"].startswith("svc_req_"))
        self.assertEqual(r["model"], "gpt-4o-mini-2024-07-18")
        self.assertEqual(r["choices"][0]["message"]["content"], mock_answer(text))
        meta = r["svc_meta"]
        self.assertEqual(meta["model_requested"], MODELS["ok"])
        self.assertEqual(meta["routing_reason"], "explicit_model")
        self.assertIn("quality_score", meta)
        self.assertLessEqual(set(meta), set(SVC_META_FIELDS))
        unscored = self.admin().complete(ask("What is the capital of Norway?"), model=MODELS["ok"], svc_options={**OFF, "score": False})
        self.assertNotIn("quality_score", unscored["svc_meta"])

    def test_stream_ends_with_svc_meta(self):
        text = "What is the capital of Greece?"
        chunks = self.admin().complete(ask(text), model=MODELS["ok"], stream=True, svc_options=OFF)
        got = list(chunks)
        self.assertEqual("".join(c["choices"][0]["delta"].get("content") or "" for c in got if c["choices"]), mock_answer(text))
        self.assertEqual(got[-1]["choices"][0]["finish_reason"], "stop")
        self.assertEqual(got[-1]["svc_meta"]["model_requested"], MODELS["ok"])
        self.assertTrue(all("svc_meta" not in c for c in got[:-1]))
        whole = collect(self.admin().complete(ask("Name a planet."), model=MODELS["ok"], stream=True, svc_options=OFF))
        self.assertEqual(whole["text"], mock_answer("Name a planet."))
        self.assertFalse(whole["svc_meta"]["cache_hit"])

    def test_key_from_environment(self):
        with mock.patch.dict(os.environ, {"SVC_API_KEY": ADMIN_KEY, "SVC_BASE_URL": BASE_URL}):
            svc = Svc()
            self.assertEqual(svc.base_url, BASE_URL)
            r = svc.complete(ask("Hello from the environment"), model=MODELS["ok"])
            self.assertEqual(r["svc_meta"]["model_requested"], MODELS["ok"])

    def test_no_key_is_a_clear_error(self):
        with mock.patch.dict(os.environ, {}, clear=True):
            with self.assertRaises(MissingApiKeyError) as ctx:
                Svc(base_url=BASE_URL)
            self.assertIn("SVC_API_KEY", str(ctx.exception))

    def test_key_create_use_revoke(self):
        svc = self.admin()
        created = svc.keys.create("py bot", APP)
        self.assertTrue(created["key"].startswith("svc_live_"))
        self.assertTrue(created["id"].startswith("key_"))
        bot = Svc(created["key"], BASE_URL)
        text = "Hello from the python bot"
        self.assertEqual(bot.complete(ask(text), model=MODELS["ok"], svc_options=OFF)["choices"][0]["message"]["content"], mock_answer(text))
        listed = {k["id"]: k for k in svc.keys.list()}
        self.assertEqual(listed[created["id"]]["status"], "active")
        self.assertNotIn("key", listed[created["id"]])
        revoked = svc.keys.revoke(created["id"])
        self.assertEqual(revoked["status"], "revoked")
        with self.assertRaises(AuthenticationError) as ctx:
            bot.complete(ask("Hello again"), model=MODELS["ok"])
        self.assert_error(ctx, AuthenticationError, "KEY_REVOKED", 401)

    def test_authentication_errors(self):
        with self.assertRaises(SvcError) as ctx:
            Svc("not a bearer token", BASE_URL).complete(ask("hi"))
        self.assert_error(ctx, AuthenticationError, "UNAUTHORIZED", 401)
        with self.assertRaises(SvcError) as ctx:
            Svc("svc_live_nope", BASE_URL).complete(ask("hi"))
        self.assert_error(ctx, AuthenticationError, "INVALID_KEY", 401)

    def test_request_errors(self):
        svc = self.admin(max_retries=0)
        with self.assertRaises(SvcError) as ctx:
            svc.complete(ask("hi"), svc_options={"max_aggressiveness": 2})
        self.assert_error(ctx, InvalidRequestError, "VALIDATION_ERROR", 400)
        self.assertEqual(ctx.exception.param, "svc_options.max_aggressiveness")
        with self.assertRaises(SvcError) as ctx:
            svc.complete(ask("hi"), model="no-such-model")
        self.assert_error(ctx, InvalidRequestError, "MODEL_NOT_FOUND", 400)
        with self.assertRaises(SvcError) as ctx:
            svc.request("PUT", "/api/keys", {})
        self.assert_error(ctx, InvalidRequestError, "METHOD_NOT_ALLOWED", 405)
        with self.assertRaises(SvcError) as ctx:
            svc.complete(ask("x" * (int(ENV["SVC_TEST_MAX_BODY_BYTES"]) + 10)))
        self.assert_error(ctx, InvalidRequestError, "PAYLOAD_TOO_LARGE", 413)

    def test_permission_and_not_found(self):
        svc = self.admin()
        with self.assertRaises(SvcError) as ctx:
            svc.keys.create("other", "another-app")
        self.assert_error(ctx, PermissionDeniedError, "FORBIDDEN", 403)
        plain = svc.keys.create("no admin", APP)
        with self.assertRaises(SvcError) as ctx:
            Svc(plain["key"], BASE_URL).keys.list()
        self.assert_error(ctx, PermissionDeniedError, "FORBIDDEN", 403)
        with self.assertRaises(SvcError) as ctx:
            svc.keys.revoke("key_doesnotexist")
        self.assert_error(ctx, NotFoundError, "NOT_FOUND", 404)

    def test_rate_limited_with_retry_after_beyond_the_cap(self):
        created = self.admin().keys.create("py tester", APP, type="test")
        tester = Svc(created["key"], BASE_URL)
        for i in range(int(ENV["SVC_TEST_KEY_DAILY_CALLS"])):
            tester.complete(ask(f"python call {i}"), model=MODELS["ok"])
        t0 = time.monotonic()
        with self.assertRaises(SvcError) as ctx:
            tester.complete(ask("one too many"), model=MODELS["ok"])
        self.assertLess(time.monotonic() - t0, 5)
        self.assert_error(ctx, RateLimitError, "RATE_LIMITED", 429)
        self.assertGreater(ctx.exception.retry_after, 0)

    def test_quota_exceeded(self):
        created = self.admin().keys.create("py tiny", APP, plan=ENV["SVC_TEST_TINY_PLAN"])
        tiny = Svc(created["key"], BASE_URL)
        tiny.complete(ask("the only call"), model=MODELS["ok"])
        with self.assertRaises(SvcError) as ctx:
            tiny.complete(ask("past the quota"), model=MODELS["ok"])
        self.assert_error(ctx, RateLimitError, "QUOTA_EXCEEDED", 429)
        self.assertGreater(ctx.exception.retry_after, 0)

    def test_upstream_errors(self):
        svc = self.admin(max_retries=0)
        for model, cls, code, status in (
            (MODELS["failing"], UpstreamError, "UPSTREAM_ERROR", 502),
            (MODELS["hanging"], UpstreamError, "UPSTREAM_TIMEOUT", 504),
            (MODELS["unserved"], ServiceUnavailableError, "NO_PROVIDER", 503),
        ):
            with self.subTest(code=code):
                with self.assertRaises(SvcError) as ctx:
                    svc.complete(ask("hi"), model=model)
                self.assert_error(ctx, cls, code, status)
        with self.assertRaises(SvcError) as ctx:
            svc.complete(ask("hi"), model=MODELS["unserved"], stream=True)
        self.assert_error(ctx, ServiceUnavailableError, "NO_PROVIDER", 503)

    def test_types_match_the_server(self):
        self.assertEqual(sorted(SVC_OPTION_FIELDS), sorted(SERVER["option_fields"]))
        self.assertEqual(sorted(set(SERVER["meta_fields"]) - set(SVC_META_FIELDS)), [])


if __name__ == "__main__":
    unittest.main()
