"""The narrow interface every backend implements; SQL stays inside the backend modules."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from engram.embed.embedder import Matrix, Vector
from engram.model.record import Category, Kind, MemoryRecord, MemoryType, Scope, Status


@dataclass(frozen=True, slots=True)
class Filter:
    """Which memories a search or listing may see. Chunked parents are never searched, only their chunks."""

    scope: Scope | None = None
    scope_id: str | None = None
    # The session asking: another session's session-scoped memories are not its to see.
    session: str | None = None
    kinds: tuple[Kind, ...] = ()
    statuses: tuple[Status, ...] = (Status.APPROVED,)
    include_expired: bool = False
    now: datetime | None = None  # expiry is judged at this time
    created_after: datetime | None = None
    created_before: datetime | None = None
    tags: tuple[str, ...] = ()
    categories: tuple[Category, ...] = ()
    importance_min: float | None = None  # 0..1
    uncategorised: bool = False  # only memories without a category
    types: tuple[MemoryType, ...] = ()  # SHODH memory types
    # Isolation (seed 001): a user's / workspace's memories plus the shared ones (no owner); with owner_exact
    # only memories with exactly this owner (None included), as the write path's duplicate checks need.
    user_id: str | None = None
    workspace_id: str | None = None
    owner_exact: bool = False


# A place in listing order (created_at desc, then id desc): the (created_at, id) of a listed memory.
Position = tuple[datetime, str]


@dataclass(frozen=True, slots=True)
class Prototype:
    label: str
    source: str  # "seed" or "learned"
    vector: Vector
    text: str | None = None
    memory_id: str | None = None
    opening: Vector | None = None  # the embedding of the text's opening words (engram.classify.opening)


@dataclass(frozen=True, slots=True)
class Facts:
    """The fields recall scores a candidate by, without building a full record."""

    id: str
    content: str
    importance: float
    created_at: datetime  # when it was said: a query that names a time scores it
    updated_at: datetime
    last_accessed_at: datetime | None
    access_count: int
    validity_score: float
    is_negative: bool
    vector: Vector | None = None  # the stored embedding, read in the same query
    episode: str | None = None  # its episode_id, else the parent it is a chunk of
    parent: str | None = None  # the memory it is a chunk of

    @property
    def placed(self) -> bool:
        """In an episode or a chunk of a longer memory: it may have neighbours."""
        return self.episode is not None


@dataclass(frozen=True, slots=True)
class Label:
    """How a memory was classified, for neighbour votes."""

    kind: str
    method: str
    is_chunk: bool
    category: str | None = None


@dataclass(frozen=True, slots=True)
class TagRow:
    """A tag in the registry: how often and when it was used, its embedding, and whether it is still live."""

    tag: str
    usage_count: int
    first_used_at: datetime
    last_used_at: datetime
    status: str = "active"  # active | archived | merged
    merged_into: str | None = None
    vector: Vector | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """The state of one memory or tag before an operation changed it; `before` None: it did not exist."""

    entity: str  # memory | tag
    key: str
    before: dict[str, Any] | None
    before_vector: Vector | None = None


@dataclass(frozen=True, slots=True)
class StoreStats:
    memories: int
    chunks: int
    by_kind: dict[str, int] = field(default_factory=dict)
    by_scope: dict[str, int] = field(default_factory=dict)
    by_status: dict[str, int] = field(default_factory=dict)
    embedded: int = 0
    model: str | None = None
    dim: int | None = None
    size_bytes: int = 0


class Store(Protocol):
    def close(self) -> None: ...
    def atomic(self) -> AbstractContextManager[object]: ...
    def reads_anywhere(self) -> bool:
        """Whether a read from another thread, now, sees exactly what this thread would: no write transaction
        open on this thread and no database that lives on a single connection."""
        ...

    # the embedding model recorded once per database
    def model(self) -> tuple[str, int] | None: ...
    def set_model(self, name: str, dim: int) -> None: ...
    def get_meta(self, key: str) -> str | None: ...
    def set_meta(self, key: str, value: str) -> None: ...

    # writes
    def insert(self, records: Sequence[MemoryRecord], vectors: Sequence[Vector | None]) -> None: ...
    def update(self, record: MemoryRecord, vector: Vector | None = None) -> None: ...
    def delete(self, memory_id: str) -> bool: ...
    def touch(self, ids: Sequence[str], at: datetime) -> None: ...
    def set_vectors(self, ids: Sequence[str], vectors: Matrix) -> None: ...

    # reads
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
    def children(self, parent_id: str) -> list[MemoryRecord]: ...
    def chunk_at(self, parent_id: str, index: int) -> MemoryRecord | None: ...
    def vectors(self, ids: Sequence[str]) -> dict[str, Vector]: ...
    def vector_for_hash(self, content_hash: str) -> Vector | None: ...
    def facts(self, ids: Sequence[str]) -> list[Facts]:
        """What recall scores each memory by, its embedding included (one query for both)."""
        ...

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

    # search: (id, raw score) best first
    def vector_search(self, query: Vector, k: int, where: Filter) -> list[tuple[str, float]]: ...
    def labelled_search(self, query: Vector, k: int, where: Filter) -> list[tuple[str, float, Label]]:
        """`vector_search` with each hit's classification (the write path's neighbour votes), read with it."""
        ...

    def vector_facts(self, query: Vector, k: int, where: Filter) -> list[tuple[Facts, float]]:
        """`vector_search` with each hit's `facts` (what recall scores), read with it."""
        ...

    def text_search(self, terms: Sequence[str], k: int, where: Filter) -> list[tuple[str, float]]: ...
    def document_frequencies(self, stems: Sequence[str]) -> tuple[int, dict[str, int]]: ...
    def episode_neighbours(self, ids: Sequence[str], where: Filter) -> dict[str, list[str]]:
        """Searchable memories passing `where`, one step before or after each of `ids`: in its episode
        (sequence_number) and among its parent's chunks (chunk_index)."""
        ...

    # classifier prototypes
    def prototypes(self, taxonomy: str) -> list[Prototype]: ...
    def replace_seed_prototypes(self, taxonomy: str, items: Sequence[Prototype]) -> None: ...
    def add_learned_prototypes(self, taxonomy: str, items: Sequence[Prototype], keep: int) -> None:
        """Add learned prototypes (in order); past `keep` for a label, its oldest go."""
        ...

    def clear_learned_prototypes(self, taxonomy: str) -> None: ...

    # upkeep
    def check_index(self) -> dict[str, int]: ...
    def rebuild_index(self) -> int: ...
    def integrity(self) -> list[dict[str, Any]]: ...
    def rebuild_fts(self) -> None: ...
    def recount_tags(self) -> int: ...
    def backup(self, target: Path) -> dict[str, Any]: ...
    def restore(self, source: Path) -> dict[str, Any]: ...

    def histogram(self, column: str, width: int, where: Filter) -> dict[str, int]:
        """Top-level memories counted by the first `width` characters of a timestamp column (10: per day)."""
        ...

    # tags
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

    # bulk operations, each with the before-image of what it changed
    def begin_operation(self, operation_id: str, name: str) -> None: ...
    def finish_operation(self, operation_id: str, status: str, summary: dict[str, Any]) -> None: ...
    def record_change(self, operation_id: str, change: Change) -> None: ...
    def changes(self, operation_id: str) -> list[Change]: ...
    def operations(self, limit: int = 50) -> list[dict[str, Any]]: ...

    # conversation sources (seed 001)
    def add_sources(self, rows: Sequence[dict[str, Any]]) -> list[bool]:
        """Store messages (platform, conversation_id, message_id, role, content, ts, metadata); per row, whether
        it was new (a message already stored is left as it was)."""
        ...

    def sources(self, conversation_id: str | None = None, limit: int = 1000) -> list[dict[str, Any]]: ...

    # whole-store copies between backends (`engram migrate`, PostgreSQL backups): the tables beside
    # `memories` as rows of side_tables.AUX_TABLES columns
    def dump(self, table: str, batch: int = 2048) -> Iterator[list[tuple[Any, ...]]]: ...
    def load(self, table: str, rows: Sequence[tuple[Any, ...]]) -> None: ...

    # audit
    def audit(
        self, action: str, memory_id: str | None, detail: dict[str, Any], operation_id: str | None = None
    ) -> None: ...
    def audit_log(
        self, memory_id: str | None = None, limit: int = 100, operation_id: str | None = None
    ) -> list[dict[str, Any]]: ...
