"""The PostgreSQL store's searches: BM25 over the GIN-indexed tsvector, episode neighbours, and pgvector's
HNSW for the nearest memories."""

from __future__ import annotations

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


class Searches:
    # Given by PostgresStore and SideTables; declared, not defined, so that the method resolution order finds theirs.
    _all: Callable[..., list[tuple[Any, ...]]]
    _one: Callable[..., tuple[Any, ...] | None]
    _all_many: Callable[..., list[list[tuple[Any, ...]]]]

    def text_search(self, terms: Sequence[str], k: int, where: Filter) -> list[tuple[str, float]]:
        """BM25 (engram.store.postgres.text) over the memories holding any query stem, found by the GIN index. Higher is better."""
        return [(str(row[1]), row[0]) for row in self._text_rows(terms, k, where, "m.id")]

    def text_facts(self, terms: Sequence[str], k: int, where: Filter) -> list[tuple[Facts, float]]:
        """`text_search` with each hit's `facts`, read by the same query: recall reads them all, and a second
        query by id would find the same rows again."""
        return [(facts_of(row[1:]), row[0]) for row in self._text_rows(terms, k, where, FACT_COLUMNS)]

    def _text_rows(self, terms: Sequence[str], k: int, where: Filter, columns: str) -> list[tuple[Any, ...]]:
        """The k best allowed text hits, best first: (score, *columns) per row (`text_sql`)."""
        statement = text_sql(terms, k, where, columns)
        if statement is None:
            return []
        return text_rows(self._all_many([statement], binary=True, prepare=True, generic=True)[0])

    def weighed_text_facts(
        self, stems: Sequence[str], searches: Sequence[Sequence[str]], k: int, where: Filter
    ) -> tuple[tuple[int, dict[str, int]], list[list[tuple[Facts, float]]]]:
        """`document_frequencies(stems)` and `text_facts(terms, k, where)` of each of `searches`, the statements
        sent together (pipeline mode): one round trip, where each was one and each search's term statistics
        another."""
        statements = [text_sql(terms, k, where, FACT_COLUMNS) for terms in searches]
        answers = self._all_many(
            [(_STATISTICS, (list(stems),)), *(s for s in statements if s is not None)],
            binary=True,
            prepare=True,
            # Their order is total (score, then rid), so no plan changes their rows; a plan made once for the
            # statement's text ran them faster than one made for each call's words (docs/design/storage.md).
            generic=True,
        )
        docs, _, frequencies = statistics_of(answers[0])
        found = iter(answers[1:])
        hits = [[] if s is None else text_rows(next(found)) for s in statements]
        return (docs, frequencies), [[(facts_of(row[1:]), row[0]) for row in rows] for rows in hits]

    def document_frequencies(self, stems: Sequence[str]) -> tuple[int, dict[str, int]]:
        """(number of searchable memories, documents containing each porter stem)."""
        docs, _, frequencies = statistics_of(self._all(_STATISTICS, (list(stems),)))
        return docs, frequencies

    def words_held(self, words: Sequence[str]) -> set[str]:
        """Which of `words` some searchable memory holds, as the index stems them (the lexicon's terms)."""
        return self.words_counted(words)[0] if words else set()

    def words_counted(self, words: Sequence[str]) -> tuple[set[str], int]:
        """`words_held`, and how many searchable memories there are, read by one statement."""
        wanted = {w: stem(w) for w in dict.fromkeys(words)}
        rows = self._all(
            "SELECT term, 0::bigint FROM lexicon WHERE term = ANY(%s) AND df > 0 "
            "UNION ALL SELECT NULL, docs FROM corpus",
            (sorted(set(wanted.values())),),
        )
        found = {str(term) for term, _ in rows if term is not None}
        docs = next((int(n) for term, n in rows if term is None), 0)
        return {w for w, s in wanted.items() if s in found}, docs

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
        return nearest_rows(self._all(*nearest_sql(query, k, where, columns), binary=True, prepare=True), k)


