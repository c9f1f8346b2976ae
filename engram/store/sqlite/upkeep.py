"""The SQLite store's upkeep: the vector index's checks and rebuild, integrity, the full-text index and tag
counts rebuilt from the rows, online backup and verified restore, and counts by time and by tag."""

from __future__ import annotations

import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from pathlib import Path
from typing import Any

from engram.errors import StoreError
from engram.model.record import utcnow
from engram.store.rows import ts
from engram.store.sqlite.connection import ThreadReads
from engram.store.sqlite.filter import where_sql
from engram.store.sqlite.index import IndexFile
from engram.store.sqlite.integrity import integrity_issues, verify
from engram.store.values import Filter

UNSETTLED = "unsettled_log"  # a meta key: a forget's text may still be in the write-ahead log
# FTS5 writes each transaction's rows as a segment of its own and merges segments level by level as they pile up,
# so a grown index keeps several, and a search looks every word up in each. Merged into one, a text search at
# 100k memories took a tenth less processor time, with the same answers. The merge goes a bounded step at a time
# (about this many of FTS5's 4 KB pages written), each step a write transaction of its own, so a writer waits
# for one step at most; a maintenance pass takes at most `MERGE_STEPS` of them.
MERGE_PAGES = 1000
MERGE_STEPS = 64
# A process that has put this many rows into the text index merges it when it closes: the end of a bulk load.
MERGE_AFTER_ROWS = 10_000
# Forgets between two full rebuilds of the text index (see `_erased`), and the meta key that counts them.
REBUILD_EVERY = 400
_ERASURES = "text_index_erasures"


def _marked(db: sqlite3.Connection) -> bool:
    try:
        return db.execute("SELECT 1 FROM meta WHERE key = ?", (UNSETTLED,)).fetchone() is not None
    except sqlite3.OperationalError:  # a database its first migration has not made yet
        return False


def _truncated(db: sqlite3.Connection) -> bool:
    """A checkpoint of the whole log that truncates it, if no reader or writer stands in its way now."""
    try:
        busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.OperationalError:
        return False
    return int(busy) == 0


class Settler:
    """Tries a deferred settle again on a timer thread, waiting longer each time, until it succeeds or the
    store closes (the next write of any process, or the next open, tries it too)."""

    def __init__(self, first_s: float = 0.1, longest_s: float = 5.0, tries: int = 400) -> None:
        self._first, self._longest, self._tries = first_s, longest_s, tries
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()
        self._count = 0
        self._closed = False

    def later(self, settle: Callable[[], None]) -> None:
        with self._lock:
            if (
                self._closed
                or (self._timer is not None and self._timer.is_alive())
                or self._count >= self._tries
            ):
                return
            pause = min(self._first * 2 ** min(self._count, 16), self._longest)
            self._count += 1
            self._timer = threading.Timer(pause, self._run, (settle,))
            self._timer.daemon = True
            self._timer.start()

    def _run(self, settle: Callable[[], None]) -> None:
        with self._lock:
            self._timer = None
            if self._closed:
                return
        with suppress(sqlite3.Error):  # the store closed meanwhile: the next open settles
            settle()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()


