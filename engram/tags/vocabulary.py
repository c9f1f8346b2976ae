"""The tag vocabulary: the active tags and their embeddings, for mapping a memory's concepts onto tags in use
and for expanding a query through related tags."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numkong as nk
import numpy as np

from engram.model.quantized import Encoded, bounds, encode, rescaled, shortlist
from engram.model.vectors import Matrix, Vector
from engram.store import room
from engram.store.values import TagRow
from engram.tags.naming import inflected, key
from engram.tags.variants import group

PACK_AT = 2048  # tags from which the vocabulary keeps a packed 8-bit copy
ROOM = 1 << 17  # tags the rows' buffer has room for (its pages taken only as rows fill them)


class Vocabulary:
    """The active tags and their embeddings, stacked for one matrix product per lookup. Rows live in a buffer
    with room for `ROOM` tags that takes memory only as rows are written (`engram.store.room`), so adding a tag
    copies nothing; and each tag's spelling key is kept, so adding a tag or mapping a concept costs the same with
    20 tags as with 20,000."""

    def __init__(self, names: Sequence[str] = (), matrix: Matrix | None = None, dim: int = 1) -> None:
        self.names: list[str] = list(names)
        self._dim = dim if matrix is None else int(matrix.shape[1])
        self._rows: Matrix = room.zeros((max(ROOM, len(self.names)), self._dim), np.float32)
        if matrix is not None:
            self._rows[: len(matrix)] = matrix
        self._index = {t: i for i, t in enumerate(self.names)}
        self.by_key: dict[str, str] = {}
        self.by_group: dict[int, str] = {}  # the tag in use for each line of variants.txt
        for t in self.names:
            self._index_name(t)
        # An 8-bit copy of the first rows, packed, for `_approximate`; one tuple, so readers see a matching set.
        self._packed: tuple[Any, int, Encoded | None] = (None, 0, None)

    @classmethod
    def of(cls, rows: Sequence[TagRow], dim: int) -> Vocabulary:
        kept = [(r.tag, r.vector) for r in rows if r.vector is not None]
        vocabulary = cls(dim=int(kept[0][1].shape[0]) if kept else dim)
        for tag, vector in kept:  # row by row into the buffer: no stacked copy of them all beside it
            vocabulary.add(tag, vector)
        return vocabulary

    @property
    def matrix(self) -> Matrix:
        return self._rows[: len(self.names)]

    def add(self, tag: str, vector: Vector) -> None:
        if tag in self._index:
            return
        n = len(self.names)
        if n == self._rows.shape[0]:  # past the room: twice the room, copied once
            self._rows = room.grown(self._rows[:n], 2 * n)
        self._rows[n] = vector
        self.names.append(tag)
        self._index[tag] = n
        self._index_name(tag)

    def _index_name(self, tag: str) -> None:
        self.by_key.setdefault(key(tag), tag)
        number = group(tag)
        if number is not None:
            self.by_group.setdefault(number, tag)

    def spelled(self, tag: str) -> str | None:
        """The active tag that is `tag` spelled another way (hyphens, plural or another inflection), if any."""
        found = self.by_key.get(key(tag))
        return found if found is not None and inflected(found, tag) else None

    def listed(self, tag: str) -> str | None:
        """The active tag variants.txt lists as the same thing as `tag` (kids: children, app: application)."""
        number = group(tag)
        return None if number is None else self.by_group.get(number)

    def vector(self, tag: str) -> Vector | None:
        row = self._index.get(tag)
        return None if row is None else self._rows[row]

    def closest(self, vector: Vector) -> tuple[str, float] | None:
        return self.closest_many(vector[None, :])[0]

    def closest_many(self, vectors: Matrix) -> list[tuple[str, float] | None]:
        """Each vector's nearest tag and its cosine."""
        return [near[0] if near else None for near in self.nearest(vectors, 1)]

    def nearest(self, vectors: Matrix, k: int) -> list[list[tuple[str, float]]]:
        """Each vector's `k` nearest tags with their cosines, best first: those of the full product. The
        vocabulary is scanned at 8-bit precision, and the tags that can be among the best k are scored again
        at full precision (`engram.model.quantized`)."""
        n = len(self.names)
        if n == 0 or len(vectors) == 0:
            return [[] for _ in range(len(vectors))]
        k = min(k, n)
        approx, bound = self._approximate(vectors)
        out = []
        for r in range(len(vectors)):
            rows = shortlist(approx[r], bound[r], k)
            exact = self._rows[rows] @ vectors[r]
            best = np.argsort(-exact, kind="stable")[:k]
            out.append([(self.names[int(rows[j])], float(exact[j])) for j in best])
        return out

    def _approximate(self, vectors: Matrix) -> tuple[Matrix, Matrix]:
        """Each vector's product with every tag, and how far off it can be. The product only streams the
        vocabulary through memory, so the bulk of it is read from a packed 8-bit copy (numkong), a quarter of
        the bytes, faster than numpy's product. Tags added since the copy was packed are read at full
        precision."""
        n = len(self.names)
        packed, upto, head = self._packed
        if head is None or n - upto > max(PACK_AT, upto // 4):  # a repack costs as much as many lookups
            if n < PACK_AT:
                exact: Matrix = vectors @ self.matrix.T
                return exact, np.zeros_like(exact)
            head = encode(self._rows[:n])
            packed, upto = nk.dots_pack(head.codes, dtype="int8"), n
            self._packed = (packed, upto, head)
        mine = encode(vectors)
        approx = rescaled(np.asarray(nk.dots_packed(mine.codes, packed)), mine, head.scales)
        bound = bounds(mine, head.scales, head.l1, self._dim)
        if n > upto:
            tail = vectors @ self._rows[upto:n].T
            approx, bound = np.hstack([approx, tail]), np.hstack([bound, np.zeros_like(tail)])
        return approx, bound
