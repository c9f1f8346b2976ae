"""The scale-out store: PostgreSQL with pgvector (HNSW, cosine) for vectors and a GIN-indexed tsvector for text.

Connections, write transactions and the schema's write lock are pg_connection's; filters are pg_filter's; full
text (porter stems, BM25 with trigger-kept document frequencies) is pg_text's; the tables beside `memories` are
SideTables'. `vector` columns are indexed per model dimension.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
from psycopg import sql

from engram.errors import StoreError
from engram.model.record import MemoryRecord, Scope, utcnow
from engram.model.vectors import Matrix, Vector
from engram.store.copy import copy_store, verify_copy
from engram.store.postgres import text as pg_text
from engram.store.postgres.connection import Conn, Connections
from engram.store.postgres.filter import where_sql
from engram.store.postgres.schema import MIGRATIONS
from engram.store.rows import (
    CHUNK_SHARED,
    COLUMNS,
    FACT_COLUMNS,
    JSON_COLUMNS,
    record_from_row,
    record_to_row,
    ts,
)
from engram.store.side_tables import SideTables
from engram.store.sqlite.integrity import verify_file
from engram.store.sqlite.store import SQLiteStore
from engram.store.values import Facts, Filter, Label, Position, StoreStats


class PostgresStore(SideTables):
    _BYTE_ORDER = 'COLLATE "C"'  # as SQLite orders text

    def __init__(self, url: str, *, pool_size: int = 8, timeout_s: float = 30.0) -> None:
        self._db = Connections(url, pool_size=pool_size, timeout_s=timeout_s)
        self.url, self.schema = url, self._db.schema
        self._all, self._one = self._db.all, self._db.one
        self._migrate()

    def atomic(self) -> AbstractContextManager[Conn]:
        """A write transaction holding the schema's write lock; nested calls become savepoints."""
        return self._db.atomic()

    # The shared queries of SideTables are written with `?` placeholders.
    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._all(sql.replace("?", "%s"), params)

    def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self.atomic() as db:
            return int(db.execute(sql.replace("?", "%s").encode(), params).rowcount)

    def _run_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.atomic() as db, db.cursor() as cur:
            cur.executemany(sql.replace("?", "%s").encode(), rows)

    def _migrate(self) -> None:
        with self.atomic() as db:
            db.execute(
                b"CREATE TABLE IF NOT EXISTS migrations (id SERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE, "
                b"applied_at TEXT NOT NULL)"
            )
            done = {name for (name,) in db.execute(b"SELECT name FROM migrations").fetchall()}
            known = {name for name, _ in MIGRATIONS}
            if unknown := done - known:
                raise StoreError(f"database has migrations this version does not know: {sorted(unknown)}")
            for name, apply in MIGRATIONS:
                if name not in done:
                    apply(db)
                    db.execute(
                        b"INSERT INTO migrations(name, applied_at) VALUES (%s, %s)", (name, ts(utcnow()))
                    )

    def migrations(self) -> list[str]:
        return [str(name) for (name,) in self._all("SELECT name FROM migrations ORDER BY id")]

    def close(self) -> None:
        self._db.close()

    def reads_anywhere(self) -> bool:
        return not self._db.in_transaction()

    # ---- model ------------------------------------------------------------------------------------------
    def set_model(self, name: str, dim: int) -> None:
        self._set_meta([("model", name), ("dim", str(dim))])
        self._ensure_vector_index(dim)

    def _vector_indexes(self) -> dict[str, bool]:
        """This schema's HNSW indexes on `memories`, and whether each is valid."""
        rows = self._all(
            "SELECT c.relname, i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relname LIKE 'memories_hnsw_%%'",
            (self.schema,),
        )
        return {str(name): bool(valid) for name, valid in rows}

    def _ensure_vector_index(self, dim: int, *, rebuild: bool = False) -> bool:
        """An HNSW index for `dim`-d vectors (dropping other dimensions' indexes, and with `rebuild` this one
        too); False while stored vectors of another dimension (a re-embedding under way) keep it from being
        built."""
        name = f"memories_hnsw_{dim}"
        with self.atomic() as db:
            present = self._vector_indexes()
            keep = not rebuild and present.get(name, False)
            for other in present:
                if other != name or not keep:
                    db.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(other)))
            if keep:
                return True
            mixed = db.execute(
                b"SELECT 1 FROM memories WHERE embedding IS NOT NULL AND vector_dims(embedding) <> %s LIMIT 1",
                (dim,),
            ).fetchone()
            if mixed is not None:
                return False
            db.execute(
                sql.SQL(
                    "CREATE INDEX {} ON memories USING hnsw ((embedding::vector({})) vector_cosine_ops) "
                    "WHERE searchable"
                ).format(sql.Identifier(name), sql.Literal(dim))
            )
        return True

    # ---- writes -----------------------------------------------------------------------------------------
    _MARKS = ", ".join("%s::jsonb" if c in JSON_COLUMNS else "%s" for c in COLUMNS)

    def insert(self, records: Sequence[MemoryRecord], vectors: Sequence[Vector | None]) -> None:
        query = (
            f"INSERT INTO memories({', '.join(COLUMNS)}, searchable, embedding, tsv) "
            f"VALUES ({self._MARKS}, %s, %s, %s::tsvector)"
        ).encode()
        rows = [
            (*record_to_row(r, native=True), v is not None, v,
             None if v is None else pg_text.tsvector(r.content, r.tags))
            for r, v in zip(records, vectors, strict=True)
        ]  # fmt: skip
        with self.atomic() as db, db.cursor() as cur:
            cur.executemany(query, rows)

    def update(self, record: MemoryRecord, vector: Vector | None = None) -> None:
        row = dict(zip(COLUMNS, record_to_row(record, native=True), strict=True))
        del row["id"]
        assignments = ", ".join(f"{c} = %s::jsonb" if c in JSON_COLUMNS else f"{c} = %s" for c in row)
        with self.atomic() as db:
            if vector is not None:
                db.execute(b"UPDATE memories SET embedding = %s WHERE id = %s", (vector, record.id))
            cursor = db.execute(
                f"UPDATE memories SET {assignments}, tsv = CASE WHEN searchable THEN %s::tsvector END "
                "WHERE id = %s".encode(),
                (*row.values(), pg_text.tsvector(record.content, record.tags), record.id),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no memory with id {record.id} to update")
            if record.parent_id is None:  # its chunks, if it has any, follow it
                shared = ", ".join(f"{c} = %s" for c in CHUNK_SHARED)
                db.execute(
                    f"UPDATE memories SET {shared} WHERE parent_id = %s".encode(),
                    (*(row[c] for c in CHUNK_SHARED), record.id),
                )
                # Tags too, where they changed, with each chunk's text index (computed here, as on every write).
                stale = db.execute(
                    b"SELECT rid, content FROM memories WHERE parent_id = %s AND tags <> %s::jsonb",
                    (record.id, row["tags"]),
                ).fetchall()
                if stale:
                    with db.cursor() as cur:
                        cur.executemany(
                            b"UPDATE memories SET tags = %s::jsonb, "
                            b"tsv = CASE WHEN searchable THEN %s::tsvector END WHERE rid = %s",
                            [(row["tags"], pg_text.tsvector(str(c), list(record.tags)), rid) for rid, c in stale],
                        )

    def delete(self, memory_id: str) -> bool:
        with self.atomic() as db:
            return db.execute(b"DELETE FROM memories WHERE id = %s", (memory_id,)).rowcount > 0

    def touch(self, ids: Sequence[str], at: datetime) -> None:
        with self.atomic() as db:
            db.execute(
                b"UPDATE memories SET access_count = access_count + 1, last_accessed_at = %s, "
                b"base_relevance = least(2.0, base_relevance * 1.05) WHERE id = ANY(%s)",
                (at, list(ids)),
            )

    def set_vectors(self, ids: Sequence[str], vectors: Matrix) -> None:
        with self.atomic() as db, db.cursor() as cur:
            cur.executemany(
                b"UPDATE memories SET embedding = %s WHERE id = %s",
                [(np.asarray(v, dtype=np.float32), i) for i, v in zip(ids, vectors, strict=True)],
            )

    # ---- reads ------------------------------------------------------------------------------------------
    _SELECT = f"SELECT {', '.join('m.' + c for c in COLUMNS)} FROM memories m"

    def _records(self, query: str, params: Sequence[Any] = ()) -> list[MemoryRecord]:
        return [record_from_row(r, native=True) for r in self._all(query, params)]

    def get(self, memory_id: str) -> MemoryRecord | None:
        found = self._records(f"{self._SELECT} WHERE m.id = %s", (memory_id,))
        return found[0] if found else None

    def ids_starting(self, prefix: str, limit: int) -> list[str]:
        rows = self._read("SELECT id FROM memories WHERE starts_with(id, ?) ORDER BY id LIMIT ?", (prefix, limit))
        return [r[0] for r in rows]

    def get_many(self, ids: Sequence[str]) -> list[MemoryRecord]:
        found = {r.id: r for r in self._records(f"{self._SELECT} WHERE m.id = ANY(%s)", (list(ids),))}
        return [found[i] for i in ids if i in found]

    def find_hash(
        self,
        content_hash: str,
        scope: Scope,
        scope_id: str | None,
        user_id: str | None = None,
        workspace_id: str | None = None,
    ) -> MemoryRecord | None:
        clauses = ["m.content_hash = %s", "m.scope = %s", "m.parent_id IS NULL"]
        params: list[Any] = [content_hash, scope.value]
        for column, value in (("scope_id", scope_id), ("user_id", user_id), ("workspace_id", workspace_id)):
            clauses.append(f"m.{column} IS NULL" if value is None else f"m.{column} = %s")
            params.extend([] if value is None else [value])
        found = self._records(f"{self._SELECT} WHERE {' AND '.join(clauses)} LIMIT 1", params)
        return found[0] if found else None

    def children(self, parent_id: str) -> list[MemoryRecord]:
        return self._records(f"{self._SELECT} WHERE m.parent_id = %s ORDER BY m.chunk_index", (parent_id,))

    def chunk_at(self, parent_id: str, index: int) -> MemoryRecord | None:
        found = self._records(
            f"{self._SELECT} WHERE m.parent_id = %s AND m.chunk_index = %s", (parent_id, index)
        )
        return found[0] if found else None

    def vectors(self, ids: Sequence[str]) -> dict[str, Vector]:
        rows = self._all(
            "SELECT id, embedding FROM memories WHERE id = ANY(%s) AND embedding IS NOT NULL",
            (list(ids),),
            binary=True,
        )
        return {str(i): _array(v) for i, v in rows}

    def facts(self, ids: Sequence[str]) -> list[Facts]:
        rows = self._all(f"SELECT {FACT_COLUMNS} FROM memories m WHERE m.id = ANY(%s)", (list(ids),), binary=True)
        return [_facts(row) for row in rows]

    def vector_for_hash(self, content_hash: str) -> Vector | None:
        rows = self._all(
            "SELECT embedding FROM memories WHERE content_hash = %s AND embedding IS NOT NULL LIMIT 1",
            (content_hash,),
            binary=True,
        )
        return _array(rows[0][0]) if rows else None

    def select(
        self,
        where: Filter,
        *,
        limit: int,
        offset: int = 0,
        top_level: bool = True,
        after: Position | None = None,
    ) -> list[MemoryRecord]:
        clause, params = where_sql(where, searchable=not top_level)
        if after is not None:
            clause += f" AND (m.created_at, m.id {self._BYTE_ORDER}) < (%s, %s)"
            params += [after[0], after[1]]
        return self._records(
            f"{self._SELECT} WHERE {clause} ORDER BY m.created_at DESC, m.id {self._BYTE_ORDER} DESC "
            "LIMIT %s OFFSET %s",
            (*params, limit, offset),
        )

    def grouped(self, column: str, where: Filter) -> dict[str | None, int]:
        if column not in {"kind", "scope", "status", "category", "tier", "type"}:
            raise ValueError(f"cannot group by {column!r}")
        clause, params = where_sql(where, searchable=False)
        rows = self._all(f"SELECT m.{column}, count(*) FROM memories m WHERE {clause} GROUP BY 1", params)
        return {value: int(n) for value, n in rows}

    def count(self, where: Filter) -> int:
        clause, params = where_sql(where, searchable=False)
        row = self._one(f"SELECT count(*) FROM memories m WHERE {clause}", params)
        return int(row[0]) if row else 0

    def iter_all(self, batch: int = 512) -> Iterator[list[MemoryRecord]]:
        last = 0
        while True:
            rows = self._all(
                f"SELECT m.rid, {', '.join('m.' + c for c in COLUMNS)} FROM memories m WHERE m.rid > %s "
                "ORDER BY m.rid LIMIT %s",
                (last, batch),
            )
            if not rows:
                return
            last = rows[-1][0]
            yield [record_from_row(r[1:], native=True) for r in rows]

    def stats(self) -> StoreStats:
        def grouped(column: str) -> dict[str, int]:
            rows = self._all(f"SELECT {column}, count(*) FROM memories WHERE parent_id IS NULL GROUP BY 1")
            return {str(k): int(n) for k, n in rows}

        model = self.model()
        row = self._one(
            "SELECT count(*) FILTER (WHERE parent_id IS NULL), count(*) FILTER (WHERE parent_id IS NOT NULL), "
            "count(embedding), pg_total_relation_size('memories') FROM memories"
        )
        top, chunks, embedded, size = row or (0, 0, 0, 0)
        return StoreStats(
            memories=int(top),
            chunks=int(chunks),
            by_kind=grouped("kind"),
            by_scope=grouped("scope"),
            by_status=grouped("status"),
            embedded=int(embedded),
            model=None if model is None else model[0],
            dim=None if model is None else model[1],
            size_bytes=int(size),
        )

    # ---- search -----------------------------------------------------------------------------------------
    def text_search(self, terms: Sequence[str], k: int, where: Filter) -> list[tuple[str, float]]:
        """BM25 (pg_text) over the memories holding any query stem, found by the GIN index. Higher is better."""
        stems = pg_text.query_stems(terms)
        if not stems or k <= 0:
            return []
        docs, length, frequencies = self._statistics(stems)
        present = [s for s in stems if s in frequencies]
        if not present:
            return []
        score, params, match = pg_text.bm25(present, frequencies, docs, length)
        clause, filters = where_sql(where, searchable=True)
        rows = self._all(
            f"SELECT m.id, {score} AS score FROM memories m WHERE m.tsv @@ %s::tsquery AND {clause} "
            "ORDER BY score DESC, m.rid LIMIT %s",
            (*params, match, *filters, k),
        )
        return [(str(i), float(s)) for i, s in rows]

    def document_frequencies(self, stems: Sequence[str]) -> tuple[int, dict[str, int]]:
        """(number of searchable memories, documents containing each porter stem)."""
        docs, _, frequencies = self._statistics(stems)
        return docs, frequencies

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
        rows = self._nearest(query, k, where, "m.id, m.kind, m.kind_method, m.parent_id IS NOT NULL, m.category")
        return [(str(i), s, Label(kind, method, bool(chunk), cat)) for s, i, kind, method, chunk, cat in rows]

    def vector_facts(self, query: Vector, k: int, where: Filter) -> list[tuple[Facts, float]]:
        return [(_facts(row[1:]), row[0]) for row in self._nearest(query, k, where, FACT_COLUMNS)]

    def _nearest(self, query: Vector, k: int, where: Filter, columns: str) -> list[tuple[Any, ...]]:
        """The k nearest allowed memories, best first: (cosine, *columns) per row."""
        if k <= 0:
            return []
        dim = len(query)  # the model's dimension: Memory checked it against the store's when it opened
        clause, params = where_sql(where, searchable=True)
        vector = np.asarray(query, dtype=np.float32)
        rows = self._all(
            f"SELECT m.embedding::vector({dim}) <=> %s::vector({dim}) AS distance, {columns} FROM memories m "
            f"WHERE m.embedding IS NOT NULL AND {clause} ORDER BY distance LIMIT %s",
            (vector, *params, k),
            binary=True,
        )
        # relaxed_order iterative scans may return a few rows out of order
        return sorted(((1.0 - float(row[0]), *row[1:]) for row in rows), key=lambda row: -row[0])

    # ---- upkeep -----------------------------------------------------------------------------------------
    def check_index(self) -> dict[str, int]:
        """How many vectors the HNSW index covers (all searchable embeddings when it is present and valid)."""
        row = self._one("SELECT count(*) FROM memories WHERE embedding IS NOT NULL AND searchable")
        embedded = int(row[0]) if row else 0
        model = self.model()
        valid = model is not None and self._vector_indexes().get(f"memories_hnsw_{model[1]}", False)
        return {"indexed": embedded if valid else 0, "embedded": embedded}

    def rebuild_index(self) -> int:
        model = self.model()
        if model is None:
            return 0
        if not self._ensure_vector_index(model[1], rebuild=True):
            raise StoreError(f"stored vectors are not all {model[1]}-d; run `engram reembed`")
        return self.check_index()["indexed"]

    def integrity(self) -> list[dict[str, Any]]:
        issues: list[dict[str, Any]] = []

        def report(check: str, problem: str, count: int, repair: str) -> None:
            if count:
                issues.append({"check": check, "problem": problem, "count": count, "repair": repair})

        def number(query: str, params: Sequence[Any] = ()) -> int:
            row = self._one(query, params)
            return int(row[0]) if row and row[0] is not None else 0

        report("fts", "searchable memories missing from the full-text index",
               number("SELECT count(*) FROM memories WHERE searchable AND tsv IS NULL"), "rebuild_fts")  # fmt: skip
        drift = number(
            "SELECT count(*) FROM (SELECT t, count(*) AS n FROM memories, unnest(tsvector_to_array(tsv)) t "
            "WHERE searchable GROUP BY t) real FULL JOIN (SELECT term, df FROM lexicon WHERE df <> 0) kept "
            "ON kept.term = real.t WHERE kept.df IS DISTINCT FROM real.n"
        )
        report("fts", "full-text term statistics that disagree with the memories", drift, "rebuild_fts")
        model = self.model()
        if model is not None:
            wrong = number(
                "SELECT count(*) FROM memories WHERE embedding IS NOT NULL AND vector_dims(embedding) <> %s",
                (model[1],),
            )
            report("embeddings", f"embeddings not {model[1]}-d ({model[0]})", wrong, "reembed")
        missing = number("SELECT count(*) FROM memories WHERE embedding IS NULL AND searchable")
        report("embeddings", "searchable memories without an embedding", missing, "reembed")
        index = self.check_index()
        report("vectors", f"vector index holds {index['indexed']} of {index['embedded']} embeddings",
               abs(index["indexed"] - index["embedded"]), "rebuild_vectors")  # fmt: skip
        orphans = number(
            "SELECT count(*) FROM memories c WHERE c.parent_id IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM memories p WHERE p.id = c.parent_id)"
        )
        report("chunks", "chunks whose parent memory is missing", orphans, "none: restore the parent")
        unregistered = number(
            "SELECT count(DISTINCT j) FROM memories m, jsonb_array_elements_text(m.tags) j "
            "WHERE m.parent_id IS NULL AND NOT EXISTS (SELECT 1 FROM tags t WHERE t.tag = j)"
        )
        report("tags", "tags on memories missing from the tag registry", unregistered, "recount_tags")
        unused = number(  # the tags memories carry, read once (as in SQLite)
            "SELECT count(*) FROM (SELECT tag FROM tags WHERE status = 'active' "
            "EXCEPT SELECT jsonb_array_elements_text(tags) FROM memories WHERE parent_id IS NULL) unused"
        )
        report("tags", "active tags no memory carries (orphan tags)", unused, "recount_tags")
        miscounted = number(
            "SELECT count(*) FROM tags t JOIN (SELECT j AS tag, count(*) AS n FROM memories m, "
            "jsonb_array_elements_text(m.tags) j WHERE m.parent_id IS NULL GROUP BY j) c ON c.tag = t.tag "
            "WHERE t.status = 'active' AND t.usage_count <> c.n"
        )
        report("tags", "active tags whose usage count is not the number of memories carrying them", miscounted,
               "recount_tags")  # fmt: skip
        return issues

    def rebuild_fts(self) -> None:
        """Recompute every searchable memory's stems, then the term statistics from them."""
        with self.atomic() as db:
            rows = db.execute(b"SELECT rid, content, tags FROM memories WHERE searchable").fetchall()
            with db.cursor() as cur:
                cur.executemany(
                    b"UPDATE memories SET tsv = %s::tsvector WHERE rid = %s",
                    [(pg_text.tsvector(content, tags), rid) for rid, content, tags in rows],
                )
            db.execute(b"UPDATE memories SET tsv = NULL WHERE NOT searchable AND tsv IS NOT NULL")
            db.execute(b"DELETE FROM lexicon")
            db.execute(
                b"INSERT INTO lexicon(term, df) SELECT t, count(*) FROM memories, unnest(tsvector_to_array(tsv)) t "
                b"WHERE searchable GROUP BY t"
            )
            db.execute(
                b"UPDATE corpus SET docs = s.docs, total_len = s.len FROM (SELECT count(*) AS docs, "
                b"coalesce(sum(length(tsv)), 0) AS len FROM memories WHERE searchable AND tsv IS NOT NULL) s"
            )

    def recount_tags(self) -> int:
        now = ts(utcnow())
        with self.atomic() as db:
            counts = db.execute(
                b"SELECT j, count(*) FROM memories m, jsonb_array_elements_text(m.tags) j "
                b"WHERE m.parent_id IS NULL GROUP BY j"
            ).fetchall()
            with db.cursor() as cur:
                cur.executemany(
                    b"INSERT INTO tags(tag, usage_count, first_used_at, last_used_at) VALUES (%s, %s, %s, %s) "
                    b"ON CONFLICT(tag) DO UPDATE SET usage_count = excluded.usage_count, status = 'active'",
                    [(t, n, now, now) for t, n in counts],
                )
            db.execute(
                b"UPDATE tags SET usage_count = 0, status = 'archived' WHERE status = 'active' AND tag NOT IN "
                b"(SELECT jsonb_array_elements_text(tags) FROM memories WHERE parent_id IS NULL)"
            )
        return len(counts)

    def backup(self, target: Path) -> dict[str, Any]:
        """A consistent copy as an embedded (SQLite) database file, checked by reading it back."""
        if target.exists():
            raise StoreError(f"{target} exists; choose a new backup file")
        dest = SQLiteStore(target)
        try:
            copy_store(self, dest)
            checked = verify_copy(self, dest)
        finally:
            dest.close()
        return {"integrity": "ok", "memories": checked["memories"]}

    def restore(self, source: Path) -> dict[str, Any]:
        """Replace this store's contents with a backup file's (as written by `backup`), after checking it."""
        verify_file(source)
        src = SQLiteStore(source)
        try:
            with self.atomic() as db:
                db.execute(
                    b"TRUNCATE memories, prototypes, audit_log, tags, operation_changes, operations, sources, "
                    b"lexicon, meta RESTART IDENTITY"
                )
                db.execute(b"UPDATE corpus SET docs = 0, total_len = 0")
                copy_store(src, self)
            checked = verify_copy(src, self)
        finally:
            src.close()
        return {"integrity": "ok", "memories": checked["memories"]}

    def histogram(self, column: str, width: int, where: Filter) -> dict[str, int]:
        if column not in {"created_at", "updated_at", "last_accessed_at"}:
            raise ValueError(f"no timestamp column {column!r}")
        clause, params = where_sql(where, searchable=False)
        # The same buckets as the text timestamps of the SQLite backend: a prefix of the UTC ISO form.
        rows = self._all(
            f"SELECT substr(to_char(m.{column}, 'YYYY-MM-DD\"T\"HH24:MI:SS.US'), 1, %s) AS bucket, count(*) "
            f"FROM memories m WHERE {clause} AND m.{column} IS NOT NULL GROUP BY bucket ORDER BY bucket",
            (width, *params),
        )
        return {str(bucket): int(n) for bucket, n in rows}

    def tag_counts(self) -> dict[str, int]:
        rows = self._all(
            "SELECT j, count(*) FROM memories m, jsonb_array_elements_text(m.tags) j WHERE m.parent_id IS NULL "
            "GROUP BY 1"
        )
        return {str(tag): int(n) for tag, n in rows}


def _array(value: Any) -> Vector:
    """pgvector's loader gives its own Vector type; recall works on float32 numpy arrays."""
    out: Vector = np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)
    return out


def _facts(row: Sequence[Any]) -> Facts:
    """`Facts` from a row in FACT_COLUMNS order (native times; the embedding as pgvector's binary)."""
    i, content, imp, made, upd, acc, count, validity, neg, episode, parent, emb = row
    vector = None if emb is None else _array(emb)
    return Facts(str(i), content, imp, made, upd, acc, count, validity, neg, vector,
                 None if episode is None else str(episode), None if parent is None else str(parent))  # fmt: skip
