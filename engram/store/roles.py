"""What a backend offers, as roles: each consumer names the role (or the few roles) it uses, and every backend
(engram.store.sqlite, engram.store.postgres) implements all of them. SQL stays inside the backends.

Transactions  one writer's atomic block, one reader's snapshot, and whether another thread may read now
Meta          the embedding model recorded for the database, and small settings it keeps
Rows          memories: write, read, list, count
SearchIndex   vector and full-text search, and what recall scores a candidate by
BatchSearch   a slice's neighbour searches in one pass (a backend may offer it; the write path asks per memory if not)
Prototypes    the classifiers' prototypes (their digests live in Meta)
TagRegistry   tags with their usage counts and embeddings
OperationLog  bulk operations and the before-images their rollback restores
AuditLog      every automatic decision and every change, with its reason
Sources       the conversation messages memories were drawn from
Upkeep        index checks and rebuilds, integrity, backups, whole-store copies
MergedText    the full-text index's segments merged a bounded step at a time (a backend may offer it)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from engram.model.record import MemoryRecord, Scope
from engram.model.vectors import Matrix, Vector
from engram.store.values import Change, Facts, Filter, Label, Position, Prototype, StoreStats, TagRow


class Transactions(Protocol):
    def atomic(self) -> AbstractContextManager[object]: ...
    def reads_anywhere(self) -> bool:
        """Whether a read from another thread, now, sees exactly what this thread would: no write transaction
        open on this thread and no database that lives on a single connection."""
        ...

    def snapshot(self) -> AbstractContextManager[object]:
        """Every read of this thread until the block ends sees the store at one moment, the block's start, while
        other threads and processes go on writing (they do not wait for it): what a whole-store read (an export)
        reads in batches is then the store as it was at one time, never a mix of before and after a write."""
        ...


class Meta(Protocol):
    def model(self) -> tuple[str, int] | None: ...
    def set_model(self, name: str, dim: int) -> None: ...
    def get_meta(self, key: str) -> str | None: ...
    def set_meta(self, key: str, value: str) -> None: ...


class Rows(Protocol):
    def insert(self, records: Sequence[MemoryRecord], vectors: Sequence[Vector | None]) -> None: ...
    def update(self, record: MemoryRecord, vector: Vector | None = None) -> None: ...
    def delete(self, memory_id: str) -> bool: ...
    def touch(self, ids: Sequence[str], at: datetime) -> None: ...
    def set_vectors(self, ids: Sequence[str], vectors: Matrix) -> None: ...
    def get(self, memory_id: str) -> MemoryRecord | None: ...
    def ids_starting(self, prefix: str, limit: int) -> list[str]: ...
    def get_many(self, ids: Sequence[str]) -> list[MemoryRecord]: ...
    def find_hash(
        self,
        content_hash: str,
        scope: Scope,
        scope_id: str | None,
        user_id: str | None = None,
        workspace_id: str | None = None,
    ) -> MemoryRecord | None: ...
    def stored_times(self, ids: Sequence[str]) -> dict[str, datetime]:
        """When Engram stored each memory (not the time it is about, which `created_at` holds)."""
        ...

    def children(self, parent_id: str) -> list[MemoryRecord]: ...
    def chunk_at(self, parent_id: str, index: int) -> MemoryRecord | None: ...
    def vectors(self, ids: Sequence[str]) -> dict[str, Vector]: ...
    def vector_for_hash(self, content_hash: str) -> Vector | None: ...
    def select(
        self,
        where: Filter,
        *,
        limit: int,
        offset: int = 0,
        top_level: bool = True,
        after: Position | None = None,
    ) -> list[MemoryRecord]:
        """Newest first (created_at desc, then id desc); `after`: only rows strictly past that position, so a
        page's next page holds still when rows are added or deleted between them."""
        ...

    def count(self, where: Filter) -> int: ...
    def grouped(self, column: str, where: Filter) -> dict[str | None, int]: ...
    def iter_all(self, batch: int = 512) -> Iterator[list[MemoryRecord]]: ...
    def stats(self) -> StoreStats: ...
    def histogram(self, column: str, width: int, where: Filter) -> dict[str, int]:
        """Top-level memories counted by the first `width` characters of a timestamp column (10: per day)."""
        ...


