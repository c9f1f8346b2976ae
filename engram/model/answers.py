"""What the agent tools answer, field for field, as typed dictionaries: the same values reach a Python caller,
the MCP client and the REST client, whose OpenAPI document describes them."""

from __future__ import annotations

from typing import Any, NotRequired

from typing_extensions import TypedDict


class PiiSummary(TypedDict):
    """Personal data a stored text held: 0 none, 1 only redaction markers, 2 raw personal data stored."""

    risk: int
    kinds: list[str]
    redacted: bool


class StoreAnalysis(TypedDict):
    detected_category: str | None
    generated_tags: list[str]
    importance_score: int
    confidence: float | None
    concepts_extracted: list[str]
    kind: str
    needs_category: bool
    pii: PiiSummary


class StoreRecommendations(TypedDict):
    similar_memories: list[str]
    suggested_merges: list[str]
    suggested_updates: list[str]
    tag_consolidations: dict[str, str]


class StoreMemoryResult(TypedDict):
    success: bool
    memory_id: str
    outcome: str
    analysis: StoreAnalysis
    recommendations: StoreRecommendations


class SearchHit(TypedDict):
    id: str
    content: str
    relevance_score: float
    matched_concepts: list[str]
    category: str | None
    importance: int
    created_at: str
    last_accessed: str | None
    due: NotRequired[str | None]


class QueryAnalysis(TypedDict):
    extracted_concepts: list[str]
    search_scope: str
    semantic_expansions: dict[str, list[str]]
    intent: str
    time_range: dict[str, Any] | None


class SearchMemoryResult(TypedDict):
    results: list[SearchHit]
    total_found: int
    query_analysis: QueryAnalysis


class SystemState(TypedDict):
    total_memories: int
    health_score: float
    optimization_opportunities: list[str]


class DiscoverResult(TypedDict):
    advanced_tools: dict[str, list[str]]
    current_system_state: SystemState


class RememberAnswer(TypedDict):
    id: str
    outcome: str
    kind: str | None
    confidence: float | None
    duplicate_of: str | None
    merged_into: str | None
    pii: PiiSummary


class RecallHit(TypedDict):
    id: str
    content: str
    kind: str
    score: float
    components: dict[str, float]


class RecallAnswer(TypedDict):
    results: list[RecallHit]
    count: int


class ForgetAnswer(TypedDict):
    deleted: bool
    id: str
