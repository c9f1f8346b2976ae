"""The SQLite store over a graph index of 8-bit codes: exact answers from approximate scores, old files rebuilt,
large catch-ups taken in steps."""

from __future__ import annotations

import gc
import sqlite3
import weakref
from contextlib import closing
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from engram import FakeEmbedder, Memory
from engram.store import vectors
from engram.store.sqlite import index as index_file
from engram.store.values import Filter

N = 600


def fill(mem: Memory) -> None:
    places = ("garden", "kitchen", "roof")
    mem.remember_many([{"content": f"note {i} about the {places[i % 3]} and item {i * 7}"} for i in range(N)])


def stored(path: Path) -> dict[str, npt.NDArray[np.float32]]:
    """Every searchable memory's vector, as the database keeps it."""
    with closing(sqlite3.connect(path)) as db:
        rows = db.execute("SELECT id, embedding FROM memories WHERE embedding IS NOT NULL AND searchable = 1")
        return {i: np.frombuffer(b, dtype="<f4") for i, b in rows}


def test_a_graph_of_8_bit_codes_still_gives_the_exact_top_hits_and_cosines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectors, "EXACT_MAX", 100)  # the graph answers from 101 vectors on
    with Memory(tmp_path / "g.db", embedder=FakeEmbedder()) as mem:
        fill(mem)
        mem.recall("warm", touch=False)
        assert mem.store._vectors.synced()._small is None  # type: ignore[attr-defined]
        every = stored(tmp_path / "g.db")
        ids = list(every)
        matrix = np.stack([every[i] / np.linalg.norm(every[i]) for i in ids])
        for text in [
            "the garden and item 70",
            "kitchen item 3",
            "roof",
            "note 599",
            "something else entirely",
        ]:
            q = mem.embedder.embed_batch([text])[0]
            hits = mem.store.vector_search(q, 10, Filter(scope=None))
            exact = matrix @ (q / np.linalg.norm(q))
            order = np.argsort(-exact, kind="stable")[:10]
            assert [i for i, _ in hits][:5] == [ids[j] for j in order][:5]
            # the best ten cosines of all, each the true one of the memory it names (a near tie may swap places)
            assert [s for _, s in hits] == pytest.approx([float(exact[j]) for j in order], abs=1e-5)
            assert [s for _, s in hits] == pytest.approx(
                [float(exact[ids.index(i)]) for i, _ in hits], abs=1e-6
            )


def test_an_index_file_of_the_float32_graph_format_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectors, "EXACT_MAX", 100)
    path = tmp_path / "old.db"
    with Memory(path, embedder=FakeEmbedder()) as mem:
        fill(mem)
        first = mem.recall("garden item 7", mode="ranked", limit=3, touch=False)
    file = path.with_name(path.name + ".vectors")
    blob = bytearray(file.read_bytes())
    assert blob[8] == 4
    blob[8] = 3  # the format number of the float32 graph written by earlier versions
    file.write_bytes(bytes(blob))
    with Memory(path, embedder=FakeEmbedder()) as mem:
        assert mem.stats()["index"] == {"indexed": N, "embedded": N}
        again = mem.recall("garden item 7", mode="ranked", limit=3, touch=False)
        assert [h.record.id for h in again] == [h.record.id for h in first]
    assert file.read_bytes()[8] == 4  # written again in today's format


def test_an_index_catches_up_with_many_writes_a_step_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_file, "_CATCH_UP_STEP", 7)
    monkeypatch.setattr(vectors, "EXACT_MAX", 100)
    path = tmp_path / "c.db"
    emb = FakeEmbedder()
    with Memory(path, embedder=emb) as first:
        first.remember("a first memory")
        first.recall("first", touch=False)  # loaded before the others write
        with Memory(path, embedder=emb) as second:
            fill(second)
            gone = second.remember("a memory that will be forgotten").id
            second.forget(gone)
        assert first.stats()["index"] == {"indexed": N + 1, "embedded": N + 1}
        q = emb.embed_batch(["note 123 about the garden and item 861"])[0]
        assert first.store.vector_search(q, 1, Filter(scope=None))[0][1] == pytest.approx(1.0, abs=1e-5)


