"""Every tool an agent can call, in one registry: its name, group, effect, the model of its arguments (each field
described in plain words), an example, and the typed answer. The MCP server registers these tools, the REST API
and the CLI run them by name, discover_memory_tools lists the advanced ones, and docs/reference/mcp-tools.md is
generated from here. `Memory.run_tool` runs any of them, with the arguments checked against its model."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engram.agent.arguments import Count, Days, Examples, SearchOptions, Share, StoreContext
from engram.model.answers import (
    BackupAnswer,
    ConceptNetworkAnswer,
    DiscoverResult,
    ExportAnswer,
    ForgetAnswer,
    ImportAnswer,
    MemoryStatsAnswer,
    MergeMemoriesAnswer,
    OperationsAnswer,
    OptimizeTagsAnswer,
    RecallAnswer,
    RememberAnswer,
    RepairAnswer,
    RollbackAnswer,
    SearchMemoryResult,
    StoreMemoryResult,
    TimelineAnswer,
    TraceAnswer,
    UsagePatternsAnswer,
    ValidateAnswer,
)
from engram.model.record import Kind

Effect = Literal["read", "write", "destructive"]
# The groups discover_memory_tools lists, in order; "core" are the tools an agent calls every day.
ADVANCED_GROUPS = ("maintenance", "analysis", "migration", "debugging")


class Arguments(BaseModel):
    """A tool's arguments: an argument it does not take is an error, as is a number given as text."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    group: str  # core, maintenance, analysis, migration, debugging, operations
    effect: Effect  # read: changes nothing; write: adds or changes; destructive: folds, replaces or deletes
    summary: str  # what it does, in plain words; the first line stands alone
    example: str
    arguments: type[Arguments]
    answer: Any  # the typed answer (a TypedDict of engram.model.answers), for response schemas
    session: bool = False  # takes the session asking from the connection (MCP), never from the caller
    files: bool = False  # reads or writes a file (confined to a tenant's directory on a server)

    @property
    def description(self) -> str:
        return f"{self.summary}\n\nExample: {self.example}"


# ---- arguments ---------------------------------------------------------------------------------------------
class StoreMemoryArgs(Arguments):
    content: str = Field(description="what to remember, in plain words")
    context: StoreContext | None = Field(
        None, description="what to decide instead of Engram: category, importance, ..."
    )


class SearchMemoryArgs(Arguments):
    query: str = Field(
        description="what to look for, in plain words; time words work ('last week', 'in March')"
    )
    options: SearchOptions | None = Field(
        None, description="limit, relevance floor, time range, importance, type"
    )


class NoArgs(Arguments):
    pass


class RememberArgs(Arguments):
    content: str = Field(description="what to remember")
    kind: Kind | None = Field(
        None, description="identity, task, knowledge, reference or note; none: classified"
    )
    scope: Literal["global", "project", "session"] = Field("global", description="where the memory belongs")
    scope_id: str | None = Field(
        None, description="which project or session; a session scope defaults to this one"
    )
    tags: list[str] | None = Field(None, description="tags to give it")
    importance: float | None = Field(None, ge=0, le=1, description="0..1 (not store_memory's 1-5); none: 0.5")


class RecallArgs(Arguments):
    query: str = Field(description="what to look for, in plain words")
    limit: int = Field(10, ge=1, le=1000, strict=True, description="most results to return")
    mode: Literal["accurate", "related", "ranked"] = Field(
        "accurate",
        description="accurate: few, confident hits; related: more, looser; ranked: exactly the best `limit`",
    )
    kind: Kind | None = Field(None, description="only memories of this kind")
    scope: Literal["global", "project", "session"] | None = Field(
        None, description="only memories of this scope"
    )
    scope_id: str | None = Field(None, description="only this project or session")


class ForgetArgs(Arguments):
    id: str = Field(description="the memory's id")


class OptimizeTagsArgs(Arguments):
    dry_run: bool = Field(False, description="only report the merges and archives it would make")
    archive_after_days: Days = Field(180, description="archive tags unused for this many days")


class MergeMemoriesArgs(Arguments):
    ids: list[str] = Field(min_length=2, description="the memories to fold into one")
    into: str | None = Field(None, description="the one kept (one of ids); none: the first")


class TimelineArgs(Arguments):
    granularity: Literal["day", "month", "year"] = Field("month", description="count per day, month or year")
    examples: Examples = Field(3, description="memories shown per period")


