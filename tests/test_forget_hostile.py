"""A forget racing other connections to one SQLite file: another process holding a read snapshot (a long export, a
backup, a listing) while a third writes."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings

SECRET = "quetzalsecretword"


def test_a_forget_beside_a_long_reader_blocks_no_writer_and_leaves_no_trace(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, busy_timeout_ms=1500)
    db = tmp_path / "shared.db"
    with (
        Memory(db, embedder=FakeEmbedder(), settings=settings) as forgetting,
        Memory(db, embedder=FakeEmbedder(), settings=settings) as other,
    ):
        for i in range(20):
            forgetting.remember(f"an ordinary memory number {i} about subject {i}")
        secret = forgetting.remember(f"the {SECRET} is kept in this memory")
        other.remember("the other writer's first memory")
        reader = sqlite3.connect(db, check_same_thread=False)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM memories").fetchone()  # a snapshot from before the forget
        forget = threading.Thread(target=forgetting.forget, args=(secret.id,))
        forget.start()
        probe = sqlite3.connect(db, timeout=0)
        # Wait until the forget has committed and still holds the writer lock: it is settling the log.
        while forget.is_alive():
            gone = (
                probe.execute("SELECT count(*) FROM memories WHERE id = ?", (secret.id,)).fetchone()[0] == 0
            )
            try:
                probe.execute("BEGIN IMMEDIATE")
                probe.rollback()
            except sqlite3.OperationalError:
                if gone:
                    break
        probe.close()
        try:
            other.remember("a memory written while the forget settles")  # failed: database is locked
        finally:
            reader.rollback()
            reader.close()
            forget.join()
        other.remember("a memory written after the reader let go")
        wal = db.with_name(db.name + "-wal")
        # Eventually, not at once: the write's own checkpoint finds the forgetting store's deferred one under way
        # (busy) when the two meet, and leaves the log to it; a loaded machine made them meet.
        deadline = time.monotonic() + 120
        while (held := SECRET.encode() in (wal.read_bytes() if wal.exists() else b"")) and (
            time.monotonic() < deadline
        ):
            time.sleep(0.05)
        assert not held, "the write-ahead log still holds the forgotten text"


def test_the_log_holds_no_trace_once_a_reader_that_held_it_lets_go(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, busy_timeout_ms=500)
    db = tmp_path / "shared.db"
    with Memory(db, embedder=FakeEmbedder(), settings=settings) as mem:
        for i in range(20):
            mem.remember(f"an ordinary memory number {i} about subject {i}")
        secret = mem.remember(f"the {SECRET} is kept in this memory")
        reader = sqlite3.connect(db)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM memories").fetchone()
        mem.forget(secret.id)
        reader.rollback()
        reader.close()
        mem.remember("a memory written after the reader let go")
        assert SECRET not in str([r.content for r in mem.list(limit=100)])
        wal = db.with_name(db.name + "-wal")
        held = SECRET.encode() in (wal.read_bytes() if wal.exists() else b"")
        assert not held, "the write-ahead log still holds the forgotten text"


def test_the_vector_file_holds_no_copy_of_a_forgotten_memorys_embedding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import numpy as np

    from engram.store import vectors

    monkeypatch.setattr(
        vectors, "EXACT_MAX", 40
    )  # the graph, which a store past 20,000 memories keeps on disk
    embedder = FakeEmbedder()
    text = f"the {SECRET} is kept in this memory"
    with Memory(tmp_path / "m.db", embedder=embedder, settings=Settings(home=tmp_path)) as mem:
        for i in range(60):
            mem.remember(f"an ordinary memory number {i} about subject {i}")
        secret = mem.remember(text)
        mem.recall("subject")
        mem.forget(secret.id)
        mem.recall("subject")
    saved = vectors.VectorIndex.load(tmp_path / "m.db.vectors", embedder.dim)
    graph = saved._index._index  # every slot the file holds, live or dead
    held = np.asarray(graph.reconstruct_n(0, graph.ntotal), dtype=np.float32)
    forgotten = np.asarray(embedder.embed_batch([text])[0], dtype=np.float32)
    cosines = held @ forgotten / (np.linalg.norm(held, axis=1) * np.linalg.norm(forgotten))
    assert len(saved) == 60
    assert float(cosines.max()) < 0.99, "the file still holds the forgotten memory's embedding"
