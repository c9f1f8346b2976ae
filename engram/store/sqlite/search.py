"""The embedded store's searches: FTS5 bm25 over content and tags, the vector index (with what a write
transaction has not committed yet), episode and chunk neighbours, and the filter every hit passes.

A mixin of `SQLiteStore`, which supplies the connections (`_reader`, `_writer`), the vector index file
(`_vectors`), the transaction's own vectors (`_fresh`) and the thread inside the write transaction (`_owner`).
"""

from __future__ import annotations

import math
import re
import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from engram.lang.text import stem
from engram.model.vectors import Vector
from engram.store.rows import FACT_COLUMNS, facts_from_rows
from engram.store.sqlite.filter import in_slices, where_sql
from engram.store.sqlite.fresh import FreshVectors
from engram.store.sqlite.index import IndexFile
from engram.store.values import Facts, Filter, Label
from engram.store.vectors import VectorIndex

_OVERSAMPLE = 1.5
_BM25 = "bm25(memories_fts, 1.0, 0.5)"  # content weighted 1, tags 0.5
_HELD = "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? LIMIT 1"
_PLAIN = re.compile(r"[^\W\d_]+")  # letters only: a word quoted for MATCH as it is
_TOP = f"SELECT rowid, {_BM25} AS score FROM memories_fts WHERE memories_fts MATCH ? "
# From this many rows to score (the rarest word alone can pass `ROWS_SCORED`) the text search's bm25 is split in
# two by rowid, the halves on two threads: FTS5 scores every row a searched word matches before it can keep the
# best. Each row's score is the same in either half (the term statistics are the whole index's), so the best of
# both halves are the best of all. Below it the second thread costs more than it saves.
SPLIT_FROM = 10_000
# bm25 costs a look-up of each row's length for every row a searched word is in: the text search looks for the
# query's words from the rarest on while they are in at most this many memories in all, and leaves out the
# commoner ones (the rarest is always searched). They weigh little in bm25, and scoring still counts them in
# every candidate's word overlap.
ROWS_SCORED = 2000
_TOKEN = re.compile(r"[^\W_]+")  # the parts the full-text index reads a quoted word as (its tokenizer's)
_SPLITTING = threading.Lock()
_READ = threading.local()  # each reader thread's cache of document frequencies (`Searches._frequencies`)
_CACHED_WORDS = 100_000
_STRUCTURE = (
    "SELECT block FROM memories_fts_data WHERE id = 10"  # FTS5's structure record (FTS5_STRUCTURE_ROWID)
)
_UNLABELLED = Label("", "", False)  # for hits whose labels nobody reads

P = TypeVar("P")


@dataclass(frozen=True, slots=True)
class _View(Generic[P]):
    """What a vector search reads of each hit beside its id: `columns` of `memories m` (after m.rid, m.id),
    turned into one value per row (given the rows from m.id on)."""

    columns: str
    build: Callable[[list[Any]], list[P]]


_IDS: _View[Label] = _View("", lambda rows: [_UNLABELLED] * len(rows))
_LABELS: _View[Label] = _View(
    ", m.kind, m.kind_method, m.parent_id IS NOT NULL, m.category",
    lambda rows: [Label(kind, method, bool(chunk), cat) for _, kind, method, chunk, cat in rows],
)
# Recall reads every hit's facts: with the search's own query, not a second one by id.
_FACTS: _View[Facts] = _View(", " + FACT_COLUMNS.removeprefix("m.id, "), facts_from_rows)


class _OtherHalf:
    """A thread with a read connection of its own, for the half of a large text search it runs."""

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self._connect = connect
        self._db: sqlite3.Connection | None = None
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="engram-text-half")

    def submit(self, sql: str, params: Sequence[Any]) -> Future[list[Any]]:
        return self._pool.submit(self._run, sql, params)

    def _run(self, sql: str, params: Sequence[Any]) -> list[Any]:
        if self._db is None:
            self._db = self._connect()
            self._db.execute("PRAGMA query_only = ON")
        return self._db.execute(sql, params).fetchall()

    def close(self) -> None:
        self._pool.shutdown()
        if self._db is not None:
            self._db.close()