@runtime_checkable
class KnownHashes(Protocol):
    def known_hashes(self, digests: Sequence[str]) -> set[str]:
        """Which of `digests` some stored row (a memory or a chunk, in any scope) has as its content hash, in
        one read: a text none has needs no look-up of its own (`find_hash`, `vector_for_hash`)."""
        ...


@runtime_checkable
class BatchSearch(Protocol):
    def labelled_search_many(
        self, queries: Sequence[Vector], k: int, wheres: Sequence[Filter]
    ) -> list[list[tuple[str, float, Label]]]:
        """`labelled_search` of each query with its filter, the same answers, the index searched once."""
        ...


@runtime_checkable
class Vocabulary(Protocol):
    def words_held(self, words: Sequence[str]) -> set[str]:
        """Which of `words` some searchable memory holds, as the text index stems them, in one cheap read (no
        count of the memories holding each): a question's word none holds may be misspelled."""
        ...


@runtime_checkable
class TextsWeighed(Protocol):
    def weighed_text_facts(
        self, stems: Sequence[str], searches: Sequence[Sequence[str]], k: int, where: Filter
    ) -> tuple[tuple[int, dict[str, int]], list[list[tuple[Facts, float]]]]:
        """`document_frequencies(stems)` and `text_facts(terms, k, where)` of each of `searches`, the same answers,
        read together: a store whose every read is a round trip to a server makes them one."""
        ...


@runtime_checkable
class CountedVocabulary(Protocol):
    def words_counted(self, words: Sequence[str]) -> tuple[set[str], int]:
        """`words_held`, and the number of searchable memories (`document_frequencies`' first figure), in one
        read."""
        ...


class SearchIndex(Protocol):
    """Searches answer (id, raw score), best first."""

    def vector_search(self, query: Vector, k: int, where: Filter) -> list[tuple[str, float]]: ...
    def labelled_search(self, query: Vector, k: int, where: Filter) -> list[tuple[str, float, Label]]:
        """`vector_search` with each hit's classification (the write path's neighbour votes), read with it."""
        ...

    def vector_facts(self, query: Vector, k: int, where: Filter) -> list[tuple[Facts, float]]:
        """`vector_search` with each hit's `facts` (what recall scores), read with it."""
        ...

    def facts(self, ids: Sequence[str]) -> list[Facts]:
        """What recall scores each memory by, its embedding included (one query for both)."""
        ...

    def openings(self, ids: Sequence[str], chars: int) -> dict[str, str]:
        """The first `chars` characters of each memory's text, read without the rest."""
        ...

    def text_search(self, terms: Sequence[str], k: int, where: Filter) -> list[tuple[str, float]]: ...
    def text_facts(self, terms: Sequence[str], k: int, where: Filter) -> list[tuple[Facts, float]]:
        """`text_search` with each hit's `facts`, read in the same query."""
        ...

    def document_frequencies(self, stems: Sequence[str]) -> tuple[int, dict[str, int]]: ...
    def episode_neighbours(self, ids: Sequence[str], where: Filter) -> dict[str, list[str]]:
        """Searchable memories passing `where`, one step before or after each of `ids`: in its episode
        (sequence_number) and among its parent's chunks (chunk_index)."""
        ...


class Prototypes(Meta, Protocol):
    def prototypes(self, taxonomy: str) -> list[Prototype]: ...
    def replace_seed_prototypes(self, taxonomy: str, items: Sequence[Prototype]) -> None: ...
    def add_learned_prototypes(self, taxonomy: str, items: Sequence[Prototype], keep: int) -> None:
        """Add learned prototypes (in order); past `keep` for a label, its oldest go."""
        ...

    def clear_learned_prototypes(self, taxonomy: str) -> None: ...


