"""Memory: the one class every interface calls. It opens the store, builds each service with only what that
service uses, and delegates; it owns concurrency: one instance is safe between threads, its writes one at a time."""

from __future__ import annotations

import builtins
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from engram.agent.browse import Browse, bounded
from engram.agent.context import SessionContext
from engram.agent.curate import Curation
from engram.agent.debug import Debugging
from engram.agent.health import Health
from engram.agent.insight import Insight
from engram.agent.recall import Recall
from engram.agent.search import SearchMemory
from engram.agent.store import StoreMemory
from engram.agent.understanding import Understanding
from engram.agent.upkeep import Maintenance, store_stats
from engram.classify.service import Classifiers
from engram.config import Settings
from engram.embed.blas import limit_blas
from engram.embed.choice import embedder_named
from engram.embed.embedder import Embedder
from engram.errors import InvalidInput, ModelMismatch
from engram.interop.backups import Backups
from engram.interop.documents import Documents
from engram.interop.importers import ForeignImport
from engram.interop.tinydb import TinyDbImport
from engram.interop.transfer import Transfer
from engram.lang import pii
from engram.lifecycle.service import Lifecycle
from engram.model.answers import AddedFile, ForgetAnswer, MaintainAnswer, PiiSummary, StatsAnswer
from engram.model.names import visible_names
from engram.model.record import (
    Kind,
    MemoryRecord,
    MemoryType,
    NewMemory,
    Scope,
    Status,
    as_utc,
    tag_form,
    utcnow,
)
from engram.model.results import RememberResult
from engram.model.vectors import Vector
from engram.recall.modes import RecallMode
from engram.recall.query import check_query
from engram.recall.retriever import Hit as Hit  # the type of what recall returns
from engram.recall.retriever import Retriever
from engram.review.extract import Message
from engram.review.ingest import Ingestor
from engram.review.queue import ReviewQueue
from engram.store.opening import open_store
from engram.store.values import Filter, Position
from engram.tags.rename import TagRenamer
from engram.tags.service import TagService
from engram.tags.tagger import Tagger
from engram.tools import Tools, forgotten, writes
from engram.write.edit import Editor, fetch, unlinked, whole
from engram.write.operations import Operations
from engram.write.writer import Writer

E = TypeVar("E", RecallMode, Scope, Kind, Status)
Progress = Callable[[int, int], None]


