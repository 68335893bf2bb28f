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


class _AgentRunRequired(TypedDict):
    id: str
    calls: int
    cost_usd: float
    status: Literal["active", "tripped", "closed"]


class AgentRun(_AgentRunRequired, total=False):
    """``svc_meta.agent_run``; ``wrap_up`` is True when the call carried svc's wrap-up instruction."""

    wrap_up: bool


class SavedBySource(TypedDict):
    """Where a call's saving came from, in USD; the parts sum to ``saved_usd``."""

    compression: float
    routing: float
    cache: float
    prompt_cache: float
    conversation: float


class SavedBySource(TypedDict):
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
    agent_run: AgentRun


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
