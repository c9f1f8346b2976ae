"""The write path's reads of a whole slice at once (the SQLite twin is engram.store.sqlite.batched): which of
its texts the store holds at all, in one statement, and every memory's neighbour search sent together, each the
statement `labelled_search` runs alone, so each gets the same answer in one round trip for the slice."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engram.model.vectors import Vector
from engram.store.postgres.schema import HASH
from engram.store.postgres.search import LABELS, nearest_rows, nearest_sql
from engram.store.values import Filter, Label


class BatchedSearches:
    # Given by PostgresStore; declared, not defined, so that the method resolution order finds theirs.
    _all: Callable[..., list[tuple[Any, ...]]]
    _all_many: Callable[..., list[list[tuple[Any, ...]]]]

    def known_hashes(self, digests: Sequence[str]) -> set[str]:
        """Which of `digests` some stored row (a memory or a chunk, in any scope) has as its content hash."""
        if not digests:
            return set()
        rows = self._all(f"SELECT DISTINCT {HASH} FROM memories m WHERE {HASH} = ANY(%s)", (list(digests),))
        return {str(row[0]) for row in rows}

    def labelled_search_many(
        self, queries: Sequence[Vector], k: int, wheres: Sequence[Filter]
    ) -> list[list[tuple[str, float, Label]]]:
        """`labelled_search(queries[i], k, wheres[i])` for every i, the statements sent together."""
        if k <= 0 or not queries:
            return [[] for _ in queries]
        answers = self._all_many(
            [nearest_sql(q, k, w, LABELS) for q, w in zip(queries, wheres, strict=True)], binary=True
        )
        return [
            [(str(i), s, Label(kind, method, bool(chunk), cat)) for s, i, kind, method, chunk, cat in rows]
            for rows in map(lambda rows: nearest_rows(rows, k), answers)
        ]
