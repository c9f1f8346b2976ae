"""Connections to PostgreSQL for one store: a psycopg pool, write transactions and the schema's write lock.

A write transaction takes a transaction-level advisory lock for its schema first, so writers are serialised
across threads and processes (as SQLite's single writer is): several `engram serve` processes share one
database without deadlocks or lost duplicate checks, while reads never wait. A thread inside a write
transaction reads on that transaction's connection and sees its own writes.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from pgvector.psycopg import register_vector
from psycopg import Connection, errors, sql
from psycopg_pool import ConnectionPool, PoolTimeout

from engram.config import shown, split_schema
from engram.errors import StoreError, StoreUnavailable

Conn = Connection[tuple[Any, ...]]
_log = logging.getLogger("engram.store")
# Sent around statements whose rows do not depend on their plan (`all_many`'s `generic`).
_GENERIC, _RESET = b"SET plan_cache_mode = force_generic_plan", b"RESET plan_cache_mode"


class Connections:
    def __init__(self, url: str, *, pool_size: int, timeout_s: float) -> None:
        self.url = url
        conninfo, self.schema = split_schema(url)
        self._lock_key = int.from_bytes(hashlib.sha256(self.schema.encode()).digest()[:4], "big", signed=True)
        self._local = threading.local()
        self._bootstrap(conninfo)
        self._pool: ConnectionPool[Conn] = ConnectionPool(
            conninfo,
            min_size=1,
            max_size=pool_size,
            timeout=timeout_s,
            kwargs={"autocommit": True},
            configure=self._configure,
            open=True,
        )

    def close(self) -> None:
        self._pool.close()

    def _bootstrap(self, conninfo: str) -> None:
        """The vector extension (in `public`, shared by every schema) and this store's schema."""
        try:
            with Connection.connect(conninfo, autocommit=True) as db, db.transaction():
                # IF NOT EXISTS is not safe against a concurrent creator: processes opening at once take turns.
                db.execute("SELECT pg_advisory_xact_lock(7454812)")
                if db.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone() is None:
                    db.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
                db.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema)))
        except errors.OperationalError as exc:
            raise StoreUnavailable(f"cannot reach PostgreSQL at {shown(self.url)}: {exc}".strip()) from None
        except errors.Error as exc:
            raise StoreError(f"cannot open PostgreSQL store {shown(self.url)}: {exc}".strip()) from None

    def _configure(self, db: Conn) -> None:
        db.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(self.schema)))
        db.execute("SET TIME ZONE 'UTC'")
        # Filtered vector searches keep walking the graph until enough rows pass (pgvector >= 0.8).
        db.execute("SET hnsw.iterative_scan = relaxed_order")
        # A walk of 128 over the graph at M = 12 finds the exact neighbours as often as 100 did at M = 16, in less
        # time (docs/design/storage.md, PostgreSQL).
        db.execute("SET hnsw.ef_search = 128")
        # Engram's statements are short: compiling one (past the planner's cost of 100,000, as a text search in a
        # large store estimates) costs more than it saves.
        db.execute("SET jit = off")
        # A text search reads its 1,000-2,000 rows itself rather than handing each read to the server's I/O
        # workers (PostgreSQL 18): a store that fits in memory is read from the OS cache, where the hand-off
        # cost more than the read (docs/design/storage.md, PostgreSQL).
        db.execute("SET effective_io_concurrency = 0")
        register_vector(db)

    def in_transaction(self) -> bool:
        """Whether this thread has a write transaction open."""
        return getattr(self._local, "tx", None) is not None

    @contextmanager
    def conn(self) -> Iterator[Conn]:
        """The connection of this thread's write transaction, else of its snapshot, else a pooled one
        (autocommit)."""
        tx: Conn | None = getattr(self._local, "tx", None) or getattr(self._local, "snap", None)
        if tx is not None:
            yield tx
            return
        with self._unavailable(), self._pool.connection() as db:
            yield db

    @contextmanager
    def _unavailable(self) -> Iterator[None]:
        """A lost server or an exhausted pool is the caller's to retry, not a bug: say so."""
        try:
            yield
        except (errors.OperationalError, PoolTimeout) as exc:
            raise StoreUnavailable(f"PostgreSQL at {shown(self.url)} is unavailable: {exc}".strip()) from None

    def all(
        self, query: str, params: Sequence[Any] = (), *, binary: bool = False, prepare: bool | None = None
    ) -> list[tuple[Any, ...]]:
        """`binary`: results in PostgreSQL's binary format, which pgvector loads straight into numpy (its text
        format is parsed number by number). `prepare`: the statement is prepared on this connection at its first
        use, not its fifth (psycopg's default), and later parsed no more (the searches: see `all_many`)."""
        with self.conn() as db, db.cursor(binary=binary) as cur:
            return cur.execute(query.encode(), params, prepare=prepare).fetchall()

    def all_many(
        self,
        queries: Sequence[tuple[str, Sequence[Any]]],
        *,
        binary: bool = False,
        prepare: bool | None = None,
        generic: bool = False,
    ) -> list[list[tuple[Any, ...]]]:
        """`all` of each query, on one connection, sent together (pipeline mode): one round trip for them all
        rather than one each. A search's statement differs by its number of words, and a pool's connections
        each saw one text a few times only: `prepare` spares the server parsing each again. `generic`: each
        statement runs the plan made once for its text on this connection (`plan_cache_mode` set around them in
        the same round trip), not one made again for every call's values; only for statements whose rows do not
        depend on their plan. The pipeline is one implicit transaction: a statement that fails takes the SET
        back with it, and the connection's later statements plan as before."""
        with self.conn() as db:
            sent: list[tuple[bytes, Sequence[Any]]] = [(q.encode(), p) for q, p in queries]
            if generic:
                sent = [(_GENERIC, ()), *sent, (_RESET, ())]
            cursors = [db.cursor(binary=binary) for _ in sent]
            try:
                with db.pipeline():
                    for cur, (q, p) in zip(cursors, sent, strict=True):
                        cur.execute(q, p, prepare=prepare and q not in (_GENERIC, _RESET))
                return [cur.fetchall() for cur in (cursors[1:-1] if generic else cursors)]
            finally:
                for cur in cursors:
                    cur.close()

    def one(self, query: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        with self.conn() as db:
            return db.execute(query.encode(), params).fetchone()

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """This thread's reads, until the block ends, see the schema as it was when it began: one REPEATABLE
        READ transaction, read only, which no writer waits for. A write in the block takes a connection of its
        own (and is not seen by the block's reads outside that write)."""
        if self.in_transaction() or getattr(self._local, "snap", None) is not None:
            yield  # a write transaction's reads, or an outer snapshot's, hold one state already
            return
        with self._unavailable(), self._pool.connection() as db:
            db.execute(b"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            self._local.snap = db
            try:
                db.execute(b"SELECT 1 FROM migrations LIMIT 1")  # the moment: its first statement
                yield
            finally:
                self._local.snap = None
                db.execute(b"ROLLBACK")

    def after_commit(self, task: Callable[[Conn], None]) -> None:
        """`task` on a pooled connection of its own (autocommit) once this thread's write transaction commits, or
        now when none is open: for what a transaction cannot run, such as VACUUM. Dropped if the transaction
        rolls back; a task that fails after the commit is logged, not raised: the write it follows is done."""
        if self.in_transaction():
            self._local.after.append(task)
            return
        with self._unavailable(), self._pool.connection() as db:
            task(db)

    @contextmanager
    def atomic(self) -> Iterator[Conn]:
        """A write transaction; nested calls become savepoints."""
        tx: Conn | None = getattr(self._local, "tx", None)
        if tx is not None:
            depth = self._local.depth
            self._local.depth = depth + 1
            tx.execute(f"SAVEPOINT s{depth}".encode())
            try:
                yield tx
            except BaseException:
                tx.execute(f"ROLLBACK TO SAVEPOINT s{depth}".encode())
                tx.execute(f"RELEASE SAVEPOINT s{depth}".encode())
                raise
            finally:
                self._local.depth = depth
            tx.execute(f"RELEASE SAVEPOINT s{depth}".encode())
            return
        with self._unavailable(), self._pool.connection() as db:
            db.execute(b"BEGIN")
            self._local.tx, self._local.depth, self._local.after = db, 1, []
            try:
                db.execute(b"SELECT pg_advisory_xact_lock(%s)", (self._lock_key,))
                yield db
            except BaseException:
                self._local.tx = None
                db.execute(b"ROLLBACK")
                raise
            self._local.tx = None
            db.execute(b"COMMIT")
        for task in self._local.after:
            try:
                self.after_commit(task)
            except (StoreUnavailable, errors.Error) as exc:
                _log.warning("a task after a commit failed: %s", exc)
