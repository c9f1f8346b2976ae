"""Vectors written inside the open write transaction. The vector index holds committed vectors only, so a
thread searching inside its own write also scores these: each write of a batch sees the ones before it.

They are read from the `vector_changes` log as it grows (each change once) into the exact rows a small index
keeps, so a search is one scan however many writes the transaction has made."""

from __future__ import annotations

import sqlite3

import numpy as np

from engram.model.vectors import Vector, decode_vector
from engram.store.vectors import ExactRows, VectorIndex


class FreshVectors:
    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        """Forget everything read: the transaction ended, or a savepoint rolled back (its change numbers
        may be given again)."""
        self._seq: int | None = None  # the last change read
        self._touched: dict[int, None] = {}  # every rid changed, in order; deleted ones have no row
        self._rows: ExactRows | None = None  # made on the first vector, whose length is the dimension
        self.replaced = 0  # rids the committed index also holds (with an older vector, or deleted)

    def __len__(self) -> int:
        return len(self._touched)

    def __contains__(self, rid: int) -> bool:
        return rid in self._touched

    def rids(self) -> list[int]:
        return list(self._touched)

    def catch_up(self, db: sqlite3.Connection, since: int, index: VectorIndex) -> None:
        """Read the changes after `since` (the index's change number), or after the last one read."""
        start = since if self._seq is None else self._seq
        rows = db.execute(
            "SELECT c.seq, c.rid, m.embedding FROM vector_changes c LEFT JOIN memories m ON m.rid = c.rid "
            "WHERE c.seq > ? ORDER BY c.seq",
            (start,),
        ).fetchall()
        self._seq = int(rows[-1][0]) if rows else start
        for _, rid, blob in rows:
            if rid not in self._touched:
                self._touched[rid] = None
                self.replaced += rid in index
            key = np.array([rid], dtype=np.uint64)
            if blob is None:  # deleted, or its vector dropped
                if self._rows is not None:
                    self._rows.remove(key)
                continue
            vector = decode_vector(blob)
            if self._rows is None:
                self._rows = ExactRows(len(vector))
            self._rows.upsert(key, vector[None, :])

    def search(self, query: Vector, k: int) -> list[tuple[int, float]]:
        """Up to k (rid, cosine) pairs among the rows that have a vector, best first."""
        if self._rows is None or k <= 0:
            return []
        return self._rows.search(np.asarray(query, dtype=np.float32), k, None)
