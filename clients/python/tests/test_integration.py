"""The Python client against a real svc process with mock upstreams.

test/clients/python-client.test.ts starts the gateway and runs these with its address, an admin key
and the rig's layout in SVC_TEST_* variables; without them the tests are skipped.
"""
import datetime
import hashlib
import json
import os
import time
import typing
import unittest
import uuid
from unittest import mock

from svc_client import (
    SVC_META_FIELDS,
    SVC_OPTION_FIELDS,
    AgentRun,
    AuthenticationError,
    Budget,
    BudgetExceededError,
    BudgetPeriod,
    Conversation,
    InvalidRequestError,
    MissingApiKeyError,
    NotFoundError,
    PermissionDeniedError,
    Protocol,
    RateLimitError,
    ServiceUnavailableError,
    Svc,
    SvcError,
    UpstreamError,
    UsageGroup,
    UsagePage,
    UsageRow,
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
class SvcTestCase(unittest.TestCase):
    def admin(self, **kw):
        return Svc(ADMIN_KEY, BASE_URL, **kw)

    def assert_error(self, ctx, cls, code, status):
        e = ctx.exception
        self.assertIsInstance(e, cls)
        self.assertIsInstance(e, SvcError)
        self.assertEqual(e.code, code)
        self.assertEqual(e.status, status)
        self.assertTrue(e.request_id and e.request_id.startswith("svc_req_"), e.request_id)


class AgainstSvc(SvcTestCase):
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
        # The server's 8 KiB URL and 16 KiB header defaults.
        with self.assertRaises(SvcError) as ctx:
            svc.conversations.get("c" * 9000)
        self.assert_error(ctx, InvalidRequestError, "URI_TOO_LONG", 414)
        with self.assertRaises(SvcError) as ctx:
            Svc(ADMIN_KEY, BASE_URL, headers={"X-Padding": "h" * 17000}).keys.list()
        self.assert_error(ctx, InvalidRequestError, "HEADERS_TOO_LARGE", 431)

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


CHEAP = {**OFF, "route": False}


def call(svc, text, **options):
    """A priced model and a short answer, so budgets and runs see a small known cost."""
    return svc.complete(ask(text), model=MODELS["ok"], max_tokens=9, svc_options={**CHEAP, **options})


def fields(typed_dict):
    return set(typed_dict.__annotations__)


class Resources(SvcTestCase):
    """Each method is checked by what the server did with it: a wrong path is a 404, a wrong body a 400,
    and every change is read back. Every record's fields are the TypedDict's, so a field the server
    gains fails here."""

    def reader(self):
        """A key of the app without the admin scope."""
        return Svc(self.admin().keys.create("py reader", APP)["key"], BASE_URL, max_retries=0)

    def test_budgets(self):
        svc = self.admin(max_retries=0)
        b = svc.budgets.create("py team", 12.5, "monthly")
        self.assertEqual(set(b), fields(Budget))
        self.assertTrue(b["id"].startswith("bud_"))
        self.assertEqual((b["name"], b["app_id"], b["limit_usd"], b["period"], b["spent_usd"]), ("py team", APP, 12.5, "monthly", 0))
        self.assertIn(b["id"], [x["id"] for x in svc.budgets.list()])
        self.assertEqual(svc.budgets.get(b["id"]), b)
        updated = svc.budgets.update(b["id"], name="renamed", limit_usd=20)
        self.assertEqual((updated["name"], updated["limit_usd"], updated["remaining_usd"]), ("renamed", 20, 20))
        self.assertEqual(svc.budgets.update(b["id"], limit_usd=21)["name"], "renamed")
        call(svc, "charged to the python budget", budget_id=b["id"])
        after = svc.budgets.get(b["id"])
        for _ in range(100):
            if after["reserved_usd"] == 0:
                break
            after = svc.budgets.get(b["id"])
        self.assertGreater(after["spent_usd"], 0)
        deleted = svc.budgets.delete(b["id"])
        self.assertEqual((deleted["id"], deleted["deleted"]), (b["id"], True))
        with self.assertRaises(SvcError) as ctx:
            svc.budgets.get(b["id"])
        self.assert_error(ctx, NotFoundError, "NOT_FOUND", 404)

    def test_key_defaults(self):
        svc = self.admin(max_retries=0)
        b = svc.budgets.create("py key default", 3, "total")
        created = svc.keys.create("py bound", APP, budget_id=b["id"], agent_run_limits={"max_calls": 5})
        self.assertEqual((created["budget_id"], created["agent_run_limits"]["max_calls"]), (b["id"], 5))
        # Left out is kept; a run limit set to None falls back to the operator's.
        changed = svc.keys.update(created["id"], agent_run_limits={"max_calls": None, "max_repeats": 4})
        self.assertEqual((changed["budget_id"], changed["agent_run_limits"]["max_calls"], changed["agent_run_limits"]["max_repeats"]), (b["id"], None, 4))
        self.assertIsNone(svc.keys.update(created["id"], budget_id=None)["budget_id"])
        listed = {k["id"]: k for k in svc.keys.list()}
        self.assertIsNone(listed[created["id"]]["budget_id"])
        with self.assertRaises(SvcError) as ctx:
            svc.keys.update(created["id"])
        self.assert_error(ctx, InvalidRequestError, "VALIDATION_ERROR", 400)

    def test_budget_exceeded_and_refusals(self):
        svc = self.admin(max_retries=0)
        tiny = svc.budgets.create("one micro-dollar", 0.000001, "total")
        with self.assertRaises(SvcError) as ctx:
            call(svc, "too dear for python", budget_id=tiny["id"])
        self.assert_error(ctx, BudgetExceededError, "BUDGET_EXCEEDED", 402)
        self.assertEqual(svc.budgets.get(tiny["id"])["spent_usd"], 0)
        with self.assertRaises(SvcError) as ctx:
            svc.budgets.create("weekly", 1, "weekly")
        self.assert_error(ctx, InvalidRequestError, "VALIDATION_ERROR", 400)
        self.assertEqual(ctx.exception.param, "period")
        reader = self.reader()
        self.assertEqual(reader.budgets.get(tiny["id"])["id"], tiny["id"])
        with self.assertRaises(SvcError) as ctx:
            reader.budgets.update(tiny["id"], limit_usd=5)
        self.assert_error(ctx, PermissionDeniedError, "FORBIDDEN", 403)

    def test_agent_runs(self):
        # Characters a path must escape: the id is the client's own string.
        run_id = f"py run α/{uuid.uuid4()}?x#y"
        svc = self.admin(max_retries=2)
        limits = svc.agent_runs.set_limits(run_id, max_calls=2, max_repeats=5)
        self.assertEqual(set(limits), fields(AgentRun))
        self.assertEqual((limits["id"], limits["status"], limits["calls"]), (run_id, "active", 0))
        self.assertEqual(limits["limits"], {"max_cost_usd": None, "max_calls": 2, "max_repeats": 5})
        for i in (1, 2):
            meta = call(svc, f"python agent step {i}", agent_run_id=run_id)["svc_meta"]
            self.assertEqual((meta["agent_run"]["id"], meta["agent_run"]["calls"]), (run_id, i))
        t0 = time.monotonic()
        with self.assertRaises(SvcError) as ctx:
            call(svc, "python agent step 3", agent_run_id=run_id)
        self.assertLess(time.monotonic() - t0, 5)
        self.assert_error(ctx, RateLimitError, "AGENT_GUARD", 429)
        self.assertEqual(ctx.exception.body["error"]["agent_run"]["calls"], 2)
        run = svc.agent_runs.get(run_id)
        self.assertEqual((run["status"], run["calls"]), ("tripped", 2))
        self.assertGreater(run["cost_usd"], 0)
        self.assertTrue(run["trip_reason"])
        reset = svc.agent_runs.reset(run_id)
        self.assertEqual((reset["status"], reset["calls"], reset["trip_reason"]), ("active", 0, None))
        self.assertEqual(call(svc, "python step after reset", agent_run_id=run_id)["svc_meta"]["agent_run"]["calls"], 1)
        self.assertEqual(svc.agent_runs.close(run_id)["status"], "closed")
        with self.assertRaises(SvcError) as ctx:
            call(svc, "python step after close", agent_run_id=run_id)
        self.assert_error(ctx, RateLimitError, "AGENT_GUARD", 429)
        with self.assertRaises(SvcError) as ctx:
            svc.agent_runs.get("py-never-used")
        self.assert_error(ctx, NotFoundError, "NOT_FOUND", 404)
        with self.assertRaises(SvcError) as ctx:
            self.reader().agent_runs.reset(run_id)
        self.assert_error(ctx, PermissionDeniedError, "FORBIDDEN", 403)
        with self.assertRaises(SvcError) as ctx:
            svc.agent_runs.set_limits(run_id, max_calls=0)
        self.assert_error(ctx, InvalidRequestError, "VALIDATION_ERROR", 400)
        self.assertEqual(ctx.exception.param, "max_calls")

    def test_conversations(self):
        svc = self.admin()
        conv_id = f"py conv {uuid.uuid4()}/é"
        first = call(svc, "My name is Grace.", conversation_id=conv_id)
        self.assertEqual(first["svc_meta"]["conversation_id"], conv_id)
        history = ask("My name is Grace.") + [
            {"role": "assistant", "content": first["choices"][0]["message"]["content"]},
            {"role": "user", "content": "What is my name?"},
        ]
        svc.complete(history, model=MODELS["ok"], max_tokens=9, svc_options={**CHEAP, "conversation_id": conv_id})
        got = svc.conversations.get(conv_id)
        self.assertEqual(set(got), fields(Conversation))
        # Two user turns and two answers.
        self.assertEqual(got, {"id": conv_id, "turns": 4, "kept_turns": 4, "summarized_turns": 0, "summary": None, "tokens_saved": 0})
        self.assertEqual(svc.conversations.delete(conv_id), got)
        with self.assertRaises(SvcError) as ctx:
            svc.conversations.get(conv_id)
        self.assert_error(ctx, NotFoundError, "NOT_FOUND", 404)

    def test_protocols(self):
        svc = self.admin()
        content = (
            "You are the billing assistant of Example Ltd. Answer briefly and politely. "
            "Never promise refunds; point customers to the returns page instead."
        )
        p = svc.protocols.create("py billing", content)
        self.assertTrue(p["id"].startswith("proto_"))
        self.assertEqual((p["name"], p["version"]), ("py billing", 1))
        listed = [x for x in svc.protocols.list() if x["id"] == p["id"]][0]
        self.assertEqual(set(listed), fields(Protocol) - {"content", "compressed_content"})
        full = svc.protocols.get(p["id"])
        self.assertEqual(set(full), fields(Protocol))
        self.assertEqual(full["content"], content)
        meta = call(svc, "Can I have my money back?", protocol_id=p["id"])["svc_meta"]
        # The protocol's compressed content was sent ahead of the call, as its stable prefix (none without one).
        self.assertGreater(meta["prompt_cache"]["prefix_tokens"], 0)
        self.assertNotIn("prompt_cache", call(svc, "Can I have my money back, please?")["svc_meta"])
        v2 = svc.protocols.update(p["id"], content + " Sign every answer.")
        self.assertEqual((v2["id"], v2["version"], v2["content"]), (p["id"], 2, content + " Sign every answer."))
        self.assertEqual(svc.protocols.delete(p["id"])["version"], 2)
        with self.assertRaises(SvcError) as ctx:
            svc.protocols.get(p["id"])
        self.assert_error(ctx, NotFoundError, "NOT_FOUND", 404)
        with self.assertRaises(SvcError) as ctx:
            svc.protocols.create("", content)
        self.assert_error(ctx, InvalidRequestError, "VALIDATION_ERROR", 400)
        self.assertEqual(ctx.exception.param, "name")

    def test_usage(self):
        # An app of its own (SVC_TEST_USAGE_ADMIN_KEY), so its totals are exactly this test's calls.
        a = Svc(ENV["SVC_TEST_USAGE_ADMIN_KEY"], BASE_URL, max_retries=0)
        created = a.keys.create("py second", ENV["SVC_TEST_USAGE_APP"])
        b = Svc(created["key"], BASE_URL, max_retries=0)
        for i in range(3):
            call(a, f"python usage question {i}")
        call(b, "python usage question from b")
        # The ledger reaches the store within a flush interval of each call.
        for _ in range(200):
            by_model = a.usage.get(group_by="model")
            if sum(r["calls"] for r in by_model["rows"]) >= 4:
                break
            time.sleep(0.025)
        self.assertEqual(set(by_model), set(UsagePage.__annotations__))
        self.assertEqual(set(by_model["rows"][0]), fields(UsageRow))
        self.assertEqual([(r["group"], r["calls"]) for r in by_model["rows"]], [("gpt-4o-mini-2024-07-18", 4)])
        self.assertIsNone(by_model["next_cursor"])
        row = by_model["rows"][0]
        self.assertAlmostEqual(sum(row["saved_by_source"].values()), row["saved_usd"], places=12)

        first = a.usage.get(group_by="key", limit=1)
        self.assertEqual(len(first["rows"]), 1)
        self.assertIsInstance(first["next_cursor"], str)
        second = a.usage.get(group_by="key", limit=1, cursor=first["next_cursor"])
        self.assertIsNone(second["next_cursor"])
        by_key = {r["group"]: r["calls"] for r in first["rows"] + second["rows"]}
        self.assertEqual(by_key, {ENV["SVC_TEST_USAGE_KEY_ID"]: 3, created["id"]: 1})
        self.assertEqual(list(a.usage.rows(group_by="key", limit=1)), first["rows"] + second["rows"])

        csv1 = a.usage.csv(group_by="key", limit=1)
        lines = csv1["csv"].split("\r\n")
        self.assertTrue(lines[0].startswith("group,calls,errors,original_tokens,sent_tokens,"), lines[0])
        self.assertEqual(len(lines), 3)
        self.assertTrue(lines[1].startswith(f"{first['rows'][0]['group']},{first['rows'][0]['calls']},"), lines[1])
        self.assertEqual(csv1["next_cursor"], first["next_cursor"])
        csv2 = a.usage.csv(group_by="key", limit=1, cursor=csv1["next_cursor"])
        self.assertTrue(csv2["csv"].split("\r\n")[1].startswith(f"{second['rows'][0]['group']},"))
        self.assertIsNone(csv2["next_cursor"])

        # Time filters reach the server: a window before the calls holds none of them.
        past = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)
        self.assertEqual(a.usage.get(to=past)["rows"], [])
        self.assertEqual([r["calls"] for r in a.usage.get(from_=int(past.timestamp() * 1000), group_by="model")["rows"]], [4])
        by_day = a.usage.get(group_by="day", from_=past.isoformat())
        self.assertEqual(sum(r["calls"] for r in by_day["rows"]), 4)
        with self.assertRaises(SvcError) as ctx:
            a.usage.get(group_by="week")
        self.assert_error(ctx, InvalidRequestError, "VALIDATION_ERROR", 400)
        self.assertEqual(ctx.exception.param, "group_by")

    def test_enumerations_match_the_server(self):
        self.assertEqual(sorted(typing.get_args(UsageGroup)), sorted(SERVER["usage_groups"]))
        self.assertEqual(sorted(typing.get_args(BudgetPeriod)), sorted(SERVER["budget_periods"]))


if __name__ == "__main__":
    unittest.main()
