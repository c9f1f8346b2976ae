"""What the write path and recall return, as frozen values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from engram.model.record import Kind

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class RememberResult:
    """Where a write ended up: a new memory, an exact duplicate's id, or the memory it merged into."""

    id: str
    created: bool
    duplicate_of: str | None = None
    merged_into: str | None = None
    kind: Kind = Kind.UNCLASSIFIED
    confidence: float | None = None
    method: str = "auto"  # how the kind was decided: auto | fallback | explicit | prefix
    chunks: int = 0
    # A new memory's nearest memories in its scope when it was written (id, cosine), best first.
    neighbours: tuple[tuple[str, float], ...] = ()
    # Tags a merge put on the memory it merged into: the registry counts them (the memory carries them now).
    tags_added: tuple[str, ...] = ()

    @property
    def outcome(self) -> str:
        if self.duplicate_of:
            return "duplicate"
        return "merged" if self.merged_into else "created"


@dataclass(frozen=True, slots=True)
class Passage:
    """Where a passage of a long memory (a document) sits: its document, its place (1-based) among the
    document's passages, and the heading it falls under, if the document has headings."""

    document: str
    index: int
    count: int
    heading: str | None = None


@dataclass(frozen=True, slots=True)
class Scored(Generic[R]):
    """A memory (a full record, or the lighter facts scoring reads) with its score and the components behind
    it; `confidence` says how surely it answers the query (high, medium or low: engram.recall.confidence), and
    `passage`, for a passage of a document, where in the document it sits."""

    record: R
    score: float
    components: Mapping[str, float] = field(default_factory=dict)
    why: str = "match"
    confidence: str | None = None
    passage: Passage | None = None
