"""A store's read connections (one per reading thread: a server's workers, the text search's threads) keep a
smaller page cache than the writer: each held SQLite's default 2 MB, and their pages come from the kernel's file
cache when evicted."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from engram.store.sqlite.connection import READER_CACHE_KB, connect
from engram.store.sqlite.store import SQLiteStore


def _cache_kb(db: object) -> int:
    (value,) = db.execute("PRAGMA cache_size").fetchone()  # type: ignore[attr-defined]
    return -int(value)


def test_readers_keep_a_smaller_page_cache_than_the_writer(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    try:
        writer = _cache_kb(store._writer)
        with ThreadPoolExecutor(2) as workers:
            readers = list(workers.map(lambda _: _cache_kb(store._committed()), range(2)))
        assert readers == [READER_CACHE_KB, READER_CACHE_KB]
        assert writer == 2000  # SQLite's default, kept for the writer
        assert writer > READER_CACHE_KB
    finally:
        store.close()
    in_memory = connect(
        ":memory:", 1000, on_disk=False, writer=False
    )  # one connection holds the whole database
    try:
        assert _cache_kb(in_memory) == 2000
    finally:
        in_memory.close()
