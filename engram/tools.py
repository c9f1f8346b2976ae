"""The agent tools as methods of Memory: store_memory and search_memory, discover_memory_tools, every advanced
tool (maintenance, analysis, migration, debugging), rollback and operations, and `run_tool`, which runs any tool
of the registry by name."""

from __future__ import annotations

import functools
import threading
import typing
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar, cast

import pydantic

from engram.agent import registry
from engram.agent.answers import recall_answer, remember_answer
from engram.agent.arguments import Count, Days, Examples, Share
from engram.agent.browse import Browse
from engram.agent.context import SessionContext
from engram.agent.curate import Curation
from engram.agent.debug import Debugging
from engram.agent.health import Health
from engram.agent.inputs import ChatMessage
from engram.agent.insight import Insight
from engram.agent.plain import refuse_unfit_text
from engram.agent.search import SearchMemory
from engram.agent.store import StoreMemory
from engram.agent.upkeep import Maintenance
from engram.errors import InvalidInput
from engram.interop.backups import Backups
from engram.interop.importers import ForeignImport
from engram.interop.tinydb import TinyDbImport
from engram.interop.transfer import Transfer
from engram.model.agent_answers import (
    ForgetByTagAnswer,
    IngestConversationAnswer,
    ListMemoriesAnswer,
    ReviewMemoriesAnswer,
    SessionContextAnswer,
    UpdateMemoryAnswer,
)
from engram.model.answers import (
    FORGET_NOTE,
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
    PiiSummary,
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
from engram.model.limits import bounded_fields
from engram.model.record import MemoryRecord, invalid_from
from engram.model.results import RememberResult, Scored
from engram.tags.rename import TagRenamer
from engram.write.operations import Operations

F = TypeVar("F", bound=Callable[..., Any])


Hit = Scored[MemoryRecord]


class _Facade(Protocol):
    """The Memory methods the tools that answer in their own shape (remember, recall, forget) call."""

    def remember(self, content: str, **fields: Any) -> RememberResult: ...
    def recall(self, query: str, **options: Any) -> list[Hit]: ...
    def forget(self, memory_id: str) -> ForgetAnswer: ...
    def pii_summary(self, content: str) -> PiiSummary: ...


def writes(method: F) -> F:
    """Runs under the instance's write lock: the store has one writer, and the services keep caches (the tag
    vocabulary, learned prototypes) that a write updates."""

    @functools.wraps(method)
    def locked(self: Tools, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return cast(F, locked)


class Tools:
    """The part of Memory that agents call by name; Memory composes the services these methods use."""

    _lock: threading.RLock
    _store_memory: StoreMemory
    _search_memory: SearchMemory
    _health: Health
    _maintenance: Maintenance
    _tag_names: TagRenamer
    _insight: Insight
    _transfer: Transfer
    _foreign: ForeignImport
    _tinydb: TinyDbImport
    _backups: Backups
    _debugging: Debugging
    _operations: Operations
    _context: SessionContext
    _browse: Browse
    _curation: Curation

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        refuse_unfit_text(cls)  # the facade's every method, so no store sees text it cannot hold

    @writes
    def store_memory(self, content: str, context: dict[str, Any] | None = None) -> StoreMemoryResult:
        """Zero-decision storage: category, tags, importance and kind are inferred; `context` may force any."""
        return self._store_memory(content, context)

    def search_memory(
        self,
        query: str,
        options: dict[str, Any] | None = None,
        *,
        now: datetime | None = None,
        touch: bool = True,
        session: str | None = None,
    ) -> SearchMemoryResult:
        """Natural-language search with time understanding and tag expansion. `now` is the moment the query is
        asked (relative dates resolve against it); `touch=False` leaves usage untouched; `session` is the
        session asking: other sessions' session-scoped memories stay out of its results."""
        return self._search_memory(query, options, now=now, touch=touch, session=session)

    def session_context(
        self,
        *,
        max_tokens: int = 1500,
        scope_id: str | None = None,
        query: str | None = None,
        session: str | None = None,
        now: datetime | None = None,
        touch: bool = False,
    ) -> SessionContextAnswer:
        """What matters at a session's start (who the user is, preferences, open tasks due soon, recent
        decisions, and given `query` the memories most related to it) as one text within `max_tokens`, with the
        ids shown; of the global scope, the project `scope_id` (every project when none) and `session`. Usage
        counts stay as they were unless `touch`."""
        return self._context(
            max_tokens=max_tokens, scope_id=scope_id, query=query, session=session, now=now, touch=touch
        )

    def list_memories(
        self,
        kind: str | None = None,
        tag: str | None = None,
        status: str = "approved",
        scope: str | None = None,
        scope_id: str | None = None,
        limit: int = 20,
        cursor: str | None = None,
        offset: int = 0,
        session: str | None = None,
    ) -> ListMemoriesAnswer:
        """A page of memories, newest first, each shortened; `cursor` is the last page's next_cursor."""
        return self._browse.list_memories(
            kind=kind, tag=tag, status=status, scope=scope, scope_id=scope_id, limit=limit, cursor=cursor,
            offset=offset, session=session,
        )  # fmt: skip

    @writes
    def update_memory(
        self,
        id: str,
        content: str | None = None,
        kind: str | None = None,
        category: str | None = None,
        tags: list[str] | None = None,
        importance: float | None = None,
        scope: str | None = None,
        scope_id: str | None = None,
        expires_at: datetime | None = None,
    ) -> UpdateMemoryAnswer:
        """Change the fields given (None: unchanged); new content is embedded again."""
        fields: dict[str, Any] = dict(content=content, kind=kind, category=category, tags=tags)
        fields |= dict(importance=importance, scope=scope, scope_id=scope_id, expires_at=expires_at)
        return self._curation.update_memory(id, fields)

    @writes
    def forget_by_tag(self, tag: str, confirm: bool = False, session: str | None = None) -> ForgetByTagAnswer:
        """Delete every memory carrying `tag` (explicit: `confirm` must be true); the count and the ids."""
        return self._curation.forget_by_tag(tag, confirm=confirm, session=session)

    @writes
    def review_memories(
        self,
        action: Literal["list", "approve", "reject"] = "list",
        ids: list[str] | None = None,
        kind: str | None = None,
        below_confidence: float | None = None,
        limit: int = 50,
        session: str | None = None,
    ) -> ReviewMemoriesAnswer:
        """list: the memories waiting for review, each with why; approve / reject: by ids or by filter."""
        return self._curation.review_memories(
            action, ids=ids, kind=kind, below_confidence=below_confidence, limit=limit, session=session
        )

    @writes
    def ingest_conversation(
        self,
        messages: list[dict[str, Any]] | list[ChatMessage],
        conversation_id: str | None = None,
        scope: str = "project",
        scope_id: str | None = None,
        session: str | None = None,
    ) -> IngestConversationAnswer:
        """Keep what the user said worth remembering: approved when confident, else pending review. A session
        scope without scope_id is the session asking."""
        if scope == "session" and scope_id is None:
            scope_id = session
        return self._curation.ingest_conversation(
            messages, conversation_id=conversation_id, scope=scope, scope_id=scope_id
        )

    def discover_memory_tools(self) -> DiscoverResult:
        """The advanced tools by group, and the store's health."""
        return self._health.discover()

    def run_tool(self, name: str, *, session: str | None = None, **arguments: Any) -> Any:
        """Run any tool of the registry (engram.agent.registry) by name, its arguments checked against its
        model; `session` is the session asking, for the tools that show or keep session memories."""
        tool = registry.tool(name)
        if tool is None:
            raise InvalidInput("tool", f"unknown; choose one of {sorted(registry.BY_NAME)}")
        if session is not None and not tool.session:
            raise InvalidInput("session", "Unexpected keyword argument")
        if session is not None and not isinstance(session, str):
            raise InvalidInput("session", "must be text, a session's name")
        args = _checked(_shallow(tool.arguments), bounded_fields(arguments))
        values = {f: getattr(args, f) for f in tool.arguments.model_fields}
        call = functools.partial(_TOOLS[name], self, **values)
        if tool.session:
            call = functools.partial(call, session=session)
        if tool.effect == "read":
            return call()
        with self._lock:
            return call()

    # ---- maintenance, analysis, migration, debugging -----------------------------------------------------
    def memory_stats(self) -> MemoryStatsAnswer:
        """Counts by category, kind, scope, status and tier; tags; storage size."""
        return self._maintenance.memory_stats()

    @writes
    def optimize_tags(self, dry_run: bool = False, archive_after_days: Days = 180) -> OptimizeTagsAnswer:
        return self._maintenance.optimize_tags(dry_run=dry_run, archive_after_days=archive_after_days)

    @writes
    def rename_tag(self, old: str, new: str) -> RenameTagAnswer:
        """Rename tag `old` on every memory; when `new` is a tag already the two merge. Rollback undoes it."""
        return self._tag_names.rename_tag(old, new)

    @writes
    def merge_memories(self, ids: list[str], into: str | None = None) -> MergeMemoriesAnswer:
        return self._maintenance.merge_memories(ids, into=into)

    def memory_timeline(
        self,
        granularity: Literal["day", "month", "year"] = "month",
        examples: Examples = 3,
        session: str | None = None,
    ) -> TimelineAnswer:
        return self._insight.memory_timeline(granularity=granularity, examples=examples, session=session)

    def concept_network(
        self,
        min_cooccurrence: Count = 1,
        similarity: Share = 0.6,
        limit: Count = 100,
        session: str | None = None,
    ) -> ConceptNetworkAnswer:
        return self._insight.concept_network(
            min_cooccurrence=min_cooccurrence, similarity=similarity, limit=limit, session=session
        )

    def usage_patterns(self, top: Count = 10, session: str | None = None) -> UsagePatternsAnswer:
        return self._insight.usage_patterns(top=top, session=session)

    def export_memories(self, path: str | Path, with_embeddings: bool = True) -> ExportAnswer:
        return self._transfer.export_memories(path, with_embeddings=with_embeddings)

    @writes
    def import_memories(self, path: str | Path) -> ImportAnswer:
        return self._transfer.import_memories(path)

    @writes
    def import_from(self, source: str, path: str | Path) -> dict[str, Any]:
        """Import another store's memories: mcp-memory-service, shodh-json or mem0."""
        return self._foreign(source, path)

    @writes
    def import_tinydb(self, directory: str | Path) -> dict[str, Any]:
        return self._tinydb(Path(directory))

    @writes
    def backup_restore(self, action: Literal["backup", "restore"], path: str | Path) -> BackupAnswer:
        return self._backups.backup_restore(action, path)

    def trace_search(
        self, query: str, options: dict[str, Any] | None = None, session: str | None = None
    ) -> TraceAnswer:
        return self._debugging.trace_search(query, options, session=session)

    def validate_storage(self) -> ValidateAnswer:
        return self._debugging.validate_storage()

    @writes
    def repair_index(self) -> RepairAnswer:
        return self._debugging.repair_index()

    @writes
    def rollback(self, operation_id: str) -> RollbackAnswer:
        """Undo a bulk operation (optimize_tags, merge_memories, an import, maintain) completely."""
        return self._operations.rollback(operation_id)

    def operations(self, limit: Count = 50) -> OperationsAnswer:
        """The latest bulk operations, newest first, each with its id for `rollback`."""
        return {"operations": self._operations.latest(limit)}


def _remember(m: _Facade, content: str, session: str | None = None, **fields: Any) -> RememberAnswer:
    """remember as a tool: a session scope without scope_id belongs to the session asking."""
    if fields["scope"] == "session" and fields["scope_id"] is None:
        fields["scope_id"] = session
    given = {k: v for k, v in fields.items() if v is not None} | {"tags": fields["tags"] or []}
    return remember_answer(m.remember(content, **given), m.pii_summary(content))


def _recall(m: _Facade, query: str, session: str | None = None, **options: Any) -> RecallAnswer:
    """recall as a tool: the memories the session asking sees; a session scope without scope_id is its own."""
    if options["scope"] == "session" and options["scope_id"] is None:
        options["scope_id"] = session
    return recall_answer(m.recall(query, session=session, **options))


def forgotten(memory_id: str, archived: list[str]) -> ForgetAnswer:
    """A forget's answer: the memory deleted, those it had replaced archived, and what it cannot reach."""
    return {"deleted": True, "id": memory_id, "archived": archived, "note": FORGET_NOTE}


# How each registry tool runs on a Memory: the facade method of the same name, or its answer as a tool.
_TOOLS: dict[str, Callable[..., Any]] = {
    name: getattr(Tools, name) for name in registry.BY_NAME if name not in ("remember", "recall", "forget")
} | {"remember": _remember, "recall": _recall, "forget": lambda m, id: m.forget(id)}


def _checked(model: type[pydantic.BaseModel], arguments: dict[str, Any]) -> pydantic.BaseModel:
    """A tool's arguments checked against its model; an argument it does not take, or one it needs and did not
    get, is named as such."""
    try:
        return model.model_validate(arguments)
    except pydantic.ValidationError as exc:
        errors = exc.errors()
        # An argument it does not take first: `memory_id` for `id` answered only "id: Missing required argument".
        first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        if first["type"] == "extra_forbidden":
            raise InvalidInput(str(first["loc"][0]), "Unexpected keyword argument") from None
        if first["type"] == "missing":
            raise InvalidInput(str(first["loc"][0]), "Missing required argument") from None
        raise invalid_from(exc) from None


@functools.cache
def _shallow(model: type[pydantic.BaseModel]) -> type[pydantic.BaseModel]:
    """`model` with its nested models (store_memory's context, search_memory's options) taken as plain objects:
    the method they go to checks them, naming the field inside them that is wrong."""
    fields: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        nested = any(
            isinstance(arg, type) and issubclass(arg, pydantic.BaseModel)
            for arg in typing.get_args(field.annotation)
        )
        if nested and typing.get_origin(field.annotation) is list:  # ingest_conversation's messages
            fields[name] = (list[dict[str, Any]], field)
            continue
        fields[name] = (dict[str, Any] | None, field.default) if nested else (field.annotation, field)
    return pydantic.create_model(f"{model.__name__}Shallow", __config__=model.model_config, **fields)
