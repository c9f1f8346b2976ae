"""A vector search of a small (exactly scanned) index reads the rows of its best k hits first and the rest of its
wider list only when some of those fail the filter; a graph's hits are all read, to be ranked by their exact
cosines. Either way the answer is the one a read of every hit gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.backends import bulk_records
from engram import FakeEmbedder, Memory
from engram.model.record import Scope
from engram.model.vectors import Vector
from engram.store import vectors
from engram.store.values import Filter
from tests.rowreads import rows_read

TEXTS = [
    f"the lighthouse keeper wrote entry {i} about {('storms', 'ships', 'gulls')[i % 3]}" for i in range(150)
]


def _filled(mem: Memory, project_every: int = 0) -> set[str]:
    """TEXTS stored; every `project_every`-th in a project (none if 0). The ids in the global scope."""
    records = bulk_records(TEXTS, 0)
    if project_every:
        records = [
            r.model_copy(update={"scope": Scope.PROJECT, "scope_id": "p"}) if i % project_every == 0 else r
            for i, r in enumerate(records)
        ]
    mem.store.insert(records, list(FakeEmbedder().embed_batch(TEXTS)))
    return {r.id for r in records if r.scope is Scope.GLOBAL}


def _query() -> Vector:
    query: Vector = FakeEmbedder().embed_batch(["a keeper's entry about storms and ships"])[0]
    return query


def test_an_exact_index_reads_only_the_best_k_rows_when_all_pass(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        _filled(mem)
        every = mem.store.vector_search(_query(), 150, Filter())
        assert len(every) == 150
        reads = rows_read(mem.store)
        facts = mem.store.vector_facts(_query(), 20, Filter())
        assert [s for _, s in facts] == [s for _, s in every[:20]]
        assert reads == [20]  # not the 30 the search asked the index for


def test_an_exact_index_makes_up_rows_failing_the_filter_from_the_rest(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        shared = _filled(mem, project_every=3)
        every = mem.store.vector_search(_query(), 150, Filter())
        reads = rows_read(mem.store)
        hits = mem.store.vector_search(_query(), 20, Filter(scope=Scope.GLOBAL))
        # the best 20 allowed cosines (near ties of the fake embedder may come in either order)
        assert [s for _, s in hits] == [s for i, s in every if i in shared][:20]
        assert {i for i, _ in hits} <= shared
        assert reads[:2] == [20, 10]  # the best 20, some of them in the project: then the other 10 of the 30


def test_a_graph_reads_every_hit_it_ranks_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors, "EXACT_MAX", 100)  # the graph answers from 101 vectors on
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        _filled(mem)
        assert not mem.store._vectors.synced().exact  # type: ignore[attr-defined]
        reads = rows_read(mem.store)
        mem.store.vector_facts(_query(), 20, Filter())
        assert reads == [30]