class ConceptNetworkArgs(Arguments):
    min_cooccurrence: Count = Field(1, description="memories two tags must share to be linked")
    similarity: Share = Field(0.6, description="cosine at which two tags' embeddings link them")
    limit: Count = Field(100, description="most tags shown, the most used first")


class UsagePatternsArgs(Arguments):
    top: Count = Field(10, description="memories shown in each list")


class ExportArgs(Arguments):
    path: str | Path = Field(description="a new file to write (JSON Lines of SHODH records)")
    with_embeddings: bool = Field(True, description="include each memory's embedding and the model's name")


class ImportArgs(Arguments):
    path: str | Path = Field(description="a JSON Lines file of SHODH records (as export_memories writes)")


class BackupArgs(Arguments):
    action: Literal["backup", "restore"] = Field(
        description="backup: copy the database to path; restore: replace it"
    )
    path: str | Path = Field(description="the backup file: new for backup, existing for restore")


class TraceArgs(Arguments):
    query: str = Field(description="the question to trace, as search_memory would take it")
    options: dict[str, Any] | None = Field(
        None,
        description="search_memory's options: limit, min_relevance, time_range, importance_min, content_type",
    )


class RollbackArgs(Arguments):
    operation_id: str = Field(description="the operation_id a bulk tool or import returned")


class OperationsArgs(Arguments):
    limit: Count = Field(50, description="most operations listed, newest first")


