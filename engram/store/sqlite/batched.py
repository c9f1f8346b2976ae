"""The write path's neighbour searches of a whole slice at once: the vector index answers every query of the
slice in one pass (`VectorIndex.search_many`), the rows all the queries found are read in one statement per
filter, then each query is finished as `labelled_search` would finish it alone (the transaction's own vectors,
the filter, the exact scores), so each gets the same answer. And which of a bulk write's texts the store holds
at all, in one read, so that only those are looked up one by one (as duplicates, or for their vectors)."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from engram.model.vectors import Vector
from engram.store.rows import stored_hash
from engram.store.sqlite.filter import in_slices, where_sql
from engram.store.sqlite.search import _LABELS, _OVERSAMPLE, Searches, _approximate, _chosen
from engram.store.values import Filter, Label

Hits = list[tuple[int, float]]


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
        # as `_vector_search` finishes one query inside the write transaction
        merged: list[Hits] = []
        for query, older in zip(queries, found, strict=True):
            newer = fresh.search(query, want)
            merged.append(sorted([p for p in older if p[0] not in fresh] + newer, key=lambda p: -p[1])[:want])
        # one clause per distinct filter: the slice's searches judge expiry at one time, and read together
        clauses = {where: where_sql(where, searchable=True) for where in dict.fromkeys(wheres)}
        filters = [clauses[where] for where in wheres]
        rows = self._rows_of(merged, filters)
        answers = []
        for query, older, hits, (sql, params) in zip(queries, found, merged, filters, strict=True):
            by_rid = rows[(sql, tuple(params))]
            result = _chosen(hits, by_rid, _LABELS, k, _approximate(index, query), trailing_vector=True)
            if len(result) < k and (len(older) < len(index) or len(fresh) > want):
                result = self._with_uncommitted(index, query, k, sql, params, _LABELS)
            answers.append(result)
        return answers

    def index_ready(self) -> None:
        """Load the vector index if it is not, and catch it up with what was committed: the first search would
        (a bulk write does it while the model embeds its texts)."""
        self._vectors.synced()

    def known_hashes(self, digests: Sequence[str]) -> set[str]:
        """Which of `digests` some stored row has as its content hash (kept as its bytes or, written before,
        as its text), read together."""
        forms: dict[str | bytes, str] = {}
        for digest in digests:
            forms[stored_hash(digest)] = forms[digest] = digest
        found: set[str] = set()
        keys = list(forms)
        for start in range(0, len(keys), 500):
            part = keys[start : start + 500]
            marks = ", ".join("?" for _ in part)
            sql = f"SELECT DISTINCT content_hash FROM memories INDEXED BY memories_hash WHERE content_hash IN ({marks})"
            found.update(forms[row[0]] for row in self._reader().execute(sql, part))
        return found

    def _rows_of(
        self, merged: Sequence[Hits], filters: Sequence[tuple[str, list[Any]]]
    ) -> dict[tuple[str, tuple[Any, ...]], dict[int, Any]]:
        """Per filter, the rows (rid, id, labels, stored vector) of every hit of its queries that pass it: one
        read for the slice, not one a query."""
        wanted: dict[tuple[str, tuple[Any, ...]], set[int]] = {}
        for hits, (sql, params) in zip(merged, filters, strict=True):
            wanted.setdefault((sql, tuple(params)), set()).update(r for r, _ in hits)
        out: dict[tuple[str, tuple[Any, ...]], dict[int, Any]] = {}
        for key, rids in wanted.items():
            got = out[key] = {}
            for part, marks in in_slices(sorted(rids)):
                # NOT INDEXED keeps rowid lookups, as `_kept` does
                for row in self._reader().execute(
                    f"SELECT m.rid, m.id{_LABELS.columns}, m.embedding FROM memories m NOT INDEXED "
                    f"WHERE m.rid IN ({marks}) AND {key[0]}",
                    (*part, *key[1]),
                ):
                    got[int(row[0])] = row
        return out
