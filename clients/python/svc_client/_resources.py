"""The resources under ``/api/``. Each is scoped to the calling key's ``app_id`` (another app's id is 404
NOT_FOUND); reading needs any key of the app, changing needs one with scope ``admin`` (else 403 FORBIDDEN)."""
import datetime
import urllib.parse
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Union

from .types import (
    AgentRun,
    Budget,
    BudgetPeriod,
    Conversation,
    CreatedKey,
    DeletedBudget,
    KeyRecord,
    KeyRunLimits,
    Protocol,
    UsageCsvPage,
    UsageGroup,
    UsagePage,
    UsageRow,
)

if TYPE_CHECKING:
    from ._client import Svc

#: A time for ``/api/usage``: a datetime (naive is local time, as Python takes it), an ISO 8601 string or epoch ms.
Time = Union[datetime.datetime, str, int]


def _seg(resource_id: str) -> str:
    """One path segment: an id the caller chose (an agent run's, a conversation's) may hold any character."""
    return urllib.parse.quote(resource_id, safe="")


class _Unset:
    """The default of an argument whose None means something (unbind): "left out" is this, not None."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset()


def _given(**fields: Any) -> Dict[str, Any]:
    """The fields that were given (not None): the server keeps what a request leaves out."""
    return {k: v for k, v in fields.items() if v is not None}


class _Resource:
    def __init__(self, svc: "Svc") -> None:
        self._svc = svc


class Keys(_Resource):
    """``/api/keys``: needs a key with scope ``admin``; manages the keys of that key's ``app_id`` only."""

    def create(
        self,
        name: str,
        app_id: str,
        *,
        type: Optional[str] = None,
        scopes: Optional[List[str]] = None,
        plan: Optional[str] = None,
        budget_id: Optional[str] = None,
        agent_run_limits: Optional[KeyRunLimits] = None,
    ) -> CreatedKey:
        """Creates a key; the answer carries its value (``key``) this once. ``budget_id``: the budget its calls
        that name none are charged on; ``agent_run_limits``: its calls' run limits (a run's own limits win)."""
        body = _given(name=name, app_id=app_id, type=type, scopes=scopes, plan=plan, budget_id=budget_id, agent_run_limits=agent_run_limits)
        return self._svc.json("POST", "/api/keys", body)

    def list(self) -> List[KeyRecord]:
        return self._svc.json("GET", "/api/keys")["data"]

    def update(self, key_id: str, *, budget_id: Union[str, None, "_Unset"] = UNSET, agent_run_limits: Optional[KeyRunLimits] = None) -> KeyRecord:
        """Changes a key's defaults: ``budget_id`` (None unbinds it) and/or ``agent_run_limits`` (a limit set
        to None falls back to the operator's); what is left out is kept."""
        body: Dict[str, Any] = _given(agent_run_limits=agent_run_limits)
        if budget_id is not UNSET:
            body["budget_id"] = budget_id
        return self._svc.json("PATCH", "/api/keys/" + _seg(key_id), body)

    def revoke(self, key_id: str) -> KeyRecord:
        """Revokes a key by its id (``key_…``); calls with it then fail with 401 KEY_REVOKED."""
        return self._svc.json("DELETE", "/api/keys/" + _seg(key_id))


class Budgets(_Resource):
    """``/api/budgets``: a call with ``svc_options["budget_id"]`` that would overspend is 402 BUDGET_EXCEEDED
    before any provider call."""

    def create(self, name: str, limit_usd: float, period: BudgetPeriod) -> Budget:
        return self._svc.json("POST", "/api/budgets", {"name": name, "limit_usd": limit_usd, "period": period})

    def list(self) -> List[Budget]:
        return self._svc.json("GET", "/api/budgets")["data"]

    def get(self, budget_id: str) -> Budget:
        return self._svc.json("GET", "/api/budgets/" + _seg(budget_id))

    def update(self, budget_id: str, *, name: Optional[str] = None, limit_usd: Optional[float] = None) -> Budget:
        """Renames it or changes its limit; spend so far is kept."""
        return self._svc.json("PATCH", "/api/budgets/" + _seg(budget_id), _given(name=name, limit_usd=limit_usd))

    def delete(self, budget_id: str) -> DeletedBudget:
        return self._svc.json("DELETE", "/api/budgets/" + _seg(budget_id))


