"""Every tool an agent can call, in one registry: its name, group, effect, the model of its arguments (each field
described in plain words), an example, and the typed answer. The MCP server registers these tools, the REST API
and the CLI run them by name, discover_memory_tools lists the advanced ones, and docs/reference/mcp-tools.md is
generated from here. `Memory.run_tool` runs any of them, with the arguments checked against its model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from engram.agent.inputs import (
    Arguments,
    BackupArgs,
    ConceptNetworkArgs,
    ExportArgs,
    ForgetArgs,
    ForgetByTagArgs,
    ImportArgs,
    IngestConversationArgs,
    ListMemoriesArgs,
    MergeMemoriesArgs,
    NoArgs,
    OperationsArgs,
    OptimizeTagsArgs,
    RecallArgs,
    RememberArgs,
    RenameTagArgs,
    ReviewMemoriesArgs,
    RollbackArgs,
    SearchMemoryArgs,
    SessionContextArgs,
    StoreMemoryArgs,
    TimelineArgs,
    TraceArgs,
    UpdateMemoryArgs,
    UsagePatternsArgs,
)
from engram.model.agent_answers import (
    ForgetByTagAnswer,
    IngestConversationAnswer,
    ListMemoriesAnswer,
    ReviewMemoriesAnswer,
    SessionContextAnswer,
    UpdateMemoryAnswer,
)
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
    RenameTagAnswer,
    RepairAnswer,
    RollbackAnswer,
    SearchMemoryResult,
    StoreMemoryResult,
    TimelineAnswer,
    TraceAnswer,
    UsagePatternsAnswer,
    ValidateAnswer,
)

Effect = Literal["read", "write", "destructive"]
# The groups discover_memory_tools lists, in order; "core" are the tools an agent calls every day.
ADVANCED_GROUPS = ("maintenance", "analysis", "migration", "debugging")


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    group: str  # core, memories, review, maintenance, analysis, migration, debugging, operations
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
        "Store one memory as given, with its kind, scope and tags when you know them (the kind is decided "
        'otherwise); a near-duplicate merges into the memory it repeats. A "session" scope without scope_id '
        "belongs to this session.",
        'remember("Deploys go out on Thursdays", scope="project", scope_id="billing")',
        RememberArgs,
        RememberAnswer,
        session=True,
    ),
    Tool(
        "recall",
        "core",
        "read",
        "Search by meaning and by words at once, with more control than search_memory (how many, how strict, "
        "of which kind or scope); each result with its score and what the score is made of.",
        'recall("deploy schedule", limit=5)',
        RecallArgs,
        RecallAnswer,
        session=True,
    ),
    Tool(
        "forget",
        "core",
        "destructive",
        "Delete a memory for good (a long one with all its passages), when the user asks for it; it cannot be "
        "undone.",
        'forget(id="<memory id>") -> {"deleted": true, "id": "<memory id>"}',
        ForgetArgs,
        ForgetAnswer,
    ),
    Tool(
        "memory_stats",
        "maintenance",
        "read",
        "How many memories there are, by category, kind, scope and review status; how often each tag is used; "
        "how many bulk operations were made; the database's size and whether its search indexes are complete.",
        "memory_stats()",
        NoArgs,
        MemoryStatsAnswer,
    ),
    Tool(
        "optimize_tags",
        "maintenance",
        "destructive",
        "Merge tags that mean the same (plurals, spellings, synonyms) into the clearest one, on every memory "
        "that carries them, and archive tags unused for archive_after_days; as one operation rollback undoes.",
        "optimize_tags(dry_run=True) -> the merges and archives it would make, nothing changed",
        OptimizeTagsArgs,
        OptimizeTagsAnswer,
    ),
    Tool(
        "rename_tag",
        "maintenance",
        "destructive",
        "Rename a tag on every memory that carries it; a name already in use merges the two tags into one. One "
        "operation rollback undoes; optimize_tags(dry_run=True) lists the merges worth making.",
        'rename_tag(old="k8s", new="kubernetes") -> the memories renamed, and the operation_id to undo it',
        RenameTagArgs,
        RenameTagAnswer,
    ),
    Tool(
        "merge_memories",
        "maintenance",
        "destructive",
        "Combine memories into one (the first, or into): it keeps all their tags, the highest importance "
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
        "How tags connect: two tags are linked when memories carry both (weight: how many) or when their "
        "meanings are close.",
        "concept_network(min_cooccurrence=2, similarity=0.6, limit=50)",
        ConceptNetworkArgs,
        ConceptNetworkAnswer,
        session=True,
    ),
    Tool(
        "usage_patterns",
        "analysis",
        "read",
        "How memories are used: recalls per day (by day of last use), the most and least used memories, and "
        "those never recalled.",
        "usage_patterns(top=5)",
        UsagePatternsArgs,
        UsagePatternsAnswer,
        session=True,
    ),
    Tool(
        "export_memories",
        "migration",
        "write",  # it reads the store but writes a file
        "Write every memory to a new file (JSON Lines: a header line, then one memory a line, as "
        "import_memories reads it), with its embedding and the model's name unless with_embeddings is false.",
        'export_memories(path="/tmp/memories.jsonl")',
        ExportArgs,
        ExportAnswer,
        files=True,
    ),
    Tool(
        "import_memories",
        "migration",
        "write",
        "Read memories from a file export_memories wrote, as one operation that rollback undoes; ids already "
        "present, and content already stored in the same scope for the same owner, are skipped.",
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
        "search_memory with its working shown: every memory considered, what its score is made of, and why it "
        "was left out.",
        'trace_search(query="deploy schedule")',
        TraceArgs,
        TraceAnswer,
        session=True,
    ),
    Tool(
        "validate_storage",
        "debugging",
        "read",
        "Check the database: that the word index and the meaning (vector) index hold every memory, that every "
        "memory was embedded by the current model and that the tag counts are right; lists each problem found.",
        "validate_storage()",
        NoArgs,
        ValidateAnswer,
    ),
    Tool(
        "repair_index",
        "debugging",
        "write",
        "Repair what validate_storage found: rebuild the word and meaning indexes, recount the tags, and "
        "embed again what an older model embedded.",
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
    Tool(
        "session_context",
        "memories",
        "read",
        "What to know at the start of a session, as one short text: who the user is, their preferences, open "
        "tasks due soon and recent decisions (of the project given, or every project), plus, given a query, the "
        "memories most related to it; within max_tokens. Pending, rejected and archived memories are left out, "
        "and nothing is counted as used.",
        'session_context(scope_id="billing", query="invoice export", max_tokens=800)',
        SessionContextArgs,
        SessionContextAnswer,
        session=True,
    ),
    Tool(
        "list_memories",
        "memories",
        "read",
        "Browse memories, newest first, a page at a time: only those of a kind, with a tag, in a status or "
        "scope when asked. Each shows its first lines; pass next_cursor back as cursor for the next page.",
        'list_memories(tag="deploy", limit=10) -> {"memories": [...], "next_cursor": "..."}',
        ListMemoriesArgs,
        ListMemoriesAnswer,
        session=True,
    ),
    Tool(
        "update_memory",
        "memories",
        "write",
        "Change a memory: its text, kind, category, tags, importance, scope or expiry; what is not given stays "
        "as it is. New text is searchable at once, by meaning and by words.",
        'update_memory(id="<memory id>", content="Deploys go out on Wednesdays", tags=["deploy"])',
        UpdateMemoryArgs,
        UpdateMemoryAnswer,
    ),
    Tool(
        "forget_by_tag",
        "memories",
        "destructive",
        "Delete every memory carrying a tag, for good, when the user asks for it; confirm must be true. "
        "Answers how many were deleted and their ids. It cannot be undone.",
        'forget_by_tag(tag="old-project", confirm=True) -> {"deleted": 3, "ids": [...]}',
        ForgetByTagArgs,
        ForgetByTagAnswer,
        session=True,
    ),
    Tool(
        "review_memories",
        "review",
        "write",
        "The memories waiting for a person's review (facts taken from a conversation with low confidence, or "
        "holding personal data), each with why it waits; approve or reject them by id, or all of a kind or "
        "under a confidence. Waiting memories are not found by searches until approved.",
        'review_memories(action="approve", ids=["<memory id>"])',
        ReviewMemoriesArgs,
        ReviewMemoriesAnswer,
        session=True,
    ),
    Tool(
        "ingest_conversation",
        "review",
        "write",
        "Read a conversation and keep what the user said that is worth remembering (facts about them, "
        "preferences, plans, decisions); the confident ones are stored at once, the others wait for review. "
        "Messages already read for the same conversation_id are skipped.",
        'ingest_conversation(messages=[{"role": "user", "content": "I moved to Lisbon"}], conversation_id="c42")',
        IngestConversationArgs,
        IngestConversationAnswer,
        session=True,
    ),
)

BY_NAME = {t.name: t for t in TOOLS}


def tool(name: str) -> Tool | None:
    return BY_NAME.get(name)


def advanced() -> dict[str, list[str]]:
    """The advanced tools by group, as discover_memory_tools lists them."""
    return {group: [t.name for t in TOOLS if t.group == group] for group in ADVANCED_GROUPS}
