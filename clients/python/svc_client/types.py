"""The wire shapes of svc as TypedDicts: responses are plain dicts of these shapes.

They mirror the server's own types field for field (test/clients/python-client.test.ts hands the
server's field lists to the unit tests, which fail when the server has a field these lack).
"""
from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

RoutingReason = Literal[
    "explicit_model",
    "faq_pattern",
    "code_task",
    "math_task",
    "reasoning_task",
    "creative_task",
    "summarize_task",
    "extract_task",
    "translate_task",
    "chat_default",
    "long_context",
    "fallback",
    "cache_hit",
    "route_disabled",
    "low_confidence",
    "many_constraints",
    "multi_step",
    "long_output",
    "large_context",
    "long_question",
    "deliberation",
    "calculation",
    "estimation",
    "software_terms",
    "budget_fit",
]


class SvcOptions(TypedDict, total=False):
    """``svc_options`` of a completion request; every field is optional, the server fills defaults."""

    compress: bool
    route: bool
    cache: bool
    cache_nondeterministic: bool
    score: bool
    budget_id: str
    mask_pii: bool
    max_aggressiveness: float
    skip_rules: List[str]
    conversation_id: str
    agent_run_id: str
    protocol_id: str
    max_turns_to_keep: int


class _AgentRunTotalsRequired(TypedDict):
    id: str
    calls: int
    cost_usd: float
    status: Literal["active", "tripped", "closed"]


class AgentRunTotals(_AgentRunTotalsRequired, total=False):
    """``svc_meta.agent_run``: the run's totals after the call (also in an AGENT_GUARD error's body);
    ``wrap_up`` is True when the call carried svc's wrap-up instruction."""

    wrap_up: bool


class SavedBySource(TypedDict):
    """Where a call's saving came from, in USD; the parts sum to ``saved_usd``."""

    compression: float
    routing: float
    cache: float
    prompt_cache: float
    conversation: float


class PromptCache(TypedDict):
    prefix_tokens: int
    min_tokens: Optional[int]
    below_minimum: bool


class BudgetFit(TypedDict):
    """The model ``auto`` routing chose, and why, before the budget could not cover it."""

    instead_of: str
    reason: RoutingReason


class _SvcMetaRequired(TypedDict):
    original_tokens: int
    compressed_tokens: int
    compression_ratio: float
    # None when the model has no price in svc's catalog (an unlisted model served by name).
    cost_original_usd: Optional[float]
    cost_actual_usd: Optional[float]
    saved_usd: Optional[float]
    saved_by_source: SavedBySource
    routing_reason: RoutingReason
    model_requested: str
    rules_applied: List[str]
    cache_hit: bool
    pii_masked: bool
    latency_overhead_ms: int


class SvcMeta(_SvcMetaRequired, total=False):
    """``svc_meta`` of a response. ``quality_score`` is absent when the request set ``score: False``."""

    quality_score: int
    conversation_id: str
    conversation_tokens_saved: int
    prompt_cache: PromptCache
    simulated: bool
    budget_fit: BudgetFit
    agent_run: AgentRunTotals


SVC_OPTION_FIELDS = tuple(SvcOptions.__annotations__)
SVC_META_FIELDS = tuple(SvcMeta.__annotations__)


class ChatMessage(TypedDict, total=False):
    role: str
    content: Union[str, List[Dict[str, str]], None]
    name: str
    tool_call_id: str
    tool_calls: List[Dict[str, Any]]


class Usage(TypedDict):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class Choice(TypedDict):
    index: int
    message: Dict[str, Any]
    finish_reason: Optional[str]


class Completion(TypedDict, total=False):
    id: str
    object: str
    created: int
    model: str
    choices: List[Choice]
    usage: Usage
    svc_meta: SvcMeta


class ChunkChoice(TypedDict):
    index: int
    delta: Dict[str, Any]
    finish_reason: Optional[str]


class CompletionChunk(TypedDict, total=False):
    """One streamed event; the last one has ``finish_reason`` set and carries ``svc_meta``."""

    id: str
    object: str
    created: int
    model: str
    choices: List[ChunkChoice]
    usage: Usage
    svc_meta: SvcMeta


class KeyRunLimits(TypedDict):
    """A key's defaults for its calls' agent runs; None: the operator's."""

    max_cost_usd: Optional[float]
    max_calls: Optional[int]
    max_repeats: Optional[int]


