"""The SQLite store merges its full-text index's segments in bounded steps: by maintenance and when a process that
loaded many rows closes. The searches find the same memories with the same scores before and after; a step
that cannot take the write lock gives up instead of failing the caller."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bench.backends import bulk_records
from engram import FakeEmbedder, Memory
from engram.store.sqlite import upkeep
from engram.store.values import Filter
from tests.test_store_text_split import WORDS

QUERIES = [["boiler"], ["garden", "invoice", "note"], ["tuesday", "sister", "budget", "train"], ["nothing"]]


def texts(n: int, start: int = 0) -> list[str]:
    return [
        " ".join(WORDS[(i * j + j) % len(WORDS)] for j in range(1 + i % 4)) + f" note {i}"
        for i in range(start, start + n)
    ]


def unmerged(path: Path) -> bool:
    """Whether the text index still has segments to merge: a merge command does work (and is rolled back)."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        before = db.total_changes
        db.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('merge', -1000)")
        worked = db.total_changes - before >= 2
        db.execute("ROLLBACK")
        return worked
    finally:
        db.close()


def load(store: Any, embedder: FakeEmbedder, batches: int, size: int = 40) -> None:
    """`batches` transactions of rows: FTS5 writes each one's rows as a segment of its own."""
    for b in range(batches):
        written = texts(size, b * size)
        store.insert(bulk_records(written, b * size), list(embedder.embed_batch(written)))


def answers(store: Any) -> list[list[tuple[str, float]]]:
    return [store.text_search(q, k, Filter()) for q in QUERIES for k in (1, 10, 200)]


def test_merging_keeps_every_answer_and_leaves_one_segment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = FakeEmbedder()
    path = tmp_path / "m.db"
    with Memory(path, embedder=embedder) as mem:
        store: Any = mem.store
        load(store, embedder, 12)
        before = answers(store)
        assert unmerged(path)
        monkeypatch.setattr(upkeep, "MERGE_PAGES", 1)  # a step this small cannot merge it all at once
        assert store.merge_text_index(steps=1) is False
        monkeypatch.undo()
        assert store.merge_text_index() is True
        assert not unmerged(path)
        assert answers(store) == before and len(before[2]) == 200


def test_maintenance_merges_the_text_index(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    path = tmp_path / "m.db"
    with Memory(path, embedder=embedder) as mem:
        load(mem.store, embedder, 8)
        assert unmerged(path)
        mem.maintain()
        assert not unmerged(path)


def test_a_bulk_load_leaves_the_index_merged_when_it_closes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = FakeEmbedder()
    monkeypatch.setattr(upkeep, "MERGE_AFTER_ROWS", 300)
    small, large = tmp_path / "small.db", tmp_path / "large.db"
    with Memory(small, embedder=embedder) as mem:
        load(mem.store, embedder, 5)  # 200 rows: not a bulk load
    assert unmerged(small)
    with Memory(large, embedder=embedder) as mem:
        load(mem.store, embedder, 10)
        assert unmerged(large)
    assert not unmerged(large)


def test_a_step_that_cannot_take_the_write_lock_gives_up(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    path = tmp_path / "m.db"
    with Memory(path, embedder=embedder) as mem:
        load(mem.store, embedder, 6)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process writing
    try:
        from engram.store.sqlite.store import SQLiteStore

        store = SQLiteStore(path, busy_timeout_ms=50)
        try:
            assert store.merge_text_index() is False
        finally:
            store.close()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert unmerged(path)
