"""A memory on its way in: what the write path prepared of it before the write transaction (its text without a
kind prefix, hash, token count, pieces and their vectors), and the search scope its checks read."""

from __future__ import annotations

from dataclasses import dataclass, field

from engram.model.record import Kind, MemoryRecord, NewMemory
from engram.model.vectors import Vector
from engram.store.values import Filter
from engram.write.rules import LIVE, mean


@dataclass(slots=True)
class Pending:
    item: NewMemory
    content: str
    hash: str
    kind: Kind | None
    method: str
    tokens: int
    pieces: list[str]
    opening: str | None = None  # what the classifiers read beside the whole text (Classifiers.opening)
    vectors: list[Vector] = field(default_factory=list)
    opening_vector: Vector | None = None
    piece_tokens: list[int] = field(default_factory=list)  # each piece's token count, when there are several
    marks: frozenset[str] | None = None  # the marks of form the kinds read (Classifiers.kind_marks)


def whole_vector(p: Pending) -> Vector:
    """The memory's own vector: its one piece's, or the normalised mean of its chunks'."""
    return p.vectors[0] if len(p.vectors) == 1 else mean(p.vectors)


def scope_filter(item: NewMemory | MemoryRecord) -> Filter:
    """The memories a new one (or a stored one's new content) is checked against and voted on by: live, in its
    scope, of exactly its owner."""
    return Filter(
        scope=item.scope,
        scope_id=item.scope_id,
        statuses=LIVE,
        user_id=item.user_id,
        workspace_id=item.workspace_id,
        owner_exact=True,
    )