class Searches:
    _writer: sqlite3.Connection
    _vectors: IndexFile
    _fresh: FreshVectors
    _owner: int | None
    _half: _OtherHalf | None = None

    def _reader(self) -> sqlite3.Connection:
        raise NotImplementedError

    def _connect(self, writer: bool = False) -> sqlite3.Connection:
        raise NotImplementedError

    def reads_anywhere(self) -> bool:
        raise NotImplementedError

    def _close_reads(self) -> None:
        """Release the vector index file and the text search's second thread."""
        self._vectors.close()
        if self._half is not None:
            self._half.close()
            self._half = None

    def text_search(self, terms: Sequence[str], k: int, where: Filter) -> list[tuple[str, float]]:
        """bm25 over content (weight 1) and tags (weight 0.5); each term quoted, so user text is never syntax.
        Scores are returned positive: higher is better."""
        return [(i, s) for i, s, _ in self._text_search(terms, k, where, _IDS)]

    def text_facts(self, terms: Sequence[str], k: int, where: Filter) -> list[tuple[Facts, float]]:
        """`text_search` with each hit's `facts`, read with it: the filter reads each hit's row already, and a
        second query by id for what recall scores cost more than the columns."""
        return [(facts, s) for _, s, facts in self._text_search(terms, k, where, _FACTS)]

    def _text_search(
        self, terms: Sequence[str], k: int, where: Filter, view: _View[P]
    ) -> list[tuple[str, float, P]]:
        if not terms:
            return []
        db = self._reader()
        searched, scored = self._searched(terms)
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in searched)
        sql, params = where_sql(where, searchable=True)
        # FTS5 alone, then the filter: cheap when most rows pass. bm25() sorted by SQLite's top-k sort, which
        # is faster than ORDER BY rank (FTS5's own sorter of the same scores).
        wide = math.ceil(k * _OVERSAMPLE)
        rows = self._best_matches(db, match, wide, scored)
        found = self._kept(rows, sql, params, view, k)
        result = [(i, -float(score), value) for i, score, value in found]
        if len(result) < k and len(rows) == wide:
            rows = db.execute(
                f"SELECT m.id, {_BM25} AS score{view.columns} FROM memories_fts "
                f"JOIN memories m ON m.rid = memories_fts.rowid "
                f"WHERE memories_fts MATCH ? AND {sql} ORDER BY score, m.rid LIMIT ?",
                (match, *params, k),
            ).fetchall()
            values = view.build([(row[0], *row[2:]) for row in rows])
            result = [(row[0], -float(row[1]), v) for row, v in zip(rows, values, strict=True)]
        return result

    def _searched(self, terms: Sequence[str]) -> tuple[list[str], int]:
        """The terms worth scoring by bm25, in their order, and how many rows they match at most: from the
        rarest on, while the memories holding them number at most `ROWS_SCORED` in all; the rarest always. A
        quoted term is found where all its parts are: no more often than its rarest part."""
        parts = {t: [stem(w) for w in _TOKEN.findall(t.lower())] for t in terms}
        _, frequency = self.document_frequencies(sorted({s for stems in parts.values() for s in stems}))
        rows = {t: min((frequency.get(s, 0) for s in stems), default=0) for t, stems in parts.items()}
        kept: set[str] = set()
        scored = 0
        for term in sorted(terms, key=lambda t: rows[t]):
            if kept and scored + rows[term] > ROWS_SCORED:
                break
            kept.add(term)
            scored += rows[term]
        return [t for t in terms if t in kept], scored

    def _best_matches(self, db: sqlite3.Connection, match: str, wide: int, scored: int) -> list[Any]:
        """The `wide` best (rowid, bm25) of a MATCH, best first (rowid breaks ties); in two halves at once when it
        matches `SPLIT_FROM` rows or more (`scored`, from the words' document frequencies). Only where every read
        sees committed data: inside a write the writer's connection reads."""
        if scored < SPLIT_FROM or not self.reads_anywhere():
            return db.execute(_TOP + "ORDER BY score, rowid LIMIT ?", (match, wide)).fetchall()
        # Apart: SQLite reads min() or max() alone from the key's ends, both in one select by scanning the table.
        low, high = db.execute(
            "SELECT (SELECT min(rid) FROM memories), (SELECT max(rid) FROM memories)"
        ).fetchone()
        middle = (int(low) + int(high) + 1) // 2
        with _SPLITTING:
            if self._half is None:
                self._half = _OtherHalf(self._connect)
        upper = self._half.submit(
            _TOP + "AND rowid >= ? ORDER BY score, rowid LIMIT ?", (match, middle, wide)
        )
        lower = db.execute(
            _TOP + "AND rowid < ? ORDER BY score, rowid LIMIT ?", (match, middle, wide)
        ).fetchall()
        return sorted([*lower, *upper.result()], key=lambda row: (row[1], row[0]))[:wide]

    def document_frequencies(self, stems: Sequence[str]) -> tuple[int, dict[str, int]]:
        """(number of memories, documents containing each porter stem) from the FTS index."""
        db = self._reader()
        # Kept by triggers: count(*) would scan the table.
        total = int(db.execute("SELECT n FROM counts WHERE name = 'memories'").fetchone()[0])
        if not stems:
            return total, {}
        known = self._frequencies(db)
        missing = [s for s in dict.fromkeys(stems) if s not in known]
        if missing:
            marks = ", ".join("?" for _ in missing)
            rows = db.execute(f"SELECT term, doc FROM memories_vocab WHERE term IN ({marks})", missing)
            known.update(dict.fromkeys(missing, 0) | {str(term): int(doc) for term, doc in rows})
        return total, {s: n for s in stems if (n := known[s]) > 0}

    def words_held(self, words: Sequence[str]) -> set[str]:
        """Which of `words` some searchable memory holds, as the index stems them: the first entry of each
        word's list, not the count the vocabulary table reads by walking the whole list."""
        db = self._reader()
        held = set()
        for word in dict.fromkeys(words):
            if _PLAIN.fullmatch(word) and db.execute(_HELD, (f'"{word}"',)).fetchone() is not None:
                held.add(word)
        return held

    def _frequencies(self, db: sqlite3.Connection) -> dict[str, int]:
        """The document frequencies this thread's read connection has read since the database last changed:
        the vocabulary table counts a word's memories by reading its whole list of them, which for a common
        word is most of a search's time in a large store. A write transaction's own reads are not kept."""
        if not self.reads_anywhere():
            return {}
        cached: tuple[sqlite3.Connection, bytes, dict[str, int]] | None = getattr(_READ, "frequencies", None)
        # The full-text index's structure record changes with every write to the index (its segments are never
        # edited in place), and only then: a commit that only counts a memory's uses keeps the cache.
        row = db.execute(_STRUCTURE).fetchone()
        version = bytes(row[0]) if row is not None else b""
        if cached is None or cached[0] is not db or cached[1] != version or len(cached[2]) > _CACHED_WORDS:
            cached = (db, version, {})
            _READ.frequencies = cached
        return cached[2]

    def episode_neighbours(self, ids: Sequence[str], where: Filter) -> dict[str, list[str]]:
        sql, params = where_sql(where, searchable=True)
        # Pinned indexes: left to itself the planner scans the whole scope to test the filter first.
        out: dict[str, list[str]] = {}
        for part, marks in in_slices(ids):
            rows = self._reader().execute(
                "SELECT a.id, m.id FROM memories a JOIN memories m INDEXED BY memories_episode ON m.episode_id = a.episode_id "
                "AND m.sequence_number IN (a.sequence_number - 1, a.sequence_number + 1) "
                f"WHERE a.id IN ({marks}) AND a.episode_id IS NOT NULL AND {sql} "
                "UNION ALL SELECT a.id, m.id FROM memories a JOIN memories m INDEXED BY memories_parent ON m.parent_id = a.parent_id "
                "AND m.chunk_index IN (a.chunk_index - 1, a.chunk_index + 1) "
                f"WHERE a.id IN ({marks}) AND a.parent_id IS NOT NULL AND {sql}",
                (*part, *params, *part, *params),
            )
            for memory_id, beside in rows:
                out.setdefault(memory_id, []).append(beside)
        return out

    def vector_search(self, query: Vector, k: int, where: Filter) -> list[tuple[str, float]]:
        return [(i, s) for i, s, _ in self._vector_search(query, k, where, _IDS)]

    def labelled_search(self, query: Vector, k: int, where: Filter) -> list[tuple[str, float, Label]]:
        return self._vector_search(query, k, where, _LABELS)

    def vector_facts(self, query: Vector, k: int, where: Filter) -> list[tuple[Facts, float]]:
        return [(facts, s) for _, s, facts in self._vector_search(query, k, where, _FACTS)]

    def _vector_search(
        self, query: Vector, k: int, where: Filter, view: _View[P]
    ) -> list[tuple[str, float, P]]:
        index = self._vectors.synced()
        sql, params = where_sql(where, searchable=True)
        if self._owner != threading.get_ident():
            return self._indexed_search(index, query, k, sql, params, view) if len(index) else []
        # The index holds committed vectors only: inside its own write transaction a thread also finds those
        # it has written since. The best of both are filtered together; too few left falls back to all.
        fresh = self._fresh
        fresh.catch_up(self._writer, self._vectors.seq, index)
        want = math.ceil(k * _OVERSAMPLE)
        older = index.search(query, min(len(index), want + fresh.replaced)) if len(index) else []
        newer = fresh.search(query, want)
        hits = sorted([p for p in older if p[0] not in fresh] + newer, key=lambda p: -p[1])[:want]
        result = self._kept(hits, sql, params, view, k, _approximate(index, query))
        if len(result) < k and (len(older) < len(index) or len(fresh) > want):
            result = self._with_uncommitted(index, query, k, sql, params, view)
        return result

    def _indexed_search(
        self, index: VectorIndex, query: Vector, k: int, sql: str, params: Sequence[Any], view: _View[P]
    ) -> list[tuple[str, float, P]]:
        # Most searches allow most of the store: search wide, then filter; else search only the allowed keys.
        hits = index.search(query, min(len(index), math.ceil(k * _OVERSAMPLE)))
        result = self._kept(hits, sql, params, view, k, _approximate(index, query))
        if len(result) < k and len(hits) < len(index):
            allowed = np.array(
                [r for (r,) in self._reader().execute(f"SELECT m.rid FROM memories m WHERE {sql}", params)],
                dtype=np.int64,
            )
            if allowed.size == 0:
                return []
            found = index.search(query, k, allowed=allowed)
            result = self._kept(found, "1", [], view, k, _approximate(index, query))
        return result

    def _with_uncommitted(
        self, index: VectorIndex, query: Vector, k: int, sql: str, params: Sequence[Any], view: _View[P]
    ) -> list[tuple[str, float, P]]:
        """Every allowed vector of this transaction, and the committed ones it has not rewritten."""
        fresh = self._fresh
        wanted = k + fresh.replaced
        found = self._indexed_search(index, query, wanted, sql, params, view) if len(index) else []
        rewritten = {i for i, _, _ in self._kept([(r, 0.0) for r in fresh.rids()], "1", [], _IDS)}
        merged = [hit for hit in found if hit[0] not in rewritten]
        merged += self._kept(fresh.search(query, len(fresh)), sql, params, view)  # scored exactly
        return sorted(merged, key=lambda hit: -hit[1])[:k]

    def _kept(
        self,
        hits: Sequence[tuple[int, float]],
        sql: str,
        params: Sequence[Any],
        view: _View[P],
        limit: int | None = None,
        query: Vector | None = None,
    ) -> list[tuple[str, float, P]]:
        """The first `limit` hits (rid, score) that pass the filter, in order, with their ids and what `view`
        reads (the write path's neighbour votes read labels, recall the facts: reading what nobody uses was a
        large part of the query's cost). Given the query, the hits are scored again exactly from their stored
        vectors and ranked by that: the graph's scores come from 8-bit codes.

        Hits in their final order (the text search's, an exact scan's: no query) have their first `limit` rows
        read, and the rest only when some of those fail the filter: a search asks for more hits than it keeps
        in case some fail, which few do, and each row read is a page read. A graph's hits are all read, to be
        ranked by their exact scores."""
        if not hits:
            return []
        # the stored vector last, for scoring again: read once when the view reads it too (recall's facts)
        read = query is not None and not view.columns.endswith("m.embedding")
        first = limit if query is None else None
        rows = self._rows(hits[:first], sql, params, view, read)
        if first is not None and len(rows) < first < len(hits):
            rows |= self._rows(hits[first:], sql, params, view, read)
        return _chosen(hits, rows, view, limit, query, trailing_vector=read)

    def _rows(
        self, hits: Sequence[tuple[int, float]], sql: str, params: Sequence[Any], view: _View[P], vector: bool
    ) -> dict[int, Any]:
        """The rows of the hits (rid, score) that pass the filter, by rid: rid, id, the view's columns, and the
        stored vector last if `vector`."""
        marks = ", ".join("?" for _ in hits)
        exact = ", m.embedding" if vector else ""
        # NOT INDEXED keeps rowid lookups: the scope index would scan every memory in the scope.
        rows = (
            self._reader()
            .execute(
                f"SELECT m.rid, m.id{view.columns}{exact} FROM memories m NOT INDEXED "
                f"WHERE m.rid IN ({marks}) AND {sql}",
                (*(r for r, _ in hits), *params),
            )
            .fetchall()
        )
        return {int(row[0]): row for row in rows}


