"""What the agent tools answer, field for field, as typed dictionaries: the same values reach a Python caller,
the MCP client and the REST client, whose OpenAPI document describes them."""

from __future__ import annotations

from typing import Any, NotRequired

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

# Each answer is exactly these fields: a field a tool adds without saying so here fails its tests.
_EXACT = ConfigDict(extra="forbid")


@with_config(_EXACT)
class PiiSummary(TypedDict):
    """Personal data a stored text held: 0 none, 1 only redaction markers, 2 raw personal data stored."""

    risk: int
    kinds: list[str]
    redacted: bool


@with_config(_EXACT)
class StoreAnalysis(TypedDict):
    detected_category: str | None
    generated_tags: list[str]
    importance_score: int
    confidence: float | None
    concepts_extracted: list[str]
    kind: str
    needs_category: bool
    pii: PiiSummary
    due_date: NotRequired[str | None]  # a reminder's or a task's due day (ISO date)


@with_config(_EXACT)
class StoreRecommendations(TypedDict):
    similar_memories: list[str]
    suggested_merges: list[str]
    suggested_updates: list[str]
    tag_consolidations: dict[str, str]


@with_config(_EXACT)
class StoreMemoryResult(TypedDict):
    success: bool
    memory_id: str
    outcome: str
    analysis: StoreAnalysis
    recommendations: StoreRecommendations


@with_config(_EXACT)
class PassageAnswer(TypedDict):
    """Where a passage of a document sits: the document's id, its place (1-based) of `count`, its heading."""

    document: str
    index: int
    count: int
    heading: str | None


@with_config(_EXACT)
class SearchHit(TypedDict):
    id: str
    content: str
    relevance_score: float
    confidence: str
    matched_concepts: list[str]
    category: str | None
    importance: int
    created_at: str
    last_accessed: str | None
    passage: NotRequired[PassageAnswer]
    due: NotRequired[str | None]
    updated_by: NotRequired[str]  # the id of a newer memory that says this one changed


@with_config(_EXACT)
class QueryAnalysis(TypedDict):
    extracted_concepts: list[str]
    search_scope: str
    semantic_expansions: dict[str, list[str]]
    intent: str
    time_range: dict[str, Any] | None


@with_config(_EXACT)
class SearchMemoryResult(TypedDict):
    results: list[SearchHit]
    total_found: int
    query_analysis: QueryAnalysis


@with_config(_EXACT)
class SystemState(TypedDict):
    total_memories: int
    health_score: float
    optimization_opportunities: list[str]


@with_config(_EXACT)
class DiscoverResult(TypedDict):
    advanced_tools: dict[str, list[str]]
    current_system_state: SystemState


@with_config(_EXACT)
class RememberAnswer(TypedDict):
    id: str
    outcome: str
    kind: str | None
    confidence: float | None
    duplicate_of: str | None
    merged_into: str | None
    pii: PiiSummary


@with_config(_EXACT)
class RecallHit(TypedDict):
    id: str
    content: str
    kind: str
    score: float
    confidence: str
    components: dict[str, float]
    passage: NotRequired[PassageAnswer]


@with_config(_EXACT)
class RecallAnswer(TypedDict):
    results: list[RecallHit]
    count: int


# What a forget cannot reach, said in its answer on every door: copies made before it keep the text.
FORGET_NOTE = (
    "gone from this database; backups and exports made before still hold its text, and restoring or importing "
    "one brings it back: delete those copies too"
)


@with_config(_EXACT)
class ForgetAnswer(TypedDict):
    deleted: bool
    id: str
    archived: list[str]  # the memories it had replaced (superseded or merged into it), archived, not deleted
    note: str  # FORGET_NOTE


@with_config(_EXACT)
class IndexCounts(TypedDict):
    indexed: int
    embedded: int


@with_config(_EXACT)
class StatsAnswer(TypedDict):
    memories: int
    chunks: int
    by_kind: dict[str, int]
    by_scope: dict[str, int]
    by_status: dict[str, int]
    embedded: int
    model: str | None
    dim: int | None
    size_bytes: int
    index: IndexCounts


@with_config(_EXACT)
class MemoryStatsAnswer(StatsAnswer):
    categories: dict[str, int]
    tags: dict[str, int]
    operations: int


@with_config(_EXACT)
class TagMerge(TypedDict):
    tag: str
    into: str
    reason: str  # spelling | abbreviation | variant | repeat | similarity
    similarity: float
    why: str  # the reason in a sentence a user can check ("k8s" abbreviates "kubernetes")


