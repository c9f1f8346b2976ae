"""The scale-out store: PostgreSQL with pgvector (HNSW, cosine) for vectors and a GIN-indexed tsvector for text.

Connections, write transactions and the schema's write lock are in `connection`; filters in `filter`; full
text (porter stems, BM25 with trigger-kept document frequencies) in `text`; the searches in `search`, index
upkeep and backups in `upkeep`; the tables beside `memories` are SideTables'. `vector` columns are indexed per
model dimension.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

import numpy as np
from psycopg import sql

from engram.errors import StoreError
from engram.model.record import MemoryRecord, Scope, utcnow
from engram.model.vectors import Matrix, Vector
from engram.store.erasure import Erasure
from engram.store.postgres import text as pg_text
from engram.store.postgres.batched import BatchedSearches
from engram.store.postgres.columns import from_row, to_row
from engram.store.postgres.connection import Conn, Connections
from engram.store.postgres.filter import where_sql
from engram.store.postgres.schema import HASH, MIGRATIONS, vector_index, vector_index_name
from engram.store.postgres.search import Searches, array_of, facts_of, vector_text
from engram.store.postgres.upkeep import Upkeeping
from engram.store.rows import (
    CHUNK_SHARED,
    COLUMNS,
    FACT_COLUMNS,
    JSON_COLUMNS,
    ts,
)
from engram.store.side_tables import SideTables
from engram.store.values import Facts, Filter, Position, StoreStats

_JSONB = JSON_COLUMNS - {"kind_scores"}


def _width(row: tuple[Any, ...]) -> int:
    """About how many bytes a row to insert holds beside its vector (its last but one value)."""
    return sum(len(v) for v in (*row[:-2], row[-1]) if isinstance(v, str | bytes))


class PostgresStore(BatchedSearches, Searches, Upkeeping, Erasure, SideTables):
    _BYTE_ORDER = 'COLLATE "C"'  # as SQLite orders text

    def __init__(self, url: str, *, pool_size: int = 8, timeout_s: float = 30.0) -> None:
        self._db = Connections(url, pool_size=pool_size, timeout_s=timeout_s)
        self.url, self.schema = url, self._db.schema
        self._all, self._one, self._all_many = self._db.all, self._db.one, self._db.all_many
        self._migrate()

    def atomic(self) -> AbstractContextManager[Conn]:
        """A write transaction holding the schema's write lock; nested calls become savepoints."""
        return self._db.atomic()

    def snapshot(self) -> AbstractContextManager[None]:
        """This thread's reads see one moment until the block ends (Transactions.snapshot)."""
        return self._db.snapshot()

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
        name = vector_index_name(dim)
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
            self._build(db, dim)
        return True

    @staticmethod
    def _build(db: Conn, dim: int) -> None:
        # The graph fits in memory while it is built: past maintenance_work_mem (64 MB by default, about
        # 40,000 vectors) the build slows several times over.
        db.execute(b"SET LOCAL maintenance_work_mem = '512MB'")
        db.execute(vector_index(dim))

    # ---- writes -----------------------------------------------------------------------------------------
    # A bulk load at least this large into a store no larger builds the vector index afresh after the rows are
    # in: HNSW inserts one vector at a time, each a walk of the graph on shared pages, while a build walks it in
    # memory (docs/design/storage.md, PostgreSQL).
    _BUILD_AFTER = 1000

    def insert(self, records: Sequence[MemoryRecord], vectors: Sequence[Vector | None]) -> None:
        # One COPY, not a statement a row: the term statistics' trigger runs once for all the rows.
        copy = f"COPY memories(rid, {', '.join(COLUMNS)}, searchable, embedding, tsv) FROM STDIN".encode()
        rows = [
            (
                *to_row(r),
                v is not None,
                None if v is None else vector_text(v),
                None if v is None else pg_text.tsvector(r.content, r.tags),
            )
            for r, v in zip(records, vectors, strict=True)
        ]
        with self.atomic() as db:
            before = self._searchable_count(db) if len(rows) >= self._ANALYZE_AFTER else None
            rebuild = self._index_to_rebuild(len(rows), before)
            if rebuild is not None:
                db.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(vector_index_name(rebuild))))
            # Each row keeps its place in the order (rid), but the widest are written first: a page is filled
            # until the next row does not fit, and rows whose vector stays beside them (about 2 kB) between rows
            # whose vector went to TOAST (about 0.5 kB) left pages a row's width short.
            rids = db.execute(
                b"SELECT nextval(pg_get_serial_sequence('memories', 'rid')) AS r FROM generate_series(1, %s) ORDER BY r",
                (len(rows),),
            ).fetchall()
            with db.cursor() as cur, cur.copy(copy) as load:
                for i in sorted(range(len(rows)), key=lambda i: -_width(rows[i])):
                    load.write_row((rids[i][0], *rows[i]))
            if rebuild is not None:
                self._build(db, rebuild)
            if before is not None and len(rows) * 10 >= before:
                # The planner's row counts, as autovacuum would only read them up to a minute later: a store
                # it guessed a handful of rows answered every vector search by reading every row.
                db.execute(b"ANALYZE memories")

    # A write of at least this many rows that adds a tenth or more to the store has its statistics read again.
    _ANALYZE_AFTER = 200

    @staticmethod
    def _searchable_count(db: Conn) -> int:
        row = db.execute(b"SELECT docs FROM corpus").fetchone()
        return 0 if row is None else int(row[0])

    def _index_to_rebuild(self, adding: int, before: int | None) -> int | None:
        """The dimension of the vector index to build again after adding `adding` rows to `before` searchable
        ones, if that is cheaper."""
        if adding < self._BUILD_AFTER or before is None:
            return None
        model = self.model()
        if before > adding or model is None:
            return None
        return model[1] if self._vector_indexes().get(vector_index_name(model[1]), False) else None

    def stored_times(self, ids: Sequence[str]) -> dict[str, datetime]:
        rows = self._all("SELECT id, stored_at FROM memories WHERE id = ANY(%s)", (list(ids),))
        return {str(i): at for i, at in rows}

    def update(self, record: MemoryRecord, vector: Vector | None = None) -> None:
        row = dict(zip(COLUMNS, to_row(record), strict=True))
        del row["id"]
        assignments = ", ".join(f"{c} = %s::jsonb" if c in _JSONB else f"{c} = %s" for c in row)
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
                    b"SELECT rid, content FROM memories WHERE parent_id = %s AND tags IS DISTINCT FROM %s::jsonb",
                    (record.id, row["tags"]),
                ).fetchall()
                if stale:
                    with db.cursor() as cur:
                        cur.executemany(
                            b"UPDATE memories SET tags = %s::jsonb, "
                            b"tsv = CASE WHEN searchable THEN %s::tsvector END WHERE rid = %s",
                            [
                                (row["tags"], pg_text.tsvector(str(c), list(record.tags)), rid)
                                for rid, c in stale
                            ],
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
        return [from_row(r) for r in self._all(query, params)]

    def get(self, memory_id: str) -> MemoryRecord | None:
        found = self._records(f"{self._SELECT} WHERE m.id = %s", (memory_id,))
        return found[0] if found else None

    def ids_starting(self, prefix: str, limit: int) -> list[str]:
        rows = self._read(
            "SELECT id FROM memories WHERE starts_with(id, ?) ORDER BY id LIMIT ?", (prefix, limit)
        )
        return [r[0] for r in rows]

    def get_many(self, ids: Sequence[str]) -> list[MemoryRecord]:
        if not ids:
            return []
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
        clauses = [f"{HASH} = %s", "m.scope = %s", "m.parent_id IS NULL"]
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
        sql = "SELECT id, embedding FROM memories WHERE id = ANY(%s) AND embedding IS NOT NULL"
        return {str(i): array_of(v) for i, v in self._all(sql, (list(ids),), binary=True)}

    def openings(self, ids: Sequence[str], chars: int) -> dict[str, str]:
        rows = self._all("SELECT id, left(content, %s) FROM memories WHERE id = ANY(%s)", (chars, list(ids)))
        return {str(i): str(text) for i, text in rows}

    def facts(self, ids: Sequence[str]) -> list[Facts]:
        rows = self._all(
            f"SELECT {FACT_COLUMNS} FROM memories m WHERE m.id = ANY(%s)", (list(ids),), binary=True
        )
        return [facts_of(row) for row in rows]

    def vector_for_hash(self, content_hash: str) -> Vector | None:
        rows = self._all(
            f"SELECT m.embedding FROM memories m WHERE {HASH} = %s AND m.embedding IS NOT NULL LIMIT 1",
            (content_hash,),
            binary=True,
        )
        return array_of(rows[0][0]) if rows else None

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
            yield [from_row(r[1:]) for r in rows]

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