def _chosen(
    hits: Sequence[tuple[int, float]],
    by_rid: dict[int, Any],
    view: _View[P],
    limit: int | None,
    query: Vector | None,
    *,
    trailing_vector: bool,
) -> list[tuple[str, float, P]]:
    """The hits whose rows passed the filter (`by_rid`: rid, id, the view's columns, and the stored vector last
    when `trailing_vector`), scored again exactly given the query, the first `limit` with their ids and what
    `view` reads."""
    passed = [(r, s) for r, s in hits if r in by_rid]
    if query is not None:
        passed = _rescored(passed, [by_rid[r][-1] for r, _ in passed], query)
    passed = passed[:limit]
    # Only the rows kept are decoded: the search asks for more hits than it keeps, in case some fail the filter.
    chosen = [by_rid[r][:-1] if trailing_vector else by_rid[r] for r, _ in passed]
    values = view.build([row[1:] for row in chosen])
    return [(str(row[1]), s, value) for (_, s), row, value in zip(passed, chosen, values, strict=True)]


def _approximate(index: VectorIndex, query: Vector) -> Vector | None:
    """The query, for hits to be scored again, if the index scored them from codes (its graph): a small index
    scans the float vectors themselves."""
    return None if index.exact else query


def _rescored(
    hits: list[tuple[int, float]], blobs: list[bytes | None], query: Vector
) -> list[tuple[int, float]]:
    """The hits with their exact cosine to the query (from the stored float vectors), best first."""
    if not hits or any(b is None or len(b) != 4 * len(query) for b in blobs):
        return hits
    rows = np.frombuffer(b"".join(b for b in blobs if b is not None), dtype="<f4").reshape(len(hits), -1)
    q = np.asarray(query, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1) * float(np.linalg.norm(q))
    sims = np.clip((rows @ q) / np.where(norms > 0, norms, 1.0), -1.0, 1.0).astype(np.float64).tolist()
    return sorted(zip((r for r, _ in hits), sims, strict=True), key=lambda p: -p[1])
