"""Vectors written inside the open write transaction. The vector index holds committed vectors only, so a
thread searching inside its own write also scores these: each write of a batch sees the ones before it.

They are read from the `vector_changes` log as it grows (each change once) into one matrix, so a search is
one product however many writes the transaction has made."""

from __future__ import annotations

import sqlite3

import numpy as np
import numpy.typing as npt

from engram.embed import Vector, decode_vector
from engram.store.vectors import VectorIndex


class FreshVectors:
    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        """Forget everything read: the transaction ended, or a savepoint rolled back (its change numbers
        may be given again)."""
        self._seq: int | None = None  # the last change read
        self._row: dict[int, int] = {}  # rid -> row of the matrix
        self._rids: list[int] = []
        self._matrix: npt.NDArray[np.float32] = np.zeros((0, 0), dtype=np.float32)
        self._live: npt.NDArray[np.bool_] = np.zeros(0, dtype=bool)  # the row's memory has a vector now
        self.replaced = 0  # rows whose rid the committed index also holds (with an older vector, or deleted)

    def __len__(self) -> int:
        return len(self._rids)

    def __contains__(self, rid: int) -> bool:
        return rid in self._row

    def rids(self) -> list[int]:
        return list(self._rids)

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
            row = self._row.get(rid)
            if row is None:
                row = self._row[rid] = len(self._rids)
                self._rids.append(rid)
                self.replaced += rid in index
                self._grow(row + 1, 0 if blob is None else len(blob) // 4)
            if blob is None:  # deleted, or its vector dropped
                self._live[row] = False
                continue
            vector = decode_vector(blob)
            norm = float(np.linalg.norm(vector))
            self._grow(row + 1, len(vector))
            self._matrix[row] = vector / norm if norm > 0 else vector
            self._live[row] = True

    def search(self, unit: Vector, k: int) -> list[tuple[int, float]]:
        """Up to k (rid, cosine) pairs among the live rows, best first; `unit` is the unit-length query."""
        n = len(self._rids)
        if not n or k <= 0 or self._matrix.shape[1] != len(unit):
            return []
        scores = np.where(self._live[:n], self._matrix[:n] @ unit, -np.inf)
        top = np.argpartition(-scores, k - 1)[:k] if k < n else np.arange(n)
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self._rids[i], float(scores[i])) for i in top.tolist() if self._live[i]]

    def _grow(self, rows: int, dim: int) -> None:
        width = self._matrix.shape[1] or dim
        if rows <= len(self._live) and width == self._matrix.shape[1]:
            return
        size = max(64, 2 * len(self._live), rows) if rows > len(self._live) else len(self._live)
        matrix = np.zeros((size, width), dtype=np.float32)
        if self._matrix.shape[1] == width:
            matrix[: len(self._matrix)] = self._matrix
        live = np.zeros(size, dtype=bool)
        live[: len(self._live)] = self._live
        self._matrix, self._live = matrix, live