def test_a_small_index_writes_no_file_and_is_read_from_the_database(tmp_path: Path) -> None:
    path = tmp_path / "small.db"
    with Memory(path, embedder=FakeEmbedder()) as mem:
        ids = [mem.remember(f"memory about topic {i} and thing {i * 3}").id for i in range(20)]
        mem.recall("topic 3", mode="ranked", touch=False)
    assert not path.with_name(path.name + ".vectors").exists()  # the database holds the only copy
    with Memory(path, embedder=FakeEmbedder()) as mem:
        assert mem.stats()["index"] == {"indexed": 20, "embedded": 20}
        assert mem.recall("topic 3 thing 9", mode="ranked", limit=1, touch=False)[0].record.id == ids[3]


def test_a_new_database_has_pages_that_hold_several_memories(tmp_path: Path) -> None:
    path = tmp_path / "pages.db"
    with Memory(path, embedder=FakeEmbedder()) as mem:
        mem.remember("one memory")
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA page_size").fetchone()[0] == 16384


def test_a_graph_that_removals_made_small_is_rebuilt_with_exact_cosines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectors, "EXACT_MAX", 100)
    path = tmp_path / "shrunk.db"
    with Memory(path, embedder=FakeEmbedder()) as mem:
        fill(mem)
        mem.recall("warm", touch=False)
    monkeypatch.setattr(vectors, "EXACT_MAX", 1_000)  # as if most memories had been forgotten since
    with Memory(path, embedder=FakeEmbedder()) as mem:
        index = mem.store._vectors.synced()  # type: ignore[attr-defined]
        assert index.exact and len(index) == N
        q = mem.embedder.embed_batch(["note 4 about the kitchen and item 28"])[0]
        assert mem.store.vector_search(q, 1, Filter(scope=None))[0][1] == pytest.approx(1.0, abs=1e-6)


def test_a_small_store_never_imports_faiss(tmp_path: Path) -> None:
    """The graph (and faiss with it) is made only when the index outgrows the exact scan: a process that writes,
    saves, reopens and searches a small store has not imported faiss; one whose index outgrows the scan has."""
    script = """
import sys
from pathlib import Path

from engram import FakeEmbedder, Memory
from engram.store import vectors

path, limit = Path(sys.argv[1]), int(sys.argv[2])
vectors.EXACT_MAX = limit
for _ in range(2):  # the second open loads the saved index
    with Memory(path, embedder=FakeEmbedder()) as mem:
        mem.remember_many([{"content": f"note {i} about the garden"} for i in range(40)])
        assert mem.recall("garden", touch=False)
print("faiss" in sys.modules)
"""
    import subprocess
    import sys

    def imported(limit: int, name: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", script, str(tmp_path / name), str(limit)],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        return done.stdout.strip()

    assert imported(20_000, "small.db") == "False"
    assert imported(30, "large.db") == "True"


def test_a_closed_store_lets_its_vector_index_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a caller that keeps a closed Memory (a variable still in scope) and opens the store again held two graphs
    monkeypatch.setattr(vectors, "EXACT_MAX", 100)
    mem = Memory(tmp_path / "g.db", embedder=FakeEmbedder())
    fill(mem)
    mem.recall("warm", touch=False)
    held = weakref.ref(mem.store._vectors.synced())  # type: ignore[attr-defined]
    mem.close()
    gc.collect()
    assert held() is None
    with Memory(tmp_path / "g.db", embedder=FakeEmbedder()) as again:
        assert again.recall("kitchen item 3", touch=False)  # the saved file serves the next open
        assert (tmp_path / "g.db.vectors").exists()