# (searchable memories, their total length) and each stem's document frequency, all kept by the lexicon trigger:
# counting the table would scan it.
_STATISTICS = (
    "SELECT NULL, docs, total_len FROM corpus UNION ALL "
    "SELECT term, df, 0 FROM lexicon WHERE term = ANY(%s) AND df > 0"
)


def statistics_of(rows: Sequence[tuple[Any, ...]]) -> tuple[int, int, dict[str, int]]:
    """(searchable memories, their total length, document frequency of each stem) from `_STATISTICS`' rows."""
    docs, length = next(((int(n), int(size)) for term, n, size in rows if term is None), (0, 0))
    return docs, length, {str(term): int(n) for term, n, _ in rows if term is not None}


def text_sql(terms: Sequence[str], k: int, where: Filter, columns: str) -> tuple[str, list[Any]] | None:
    """The statement of the k best allowed text hits, best first: (score, *columns) per row; None when there is
    nothing to search. BM25 (engram.store.postgres.text) over the memories holding any stem scored, found by the
    GIN index, the term statistics read in the same statement; the columns are read for the k best rows only."""
    stems = pg_text.query_stems(terms)
    if not stems or k <= 0:
        return None
    cte, score, cte_params, score_params = pg_text.bm25(stems, sqlite_search.ROWS_SCORED)
    clause, filters = where_sql(where, searchable=True)
    return (
        f"WITH {cte} SELECT t.score, {columns} FROM (SELECT {score} AS score, m.rid FROM searched s "
        f"JOIN memories m ON m.tsv @@ s.match WHERE {clause} ORDER BY score DESC, m.rid LIMIT %s) t "
        "JOIN memories m ON m.rid = t.rid ORDER BY t.score DESC, t.rid",
        [*cte_params, *score_params, *filters, k],
    )


def text_rows(rows: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [(float(row[0]), *row[1:]) for row in rows]


# What the write path reads of each neighbour: its id and the labels it votes with.
LABELS = "m.id, m.kind, m.kind_method, m.parent_id IS NOT NULL, m.category"


def nearest_sql(query: Vector, k: int, where: Filter, columns: str) -> tuple[str, list[Any]]:
    """The statement of the k nearest allowed memories: (distance, *columns) per row. The index orders by the
    vectors' half-precision copies (off by about 1e-3); half as many hits again are taken, each scored from its
    float32 vector, and the best k of those kept (`nearest_rows`): the cosines a caller sees stay exact."""
    dim = len(query)  # the model's dimension: Memory checked it against the store's when it opened
    clause, params = where_sql(where, searchable=True)
    # Sent as pgvector's binary (%b): the float32 values as they are, with no decimal text to write and parse;
    # the server makes the half-precision copy the index orders by, as it did from the text.
    vector = np.asarray(query, dtype=np.float32)
    return (
        f"SELECT m.embedding <=> %b::vector AS distance, {columns} FROM memories m "
        f"WHERE m.embedding IS NOT NULL AND {clause} "
        f"ORDER BY m.embedding::halfvec({dim}) <=> %b::vector::halfvec({dim}) LIMIT %s",
        [vector, *params, vector, k + max(8, k // 2)],
    )


def nearest_rows(rows: Sequence[tuple[Any, ...]], k: int) -> list[tuple[Any, ...]]:
    """The best k of `nearest_sql`'s rows by their exact cosine, best first: (cosine, *columns)."""
    return sorted(((1.0 - float(row[0]), *row[1:]) for row in rows), key=lambda row: -row[0])[:k]


def vector_text(vector: Vector) -> str:
    """A vector as pgvector's text: each float32 as the shortest decimal that reads back as itself (the text
    format is quicker to make than the adapter's, number by number, and exact)."""
    return "[" + ",".join(map(repr, np.asarray(vector, dtype=np.float32).tolist())) + "]"


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