class AgentRuns(_Resource):
    """``/api/agent-runs/{id}``: a run exists once a call names it in ``svc_options["agent_run_id"]`` or its
    limits are set. A tripped guard answers 429 AGENT_GUARD (never retried) until ``reset()``."""

    def get(self, run_id: str) -> AgentRun:
        return self._svc.json("GET", "/api/agent-runs/" + _seg(run_id))

    def set_limits(
        self,
        run_id: str,
        *,
        max_cost_usd: Optional[float] = None,
        max_calls: Optional[int] = None,
        max_repeats: Optional[int] = None,
    ) -> AgentRun:
        """Sets the run's limits, creating the run if it is new; a limit left out keeps its value."""
        body = _given(max_cost_usd=max_cost_usd, max_calls=max_calls, max_repeats=max_repeats)
        return self._svc.json("PUT", "/api/agent-runs/" + _seg(run_id), body)

    def reset(self, run_id: str) -> AgentRun:
        """Clears the totals and a tripped guard; the run continues under the same limits."""
        return self._svc.json("POST", f"/api/agent-runs/{_seg(run_id)}/reset")

    def close(self, run_id: str) -> AgentRun:
        """Ends the run: later calls naming it are refused with 429 AGENT_GUARD."""
        return self._svc.json("POST", f"/api/agent-runs/{_seg(run_id)}/close")


class Conversations(_Resource):
    """``/api/conversations/{id}``: a conversation is made by the first call naming ``svc_options["conversation_id"]``."""

    def get(self, conversation_id: str) -> Conversation:
        return self._svc.json("GET", "/api/conversations/" + _seg(conversation_id))

    def delete(self, conversation_id: str) -> Conversation:
        """Forgets its stored turns and summary; answers what it held."""
        return self._svc.json("DELETE", "/api/conversations/" + _seg(conversation_id))


class Protocols(_Resource):
    """``/api/protocols``: a call with ``svc_options["protocol_id"]`` gets the protocol's compressed content
    as its first system message."""

    def create(self, name: str, content: str) -> Protocol:
        return self._svc.json("POST", "/api/protocols", {"name": name, "content": content})

    def list(self) -> List[Protocol]:
        """Without ``content`` and ``compressed_content``."""
        return self._svc.json("GET", "/api/protocols")["data"]

    def get(self, protocol_id: str) -> Protocol:
        return self._svc.json("GET", "/api/protocols/" + _seg(protocol_id))

    def update(self, protocol_id: str, content: str) -> Protocol:
        """Replaces the content: every update is the next ``version``, compressed once."""
        return self._svc.json("PUT", "/api/protocols/" + _seg(protocol_id), {"content": content})

    def delete(self, protocol_id: str) -> Protocol:
        return self._svc.json("DELETE", "/api/protocols/" + _seg(protocol_id))


def _time(t: Time) -> str:
    if isinstance(t, datetime.datetime):
        return str(int(t.timestamp() * 1000))
    return str(t)


def _usage_path(
    format: Optional[str],
    *,
    from_: Optional[Time] = None,
    to: Optional[Time] = None,
    group_by: Optional[UsageGroup] = None,
    limit: Optional[int] = None,
    cursor: Optional[str] = None,
    key_id: Optional[str] = None,
    model: Optional[str] = None,
    budget_id: Optional[str] = None,
    totals: Optional[bool] = None,
) -> str:
    """``/api/usage?…``; an unknown filter is a TypeError here, before any request."""
    q = _given(
        **{
            "from": None if from_ is None else _time(from_),
            "to": None if to is None else _time(to),
            "group_by": group_by,
            "limit": limit,
            "cursor": cursor,
            "key_id": key_id,
            "model": model,
            "budget_id": budget_id,
            "totals": None if totals is None or totals else "false",
            "format": format,
        }
    )
    return "/api/usage" + ("?" + urllib.parse.urlencode(q) if q else "")


class Usage(_Resource):
    """``/api/usage``: the app's calls aggregated by day, key, model, budget or agent run over [from, to)
    (default the last 30 days), a page at a time. Rows reach the store within the gateway's flush interval
    (``SVC_FLUSH_MS``) of their call.

    Every method takes the same keyword filters: ``from_`` and ``to`` (a :data:`Time`), ``group_by``
    (``day``, the default, ``key``, ``model``, ``budget`` or ``agent_run``), ``limit`` (rows per page, 1 to
    1,000, default 100), ``cursor`` (a previous page's ``next_cursor``), ``key_id``, ``model`` and ``budget_id``
    (only that key's, model's or budget's calls) and ``totals=False`` (a page without the range's totals)."""

    def get(self, **filters: Any) -> UsagePage:
        """One page; pass its ``next_cursor`` as ``cursor`` for the next."""
        return self._svc.json("GET", _usage_path(None, **filters))

    def rows(self, **filters: Any) -> Iterator[UsageRow]:
        """Every row from ``cursor`` (default the first page) to the last page, fetched a page at a time."""
        while True:
            page = self.get(**filters)
            yield from page["rows"]
            if page["next_cursor"] is None:
                return
            filters = {**filters, "cursor": page["next_cursor"]}

    def csv(self, **filters: Any) -> UsageCsvPage:
        """One page as CSV: a header line, then a line per row (saved_by_source as five ``saved_*_usd`` columns)."""
        with self._svc.request("GET", _usage_path("csv", **filters)) as res:
            return {"csv": res.read().decode("utf-8"), "next_cursor": res.headers.get("x-next-cursor")}