class Memory(Tools):
    """A memory store. `Memory()` opens the default database with the offline MiniLM model; `files` confines the
    file tools (export, import, backup) to one directory."""

    def __init__(
        self,
        db: str | Path | None = None,
        *,
        embedder: Embedder | None = None,
        settings: Settings | None = None,
        allow_model_change: bool = False,
        files: Path | None = None,
    ) -> None:
        self.settings = settings = settings or Settings()
        limit_blas(settings.blas_threads)
        # not `or`: an embedder may define __len__ (a cache of vectors), and an empty one would be falsy
        self.embedder = embedder = (
            embedder if embedder is not None else embedder_named(settings.embedding_model)
        )
        self.store = store = open_store(db if db is not None else settings.db_path, settings)
        stored = store.model()
        if stored is None:
            store.set_model(embedder.name, embedder.dim)
        elif stored != (embedder.name, embedder.dim) and not allow_model_change:
            store.close()
            raise ModelMismatch(stored[0], stored[1], embedder.name, embedder.dim)
        self._lock = threading.RLock()
        classifiers = Classifiers(settings, store, embedder)
        tags = TagService(store, embedder)
        self._classifiers, self._tags = classifiers, tags
        self._writer = writer = Writer(settings, store, embedder, classifiers, tags)
        self._tagger = tagger = Tagger(settings, embedder, store, classifiers, tags)
        self._editor = editor = Editor(settings, store, embedder, classifiers, tags, tagger, writer)
        self._operations = operations = Operations(store, tags)
        self._retriever = retriever = Retriever(settings, store, embedder)
        self._store_memory = StoreMemory(settings, store, writer, tagger, tags)
        self._recall = Recall(understanding := Understanding(settings, retriever, tags), retriever, settings)
        self._search_memory = search = SearchMemory(understanding, retriever)
        self._maintenance = Maintenance(store, tags, operations)
        self._tag_names = TagRenamer(store, tags, operations)
        self._insight = Insight(store)
        self._debugging = Debugging(settings, store, embedder, search, retriever, tags, editor)
        self._health = Health(store, tags)
        self._transfer = Transfer(settings, store, embedder, writer, classifiers, tags, operations, files)
        self._backups = Backups(store, tags, classifiers, files)
        self._documents = Documents(store, writer, editor, tagger.tag_item, settings.max_content_chars)
        self._foreign = ForeignImport(store, writer, operations, files)
        self._tinydb = TinyDbImport(store, operations, tags, self._store_memory)
        self._ingestor = Ingestor(settings, store, embedder, classifiers, writer)
        self._review = ReviewQueue(store, editor)
        self._lifecycle = Lifecycle(settings, store, operations)
        self._context = SessionContext(settings, store, embedder, retriever)
        self._browse = Browse(store)
        self._curation = Curation(store, editor, self._review, self._ingestor)

    def close(self) -> None:
        self._retriever.close()
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ---- write and recall --------------------------------------------------------------------------------
    @writes
    def remember(self, content: str, **fields: Any) -> RememberResult:
        """Store one memory; any record field (kind, scope, scope_id, importance, tags, ...) may be given (no links
        in metadata). Given no tags, it gets the tags its text names, as store_memory gives them (engram.tags)."""
        if isinstance(metadata := fields.get("metadata"), dict):
            unlinked(metadata)  # updated_by, superseded_by, ...: set only by the tools that link memories
        return self._writer.remember_many([self._tagger.tag_item({"content": content, **fields})])[0]

    @writes
    def remember_many(
        self, items: Iterable[NewMemory | dict[str, Any]], *, embedded: Mapping[str, Vector] | None = None
    ) -> builtins.list[RememberResult]:
        """Store many memories, embedding them in batches; each is validated before anything is written.
        `embedded` holds vectors the caller already has, by content hash. Items are stored with the tags they
        bring (a bulk load or import keeps its own): unlike `remember`, none are read from the text."""
        return self._writer.remember_many(items, embedded=embedded)

    def recall(
        self,
        query: str,
        *,
        limit: int = 10,
        mode: RecallMode | str = RecallMode.ACCURATE,
        kind: Kind | str | None = None,
        scope: Scope | str | None = None,
        scope_id: str | None = None,
        now: datetime | None = None,
        touch: bool = True,
        profile: str = "default",
        user_id: str | None = None,
        workspace_id: str | None = None,
        session: str | None = None,
    ) -> builtins.list[Hit]:
        """Hybrid search (engram.agent.recall). Accurate mode returns few, confident hits; related more; ranked
        exactly the top `limit`. Each returned memory's access count and last access time are bumped unless touch=False.
        With `user_id` / `workspace_id` only that owner's memories and the shared ones (no owner) are seen;
        with `session` (the session asking), no other session's session-scoped ones unless `scope_id` names it."""
        when = as_utc(now) if now is not None else utcnow()
        check_query(query, self.settings.max_content_chars)
        if not 1 <= limit <= 1000:
            raise InvalidInput("limit", "must be between 1 and 1000")
        mode = _enum(RecallMode, mode, "mode")
        self._profile(profile)
        visible_names({"scope_id": scope_id, "user_id": user_id, "workspace_id": workspace_id})
        where = Filter(
            scope=None if scope is None else _enum(Scope, scope, "scope"),
            scope_id=scope_id,
            kinds=() if kind is None else (_enum(Kind, kind, "kind"),),
            now=when,
            user_id=user_id,
            workspace_id=workspace_id,
            session=session if scope_id is None else None,
        )
        return self._recall(query, where, limit=limit, mode=mode, profile=profile, touch=touch)

    def rank(
        self,
        query: str,
        *,
        limit: int = 10,
        profile: str = "default",
        types: Iterable[MemoryType] = (),
        touch: bool = True,
    ) -> builtins.list[Hit]:
        """The `limit` best memories by score alone (no diversity re-ranking), each long memory once; only these
        SHODH memory types when `types` are given."""
        check_query(query, self.settings.max_content_chars)
        self._profile(profile)
        return self._recall.rank(
            query, Filter(types=tuple(types), now=utcnow()), limit=limit, profile=profile, touch=touch
        )

    # ---- conversations, review, supersession, lifecycle --------------------------------------------------
    @writes
    def ingest(
        self,
        messages: Iterable[Message | dict[str, Any]],
        *,
        scope: Scope | str = Scope.PROJECT,
        scope_id: str | None = None,
        redact: bool | None = None,
        user_id: str | None = None,
        workspace_id: str | None = None,
        progress: Progress | None = None,
    ) -> dict[str, Any]:
        """Keep messages as sources and store the user's statements as memories, approved or pending review;
        `progress` is called with (messages done, messages) as it goes."""
        return self._ingestor.ingest(
            messages,
            scope=scope,
            scope_id=scope_id,
            redact=redact,
            user_id=user_id,
            workspace_id=workspace_id,
            progress=progress,
        )

    def pending(self, limit: int = 100) -> builtins.list[MemoryRecord]:
        """The review queue: pending memories, newest first."""
        return self._review.pending(limit)

    @writes
    def review(self, memory_id: str, action: str, content: str | None = None) -> MemoryRecord:
        """approve, reject, or edit (new content; the memory is approved as edited)."""
        return self._review.review(memory_id, action, content)

    @writes
    def review_many(
        self,
        action: str,
        *,
        ids: Sequence[str] = (),
        kind: str | None = None,
        below_confidence: float | None = None,
        limit: int = 1000,
    ) -> builtins.list[MemoryRecord]:
        """Approve or reject many memories at once: by id, or the pending ones of a kind (task, or an extracted
        kind such as todo) and/or extracted with a confidence under `below_confidence`; each audited as a review."""
        return self._review.review_many(
            action, ids=ids, kind=kind, below_confidence=below_confidence, limit=limit
        )

    @writes
    def add_file(self, path: str | Path, **fields: Any) -> AddedFile:
        """Add a Markdown, text, HTML or PDF file as one document memory with its passages; the same text again
        is left as it is, a changed file supersedes the version added from its path before."""
        return self._documents.add_file(path, fields)

    @writes
    def supersede(self, memory_id: str, content: str, **fields: Any) -> RememberResult:
        """A newer memory replaces an older one: the old one is kept as superseded, the new one names it."""
        return self._editor.supersede(memory_id, content, fields)

    @writes
    def maintain(self, now: datetime | None = None) -> MaintainAnswer:
        """Priorities, tiers, promotion, quality decay and (persona mode) pruning to archive."""
        return self._lifecycle.maintain(now)

    @writes
    def feedback(self, memory_id: str, helpful: bool) -> MemoryRecord:
        """Thumbs up / down on a memory: its quality moves by 0.1."""
        return self._lifecycle.feedback(memory_id, helpful)

    # ---- memories one by one -----------------------------------------------------------------------------
    def get(self, memory_id: str) -> MemoryRecord:
        return fetch(self.store, memory_id)

    def chunks(self, memory_id: str) -> builtins.list[MemoryRecord]:
        """The chunks a long memory is stored in, in order (none for a memory of one passage)."""
        return self.store.children(whole(self.store, memory_id, "list the chunks of").id)

    def find_id(self, given: str) -> str:
        """The id `given` names: itself, or the one id it begins (lists show the first 8 characters)."""
        if self.store.get(given) is not None:
            return given
        found = self.store.ids_starting(given, 2) if len(given) >= 4 else []
        if len(found) > 1:
            raise InvalidInput("id", f"{given} begins more than one memory's id: give more of it")
        if not found and 0 < len(given) < 4 and self.store.ids_starting(given, 1):
            raise InvalidInput(
                "id", f"{given} is too short to name a memory: give at least 4 characters of its id"
            )
        return found[0] if found else given

    def list(
        self,
        *,
        kind: Kind | str | None = None,
        scope: Scope | str | None = None,
        scope_id: str | None = None,
        status: Status | str | None = None,
        tag: str | None = None,
        limit: int = 50,
        offset: int = 0,
        user_id: str | None = None,
        workspace_id: str | None = None,
        after: Position | None = None,
        types: Iterable[MemoryType] = (),
    ) -> builtins.list[MemoryRecord]:
        """Top-level memories, newest first (an owner's and the shared ones when `user_id` / `workspace_id`);
        `after` a listed memory's (created_at, id): only those past it, as a stable page cursor; only these
        SHODH memory types when `types` are given."""
        visible_names({"scope_id": scope_id, "user_id": user_id, "workspace_id": workspace_id})
        where = Filter(
            scope=None if scope is None else _enum(Scope, scope, "scope"),
            scope_id=scope_id,
            kinds=() if kind is None else (_enum(Kind, kind, "kind"),),
            statuses=() if status is None else (_enum(Status, status, "status"),),
            include_expired=True,
            tags=() if tag is None else (tag_form(tag),),  # as tags are stored: "Deploy" is deploy
            user_id=user_id,
            workspace_id=workspace_id,
            types=tuple(types),
        )
        bounded(limit=limit, offset=offset)
        return self.store.select(where, limit=limit, offset=offset, after=after)

    def count(self, *, types: Iterable[MemoryType] = (), since: datetime | None = None) -> int:
        """Approved memories (expired ones too), of these SHODH types when given, created since `since`."""
        return self.store.count(Filter(types=tuple(types), created_after=since, include_expired=True))

    def count_by_type(self) -> dict[str, int]:
        """Approved memories (expired ones too) per SHODH memory type."""
        grouped = self.store.grouped("type", Filter(include_expired=True))
        return {str(k): n for k, n in grouped.items()}

    def tag_counts(self) -> dict[str, int]:
        """Every tag a memory carries, with how many carry it."""
        return self.store.tag_counts()

    @property
    def backend(self) -> str:
        """The store's backend: sqlite or postgres."""
        return type(self.store).__name__.removesuffix("Store").lower()

    def index_in_step(self) -> bool:
        """Whether the vector index holds exactly the stored embeddings."""
        return len(set(self.store.check_index().values())) <= 1

    @writes
    def update(self, memory_id: str, **fields: Any) -> MemoryRecord:
        """Change a memory's fields (not a chunk's: they follow its memory's); new content is embedded and cut again."""
        return self._editor.update(memory_id, fields)

    @writes
    def invalidate(self, memory_id: str, *, negative: bool = False) -> MemoryRecord:
        """Mark a memory as no longer valid (validity 0), or as a negative statement (penalised in recall)."""
        return self._editor.invalidate(memory_id, negative=negative)

    @writes
    def forget(self, memory_id: str) -> ForgetAnswer:
        """Delete a memory and its chunks (explicit only); the answer names those it replaced, archived now."""
        return forgotten(memory_id, self._editor.forget(memory_id))

    def stats(self) -> StatsAnswer:
        """Counts by kind, scope and status, the model, the index and the database size."""
        return store_stats(self.store)

    def pii_summary(self, content: str) -> PiiSummary:
        """The personal data `content` holds, and whether this store would keep it redacted."""
        return pii.scan(content).summary(self.settings.redact_pii)

    def audit_log(self, memory_id: str | None = None, limit: int = 100) -> builtins.list[dict[str, Any]]:
        """The latest audit entries (of one memory, when `memory_id` is given), newest first."""
        return self.store.audit_log(memory_id, limit)

    @writes
    def reembed(self, progress: Progress | None = None, batch: int = 256) -> int:
        """Re-embed every stored text with this Memory's embedder and record the model; returns the count."""
        return self._editor.reembed(progress, batch)

    def _profile(self, name: str) -> None:
        if name not in self.settings.profiles:
            raise InvalidInput("profile", f"unknown; choose one of {sorted(self.settings.profiles)}")


def _enum(cls: type[E], value: Any, field: str) -> E:
    try:
        return cls(value)
    except ValueError:
        raise InvalidInput(field, f"{value!r} is not one of {', '.join(m.value for m in cls)}") from None
