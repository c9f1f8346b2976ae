"""The write path's neighbour searches of a whole slice at once: the vector index answers every query of the
slice in one pass (`VectorIndex.search_many`), then each query is finished as `labelled_search` would finish it
alone (the transaction's own vectors, the filter, the exact scores), so each gets the same answer."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence

import numpy as np

from engram.model.vectors import Vector
from engram.store.sqlite.filter import where_sql
from engram.store.sqlite.search import _LABELS, _OVERSAMPLE, Searches, _approximate
from engram.store.values import Filter, Label


class BatchedSearches(Searches):
    def labelled_search_many(
        self, queries: Sequence[Vector], k: int, wheres: Sequence[Filter]
    ) -> list[list[tuple[str, float, Label]]]:
        """`labelled_search(queries[i], k, wheres[i])` for every i, the index searched once for all."""
        index = self._vectors.synced()
        if self._owner != threading.get_ident() or not len(index) or len(queries) < 2:
            return [self.labelled_search(q, k, w) for q, w in zip(queries, wheres, strict=True)]
        fresh = self._fresh
        fresh.catch_up(self._writer, self._vectors.seq, index)
        want = math.ceil(k * _OVERSAMPLE)
        found = index.search_many(np.stack(queries), min(len(index), want + fresh.replaced))
        answers = []
        # as `_vector_search` finishes one query inside the write transaction
        for query, where, older in zip(queries, wheres, found, strict=True):
            sql, params = where_sql(where, searchable=True)
            newer = fresh.search(query, want)
            hits = sorted([p for p in older if p[0] not in fresh] + newer, key=lambda p: -p[1])[:want]
            result = self._kept(hits, sql, params, _LABELS, k, _approximate(index, query))
            if len(result) < k and (len(older) < len(index) or len(fresh) > want):
                result = self._with_uncommitted(index, query, k, sql, params, _LABELS)
            answers.append(result)
        return answers
