"""The new memories of a bulk write's slice that are decided but not written yet.

A slice is decided in order, each memory seeing the ones before it as a write of its own would, but its new rows
go to the store at once (one insert of every row, then the audit entries), not a statement or two per memory.
Meanwhile the store does not hold them, so they are searched here: per owner and scope, the vectors each
search would find among the transaction's own rows, scored the same way (the stored float32 vector against the
query, both unit length)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from engram.model.record import MemoryRecord, NewMemory
from engram.model.vectors import Vector, decode_vector, encode_vector
from engram.store.roles import AuditLog, Rows
from engram.store.scan import scan, unit
from engram.store.values import Label


class HeldStore(Rows, AuditLog, Protocol):
    """Where held rows go."""


Scope = tuple[str, str | None, str | None, str | None]  # scope, scope id, user, workspace


def scope_of(item: NewMemory | MemoryRecord) -> Scope:
    return (item.scope.value, item.scope_id, item.user_id, item.workspace_id)


@dataclass(slots=True)
class _Searchable:
    """One scope's held rows: unit vectors in a buffer that doubles when full, and each row's id and label."""

    rows: npt.NDArray[np.float32]
    hits: list[tuple[str, Label]] = field(default_factory=list)

    def add(self, vector: Vector, hit: tuple[str, Label]) -> None:
        if len(self.hits) == len(self.rows):
            grown = np.zeros((max(16, 2 * len(self.rows)), self.rows.shape[1]), dtype=np.float32)
            grown[: len(self.rows)] = self.rows
            self.rows = grown
        self.rows[len(self.hits)] = unit(vector[None, :])[0]
        self.hits.append(hit)


@dataclass(slots=True)
class Held:
    """Rows decided in this slice and not yet in the store."""

    records: list[MemoryRecord] = field(default_factory=list)
    vectors: list[Vector | None] = field(default_factory=list)
    audits: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    hashes: set[tuple[str, Scope]] = field(default_factory=set)
    _searchable: dict[Scope, _Searchable] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.audits)

    def holds(self, item: NewMemory, digest: str) -> bool:
        """Whether a held memory has this item's id or its text in its scope: then the item is the store's to
        check (after `write`), as a duplicate or a refused id."""
        return (item.id is not None and item.id in self.ids) or (digest, scope_of(item)) in self.hashes

    def add(self, records: list[MemoryRecord], vectors: list[Vector | None], audit: dict[str, Any]) -> None:
        """A new memory's rows (itself, then its chunks) with their vectors, and its audit entry."""
        parent = records[0]
        self.records += records
        self.vectors += vectors
        self.audits.append((parent.id, audit))
        self.ids.add(parent.id)
        self.hashes.add((parent.content_hash, scope_of(parent)))
        label = Label(parent.kind.value, parent.kind_method, False, None)
        for record, vector in zip(records, vectors, strict=True):
            if vector is None:
                continue
            group = self._searchable.get(scope_of(record))
            if group is None:
                group = self._searchable[scope_of(record)] = _Searchable(
                    np.zeros((0, len(vector)), np.float32)
                )
            category = None if record.category is None else record.category.value
            chunk = record.parent_id is not None
            # scored from the vector as the store keeps it, as a search of the transaction's rows would be
            stored = decode_vector(encode_vector(vector))
            group.add(stored, (record.id, Label(label.kind, label.method, chunk, category)))

    def search(self, query: Vector, k: int, scope: Scope) -> list[tuple[str, float, Label]]:
        """Up to k held rows of `scope` closest to `query`, best first (memories live and unexpired: the write
        path holds no others)."""
        group = self._searchable.get(scope)
        if group is None:
            return []
        n = len(group.hits)
        found = scan(np.arange(n, dtype=np.uint64), group.rows[:n], np.asarray(query, dtype=np.float32), k)
        return [(group.hits[row][0], score, group.hits[row][1]) for row, score in found]

    def write(self, store: HeldStore) -> None:
        """Every held row in one insert, then the audit entries in order; nothing is held after."""
        if self.audits:
            store.insert(self.records, self.vectors)
            store.audit_many("create", self.audits)
        self.records, self.vectors, self.audits = [], [], []
        self.ids, self.hashes, self._searchable = set(), set(), {}
