"""The embedded store: SQLite in WAL mode, FTS5 for lexical search, a vector index file beside the database. One
writer connection takes `BEGIN IMMEDIATE` under a lock; each thread reads on its own connection. The vector index
is a cache of the `embedding` column: it records the last `vector_changes` sequence it reflects, catches up
from that log before every search (so writes of other processes are seen) and is rebuilt when it is missing,
unreadable or disagrees with the database. The searches live in `search`, index upkeep and backups in `upkeep`.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from engram.errors import StoreError
from engram.model.record import MemoryRecord, Scope, utcnow
from engram.model.vectors import Matrix, Vector, decode_vector, encode_vector
from engram.store.erasure import Erasure
from engram.store.rows import (
    CHUNK_SHARED,
    COLUMNS,
    FACT_COLUMNS,
    facts_from_rows,
    record_from_row,
    record_to_row,
    stored_hash,
    ts,
)
from engram.store.side_tables import SideTables
from engram.store.sqlite.batched import BatchedSearches
from engram.store.sqlite.connection import ThreadReads, begin, connect, create_private, migrated
from engram.store.sqlite.filter import in_slices, where_sql
from engram.store.sqlite.fresh import FreshVectors
from engram.store.sqlite.index import IndexFile
from engram.store.sqlite.integrity import refuse_foreign
from engram.store.sqlite.schema import MIGRATIONS, MIGRATIONS_TABLE
from engram.store.sqlite.upkeep import Settler, Upkeeping
from engram.store.values import Facts, Filter, Position, StoreStats


class SQLiteStore(BatchedSearches, Upkeeping, Erasure, SideTables):
    def __init__(self, path: str | Path, *, busy_timeout_ms: int = 30_000) -> None:
        self._memory = str(path) == ":memory:"
        self.path = None if self._memory else Path(path)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            create_private(self.path)
        self._timeout = busy_timeout_ms
        self._lock = threading.RLock()
        self._fresh = FreshVectors()
        self._reads = ThreadReads(self._connect)
        try:  # another program's database is refused before anything (WAL mode first) changes it
            refuse_foreign(self.path)
            self._writer = self._connect(writer=True)
        except sqlite3.DatabaseError as exc:  # a directory, a text file: say which, not a driver traceback
            raise StoreError(f"cannot open {path} as an Engram database ({exc})") from None
        self._depth = 0
        self._owner: int | None = None  # the thread inside the write transaction
        self._settler = Settler()
        self._vectors = IndexFile(
            self.path,
            lambda: self._writer if self._memory else self._committed(),
            self.model,
            lambda: self._memory and self._depth > 0,
        )
        try:
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self._writer.close()
            raise StoreError(f"cannot open {path} as an Engram database ({exc})") from None
        self.settle()  # a forget that a process could not settle before it ended

    # ---- connections and transactions -------------------------------------------------------------------
    def _connect(self, writer: bool = False) -> sqlite3.Connection:
        target = ":memory:" if self.path is None else str(self.path)
        return connect(target, self._timeout, on_disk=not self._memory, writer=writer)

    def reads_anywhere(self) -> bool:
        return not self._memory and self._owner != threading.get_ident()

    def snapshot(self) -> AbstractContextManager[object]:
        """This thread's reads see one moment until the block ends (Transactions.snapshot). One connection
        (an in-memory database) has no other moment to show: its writers wait instead."""
        if self._memory or self._owner == threading.get_ident():
            return self._lock  # inside its own write transaction a thread already reads one state
        return self._reads.snapshot()

    def _reader(self) -> sqlite3.Connection:
        if self._memory or self._owner == threading.get_ident():
            # An in-memory database exists only on its one connection; inside its own write transaction a
            # thread reads what it has written, from the writer's cache (another connection's cache is
            # dropped on every commit).
            return self._writer
        return self._committed()

    def _committed(self) -> sqlite3.Connection:
        """This thread's read connection: it sees only committed data."""
        return self._reads.get()

    @contextmanager
    def atomic(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE); nested calls become savepoints."""
        with self._lock:
            db = self._writer
            if self._depth == 0:
                begin(db, self._timeout)
                self._owner = threading.get_ident()
            else:
                db.execute(f"SAVEPOINT s{self._depth}")
            self._depth += 1
            try:
                yield db
            except BaseException:
                self._depth -= 1
                if self._depth == 0:
                    self._owner = None
                    self._fresh.clear()
                    db.execute("ROLLBACK")
                else:
                    self._fresh.clear()  # change numbers rolled back may be given again
                    db.execute(f"ROLLBACK TO s{self._depth}")
                    db.execute(f"RELEASE s{self._depth}")
                raise
            self._depth -= 1
            if self._depth == 0:
                self._owner = None
                self._fresh.clear()
            db.execute("COMMIT" if self._depth == 0 else f"RELEASE s{self._depth}")
            if self._depth == 0:
                self._after_commit()

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._reader().execute(sql, params).fetchall()

    def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        if self._owner == threading.get_ident():
            # Inside this thread's transaction one statement needs no savepoint: SQLite undoes a failed
            # statement on its own.
            return int(self._writer.execute(sql, params).rowcount)
        with self.atomic() as db:
            return int(db.execute(sql, params).rowcount)

    def _run_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.atomic() as db:
            db.executemany(sql, rows)

    def _migrate(self) -> None:
        if migrated(self._reader(), (name for name, _ in MIGRATIONS)):
            return  # opening an up-to-date database takes no write lock
        with self.atomic() as db:
            db.execute(MIGRATIONS_TABLE)
            done = {name for (name,) in db.execute("SELECT name FROM migrations")}
            known = {name for name, _ in MIGRATIONS}
            if unknown := done - known:
                raise StoreError(f"database has migrations this version does not know: {sorted(unknown)}")
            for name, apply in MIGRATIONS:
                if name not in done:
                    apply(db)
                    db.execute("INSERT INTO migrations(name, applied_at) VALUES (?, ?)", (name, ts(utcnow())))

    def close(self) -> None:
        self._merge_after_bulk()
        self._settler.close()
        self._close_reads()
        self._reads.close()
        with self._lock:  # a settle retried on the settler's thread may be using the writer
            self._writer.close()

    # ---- writes -----------------------------------------------------------------------------------------
    def insert(self, records: Sequence[MemoryRecord], vectors: Sequence[Vector | None]) -> None:
        placeholders = ", ".join("?" for _ in range(len(COLUMNS) + 3))
        sql = f"INSERT INTO memories({', '.join(COLUMNS)}, searchable, embedding, stored_at) VALUES ({placeholders})"
        now = ts(utcnow())  # when Engram stored it, whatever time the memory is about
        rows = [
            (
                *record_to_row(record),
                int(vector is not None),
                None if vector is None else encode_vector(vector),
                now,
            )
            for record, vector in zip(records, vectors, strict=True)
        ]
        if len(rows) == 1:
            self._run(sql, rows[0])  # one statement is atomic on its own
        else:
            self._run_many(sql, rows)
        self._indexed += len(rows)  # a bulk load merges the text index on closing (upkeep.py)

    def update(self, record: MemoryRecord, vector: Vector | None = None) -> None:
        row = dict(zip(COLUMNS, record_to_row(record), strict=True))
        del row["id"]
        with self.atomic() as db:
            if vector is not None:
                db.execute(
                    "UPDATE memories SET embedding = ? WHERE id = ?", (encode_vector(vector), record.id)
                )
            assignments = ", ".join(f"{c} = ?" for c in row)
            cursor = db.execute(f"UPDATE memories SET {assignments} WHERE id = ?", (*row.values(), record.id))
            if cursor.rowcount == 0:
                raise StoreError(f"no memory with id {record.id} to update")
            if record.parent_id is None:  # its chunks, if it has any, follow it
                shared = ", ".join(f"{c} = ?" for c in CHUNK_SHARED)
                db.execute(
                    f"UPDATE memories SET {shared} WHERE parent_id = ?",
                    (*(row[c] for c in CHUNK_SHARED), record.id),
                )
                # Tags too, where they changed (each chunk's text index holds them: a trigger updates it).
                db.execute(
                    "UPDATE memories SET tags = ? WHERE parent_id = ? AND tags <> ?",
                    (row["tags"], record.id, row["tags"]),
                )

    def delete(self, memory_id: str) -> bool:
        with self.atomic() as db:
            return db.execute("DELETE FROM memories WHERE id = ?", (memory_id,)).rowcount > 0

    def touch(self, ids: Sequence[str], at: datetime) -> None:
        with self.atomic() as db:
            db.executemany(
                "UPDATE memories SET access_count = access_count + 1, last_accessed_at = ?, "
                "base_relevance = min(2.0, base_relevance * 1.05) WHERE id = ?",
                [(ts(at), i) for i in ids],
            )

    def set_vectors(self, ids: Sequence[str], vectors: Matrix) -> None:
        with self.atomic() as db:
            db.executemany(
                "UPDATE memories SET embedding = ? WHERE id = ?",
                [(encode_vector(v), i) for i, v in zip(ids, vectors, strict=True)],
            )

    # ---- reads ------------------------------------------------------------------------------------------
    _SELECT = f"SELECT {', '.join(COLUMNS)} FROM memories"

    def get(self, memory_id: str) -> MemoryRecord | None:
        row = self._reader().execute(f"{self._SELECT} WHERE id = ?", (memory_id,)).fetchone()
        return None if row is None else record_from_row(row)

    def ids_starting(self, prefix: str, limit: int) -> list[str]:
        """Ids that begin with `prefix` (the short ids people copy from a listing), in order."""
        rows = self._reader().execute(
            "SELECT id FROM memories WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
            (prefix, prefix + "\U0010ffff", limit),
        )
        return [r[0] for r in rows]

    def get_many(self, ids: Sequence[str]) -> list[MemoryRecord]:
        found: dict[str, MemoryRecord] = {}
        for part, marks in in_slices(ids):
            for row in self._reader().execute(f"{self._SELECT} WHERE id IN ({marks})", part):
                record = record_from_row(row)
                found[record.id] = record
        return [found[i] for i in ids if i in found]

    def find_hash(
        self,
        content_hash: str,
        scope: Scope,
        scope_id: str | None,
        user_id: str | None = None,
        workspace_id: str | None = None,
    ) -> MemoryRecord | None:
        row = (
            self._reader()
            .execute(
                # A row written before keeps its hash as text. Pinned: the planner would rather read the scope.
                f"{self._SELECT} INDEXED BY memories_hash WHERE content_hash IN (?, ?) AND scope = ? "
                "AND scope_id IS ? AND user_id IS ? AND workspace_id IS ? AND parent_id IS NULL",
                (stored_hash(content_hash), content_hash, scope.value, scope_id, user_id, workspace_id),
            )
            .fetchone()
        )
        return None if row is None else record_from_row(row)

    def stored_times(self, ids: Sequence[str]) -> dict[str, datetime]:
        sql = "SELECT id, stored_at FROM memories WHERE id IN ({})"
        return {
            i: datetime.fromisoformat(at) for p, m in in_slices(ids) for i, at in self._read(sql.format(m), p)
        }

    def openings(self, ids: Sequence[str], chars: int) -> dict[str, str]:
        sql = "SELECT id, substr(content, 1, ?) FROM memories WHERE id IN ({})"
        return {i: text for p, m in in_slices(ids) for i, text in self._read(sql.format(m), (chars, *p))}

    def children(self, parent_id: str) -> list[MemoryRecord]:
        rows = self._reader().execute(
            f"{self._SELECT} WHERE parent_id = ? ORDER BY chunk_index", (parent_id,)
        )
        return [record_from_row(r) for r in rows]

    def chunk_at(self, parent_id: str, index: int) -> MemoryRecord | None:
        row = (
            self._reader()
            .execute(f"{self._SELECT} WHERE parent_id = ? AND chunk_index = ?", (parent_id, index))
            .fetchone()
        )
        return None if row is None else record_from_row(row)

    def vectors(self, ids: Sequence[str]) -> dict[str, Vector]:
        out: dict[str, Vector] = {}
        for part, marks in in_slices(ids):
            sql = f"SELECT id, embedding FROM memories WHERE id IN ({marks}) AND embedding IS NOT NULL"
            for memory_id, blob in self._reader().execute(sql, part):
                out[memory_id] = decode_vector(blob)
        return out

    def facts(self, ids: Sequence[str]) -> list[Facts]:
        out: list[Facts] = []
        for part, marks in in_slices(ids):
            rows = self._reader().execute(
                f"SELECT {FACT_COLUMNS} FROM memories m WHERE m.id IN ({marks})", part
            )
            out += facts_from_rows(rows.fetchall())
        return out

    def vector_for_hash(self, content_hash: str) -> Vector | None:
        sql = "SELECT embedding FROM memories INDEXED BY memories_hash WHERE content_hash IN (?, ?) "
        sql += "AND embedding IS NOT NULL LIMIT 1"
        row = self._reader().execute(sql, (stored_hash(content_hash), content_hash)).fetchone()
        return None if row is None else decode_vector(row[0])

    def select(
        self,
        where: Filter,
        *,
        limit: int,
        offset: int = 0,
        top_level: bool = True,
        after: Position | None = None,
    ) -> list[MemoryRecord]:
        sql, params = where_sql(where, searchable=not top_level)
        if after is not None:
            sql += " AND (m.created_at, m.id) < (?, ?)"
            params += [ts(after[0]), after[1]]
        rows = self._reader().execute(
            f"SELECT {', '.join('m.' + c for c in COLUMNS)} FROM memories m WHERE {sql} "
            "ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        return [record_from_row(r) for r in rows]

    def grouped(self, column: str, where: Filter) -> dict[str | None, int]:
        if column not in {"kind", "scope", "status", "category", "tier", "type"}:
            raise ValueError(f"cannot group by {column!r}")
        sql, params = where_sql(where, searchable=False)
        rows = self._reader().execute(
            f"SELECT m.{column}, count(*) FROM memories m WHERE {sql} GROUP BY 1", params
        )
        return {value: int(n) for value, n in rows}

    def count(self, where: Filter) -> int:
        sql, params = where_sql(where, searchable=False)
        return int(
            self._reader().execute(f"SELECT count(*) FROM memories m WHERE {sql}", params).fetchone()[0]
        )

    def iter_all(self, batch: int = 512) -> Iterator[list[MemoryRecord]]:
        last = 0
        while True:
            rows = (
                self._reader()
                .execute(
                    f"SELECT rid, {', '.join(COLUMNS)} FROM memories WHERE rid > ? ORDER BY rid LIMIT ?",
                    (last, batch),
                )
                .fetchall()
            )
            if not rows:
                return
            last = rows[-1][0]
            yield [record_from_row(r[1:]) for r in rows]

    def stats(self) -> StoreStats:
        db = self._reader()

        def grouped(column: str) -> dict[str, int]:
            sql = f"SELECT {column}, count(*) FROM memories WHERE parent_id IS NULL GROUP BY {column}"
            return {str(k): int(n) for k, n in db.execute(sql)}

        model = self.model()
        top, chunks, embedded = db.execute(
            "SELECT sum(parent_id IS NULL), sum(parent_id IS NOT NULL), sum(embedding IS NOT NULL) FROM memories"
        ).fetchone()
        size = 0
        if self.path is not None:
            size = sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*") if p.is_file())
        return StoreStats(
            memories=int(top or 0),
            chunks=int(chunks or 0),
            by_kind=grouped("kind"),
            by_scope=grouped("scope"),
            by_status=grouped("status"),
            embedded=int(embedded or 0),
            model=None if model is None else model[0],
            dim=None if model is None else model[1],
            size_bytes=size,
        )