class Upkeeping:
    _settler: Settler
    _writer: sqlite3.Connection
    _vectors: IndexFile
    _memory: bool
    path: Path | None
    _timeout: int
    _depth: int
    _reads: ThreadReads
    _lock: threading.RLock  # the store's write lock (SQLiteStore.atomic): the writer is used under it only

    def _committed(self) -> sqlite3.Connection:
        raise NotImplementedError

    def _reader(self) -> sqlite3.Connection:
        raise NotImplementedError

    def _migrate(self) -> None:
        raise NotImplementedError

    # Given by the store (SQLiteStore) and its side tables (SideTables); declared, not defined, so that the
    # method resolution order finds theirs.
    atomic: Callable[[], AbstractContextManager[sqlite3.Connection]]
    model: Callable[[], tuple[str, int] | None]
    _set_meta: Callable[[Sequence[tuple[str, str]]], None]

    def set_model(self, name: str, dim: int) -> None:
        self._set_meta([("model", name), ("dim", str(dim))])
        self._vectors.forget()  # the old index holds another vector space

    # ---- what a forget leaves (store/erasure.py) ----------------------------------------------------------

    def _erased(self) -> None:
        # A full-text delete only adds a tombstone segment: the forgotten terms stay in the older segments until
        # they merge. 'optimize' merges them all now (this SQLite has no FTS5 secure-delete).
        # SQLite 3.40's FTS5 reports its index malformed after about 1,000 deletes each followed by a merge (every
        # write after failed); the index is built again instead every `REBUILD_EVERY` forgets (the first one
        # counted included, for a store an older version forgot in), which starts it afresh.
        (erasures,) = self._writer.execute(
            "INSERT INTO meta(key, value) VALUES (?, '1') ON CONFLICT(key) DO UPDATE "
            "SET value = CAST(value AS INTEGER) + 1 RETURNING CAST(value AS INTEGER)",
            (_ERASURES,),
        ).fetchone()
        if erasures % REBUILD_EVERY == 1:
            self.rebuild_fts()
        else:
            self._writer.execute("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')")
        self._erasing = True  # the vector graph's file is saved again once this commits (`_after_commit`)
        if not self._memory:
            # Committed with the forget, so that whichever process writes next settles the log if this one cannot.
            self._writer.execute(
                "INSERT INTO meta(key, value) VALUES (?, '1') ON CONFLICT(key) DO NOTHING", (UNSETTLED,)
            )

    def settle(self) -> None:
        """The write-ahead log still holds the pages as they were before a forget: checkpointed into the database
        (whose freed space secure_delete zeroed) and truncated. The checkpoint never waits: while another
        connection reads a snapshot that needs those pages it cannot finish, and waiting for it would hold every
        writer of the database off. It is tried again, here a little later and by every process after each of
        its writes (`_after_commit`), until it finishes."""
        with self._lock:  # a search's touch in another thread may be mid-transaction on the same connection
            if self._memory or self._depth or not _marked(self._writer):
                return
            if not _truncated(self._writer):
                self._settler.later(self.settle)
                return
            try:
                self._writer.execute("DELETE FROM meta WHERE key = ?", (UNSETTLED,))
            except sqlite3.OperationalError:  # another process is writing: its commit settles
                return
            _truncated(self._writer)  # the log now holds only that delete

    _erasing = False

    def _after_commit(self) -> None:
        if self._erasing:
            self._erasing = False
            self._vectors.erased()
        if self._memory:
            # An in-memory database cannot catch its index up inside the next write transaction (it would see
            # that transaction's uncommitted rows), so it does so after each commit.
            self._vectors.refresh()
        else:
            self.settle()

    # ---- the full-text index's segments ------------------------------------------------------------------
    _indexed = 0  # rows this process has put into the text index since it last merged it

    def merge_text_index(self, steps: int = MERGE_STEPS) -> bool:
        """Merge the full-text index's segments towards one, at most `steps` bounded steps (see `MERGE_PAGES`);
        whether it is done. A step that cannot take the write lock leaves the rest to the next call."""
        self._indexed = 0
        for _ in range(steps):
            try:
                with self.atomic() as db:
                    before = db.total_changes
                    # A negative size first puts every segment on one level, so that all of them merge into one
                    # (as 'optimize' does, but in steps); fewer than two changes: nothing was left to merge.
                    db.execute(
                        "INSERT INTO memories_fts(memories_fts, rank) VALUES ('merge', ?)", (-MERGE_PAGES,)
                    )
                    if db.total_changes - before < 2:
                        return True
            except sqlite3.OperationalError:  # another process holds the write lock: the next call goes on
                return False
        return False

    def _merge_after_bulk(self) -> None:
        """On closing: a process that loaded many rows leaves the text index merged for the next one."""
        if not self._memory and self._indexed >= MERGE_AFTER_ROWS:
            with suppress(sqlite3.Error):
                self.merge_text_index()

    # ---- the vector index -------------------------------------------------------------------------------
    def rebuild_index(self) -> int:
        return self._vectors.rebuild()

    def check_index(self) -> dict[str, int]:
        return self._vectors.check()

    def integrity(self) -> list[dict[str, Any]]:
        """Every inconsistency between the rows, the FTS index, the vector index, the embedding model and the
        tag registry; each as {check, problem, count, repair}."""
        return integrity_issues(
            self._writer if self._memory else self._committed(), self.model(), self.check_index()
        )

    def rebuild_fts(self) -> None:
        with self.atomic() as db:  # 'rebuild' would index every row; only searchable ones belong
            db.execute("INSERT INTO memories_fts(memories_fts) VALUES ('delete-all')")
            db.execute(
                "INSERT INTO memories_fts(rowid, content, tags) SELECT rid, unspaced_pairs(content), "
                "unspaced_pairs(tags) FROM memories WHERE searchable = 1"
            )
            # The memory count the term weights use belongs to the text index too.
            db.execute("UPDATE counts SET n = (SELECT count(*) FROM memories) WHERE name = 'memories'")

    def recount_tags(self) -> int:
        """Usage counts from the memories themselves; a registered tag no memory carries is archived."""
        now = ts(utcnow())
        with self.atomic() as db:
            counts = dict(
                db.execute(
                    "SELECT j.value, count(*) FROM memories m, json_each(m.tags) j "
                    "WHERE m.parent_id IS NULL GROUP BY j.value"
                ).fetchall()
            )
            db.executemany(
                "INSERT INTO tags(tag, usage_count, first_used_at, last_used_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(tag) DO UPDATE SET usage_count = excluded.usage_count, status = 'active'",
                [(t, n, now, now) for t, n in counts.items()],
            )
            db.execute(
                "UPDATE tags SET usage_count = 0, status = 'archived' WHERE status = 'active' AND tag NOT IN "
                "(SELECT DISTINCT j.value FROM memories m, json_each(m.tags) j WHERE m.parent_id IS NULL)"
            )
        return len(counts)

    def backup(self, target: Path) -> dict[str, Any]:
        """A consistent copy through SQLite's online backup API, checked by opening it."""
        if target.exists():
            raise StoreError(f"{target} exists; choose a new backup file")
        dest = sqlite3.connect(target)
        try:
            self._committed().backup(dest) if not self._memory else self._writer.backup(dest)
            return verify(dest)
        finally:
            dest.close()

    def restore(self, source: Path) -> dict[str, Any]:
        """Replace this database with a backup, after checking the backup; the vector index is rebuilt."""
        src = _read_only(source)
        try:
            checked = verify(src)
            # The lock: no other thread's transaction is open on the writer while it is replaced.
            with _paged(src, self._writer, self.path) as copy, self._lock:
                if self._depth:
                    raise StoreError("cannot restore inside a transaction")
                copy.backup(self._writer)
        finally:
            src.close()
        self._reads.drop_mine()
        self._migrate()
        self._vectors.forget()
        self.rebuild_index()
        return checked

    def histogram(self, column: str, width: int, where: Filter) -> dict[str, int]:
        if column not in {"created_at", "updated_at", "last_accessed_at"}:
            raise ValueError(f"no timestamp column {column!r}")
        sql, params = where_sql(where, searchable=False)
        rows = self._reader().execute(
            f"SELECT substr(m.{column}, 1, ?) AS bucket, count(*) FROM memories m "
            f"WHERE {sql} AND m.{column} IS NOT NULL GROUP BY bucket ORDER BY bucket",
            (width, *params),
        )
        return {str(bucket): int(n) for bucket, n in rows}

    def tag_counts(self) -> dict[str, int]:
        rows = self._reader().execute(
            "SELECT j.value, count(*) FROM memories m, json_each(m.tags) j WHERE m.parent_id IS NULL GROUP BY 1"
        )
        return {str(tag): int(n) for tag, n in rows}


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)  # a name may hold # or ?


@contextmanager
def _paged(
    src: sqlite3.Connection, store: sqlite3.Connection, path: Path | None
) -> Iterator[sqlite3.Connection]:
    """`src`, or a copy of it in the store's page size: SQLite copies no pages into a database in WAL mode of
    another page size ("attempt to write a readonly database"), and a store made before 16 KB pages, or its
    backups, has 4 KB ones."""
    size = int(store.execute("PRAGMA page_size").fetchone()[0])
    if path is None or int(src.execute("PRAGMA page_size").fetchone()[0]) == size:
        yield src
        return
    with tempfile.TemporaryDirectory(prefix=".engram-restore-", dir=path.parent) as folder:
        copy = Path(folder) / "paged.db"
        src.execute(f"PRAGMA page_size = {size}")
        src.execute("VACUUM INTO ?", (str(copy),))
        paged = _read_only(copy)
        try:
            yield paged
        finally:
            paged.close()
