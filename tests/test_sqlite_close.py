"""Closing a store closes every thread's read connection, not only the closing thread's: left to the garbage
collector, a live worker's connection kept the write-ahead log beside the closed database, so a copy of the
database file taken then missed the last writes."""

from __future__ import annotations

import gc
import shutil
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from engram import FakeEmbedder, Memory
from engram.store.sqlite.store import SQLiteStore


def test_closing_a_store_closes_the_read_connections_of_threads_still_alive(tmp_path: Path) -> None:
    workers = ThreadPoolExecutor(2)  # outlives the store, as a server's worker threads do
    try:
        mem = Memory(tmp_path / "m.db", embedder=FakeEmbedder())
        ids = [mem.remember(f"note {i} about the garden shed").id for i in range(5)]
        assert len(workers.submit(mem.list).result()) == 5  # a read on a worker thread opens its connection
        assert workers.submit(lambda: mem.get(ids[0]).id).result() == ids[0]
        mem.close()
        assert not (tmp_path / "m.db-wal").exists()  # the last connection closed: the log went into the file
        shutil.copy(tmp_path / "m.db", tmp_path / "copy.db")  # the file alone holds every write
        copy = sqlite3.connect(tmp_path / "copy.db")
        try:
            assert copy.execute("SELECT count(*) FROM memories").fetchone()[0] == 5
        finally:
            copy.close()
    finally:
        workers.shutdown()


def test_a_thread_that_ends_leaves_no_connection_behind(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.remember("the shed key is under the blue pot")
        for _ in range(3):
            with ThreadPoolExecutor(1) as once:
                assert len(once.submit(mem.list).result()) == 1
        gc.collect()
        assert isinstance(store := mem.store, SQLiteStore)
        assert len(list(store._reads._all)) <= 1  # at most the reads of a thread still alive
        mem.remember("the ladder is in the garage")  # the store still writes and reads after those threads
        assert len(mem.list()) == 2