@with_config(_EXACT)
class RenameTagAnswer(TypedDict):
    old: str
    new: str  # as stored: lowercase words joined by hyphens
    merged: bool  # `new` was a tag already: the two are one tag now
    memories: int  # memories that carried `old`
    operation_id: str  # rollback(operation_id) undoes it


@with_config(_EXACT)
class OptimizeTagsAnswer(TypedDict):
    tags_before: int
    merges: list[TagMerge]
    archived: list[str]
    tags_after: int
    reduction: float
    operation_id: str | None
    dry_run: bool


@with_config(_EXACT)
class MergeMemoriesAnswer(TypedDict):
    operation_id: str
    memory_id: str
    merged: list[str]


@with_config(_EXACT)
class Brief(TypedDict):
    id: str
    content: str


@with_config(_EXACT)
class Period(TypedDict):
    period: str
    count: int
    memories: list[Brief]


@with_config(_EXACT)
class TimelineAnswer(TypedDict):
    granularity: str
    periods: list[Period]
    total: int


@with_config(_EXACT)
class ConceptNode(TypedDict):
    id: str
    usage_count: int


@with_config(_EXACT)
class ConceptEdge(TypedDict):
    source: str
    target: str
    weight: int | float  # co-occurrence: memories shared; similarity: cosine
    kind: str  # co-occurrence | similarity


@with_config(_EXACT)
class ConceptNetworkAnswer(TypedDict):
    nodes: list[ConceptNode]
    edges: list[ConceptEdge]


@with_config(_EXACT)
class UsedMemory(TypedDict):
    id: str
    content: str
    access_count: int
    last_accessed: str | None


@with_config(_EXACT)
class NeverRecalled(TypedDict):
    count: int
    oldest: list[UsedMemory]


@with_config(_EXACT)
class UsagePatternsAnswer(TypedDict):
    accesses_by_day: dict[str, int]
    most_used: list[UsedMemory]
    least_used: list[UsedMemory]
    never_recalled: NeverRecalled
    accesses_by_category: dict[str, int]


@with_config(_EXACT)
class ExportAnswer(TypedDict):
    path: str
    exported: int
    memories: int
    chunks: int


@with_config(_EXACT)
class ImportConflict(TypedDict):
    line: int
    id: str
    reason: str


@with_config(_EXACT)
class ImportAnswer(TypedDict):
    operation_id: str
    imported: int
    skipped: int
    reembedded: int
    conflicts: list[ImportConflict]


@with_config(_EXACT)
class BackupAnswer(TypedDict):
    action: str
    path: str
    integrity: str
    memories: int
    chunks: int


@with_config(_EXACT)
class TracedCandidate(TypedDict):
    id: str
    content: str
    rank: int
    score: float
    components: dict[str, float]
    outcome: str


@with_config(_EXACT)
class TraceAnswer(TypedDict):
    query_analysis: QueryAnalysis
    profile: dict[str, float]
    candidates: list[TracedCandidate]
    results: list[SearchHit]


@with_config(_EXACT)
class StorageIssue(TypedDict):
    check: str
    problem: str
    count: int
    repair: str


@with_config(_EXACT)
class ValidateAnswer(TypedDict):
    ok: bool
    issues: list[StorageIssue]


@with_config(_EXACT)
class RepairAnswer(TypedDict):
    repaired: list[str]
    issues_before: list[StorageIssue]
    issues_after: list[StorageIssue]


@with_config(_EXACT)
class RollbackAnswer(TypedDict):
    operation_id: str
    restored: int
    removed: int


@with_config(_EXACT)
class OperationEntry(TypedDict):
    id: str
    name: str
    started_at: str
    finished_at: str | None
    status: str
    summary: dict[str, Any]
    changes: int


@with_config(_EXACT)
class OperationsAnswer(TypedDict):
    operations: list[OperationEntry]


@with_config(_EXACT)
class MaintainAnswer(TypedDict):
    processed: int
    changed: int
    promoted: int
    archived: int
    short: int
    quality_decayed: int
    mode: str
    operation_id: str | None
    at: str


@with_config(_EXACT)
class AddedFile(TypedDict):
    """A file added as a document memory: created, unchanged (that text is stored), updated (it supersedes the
    version added from the same path before) or merged (into a memory saying the same)."""

    path: str
    id: str
    title: str
    type: str
    outcome: str
    passages: int
    supersedes: str | None
