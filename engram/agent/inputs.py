"""Each agent tool's arguments, as models whose every field is described in plain words (the MCP schema, the REST
body and the reference say what each argument is from here). An argument a tool does not take is an error, as is
a number given as text."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engram.agent.arguments import (
    Count,
    Days,
    Examples,
    SearchOptions,
    Share,
    StoreContext,
)
from engram.model.record import GIVEN_TAGS, Category, Kind, KindFilter, NameFilter, TagFilter, as_utc


class Arguments(BaseModel):
    """A tool's arguments: an argument it does not take is an error, as is a number given as text."""

    model_config = ConfigDict(extra="forbid", frozen=True)


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
    tags: list[str] | None = Field(None, max_length=GIVEN_TAGS, description="tags to give it")
    importance: float | None = Field(
        None, ge=0, le=1, strict=True, description="0..1 (not store_memory's 1-5); none: 0.5"
    )


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
    scope_id: NameFilter | None = Field(None, description="only this project or session")


class ForgetArgs(Arguments):
    id: str = Field(description="the memory's id")


class OptimizeTagsArgs(Arguments):
    dry_run: bool = Field(False, strict=True, description="only report the merges and archives it would make")
    archive_after_days: Days = Field(180, description="archive tags unused for this many days")


class RenameTagArgs(Arguments):
    old: str = Field(min_length=1, max_length=200, description="the tag to rename")
    new: str = Field(
        min_length=1, max_length=200, description="its new name; a tag in use already: they merge"
    )


class MergeMemoriesArgs(Arguments):
    ids: list[str] = Field(min_length=2, description="the memories to combine into one")
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
    path: str | Path = Field(description="a new file to write (JSON Lines, one memory a line)")
    with_embeddings: bool = Field(
        True, strict=True, description="include each memory's embedding and the model's name"
    )


class ImportArgs(Arguments):
    path: str | Path = Field(description="a JSON Lines file of memories, as export_memories writes")


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


# ---- browsing, editing, review and conversations ---------------------------------------------------------
Scopes = Literal["global", "project", "session"]
Statuses = Literal["approved", "pending", "rejected", "superseded", "archived"]
MAX_MESSAGES = 500  # messages one ingest_conversation call takes; a longer conversation goes in parts
MAX_MESSAGE_CHARS = 20_000


class UpdateMemoryArgs(Arguments):
    id: str = Field(description="the memory's id")
    content: str | None = Field(
        None, description="its new text, which replaces the old (searchable again at once); none: unchanged"
    )
    kind: Kind | None = Field(
        None, description="identity, task, knowledge, reference or note; none: unchanged"
    )
    category: Category | None = Field(
        None,
        description="contexts, projects, learnings, reminders, references, interactions or system; "
        "none: unchanged",
    )
    tags: list[str] | None = Field(
        None, max_length=GIVEN_TAGS, description="its tags, replacing the ones it has; none: unchanged"
    )
    importance: float | None = Field(
        None, ge=0, le=1, strict=True, description="0 (trivial) to 1 (critical); none: unchanged"
    )
    scope: Scopes | None = Field(
        None, description="move it to global, a project or a session; none: unchanged"
    )
    scope_id: str | None = Field(None, description="which project or session it belongs to; none: unchanged")
    expires_at: datetime | None = Field(
        None, description="when it stops being found: ISO date or date and time; none: unchanged"
    )


class ListMemoriesArgs(Arguments):
    kind: Kind | None = Field(None, description="only memories of this kind")
    tag: TagFilter | None = Field(None, description="only memories carrying this tag")
    status: Statuses = Field(
        "approved",
        description="approved (in use), pending (waiting for review), rejected, superseded, archived",
    )
    scope: Scopes | None = Field(None, description="only global, project or session memories")
    scope_id: NameFilter | None = Field(None, description="only this project's or session's memories")
    limit: int = Field(20, ge=1, le=100, strict=True, description="most memories on one page")
    cursor: str | None = Field(None, description="the next_cursor of the page before, for the page after it")
    offset: int = Field(
        0, ge=0, le=1_000_000, strict=True, description="memories to skip (instead of a cursor)"
    )


class ForgetByTagArgs(Arguments):
    tag: TagFilter = Field(description="every memory carrying this tag is deleted")
    confirm: bool = Field(
        False,
        strict=True,
        description="must be true: the memories are deleted for good and cannot be restored",
    )


class ReviewMemoriesArgs(Arguments):
    action: Literal["list", "approve", "reject"] = Field(
        "list", description="list: the memories waiting for review and why; approve or reject: decide on them"
    )
    ids: list[str] | None = Field(
        None, max_length=1000, description="the memories to approve or reject (ids from the list)"
    )
    kind: KindFilter | None = Field(
        None,
        description="only memories of this kind: a memory kind (task ...) or what was extracted (todo ...)",
    )
    below_confidence: float | None = Field(
        None,
        gt=0,
        le=1,
        strict=True,
        description="only memories extracted with a confidence under this (0-1)",
    )
    limit: int = Field(50, ge=1, le=1000, strict=True, description="most memories listed or decided")


class ChatMessage(BaseModel):
    """One message of a conversation."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    role: str = Field(min_length=1, max_length=32, description="who said it: user, assistant, system ...")
    content: str = Field(max_length=MAX_MESSAGE_CHARS, description="what was said")
    timestamp: datetime | None = Field(None, description="when it was said (ISO); none: now")

    @field_validator("timestamp")
    @classmethod
    def _in_utc_range(cls, value: datetime | None) -> datetime | None:
        if value is not None:
            as_utc(value)  # stored in UTC: one UTC cannot hold is refused here, its zone kept for reading
        return value


class IngestConversationArgs(Arguments):
    messages: list[ChatMessage] = Field(
        min_length=1,
        max_length=MAX_MESSAGES,
        description=f"the conversation, oldest first (at most {MAX_MESSAGES} messages a call)",
    )
    conversation_id: str | None = Field(
        None,
        max_length=256,
        description="names the conversation: its messages sent again are skipped, and its memories belong to it",
    )
    scope: Scopes = Field("project", description="where the memories found belong")
    scope_id: str | None = Field(None, description="which project or session; none: the conversation's id")


class SessionContextArgs(Arguments):
    max_tokens: int = Field(
        1500, ge=50, le=20_000, strict=True, description="the longest the context may be, in tokens"
    )
    scope_id: NameFilter | None = Field(
        None, description="the project the session works on; none: every project"
    )
    query: str | None = Field(
        None, description="what the session is about, to add the memories most related to it"
    )
