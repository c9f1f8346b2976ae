"""The SQLite text search scores by bm25 only the rows of a query's rarer words (`search.ROWS_SCORED` in all,
the rarest always), and the document frequencies it and recall read are cached per reader until the database
changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.backends import bulk_records
from engram import FakeEmbedder, Memory
from engram.model.record import Status
from engram.store.sqlite import search
from engram.store.values import Filter


def _store(mem: Memory, texts: list[str], start: int = 0) -> list[str]:
    records = bulk_records(texts, start)
    store: Any = mem.store
    store.insert(records, list(FakeEmbedder().embed_batch(texts)))
    return [r.id for r in records]


def test_the_commonest_words_are_left_out_past_the_budget(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On both backends: PostgreSQL scores its text search within the same budget."""
    common = _store(mem, [f"the weather report number {i}" for i in range(40)])
    rare = _store(mem, ["a zeppelin report", "the zeppelin landed"], 40)
    both = ["report", "zeppelin"]
    found = {i for i, _ in mem.store.text_search(both, 100, Filter())}
    assert found == set(common) | set(rare)  # within the budget: every word searched
    monkeypatch.setattr(search, "ROWS_SCORED", 10)
    found = {i for i, _ in mem.store.text_search(both, 100, Filter())}
    assert found == set(rare)  # "report" (41 memories) is past it; "zeppelin" (2) is not
    # the rarest word is searched whatever its count
    assert {i for i, _ in mem.store.text_search(["weather", "report"], 100, Filter())} == set(common)
    # a word no memory holds costs nothing and stays in the search
    assert {i for i, _ in mem.store.text_search(["blimp", "zeppelin"], 100, Filter())} == set(rare)


def test_a_quoted_word_counts_as_often_as_its_rarest_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        _store(mem, [f"report {i} filed" for i in range(30)])
        pair = _store(mem, ["the wi-fi report"], 30)
        monkeypatch.setattr(search, "ROWS_SCORED", 5)
        # "wi-fi" is read as the phrase "wi fi": one memory, so it is searched and "report" (31) is not
        assert [i for i, _ in mem.store.text_search(["report", "wi-fi"], 100, Filter())] == pair


def test_document_frequencies_follow_every_commit(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        store: Any = mem.store
        (first,) = _store(mem, ["a zeppelin over the garden"])
        assert store.document_frequencies(["zeppelin", "garden", "blimp"]) == (
            1,
            {"zeppelin": 1, "garden": 1},
        )
        _store(mem, ["a blimp over the garden"], 1)  # committed by the writer, another connection
        assert store.document_frequencies(["zeppelin", "garden", "blimp"]) == (
            2,
            {"zeppelin": 1, "garden": 2, "blimp": 1},
        )
        with store.atomic():
            _store(mem, ["a garden shed"], 2)
            # inside the write its own reads see what it has not committed, and are not kept
            assert store.document_frequencies(["garden"]) == (3, {"garden": 3})
            assert store.document_frequencies(["shed"]) == (3, {"shed": 1})
        assert store.document_frequencies(["garden", "shed"]) == (3, {"garden": 3, "shed": 1})
        mem.forget(first)
        assert store.document_frequencies(["zeppelin", "garden"]) == (2, {"garden": 2})


def test_only_a_search_of_many_rows_is_split_in_two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        store: Any = mem.store
        _store(mem, [f"the weather report number {i}" for i in range(40)] + ["a zeppelin report"])
        monkeypatch.setattr(search, "SPLIT_FROM", 30)
        monkeypatch.setattr(search, "ROWS_SCORED", 10)
        assert len(store.text_search(["report", "zeppelin"], 100, Filter())) == 1  # one row: one thread
        assert store._half is None
        # the rarest word is searched whatever its count: 41 rows, split
        assert len(store.text_search(["report"], 100, Filter())) == 41 and store._half is not None


def test_the_text_search_with_facts_finds_what_it_finds_with_the_facts_read_by_id(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        ids = _store(mem, [f"the weather report number {i}" for i in range(40)])
        store: Any = mem.store
        for record in store.get_many(ids[::2]):  # the default filter leaves half of them out
            store.update(record.model_copy(update={"status": Status.REJECTED}))
        # the best few; more than pass the filter among the first read (the second query); more than there are
        for k in (5, 18, 100):
            plain = store.text_search(["weather", "report"], k, Filter())
            with_facts = store.text_facts(["weather", "report"], k, Filter())
            assert [(f.id, s) for f, s in with_facts] == plain
            by_id = {f.id: f for f in store.facts([i for i, _ in plain])}
            for facts, _ in with_facts:
                expected = by_id[facts.id]
                assert facts.content == expected.content and facts.created_at == expected.created_at
                assert facts.vector is not None and expected.vector is not None
                assert facts.vector.tolist() == expected.vector.tolist()
            assert len(with_facts) == min(k, 20) and not {f.id for f, _ in with_facts} & set(ids[::2])
