"""The SQLite text search reads the rows of its best k matches first and the rest of its wider list only when some
of those fail the filter: the answer is the one a read of every match gives (the best k allowed, in order)."""

from __future__ import annotations

from pathlib import Path

from bench.backends import bulk_records
from engram import FakeEmbedder, Memory
from engram.model.record import Scope
from engram.store.values import Filter
from tests.rowreads import rows_read


def test_only_the_best_k_rows_are_read_when_all_pass(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        texts = [f"the lighthouse keeper wrote entry {i}" + " lighthouse" * (i % 5) for i in range(60)]
        mem.store.insert(bulk_records(texts, 0), list(FakeEmbedder().embed_batch(texts)))  # type: ignore[attr-defined]
        every = mem.store.text_search(["lighthouse"], 100, Filter())
        assert len(every) == 60
        reads = rows_read(mem.store)
        hits = mem.store.text_search(["lighthouse"], 20, Filter())
        assert hits == every[:20]
        assert reads == [20]  # not the 30 the search asked the index for


def test_rows_failing_the_filter_are_made_up_from_the_rest(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        texts = [f"the lighthouse keeper wrote entry {i}" + " lighthouse" * (i % 5) for i in range(60)]
        records = bulk_records(texts, 0)
        # every third memory in a project: a search of the global scope must skip it
        records = [
            r.model_copy(update={"scope": Scope.PROJECT, "scope_id": "p"}) if i % 3 == 0 else r
            for i, r in enumerate(records)
        ]
        mem.store.insert(records, list(FakeEmbedder().embed_batch(texts)))  # type: ignore[attr-defined]
        every = mem.store.text_search(["lighthouse"], 100, Filter())
        shared = {r.id for r in records if r.scope is Scope.GLOBAL}
        reads = rows_read(mem.store)
        hits = mem.store.text_search(["lighthouse"], 20, Filter(scope=Scope.GLOBAL))
        assert hits == [h for h in every if h[0] in shared][:20]
        assert reads == [20, 10]  # the best 20, some of them in the project: then the other 10 of the 30
        facts = mem.store.text_facts(["lighthouse"], 20, Filter(scope=Scope.GLOBAL))  # type: ignore[attr-defined]
        assert [(f.id, s) for f, s in facts] == hits
