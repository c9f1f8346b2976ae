"""A forgotten memory's vector leaves the vector graph's file beside the database, not only the graph in memory.

The file was written when the store closed: a server that ran for days after a forget kept the forgotten
memory's codes on disk all that time, and a process killed after a forget left them there until some later
process closed the store. The graph is now saved again a moment after a forget, and a process that loads a
file holding vectors removed since saves it at once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.store import vectors
from engram.store.sqlite import index as index_file
from engram.store.vectors import VectorIndex

ROOT = Path(__file__).resolve().parents[1]


def _saved(db: Path) -> int:
    """How many vectors the graph's file holds."""
    return len(VectorIndex.load(Path(f"{db}.vectors"), FakeEmbedder().dim))


def _store(db: Path, settings: Settings) -> tuple[str, int]:
    with Memory(db, embedder=FakeEmbedder(), settings=settings) as mem:
        mem.remember_many([{"content": f"note {i} about the garden shed and the kitchen"} for i in range(60)])
        secret = mem.remember("the alarm code is 4417 at the back door").id
        assert mem.recall("alarm code", limit=1)  # the graph catches up with it before it is saved
    held = _saved(db)
    assert held > 41  # closing saved the graph
    return secret, held


@pytest.fixture
def graph(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors, "EXACT_MAX", 40)  # a graph from 41 vectors on, saved as `<db>.vectors`


def test_a_forget_is_saved_to_the_graphs_file_while_the_store_stays_open(
    graph: None, tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_file, "SAVE_AFTER_FORGET_S", 0.05)
    db = tmp_path / "m.db"
    secret, held = _store(db, settings)
    with Memory(db, embedder=FakeEmbedder(), settings=settings) as mem:
        assert mem.recall("garden shed", limit=3)  # the graph loaded from its file
        mem.forget(secret)
        deadline = time.monotonic() + 60
        while _saved(db) != held - 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _saved(db) == held - 1  # before the store closes
        assert [h.record.id for h in mem.recall("garden shed", limit=3)]


def test_a_file_left_by_a_process_killed_after_a_forget_is_saved_on_the_next_load(
    graph: None, tmp_path: Path, settings: Settings
) -> None:
    db = tmp_path / "m.db"
    secret, held = _store(db, settings)
    script = f"""
import os
from engram import FakeEmbedder, Memory, Settings
from engram.store import vectors
from engram.store.sqlite import index
vectors.EXACT_MAX = 40
index.SAVE_AFTER_FORGET_S = 3600  # the process dies first
mem = Memory({str(db)!r}, embedder=FakeEmbedder(), settings=Settings(home={str(settings.home)!r}, tag_on_topic=-1))
mem.recall("garden shed", limit=3)
mem.forget({secret!r})
os._exit(0)
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert _saved(db) == held  # the dead process never saved
    with Memory(db, embedder=FakeEmbedder(), settings=settings) as mem:
        assert mem.recall("garden shed", limit=3)
        assert _saved(db) == held - 1  # saved on loading, not only when this process closes