# ---- the tools ---------------------------------------------------------------------------------------------
TOOLS: tuple[Tool, ...] = (
    Tool(
        "store_memory",
        "core",
        "write",
        "Store a memory; category, tags, importance and kind are decided for you. Personal data found (card, "
        "email, phone, ...) is reported in analysis.pii, and stored as [REDACTED_*] markers when redaction is on. "
        "recommendations.suggested_updates lists older memories this one seems to update (another date, number "
        'or a "not"): merge_memories([new_id, old_id], into=new_id) marks the old one superseded.',
        'store_memory("Team standup moved to 9:30 on Mondays", {"additional_tags": ["team"]})',
        StoreMemoryArgs,
        StoreMemoryResult,
    ),
    Tool(
        "search_memory",
        "core",
        "read",
        'Search memories in plain words. Time phrases ("last week", "in March") rank memories from that period '
        "first, and options.time_range filters by date; a question about things to do lists the reminders.",
        'search_memory("what did we decide about the database last week")',
        SearchMemoryArgs,
        SearchMemoryResult,
        session=True,
    ),
    Tool(
        "discover_memory_tools",
        "core",
        "read",
        "The advanced tools by group (maintenance, analysis, migration, debugging) and the store's health.",
        'discover_memory_tools() -> {"advanced_tools": {...}, "current_system_state": {...}}',
        NoArgs,
        DiscoverResult,
    ),
    Tool(
        "remember",
        "core",
        "write",
        "Store one memory as given: its kind is classified unless given, and a near-duplicate merges into the "
        'memory it repeats. A "session" scope without scope_id belongs to this session.',
        'remember("Deploys go out on Thursdays", scope="project", scope_id="billing")',
        RememberArgs,
        RememberAnswer,
        session=True,
    ),
    Tool(
        "recall",
        "core",
        "read",
        "Hybrid search by meaning and by words, each hit with its score and the components behind it.",
        'recall("deploy schedule", limit=5)',
        RecallArgs,
        RecallAnswer,
        session=True,
    ),
    Tool(
        "forget",
        "core",
        "destructive",
        "Delete a memory and its chunks for good, when the user asks for it (it cannot be rolled back).",
        'forget(id="<memory id>") -> {"deleted": true, "id": "<memory id>"}',
        ForgetArgs,
        ForgetAnswer,
    ),
    Tool(
        "memory_stats",
        "maintenance",
        "read",
        "Counts by category, kind, scope, status and tier; tags by status; operations; storage size and index.",
        "memory_stats()",
        NoArgs,
        MemoryStatsAnswer,
    ),
    Tool(
        "optimize_tags",
        "maintenance",
        "destructive",
        "Fold duplicate tags into their descriptive form (on every memory that carries them) and archive tags "
        "unused for archive_after_days; as one operation that rollback undoes.",
        "optimize_tags(dry_run=True) -> the merges and archives it would make, nothing changed",
        OptimizeTagsArgs,
        OptimizeTagsAnswer,
    ),
    Tool(
        "merge_memories",
        "maintenance",
        "destructive",
        "Fold memories into one (the first, or into): it takes the union of their tags, the highest importance "
        "and their summed use; the others are marked superseded, pointing at it. Rollback undoes it.",
        'merge_memories(ids=["<id-1>", "<id-2>"]) -> one memory; rollback(operation_id) undoes it',
        MergeMemoriesArgs,
        MergeMemoriesAnswer,
    ),
    Tool(
        "memory_timeline",
        "analysis",
        "read",
        "Memories counted per day, month or year, with a few examples from each period.",
        'memory_timeline(granularity="month", examples=2)',
        TimelineArgs,
        TimelineAnswer,
        session=True,
    ),
    Tool(
        "concept_network",
        "analysis",
        "read",
        "Tags as nodes; edges where tags share memories (weight: how many) or their embeddings are close.",
        "concept_network(min_cooccurrence=2, similarity=0.6, limit=50)",
        ConceptNetworkArgs,
        ConceptNetworkAnswer,
        session=True,
    ),
    Tool(
        "usage_patterns",
        "analysis",
        "read",
        "Recalls over time (by day of last access), the most and least used memories, and those never recalled.",
        "usage_patterns(top=5)",
        UsagePatternsArgs,
        UsagePatternsAnswer,
        session=True,
    ),
    Tool(
        "export_memories",
        "migration",
        "write",  # it reads the store but writes a file
        "Write every memory as unified SHODH records (JSON Lines with a header line) to a new file; with "
        "embeddings (and the model's name) unless with_embeddings is false.",
        'export_memories(path="/tmp/memories.jsonl")',
        ExportArgs,
        ExportAnswer,
        files=True,
    ),
    Tool(
        "import_memories",
        "migration",
        "write",
        "Read SHODH records from a file, as one operation that rollback undoes; ids already present, and content "
        "already stored in the same scope for the same owner, are skipped.",
        'import_memories(path="/tmp/memories.jsonl")',
        ImportArgs,
        ImportAnswer,
        files=True,
    ),
    Tool(
        "backup_restore",
        "migration",
        "destructive",
        "backup: copy the database to a new file with the database's online backup; restore: verify a backup "
        "file and replace the database with it.",
        'backup_restore(action="backup", path="/tmp/engram-backup.db")',
        BackupArgs,
        BackupAnswer,
        files=True,
    ),
    Tool(
        "trace_search",
        "debugging",
        "read",
        "search_memory with its working shown: every candidate, each score component, and why it was cut.",
        'trace_search(query="deploy schedule")',
        TraceArgs,
        TraceAnswer,
        session=True,
    ),
    Tool(
        "validate_storage",
        "debugging",
        "read",
        "Rows against the full-text index, the vector index, the embedding model and the tag registry: every "
        "inconsistency found.",
        "validate_storage()",
        NoArgs,
        ValidateAnswer,
    ),
    Tool(
        "repair_index",
        "debugging",
        "write",
        "Repair what validate_storage found: rebuild the full-text and vector indexes, recount the tags, "
        "re-embed with this model.",
        "repair_index()",
        NoArgs,
        RepairAnswer,
    ),
    Tool(
        "rollback",
        "operations",
        "destructive",
        "Undo a bulk operation (optimize_tags, merge_memories, an import, a maintenance pass) completely; refused "
        "once its memories changed since.",
        'rollback(operation_id="<operation_id of optimize_tags, merge_memories or an import>")',
        RollbackArgs,
        RollbackAnswer,
    ),
    Tool(
        "operations",
        "operations",
        "read",
        "The latest bulk operations, newest first, each with its operation_id for rollback and whether it was "
        "rolled back already.",
        "operations(limit=10) -> the latest bulk operations, each with its operation_id",
        OperationsArgs,
        OperationsAnswer,
    ),
)

BY_NAME = {t.name: t for t in TOOLS}


def tool(name: str) -> Tool | None:
    return BY_NAME.get(name)


def advanced() -> dict[str, list[str]]:
    """The advanced tools by group, as discover_memory_tools lists them."""
    return {group: [t.name for t in TOOLS if t.group == group] for group in ADVANCED_GROUPS}
