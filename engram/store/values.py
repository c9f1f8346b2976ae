"""The values that cross the store boundary: which memories a search may see (`Filter`), what recall scores a
candidate by (`Facts`), classifier prototypes, tag rows, the before-images of bulk operations, and counts."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from engram.model.record import Category, Kind, MemoryType, Scope, Status
from engram.model.vectors import Vector


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
    # Isolation: a user's / workspace's memories plus the shared ones (no owner); with owner_exact
    # only memories with exactly this owner (None included), as the write path's duplicate checks need.
    user_id: str | None = None
    workspace_id: str | None = None
    owner_exact: bool = False

    def created_within(self, after: datetime | None, before: datetime | None) -> Filter:
        """This filter narrowed to memories created within `after`..`before` (a time a question names or an
        event it is relative to); either end open when None."""
        return replace(self, created_after=after, created_before=before)


# A place in listing order (created_at desc, then id desc): the (created_at, id) of a listed memory.
Position = tuple[datetime, str]


@dataclass(frozen=True, slots=True)
class Prototype:
    label: str
    source: str  # "seed" or "learned"
    vector: Vector
    text: str | None = None
    memory_id: str | None = None
    opening: Vector | None = (
        None  # the embedding of the text's opening words (engram.classify.prototypes.opening)
    )


# Not frozen: a frozen dataclass sets each field through object.__setattr__, five times the cost of building one,
# and recall builds a few hundred a query. Nothing changes one once built.
@dataclass(slots=True)
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