class TagRegistry(Protocol):
    def tags(self, statuses: Sequence[str] = ("active",)) -> list[TagRow]: ...
    def tag_counts(self) -> dict[str, int]:
        """Every tag carried by a top-level memory, with how many carry it (whether or not it is registered)."""
        ...

    def tag(self, tag: str) -> TagRow | None: ...
    def use_tags(self, tags: Sequence[str], at: datetime, vectors: dict[str, Vector]) -> None:
        """Count one use of each tag, registering new ones with their embedding."""
        ...

    def drop_tag_uses(self, tags: Sequence[str]) -> None:
        """Count one use fewer of each tag (a memory no longer carries it); at none it is archived."""
        ...

    def put_tag(self, row: TagRow) -> None: ...
    def delete_tag(self, tag: str) -> None: ...
    def recount_tags(self) -> int: ...


class OperationLog(Protocol):
    """Bulk operations, each with the before-image of what it changed."""

    def begin_operation(self, operation_id: str, name: str) -> None: ...
    def finish_operation(self, operation_id: str, status: str, summary: dict[str, Any]) -> None: ...
    def record_change(self, operation_id: str, change: Change) -> None: ...
    def changes(self, operation_id: str) -> list[Change]: ...
    def operations(self, limit: int = 50) -> list[dict[str, Any]]: ...


class AuditLog(Protocol):
    def audit(
        self, action: str, memory_id: str | None, detail: dict[str, Any], operation_id: str | None = None
    ) -> None: ...
    def audit_many(self, action: str, audits: Sequence[tuple[str | None, dict[str, Any]]]) -> None:
        """`audit(action, memory_id, detail)` of each (memory_id, detail), in order, written together."""
        ...

    def audit_log(
        self, memory_id: str | None = None, limit: int = 100, operation_id: str | None = None
    ) -> list[dict[str, Any]]: ...


class Sources(Protocol):
    def add_sources(self, rows: Sequence[dict[str, Any]]) -> list[bool]:
        """Store messages (platform, conversation_id, message_id, role, content, ts, metadata); per row, whether
        it was new (a message already stored is left as it was)."""
        ...

    def sources(self, conversation_id: str | None = None, limit: int = 1000) -> list[dict[str, Any]]: ...

    def kept_sources(self, keys: Sequence[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
        """Which of these (platform, conversation_id, message_id) are already stored."""
        ...


@runtime_checkable
class MergedText(Protocol):
    def merge_text_index(self) -> bool:
        """Merge the full-text index's segments towards one in bounded steps (a search looks each word up in every
        segment); whether it is done. Maintenance calls it; what it finds is unchanged."""
        ...


class Upkeep(Protocol):
    def check_index(self) -> dict[str, int]: ...
    def rebuild_index(self) -> int: ...
    def integrity(self) -> list[dict[str, Any]]: ...
    def rebuild_fts(self) -> None: ...
    def backup(self, target: Path) -> dict[str, Any]: ...
    def restore(self, source: Path) -> dict[str, Any]: ...

    # an explicit forget: every copy of a memory's text erased (store/erasure.py), then settled after the commit
    def erase(
        self, ids: Sequence[str], texts: Sequence[str], tags: Sequence[str], said: Sequence[str] = ()
    ) -> None: ...
    def replaced_by(self, memory_id: str) -> list[str]: ...
    def renamed_into(self, tags: Sequence[str]) -> list[str]: ...
    def settle(self) -> None: ...

    # whole-store copies between backends (`engram migrate`, PostgreSQL backups): the tables beside
    # `memories` as rows of side_tables.AUX_TABLES columns
    def dump(self, table: str, batch: int = 2048) -> Iterator[list[tuple[Any, ...]]]: ...
    def load(self, table: str, rows: Sequence[tuple[Any, ...]]) -> None: ...


class Store(
    Transactions,
    Rows,
    SearchIndex,
    Prototypes,
    TagRegistry,
    OperationLog,
    AuditLog,
    Sources,
    Upkeep,
    Protocol,
):
    """Every role (Meta through Prototypes): what a backend implements, and what the facade opens."""

    def close(self) -> None: ...