class KeyRecord(TypedDict):
    """A key as listed (never with its value)."""

    id: str
    name: str
    app_id: str
    type: Literal["live", "test"]
    prefix: str
    last4: str
    status: Literal["active", "revoked"]
    scopes: List[str]
    plan: str
    created_at: str
    last_used_at: Optional[str]
    revoked_at: Optional[str]
    budget_id: Optional[str]
    agent_run_limits: KeyRunLimits


class CreatedKey(KeyRecord):
    """``keys.create()``'s answer: the record plus ``key``, the value, shown this once."""

    key: str


class ListOf(TypedDict):
    """``{"object": "list", "data": [...]}``, the shape of every list endpoint but ``/api/usage``."""

    object: Literal["list"]
    data: List[Any]


BudgetPeriod = Literal["daily", "monthly", "total"]


class Budget(TypedDict):
    """A budget (CONTRACT.md "Budgets"); money in USD, kept in integer micro-dollars by the server."""

    #: ``bud_…``, the id ``svc_options["budget_id"]`` takes.
    id: str
    name: str
    app_id: str
    limit_usd: float
    period: BudgetPeriod
    spent_usd: float
    #: Held by calls in flight, each at its worst case until it settles.
    reserved_usd: float
    remaining_usd: float
    #: None for a ``total`` budget.
    resets_at: Optional[str]
    created_at: str


class DeletedBudget(Budget):
    """``budgets.delete()``'s answer: the budget as it was, marked deleted."""

    deleted: Literal[True]


class AgentRunLimits(TypedDict):
    """None is unlimited."""

    max_cost_usd: Optional[float]
    max_calls: Optional[int]
    max_repeats: int


class AgentRun(TypedDict):
    """An agent run (CONTRACT.md "Agent runs"); its id is the client's own ``agent_run_id``."""

    id: str
    status: Literal["active", "tripped", "closed"]
    calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    limits: AgentRunLimits
    #: Why the guard tripped, else None.
    trip_reason: Optional[str]


class Conversation(TypedDict):
    """A stored conversation (CONTRACT.md "Conversations"); its id is the client's own ``conversation_id``."""

    id: str
    turns: int
    kept_turns: int
    summarized_turns: int
    summary: Optional[str]
    tokens_saved: int


class _ProtocolRequired(TypedDict):
    #: ``proto_…``, the id ``svc_options["protocol_id"]`` takes.
    id: str
    name: str
    version: int
    original_tokens: int
    compressed_tokens: int
    created_at: str
    updated_at: str


class Protocol(_ProtocolRequired, total=False):
    """A protocol (CONTRACT.md "Protocols"). ``content`` and ``compressed_content`` (the exact text calls
    send as their first system message) only in the answers of ``get()`` and ``update()``."""

    content: str
    compressed_content: str


UsageGroup = Literal["day", "key", "model", "budget", "agent_run"]


class UsageRow(TypedDict):
    """One group's totals in ``/api/usage``."""

    #: The day (YYYY-MM-DD), key id, model, budget id or agent run id; '' for calls with none.
    group: Optional[str]
    calls: int
    errors: int
    original_tokens: int
    sent_tokens: int
    #: Prompt tokens of the calls answered from the cache (the hit rate by tokens is this over original_tokens).
    cached_tokens: int
    cost_original_usd: float
    cost_actual_usd: float
    saved_usd: float
    saved_by_source: SavedBySource
    cache_hits: int
    avg_latency_ms: float


#: ``usage.get()``'s page; ``from`` and ``to`` are ISO 8601, ``next_cursor`` is passed as ``cursor`` for the
#: next page (None on the last). The functional form because ``from`` is a Python keyword.
UsagePage = TypedDict(
    "UsagePage",
    {
        "object": Literal["usage"],
        "group_by": UsageGroup,
        "from": str,
        "to": str,
        "rows": List[UsageRow],
        "next_cursor": Optional[str],
        #: The range's sums over every group, with ``overhead_ms`` ``{p50, p99}``; absent with ``totals=False``.
        "totals": Dict[str, Any],
    },
    total=False,
)


class UsageCsvPage(TypedDict):
    """One page of ``/api/usage`` as CSV (RFC 4180, a header line first, CRLF line ends)."""

    csv: str
    #: From the ``x-next-cursor`` header; None on the last page.
    next_cursor: Optional[str]
