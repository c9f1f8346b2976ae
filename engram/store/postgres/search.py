"""The PostgreSQL store's searches: BM25 over the GIN-indexed tsvector, episode neighbours, and pgvector's
HNSW for the nearest memories."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from engram.lang.text import stem
from engram.model.vectors import Vector
from engram.store.postgres import text as pg_text
from engram.store.postgres.filter import where_sql
from engram.store.rows import FACT_COLUMNS
from engram.store.sqlite import search as sqlite_search
from engram.store.values import Facts, Filter, Label

_Statistics = tuple[float, frozenset[str], int, int, dict[str, int]]
_HANDED = threading.local()  # `document_frequencies`' last read on each thread, for the text search after it
_HANDED_FOR_S = 1.0


class Searches:
    # Given by PostgresStore and SideTables; declared, not defined, so that the method resolution order finds theirs.
    _all: Callable[..., list[tuple[Any, ...]]]
    _one: Callable[..., tuple[Any, ...] | None]
    reads_anywhere: Callable[[], bool]

    def text_search(self, terms: Sequence[str], k: int, where: Filter) -> list[tuple[str, float]]:
        """BM25 (engram.store.postgres.text) over the memories holding any query stem, found by the GIN index. Higher is better."""
        return [(str(row[1]), row[0]) for row in self._text_rows(terms, k, where, "m.id")]

    def text_facts(self, terms: Sequence[str], k: int, where: Filter) -> list[tuple[Facts, float]]:
        """`text_search` with each hit's `facts`, read by the same query: recall reads them all, and a second
        query by id would find the same rows again."""
        return [(facts_of(row[1:]), row[0]) for row in self._text_rows(terms, k, where, FACT_COLUMNS)]

    def _text_rows(self, terms: Sequence[str], k: int, where: Filter, columns: str) -> list[tuple[Any, ...]]:
        """The k best allowed text hits, best first: (score, *columns) per row. BM25 scores every row a searched
        stem is in before the best are known, so the stems are searched from the rarest on while the memories
        holding them number at most the SQLite backend's `ROWS_SCORED` (the rarest always, as there); and the
        columns are read for the k best rows only."""
        stems = pg_text.query_stems(terms)
        if not stems or k <= 0:
            return []
        docs, length, frequencies = self._handed(stems) or self._statistics(stems)
        present = _searched([s for s in stems if s in frequencies], frequencies)
        if not present:
            return []
        score, params, match = pg_text.bm25(present, frequencies, docs, length)
        clause, filters = where_sql(where, searchable=True)
        rows = self._all(
            f"SELECT t.score, {columns} FROM (SELECT {score} AS score, m.rid FROM memories m "
            f"WHERE m.tsv @@ %s::tsquery AND {clause} ORDER BY score DESC, m.rid LIMIT %s) t "
            "JOIN memories m ON m.rid = t.rid ORDER BY t.score DESC, t.rid",
            (*params, match, *filters, k),
            binary=True,
        )
        return [(float(row[0]), *row[1:]) for row in rows]

    def document_frequencies(self, stems: Sequence[str]) -> tuple[int, dict[str, int]]:
        """(number of searchable memories, documents containing each porter stem)."""
        docs, length, frequencies = self._statistics(stems)
        if self.reads_anywhere():
            _HANDED.statistics = (time.monotonic(), frozenset(stems), docs, length, frequencies)
        return docs, frequencies

    def words_held(self, words: Sequence[str]) -> set[str]:
        """Which of `words` some searchable memory holds, as the index stems them (the lexicon's terms)."""
        wanted = {w: stem(w) for w in dict.fromkeys(words)}
        if not wanted:
            return set()
        rows = self._all(
            "SELECT term FROM lexicon WHERE term = ANY(%s) AND df > 0", (sorted(set(wanted.values())),)
        )
        found = {str(row[0]) for row in rows}
        return {w for w, s in wanted.items() if s in found}

    def _handed(self, stems: Sequence[str]) -> tuple[int, int, dict[str, int]] | None:
        """The statistics `document_frequencies` read on this thread just before, if they cover `stems`: recall
        asks for the question's word weights and then searches its words, and a second read of the same rows
        was a round trip of each recall. Taken once, within a second, outside write transactions."""
        handed: _Statistics | None = getattr(_HANDED, "statistics", None)
        _HANDED.statistics = None
        if handed is None or not self.reads_anywhere() or time.monotonic() - handed[0] > _HANDED_FOR_S:
            return None
        _, asked, docs, length, frequencies = handed
        if not asked.issuperset(stems):
            return None
        return docs, length, {s: n for s, n in frequencies.items() if s in stems}

    def _statistics(self, stems: Sequence[str]) -> tuple[int, int, dict[str, int]]:
        """(searchable memories, their total length, document frequency of each stem), all kept by the lexicon
        trigger: counting the table would scan it."""
        rows = self._all(
            "SELECT NULL, docs, total_len FROM corpus UNION ALL "
            "SELECT term, df, 0 FROM lexicon WHERE term = ANY(%s) AND df > 0",
            (list(stems),),
        )
        docs, length = next(((int(n), int(size)) for term, n, size in rows if term is None), (0, 0))
        return docs, length, {str(term): int(n) for term, n, _ in rows if term is not None}

    def episode_neighbours(self, ids: Sequence[str], where: Filter) -> dict[str, list[str]]:
        clause, params = where_sql(where, searchable=True)
        rows = self._all(
            "SELECT a.id, m.id FROM memories a JOIN memories m ON m.episode_id = a.episode_id "
            "AND m.sequence_number IN (a.sequence_number - 1, a.sequence_number + 1) "
            f"WHERE a.id = ANY(%s) AND a.episode_id IS NOT NULL AND {clause} "
            "UNION ALL SELECT a.id, m.id FROM memories a JOIN memories m ON m.parent_id = a.parent_id "
            "AND m.chunk_index IN (a.chunk_index - 1, a.chunk_index + 1) "
            f"WHERE a.id = ANY(%s) AND a.parent_id IS NOT NULL AND {clause}",
            (list(ids), *params, list(ids), *params),
        )
        out: dict[str, list[str]] = {}
        for memory_id, beside in rows:
            out.setdefault(memory_id, []).append(beside)
        return out

    def vector_search(self, query: Vector, k: int, where: Filter) -> list[tuple[str, float]]:
        return [(i, s) for i, s, _ in self.labelled_search(query, k, where)]

    def labelled_search(self, query: Vector, k: int, where: Filter) -> list[tuple[str, float, Label]]:
        rows = self._nearest(query, k, where, LABELS)
        return [(str(i), s, Label(kind, method, bool(chunk), cat)) for s, i, kind, method, chunk, cat in rows]

    def vector_facts(self, query: Vector, k: int, where: Filter) -> list[tuple[Facts, float]]:
        return [(facts_of(row[1:]), row[0]) for row in self._nearest(query, k, where, FACT_COLUMNS)]

    def _nearest(self, query: Vector, k: int, where: Filter, columns: str) -> list[tuple[Any, ...]]:
        """The k nearest allowed memories, best first: (cosine, *columns) per row (`nearest_sql`)."""
        if k <= 0:
            return []
        return nearest_rows(self._all(*nearest_sql(query, k, where, columns), binary=True), k)


# What the write path reads of each neighbour: its id and the labels it votes with.
LABELS = "m.id, m.kind, m.kind_method, m.parent_id IS NOT NULL, m.category"


def nearest_sql(query: Vector, k: int, where: Filter, columns: str) -> tuple[str, list[Any]]:
    """The statement of the k nearest allowed memories: (distance, *columns) per row. The index orders by the
    vectors' half-precision copies (off by about 1e-3); half as many hits again are taken, each scored from its
    float32 vector, and the best k of those kept (`nearest_rows`): the cosines a caller sees stay exact."""
    dim = len(query)  # the model's dimension: Memory checked it against the store's when it opened
    clause, params = where_sql(where, searchable=True)
    vector = vector_text(query)
    return (
        f"SELECT m.embedding <=> %s::vector AS distance, {columns} FROM memories m "
        f"WHERE m.embedding IS NOT NULL AND {clause} "
        f"ORDER BY m.embedding::halfvec({dim}) <=> %s::halfvec({dim}) LIMIT %s",
        [vector, *params, vector, k + max(8, k // 2)],
    )


def nearest_rows(rows: Sequence[tuple[Any, ...]], k: int) -> list[tuple[Any, ...]]:
    """The best k of `nearest_sql`'s rows by their exact cosine, best first: (cosine, *columns)."""
    return sorted(((1.0 - float(row[0]), *row[1:]) for row in rows), key=lambda row: -row[0])[:k]


def vector_text(vector: Vector) -> str:
    """A vector as pgvector's text: each float32 as the shortest decimal that reads back as itself (the text
    format is quicker to make than the adapter's, number by number, and exact)."""
    return "[" + ",".join(map(repr, np.asarray(vector, dtype=np.float32).tolist())) + "]"


def _searched(stems: Sequence[str], frequencies: dict[str, int]) -> list[str]:
    """The stems worth scoring, in their order: from the rarest on while the memories holding them number at most
    `ROWS_SCORED` in all; the rarest always (the SQLite backend's rule: engram.store.sqlite.search)."""
    kept: set[str] = set()
    scored = 0
    for s in sorted(stems, key=lambda s: frequencies[s]):
        if kept and scored + frequencies[s] > sqlite_search.ROWS_SCORED:
            break
        kept.add(s)
        scored += frequencies[s]
    return [s for s in stems if s in kept]


def array_of(value: Any) -> Vector:
    """pgvector's loader gives its own Vector type; recall works on float32 numpy arrays."""
    out: Vector = np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)
    return out


def facts_of(row: Sequence[Any]) -> Facts:
    """`Facts` from a row in FACT_COLUMNS order (native times; the embedding as pgvector's binary)."""
    i, content, imp, made, upd, acc, count, validity, neg, episode, parent, emb = row
    vector = None if emb is None else array_of(emb)
    return Facts(
        str(i),
        content,
        imp,
        made,
        upd,
        acc,
        count,
        validity,
        neg,
        vector,
        None if episode is None else str(episode),
        None if parent is None else str(parent),
    )
