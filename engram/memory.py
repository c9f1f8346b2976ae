"""Memory: the one class every interface calls. remember and recall, plus get, list, update, invalidate,
forget, stats and reembed. All decisions are plain functions (classify, rank, chunk) over values from the store."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import pydantic
from pydantic import Field

from engram.agent import advanced as maintenance
from engram.agent import search as tools
from engram.agent.advanced import Count, Days, Examples, Share
from engram.classify import classifier as kinds
from engram.config import Settings, locate
from engram.embed.blas import limit_blas
from engram.embed.embedder import CachedEmbedder, Embedder
from engram.embed.minilm import default_embedder
from engram.errors import InvalidInput, ModelMismatch, NotFound
from engram.interop import importers, transfer
from engram.lifecycle import service as lifecycle
from engram.model.record import (
    Kind,
    MemoryRecord,
    NewMemory,
    Scope,
    Status,
    as_utc,
    invalid_from,
    parse,
    tag_form,
    utcnow,
)
from engram.model.vectors import Vector
from engram.recall import retriever as retrieve
from engram.recall.retriever import (
    Hit as Hit,  # the type of what recall returns, where callers have always found it
)
from engram.recall.scoring import Decay, RecallMode
from engram.review import ingest
from engram.review.extract import Message
from engram.store.roles import Store
from engram.store.sqlite.store import SQLiteStore
from engram.store.values import Filter, Position
from engram.tags.vocabulary import TagPlan, Vocabulary
from engram.write import edit, operations
from engram.write import writer as write
from engram.write.writer import RememberResult

Progress = Callable[[int, int], None]
_KIND_TAXONOMY = "kinds"
_CATEGORY_TAXONOMY = "categories"
WRITE_SLICE = 64  # memories per write transaction in remember_many


def open_store(db: str | Path, settings: Settings) -> Store:
    """A PostgreSQL URL opens the PostgreSQL backend; anything else is an SQLite file (or `:memory:`)."""
    location = locate(db)
    if isinstance(location, str):
        from engram.store.postgres.store import PostgresStore  # psycopg loads only when PostgreSQL is used

        return PostgresStore(location, pool_size=settings.pg_pool_size)
    return SQLiteStore(location, busy_timeout_ms=settings.busy_timeout_ms)


class Memory:
    """A memory store. `Memory()` opens the default database with the offline MiniLM model."""

    def __init__(
        self,
        db: str | Path | None = None,
        *,
        embedder: Embedder | None = None,
        settings: Settings | None = None,
        allow_model_change: bool = False,
    ) -> None:
        self.settings = settings or Settings()
        limit_blas(self.settings.blas_threads)
        # not `or`: an embedder may define __len__ (a cache of vectors), and an empty one would be falsy
        self.embedder = embedder if embedder is not None else default_embedder()
        self.store = open_store(db if db is not None else self.settings.db_path, self.settings)
        stored = self.store.model()
        if stored is None:
            self.store.set_model(self.embedder.name, self.embedder.dim)
        elif stored != (self.embedder.name, self.embedder.dim) and not allow_model_change:
            self.store.close()
            raise ModelMismatch(stored[0], stored[1], self.embedder.name, self.embedder.dim)
        shared = kinds.Rules(
            prototype_weight=self.settings.kind_prototype_weight,
            temperature=self.settings.kind_temperature or 0.05,
            fallback_below=self.settings.kind_fallback_below,
            learn_above=self.settings.kind_learn_above,
            neighbour_floor=self.settings.kind_neighbour_floor,
            prototype_top=self.settings.kind_prototype_top,
            opening_weight=self.settings.kind_opening_weight,
            opening_words=self.settings.kind_opening_words,
        )
        fixed = self.settings.kind_temperature is not None
        self.kinds = kinds.Classifier(
            kinds.load_taxonomy(_KIND_TAXONOMY, fallback=Kind.KNOWLEDGE.value),
            shared,
            learned_max=self.settings.kind_learned_max,
            rules_fixed=fixed,
        )
        # A category the classifier is unsure of is left unset, to be given later (seed 002's fallback).
        self.categories = kinds.Classifier(
            kinds.load_taxonomy(_CATEGORY_TAXONOMY, fallback=""),
            replace(
                shared,
                fallback_below=self.settings.category_fallback_below,
                learn_above=self.settings.category_learn_above,
                readout=True,
            ),
            learned_max=self.settings.kind_learned_max,
            rules_fixed=fixed,
        )
        # The vectors of texts' opening words, which the classifiers read (write.embed fills it).
        self.openings = CachedEmbedder(self.embedder, capacity=8192)
        self._vocabulary: Vocabulary | None = None
        self._reads: ThreadPoolExecutor | None = None  # text searches run here, beside the query embedding
        self.extraction: kinds.Classifier | None = None  # the PaperBot taxonomy, loaded on first ingest
        self.operation: operations.Operation | None = None  # the bulk operation under way, for its rollback
        # The directory the file tools (export, import, backup_restore) are confined to; None: anywhere.
        self.files: Path | None = None
        self.decay = Decay(
            self.settings.recency_half_life_days,
            self.settings.importance_daily_decay,
            self.settings.negative_penalty,
        )

    def workers(self) -> ThreadPoolExecutor:
        """Threads that read beside the model (the text search while a query embeds), started on first use."""
        if self._reads is None:
            self._reads = ThreadPoolExecutor(4, thread_name_prefix="engram-text-search")
        return self._reads

    def close(self) -> None:
        if self._reads is not None:
            self._reads.shutdown()
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ---- write path -------------------------------------------------------------------------------------
    def remember(self, content: str, **fields: Any) -> RememberResult:
        """Store one memory; any record field (kind, scope, scope_id, importance, tags, ...) may be given."""
        return self.remember_many([{"content": content, **fields}])[0]

    def remember_many(
        self,
        items: Iterable[NewMemory | dict[str, Any]],
        *,
        embedded: Mapping[str, Vector] | None = None,
        count_tags: bool = True,
    ) -> builtins.list[RememberResult]:
        """Store many memories, embedding them in batches; each is validated before anything is written.
        `embedded` holds vectors the caller already has, by content hash (store_memory embeds a memory with its
        tag phrases in one model call). A new memory's tags are counted in the tag registry unless `count_tags`
        is false (store_memory counts its own, with the embeddings it made)."""
        parsed = [item if isinstance(item, NewMemory) else parse(NewMemory, item) for item in items]
        for i, item in enumerate(parsed):
            write.check_length(self, item.content, "content" if len(parsed) == 1 else f"items[{i}].content")
        prepared = [write.prepare(self, item) for item in parsed]
        write.embed(self, prepared, embedded or {})
        results: builtins.list[RememberResult] = []
        # A slice of writes commits once: committing each memory alone wrote the same table, index and FTS
        # pages again for every one of them. Slices keep other writers from waiting long for the lock.
        for start in range(0, len(prepared), WRITE_SLICE):
            try:
                with self.store.atomic():
                    written = [write.write(self, p) for p in prepared[start : start + WRITE_SLICE]]
                    pairs = zip(prepared[start : start + WRITE_SLICE], written, strict=True)
                    created = [t for p, r in pairs if r.created for t in p.item.tags] if count_tags else []
                    edit.count_uses(self, [*created, *(t for r in written for t in r.tags_added)])
                    results += written
                    self.kinds.save_learned(self.store)
                    self.categories.save_learned(self.store)
            except BaseException:
                # The slice rolled back, prototypes it taught included: the classifiers reload theirs.
                self.kinds.forget_cache()
                self.categories.forget_cache()
                raise
        return results

    # ---- recall -----------------------------------------------------------------------------------------
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
        """Hybrid search. Accurate mode returns few, confident hits; related more; ranked exactly the top
        `limit`. Each returned memory's access count and last access time are bumped unless touch=False.
        With `user_id` / `workspace_id` only that owner's memories and the shared ones (no owner) are seen;
        with `session` (the session asking), no other session's session-scoped ones unless `scope_id` names it."""
        tools.check_query(self, query)
        if not 1 <= limit <= 1000:
            raise InvalidInput("limit", "must be between 1 and 1000")
        mode = _enum(RecallMode, mode, "mode")
        if profile not in self.settings.profiles:
            raise InvalidInput("profile", f"unknown; choose one of {sorted(self.settings.profiles)}")
        when = as_utc(now) if now is not None else utcnow()
        where = Filter(
            scope=None if scope is None else _enum(Scope, scope, "scope"),
            scope_id=scope_id,
            kinds=() if kind is None else (_enum(Kind, kind, "kind"),),
            now=when,
            user_id=user_id,
            workspace_id=workspace_id,
            session=session if scope_id is None else None,
        )
        return retrieve.recall(
            self, query, where, limit=limit, mode=mode, profile=profile, when=when, touch=touch
        )

    # ---- seed 002: two tools and the tag vocabulary -----------------------------------------------------
    def store_memory(self, content: str, context: dict[str, Any] | None = None) -> dict[str, Any]:
        """Zero-decision storage: category, tags, importance and kind are inferred; `context` may force any."""
        return tools.store_memory(self, content, context)

    def search_memory(
        self,
        query: str,
        options: dict[str, Any] | None = None,
        *,
        now: datetime | None = None,
        touch: bool = True,
        session: str | None = None,
    ) -> dict[str, Any]:
        """Natural-language search with time understanding and tag expansion, ranked by the redesign profile.
        `now` is the moment the query is asked (relative dates resolve against it); `touch=False` leaves usage
        untouched (benchmarks, previews); `session` is the session asking: other sessions' session-scoped
        memories stay out of its results."""
        return tools.search_memory(self, query, options, now=now, touch=touch, session=session)

    def discover_memory_tools(self) -> dict[str, Any]:
        """The advanced tools by group, and the store's health (see engram.maintenance)."""
        return maintenance.discover_memory_tools(self)

    def run_tool(self, name: str, **arguments: Any) -> dict[str, Any]:
        """Run an advanced tool by the name discover_memory_tools lists (or `rollback`, `operations`)."""
        listed = {t for group in maintenance.TOOLS.values() for t in group} | {"rollback", "operations"}
        if name not in listed:
            raise InvalidInput("tool", f"unknown; choose one of {sorted(listed)}")
        # Arguments are checked against the method's annotations (types and ranges), each error naming its argument.
        method: Callable[..., dict[str, Any]] = pydantic.validate_call(getattr(self, name))
        try:
            return method(**arguments)
        except pydantic.ValidationError as exc:
            raise invalid_from(exc) from None

    def memory_stats(self) -> dict[str, Any]:
        """Counts by category, kind, scope, status and tier; tags; storage size; the health score."""
        return maintenance.memory_stats(self)

    def optimize_tags(self, dry_run: bool = False, archive_after_days: Days = 180) -> dict[str, Any]:
        return maintenance.optimize_tags(self, dry_run=dry_run, archive_after_days=archive_after_days)

    def merge_memories(
        self, ids: Annotated[builtins.list[str], Field(min_length=2)], into: str | None = None
    ) -> dict[str, Any]:
        return maintenance.merge_memories(self, ids, into=into)

    def memory_timeline(
        self, granularity: Literal["day", "month", "year"] = "month", examples: Examples = 3, session: str | None = None
    ) -> dict[str, Any]:
        """Memories counted per day, month or year, with a few examples from each period."""
        return maintenance.memory_timeline(self, granularity=granularity, examples=examples, session=session)

    def concept_network(
        self, min_cooccurrence: Count = 1, similarity: Share = 0.6, limit: Count = 100, session: str | None = None
    ) -> dict[str, Any]:
        return maintenance.concept_network(
            self, min_cooccurrence=min_cooccurrence, similarity=similarity, limit=limit, session=session
        )

    def usage_patterns(self, top: Count = 10, session: str | None = None) -> dict[str, Any]:
        return maintenance.usage_patterns(self, top=top, session=session)

    def export_memories(self, path: str | Path, with_embeddings: bool = True) -> dict[str, Any]:
        """Write every memory as unified SHODH records (JSON Lines with a header line) to `path`; with
        embeddings (and the model's name) unless `with_embeddings` is false."""
        target = transfer.file_at(path, self.files, new=True)
        return transfer.export_memories(self, target, with_embeddings=with_embeddings)

    def import_from(self, source: str, path: str | Path) -> dict[str, Any]:
        """Import another store's memories: mcp-memory-service, shodh-json or mem0 (see engram.importers)."""
        if source not in importers.READERS:
            raise InvalidInput("source", f"unknown; choose one of {sorted(importers.READERS)}")
        return importers.import_foreign(self, importers.READERS[source](Path(path)), source)

    def import_memories(self, path: str | Path) -> dict[str, Any]:
        """Read SHODH records from `path` (as one operation that rollback undoes); existing ids, and content already
        stored in the same scope for the same owner, are skipped."""
        return transfer.import_memories(self, transfer.file_at(path, self.files, new=False))

    def import_tinydb(self, directory: str | Path) -> dict[str, Any]:
        return transfer.import_tinydb(self, Path(directory))

    def backup_restore(self, action: Literal["backup", "restore"], path: str | Path) -> dict[str, Any]:
        """`action` backup: copy the database to `path` with SQLite's online backup; restore: verify `path` and replace the database with it."""
        return maintenance.backup_restore(self, action, path)

    def trace_search(
        self, query: str, options: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        return maintenance.trace_search(self, query, options, session=session)

    def validate_storage(self) -> dict[str, Any]:
        """Rows against the full-text index, the vector index, the embedding model and the tag registry: every inconsistency found."""
        return maintenance.validate_storage(self)

    def repair_index(self) -> dict[str, Any]:
        return maintenance.repair_index(self)

    def rollback(self, operation_id: str) -> dict[str, Any]:
        """Undo a bulk operation (optimize_tags, merge_memories, an import) completely."""
        result = operations.rollback(self.store, operation_id)
        self.forget_vocabulary()
        return result

    def operations(self, limit: Count = 50) -> dict[str, Any]:
        """The latest bulk operations (optimize_tags, merge_memories, imports), newest first, each with its id
        for `rollback` and whether it was rolled back already."""
        return {"operations": self.store.operations(limit)}

    # ---- seed 001: conversations, review, supersession -----------------------------------------------
    def ingest(
        self,
        messages: Iterable[Message | dict[str, Any]],
        *,
        scope: Scope | str = Scope.PROJECT,
        scope_id: str | None = None,
        redact: bool | None = None,
        user_id: str | None = None,
        workspace_id: str | None = None,
    ) -> dict[str, Any]:
        """Keep messages as sources and store the user's statements as memories, approved or pending review."""
        return ingest.ingest(self, messages, scope=scope, scope_id=scope_id, redact=redact, user_id=user_id,
                             workspace_id=workspace_id)  # fmt: skip

    def pending(self, limit: int = 100) -> builtins.list[MemoryRecord]:
        """The review queue: pending memories, newest first."""
        return self.store.select(Filter(statuses=(Status.PENDING,), include_expired=True), limit=limit)

    def review(self, memory_id: str, action: str, content: str | None = None) -> MemoryRecord:
        """approve, reject, or edit (new content; the memory is approved as edited)."""
        record = self.get(memory_id)
        if record.status in (Status.SUPERSEDED, Status.ARCHIVED):
            # Approving a superseded memory would make it live beside the one that replaced it.
            raise InvalidInput("id", f"is {record.status.value}, not a memory to review")
        if action == "approve":
            updated = self.update(memory_id, status=Status.APPROVED)
        elif action == "reject":
            updated = self.update(memory_id, status=Status.REJECTED)
        elif action == "edit":
            if content is None:
                raise InvalidInput("content", "is required to edit a memory")
            updated = self.update(memory_id, content=content, status=Status.APPROVED)
        else:
            raise InvalidInput("action", "must be approve, reject or edit")
        self.store.audit("review", memory_id, {"action": action, "from": record.status.value})
        return updated

    def supersede(self, memory_id: str, content: str, **fields: Any) -> RememberResult:
        """A newer memory replaces an older one: the old one is kept as superseded, the new one names it."""
        old = edit.whole(self, memory_id, "supersede")
        if old.status is Status.SUPERSEDED:  # else two memories would both be the current version
            newer = old.metadata.get("superseded_by", "a newer memory")
            raise InvalidInput("id", f"is already superseded by {newer}; supersede that one instead")
        metadata = dict(fields.pop("metadata", {}) or {}) | {"supersedes_id": old.id}
        base = {"scope": old.scope, "scope_id": old.scope_id, "kind": old.kind, "tags": old.tags}
        result = self.remember(content, **(base | fields | {"metadata": metadata}))
        if result.id != old.id:
            self.update(
                old.id, status=Status.SUPERSEDED, metadata=old.metadata | {"superseded_by": result.id}
            )
            self.store.audit("supersede", old.id, {"by": result.id})
        return result

    # ---- seed 003: the access-based lifecycle ----------------------------------------------------------
    def maintain(self, now: datetime | None = None) -> dict[str, Any]:
        """Priorities, tiers, promotion, quality decay and (persona mode) pruning to archive; see lifecycle."""
        return lifecycle.maintain(self, now)

    def feedback(self, memory_id: str, helpful: bool) -> MemoryRecord:
        """Thumbs up / down on a memory: its quality moves by 0.1."""
        return lifecycle.feedback(self, memory_id, helpful)

    def vocabulary(self) -> Vocabulary:
        if self._vocabulary is None:
            self._vocabulary = Vocabulary.of(self.store.tags(), self.embedder.dim)
        return self._vocabulary

    def record_tags(self, plan: TagPlan, vectors: dict[str, Vector], at: datetime) -> None:
        """Count the uses of a memory's tags; new tags join the vocabulary with their embedding."""
        self.store.use_tags(builtins.list(plan.tags), at, {t: v for t, v in vectors.items() if t in plan.new})
        vocabulary = self.vocabulary()
        for tag in plan.new:
            vocabulary.add(tag, vectors[tag])

    def is_word(self, text: str) -> bool:
        """Whether `text` is one token of the embedding model's vocabulary: a word of its own, not a clip."""
        return len(self.embedder.token_offsets(text)) == 1

    def forget_vocabulary(self) -> None:
        """Reload the tags on next use (after consolidation or a restore)."""
        self._vocabulary = None

    def reset_classifiers(self) -> None:
        for classifier in (self.kinds, self.categories):
            classifier.forget_cache()

    def similar_to(
        self, memory_id: str, threshold: float, k: int = 10, where: Filter | None = None
    ) -> builtins.list[tuple[str, float]]:
        """Searchable memories (`where`, else any) whose embedding is within `threshold` cosine of this one's."""
        vector = self.store.vectors([memory_id]).get(memory_id)
        if vector is None:
            return []
        return [(i, s) for i, s in self.store.vector_search(vector, k, where or Filter()) if s >= threshold]

    # ---- everything else --------------------------------------------------------------------------------
    def get(self, memory_id: str) -> MemoryRecord:
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise InvalidInput("id", "must be a memory's id, not empty")
        record = self.store.get(memory_id)
        if record is None:
            raise NotFound(memory_id)
        return record

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
    ) -> builtins.list[MemoryRecord]:
        """Top-level memories, newest first (an owner's and the shared ones when `user_id` / `workspace_id`);
        `after` a listed memory's (created_at, id): only those past it, as a stable page cursor."""
        where = Filter(
            scope=None if scope is None else _enum(Scope, scope, "scope"),
            scope_id=scope_id,
            kinds=() if kind is None else (_enum(Kind, kind, "kind"),),
            statuses=() if status is None else (_enum(Status, status, "status"),),
            include_expired=True,
            tags=() if tag is None else (tag_form(tag),),  # as tags are stored: "Deploy" is deploy
            user_id=user_id,
            workspace_id=workspace_id,
        )
        return self.store.select(where, limit=limit, offset=offset, after=after)

    def update(self, memory_id: str, **fields: Any) -> MemoryRecord:
        """Change fields of a memory (not of a chunk: its fields are its memory's, which its chunks follow); new
        content is embedded again, and a long memory's chunks are cut from it again."""
        return edit.update(self, memory_id, fields)

    def invalidate(self, memory_id: str, *, negative: bool = False) -> MemoryRecord:
        """Mark a memory as no longer valid (validity 0), or as a negative statement (penalised in recall)."""
        change: dict[str, Any] = {"is_negative": True} if negative else {"validity_score": 0.0}
        return self.update(memory_id, **change)

    def forget(self, memory_id: str) -> None:
        """Delete a memory and its chunks. Explicit only: nothing automatic deletes."""
        edit.forget(self, memory_id)

    def stats(self) -> dict[str, Any]:
        s = self.store.stats()
        return {
            "memories": s.memories,
            "chunks": s.chunks,
            "by_kind": s.by_kind,
            "by_scope": s.by_scope,
            "by_status": s.by_status,
            "embedded": s.embedded,
            "model": s.model,
            "dim": s.dim,
            "size_bytes": s.size_bytes,
            "index": self.store.check_index(),
        }

    def reembed(self, progress: Progress | None = None, batch: int = 256) -> int:
        """Re-embed every stored text with this Memory's embedder and record the model; returns the count."""
        return edit.reembed(self, progress, batch)


E = TypeVar("E", RecallMode, Scope, Kind, Status)


def _enum(cls: type[E], value: Any, field: str) -> E:
    try:
        return cls(value)
    except ValueError:
        raise InvalidInput(field, f"{value!r} is not one of {', '.join(m.value for m in cls)}") from None
