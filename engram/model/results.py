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
class Scored(Generic[R]):
    """A memory (a full record, or the lighter facts scoring reads) with its score and the components behind
    it; `why` is "match", or "sibling" for a chunk shown beside the chunk that matched."""

    record: R
    score: float
    components: Mapping[str, float] = field(default_factory=dict)
    why: str = "match"  # match | sibling
