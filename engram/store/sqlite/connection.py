"""SQLite connections of the store, and how its writer waits for another process's write.

SQLite's own busy handler waits by polling, at 100 ms intervals after the first few tries. A process that writes
back to back (an import, a batch of remembers) frees the lock only for the short time between two transactions,
so a writer waiting that way can miss every gap until its timeout ("database is locked"), the more so on a busy
machine. The writer therefore waits for `BEGIN IMMEDIATE` itself, trying again every millisecond or two: it takes
the lock in the first gap, and the timeout still bounds the wait.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from engram.lang.text import unspaced_pairs

# Between two tries for the write lock: short enough to take the lock between another process's transactions.
_FIRST_PAUSE_S = 0.0005
_LONGEST_PAUSE_S = 0.002
# No memory map: every connection (one per reading thread) mapped the database on its own, and the resident set
# counts a mapped page once per mapping, so a serving process held the pages its searches touched several times
# over. Without it a connection reads into its own bounded page cache (SQLite's default, 2 MB) and the kernel's
# file cache, which is not in the process's resident set; searches and writes take the same processor time.
MMAP_BYTES = 0
# A serving process reads on one connection per thread (its request workers, the text search's threads), and each
# held up to SQLite's default 2 MB page cache and Python's 128 prepared statements, most of them a search's
# `IN (?, ...)` of one length, used once. A reader's pages come from the kernel's file cache when evicted, so a
# reader keeps a smaller cache and fewer statements; the writer keeps SQLite's defaults.
READER_CACHE_KB = 512
READER_STATEMENTS = 32


def create_private(path: Path) -> None:
    """A new database file readable by its owner only: SQLite would make it (and its -wal and -shm files, which
    copy the database's mode) readable by every account under the usual umask. An existing file keeps its mode."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def connect(target: str, timeout_ms: int, *, on_disk: bool, writer: bool) -> sqlite3.Connection:
    """A connection with the store's settings. The writer's busy timeout is 0: `begin` waits for the write lock
    (readers keep SQLite's, which WAL mode rarely needs)."""
    db = sqlite3.connect(
        target,
        isolation_level=None,
        check_same_thread=False,
        timeout=timeout_ms / 1000,
        cached_statements=READER_STATEMENTS if on_disk and not writer else 128,
    )
    db.execute(f"PRAGMA busy_timeout = {int(timeout_ms)}")
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA secure_delete = ON")  # deleted text is overwritten, not left in free space
    # The full-text triggers index Chinese and Japanese as character pairs (engram.lang.text).
    db.create_function("unspaced_pairs", 1, unspaced_pairs, deterministic=True)
    if on_disk:
        # Before WAL: only a new database takes it. A memory's row (its float32 vector, text and scores) is
        # about 2.8 KB, so a 4 KB page held one and left a third of itself empty; a 16 KB page holds five.
        db.execute("PRAGMA page_size = 16384")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
    if writer:
        db.execute("PRAGMA busy_timeout = 0")
    elif on_disk:
        db.execute(f"PRAGMA cache_size = -{READER_CACHE_KB}")
    return db


def begin(db: sqlite3.Connection, timeout_ms: int, clock: Callable[[], float] = time.monotonic) -> None:
    """BEGIN IMMEDIATE, waiting up to `timeout_ms` for another process's write transaction to end."""
    deadline = clock() + timeout_ms / 1000
    pause = _FIRST_PAUSE_S
    while True:
        try:
            db.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if getattr(exc, "sqlite_errorcode", None) != sqlite3.SQLITE_BUSY or clock() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, _LONGEST_PAUSE_S)


def migrated(db: sqlite3.Connection, names: Iterable[str]) -> bool:
    """Whether every migration is recorded already: then opening needs no write lock."""
    try:
        done = {str(n) for (n,) in db.execute("SELECT name FROM migrations")}
    except sqlite3.OperationalError:
        return False  # a new database: no migrations table yet
    return done == set(names)  # one it does not know is refused by the migration itself


class _Held:
    """A thread's read connection, in an object the store can reach weakly: it goes when its thread ends."""

    __slots__ = ("__weakref__", "db")

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db


class ThreadReads:
    """One read connection per thread, every one closed with the store: left to the garbage collector, the
    connections of the store's other threads (a recall's reader, a server's workers) kept the write-ahead log
    beside a closed store, and a copy of the database taken then missed its last writes."""

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self._connect = connect
        self._local = threading.local()
        self._all: weakref.WeakSet[_Held] = weakref.WeakSet()
        self._lock = threading.Lock()

    def get(self) -> sqlite3.Connection:
        """This thread's read connection: it sees only committed data."""
        held: _Held | None = getattr(self._local, "held", None)
        if held is None:
            db = self._connect()
            db.execute("PRAGMA query_only = ON")
            held = self._local.held = _Held(db)
            with self._lock:
                self._all.add(held)
        return held.db

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """This thread's reads, until the block ends, see the database as it was when it began: one read
        transaction, which in WAL mode no writer waits for (a checkpoint stops short of it until it ends)."""
        db = self.get()
        if db.in_transaction:  # an outer snapshot of this thread holds already
            yield
            return
        db.execute("BEGIN")
        try:
            db.execute("SELECT count(*) FROM sqlite_schema").fetchone()  # the moment: its first read
            yield
        finally:
            with contextlib.suppress(sqlite3.ProgrammingError):  # closed in the block (a restore) ends it too
                db.execute("ROLLBACK")

    def drop_mine(self) -> None:
        """Close this thread's connection; its next read opens another."""
        held: _Held | None = getattr(self._local, "held", None)
        if held is not None:
            self._local.held = None
            held.db.close()

    def close(self) -> None:
        """Close every thread's connection."""
        with self._lock:
            every = list(self._all)
            self._all.clear()
        for held in every:
            held.db.close()
        self._local = threading.local()
