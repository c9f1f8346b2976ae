"""A slice's neighbour searches made in one pass of the vector index (`labelled_search_many`) answer what each
search alone answers, and a bulk write into a filled store that uses them stores what one write at a time
stores, memories of one slice that copy each other included."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.model.record import Scope
from engram.store import vectors
from engram.store.sqlite.batched import BatchedSearches
from engram.store.values import Filter
from tests.test_write_batch import STATEMENTS, SUBJECTS, TIMES, _stored

PLACES = ["Lisbon", "Oslo", "Kyoto", "Lima", "Cairo", "Perth", "Quito", "Riga"]
NEAR = 0.5  # below every similarity a write's duplicate or merge decision reads
EXACT = vectors.EXACT_MAX  # the vectors searched exactly, before a test lowers it


def _filled(rng: random.Random) -> list[dict[str, Any]]:
    """Distinct texts for the store to hold before the bulk write."""
    texts = [f"{s.capitalize()} is {t} in {p}" for s in SUBJECTS for t in TIMES for p in PLACES]
    texts += [f"Note {n}: {rng.choice(STATEMENTS)}" for n in range(60)]
    return [
        {"content": t} | ({"scope": "project", "scope_id": "p1"} if i % 7 == 0 else {})
        for i, t in enumerate(texts)
    ]


def _bulk(rng: random.Random) -> list[dict[str, Any]]:
    """New texts, each followed within its slice by near copies of itself (the same words, other punctuation),
    some close to what the store holds."""
    items: list[dict[str, Any]] = []
    for n in range(90):
        if n % 3 == 0:
            text = f"{rng.choice(SUBJECTS).capitalize()} is {rng.choice(TIMES)} in {rng.choice(PLACES)}"
        else:
            text = f"{rng.choice(STATEMENTS)} when in {rng.choice(PLACES)} ({n})"
        items.append({"content": text})
        if n % 4 == 0:  # said again a few memories later, in the same slice
            items.insert(max(0, len(items) - 3), {"content": text + "!"})
    return items


def _text(mem: Memory, name: Any) -> Any:
    record = mem.get(name) if isinstance(name, str) else None
    return name if record is None else record.content


@pytest.mark.parametrize("exact_max", [vectors.EXACT_MAX, 100])
def test_a_bulk_write_into_a_filled_store_stores_what_one_write_at_a_time_stores(
    tmp_path: Path, exact_max: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """exact_max 100: the stored vectors are past the exact scan, in the graph."""
    monkeypatch.setattr(vectors, "EXACT_MAX", exact_max)
    rng = random.Random(64)
    filled, bulk = _filled(rng), _bulk(rng)
    settings = Settings(home=tmp_path / "home", tag_on_topic=-1)
    batched: list[int] = []
    many = BatchedSearches.labelled_search_many

    def counted(store: BatchedSearches, queries: Any, k: int, wheres: Any) -> Any:
        batched.append(len(queries))
        return many(store, queries, k, wheres)

    monkeypatch.setattr(BatchedSearches, "labelled_search_many", counted)
    ready: list[int] = []
    index_ready = BatchedSearches.index_ready
    monkeypatch.setattr(BatchedSearches, "index_ready", lambda s: ready.append(1) or index_ready(s))
    runs = []
    for name in ("batch", "single"):
        path = tmp_path / f"{name}.db"
        with Memory(path, embedder=FakeEmbedder(), settings=settings) as mem:
            mem.remember_many(filled[:-20])
        # The writer opens the store afresh: its vector index is read from its file, then another writer
        # commits rows that index does not hold, which the bulk write catches it up with while it embeds.
        with Memory(path, embedder=FakeEmbedder(), settings=settings) as mem:
            mem.recall("the index loads from its file", touch=False)
            with Memory(path, embedder=FakeEmbedder(), settings=settings) as other:
                other.remember_many(filled[-20:])
            results = (
                mem.remember_many(bulk)
                if name == "batch"
                else [mem.remember_many([item])[0] for item in bulk]
            )
            audit = [(e["action"], e["detail"]) for e in mem.store.audit_log(limit=2000)]
            rows = _stored(mem, results)
            for row in rows:  # the filled store's memories, named by their text
                # ordered by score, then name: two texts that differ in a number alone can tie
                named = [(_text(mem, i), s) for i, s in row["neighbours"]]
                row["neighbours"] = sorted(named, key=lambda hit: (-hit[1], str(hit[0])))
            runs.append((rows, audit))
    (batch, batch_audit), (single, single_audit) = runs
    assert max(batched) > 8  # the slices' searches were made together
    assert ready  # the index was made ready while the model embedded
    assert {row["outcome"] for row in batch} >= {"created", "merged"}
    for i, (got, expected) in enumerate(zip(batch, single, strict=True)):
        if exact_max != EXACT:
            # In the graph, search is approximate: one write at a time finds the call's earlier writes through
            # the graph, a bulk write its own slice exactly, so a far neighbour the graph missed may be in one
            # list only. Every near one (those a duplicate or a merge reads) is in both, with the same score.
            near = [[hit for hit in row.pop("neighbours") if hit[1] >= NEAR] for row in (got, expected)]
            assert near[0] == near[1], f"write {i}: {bulk[i]['content']!r}"
        assert got == expected, f"write {i}: {bulk[i]['content']!r}"
    strip = {"similarity"}  # ids differ between the databases; the rest must match
    assert [
        (a, {k: v for k, v in d.items() if k not in strip and k != "neighbours"}) for a, d in batch_audit
    ] == [(a, {k: v for k, v in d.items() if k not in strip and k != "neighbours"}) for a, d in single_audit]


def test_labelled_search_many_answers_as_each_search_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inside a write transaction that has written vectors of its own, over the graph, with filters."""
    monkeypatch.setattr(vectors, "EXACT_MAX", 100)
    rng = random.Random(7)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path / "h")) as mem:
        mem.remember_many(_filled(rng))
        store = mem.store
        assert isinstance(store, BatchedSearches)
        queries = [
            np.asarray(v, dtype=np.float32)
            for v in FakeEmbedder().embed_batch([b["content"] for b in _bulk(rng)][:40])
        ]
        wheres = [
            Filter(scope=Scope.PROJECT, scope_id="p1") if i % 3 == 0 else Filter()
            for i in range(len(queries))
        ]
        with store.atomic():
            mem.remember_many([{"content": f"Fresh memory {n} about {p}"} for n, p in enumerate(PLACES)])
            alone = [store.labelled_search(q, 8, w) for q, w in zip(queries, wheres, strict=True)]
            together = store.labelled_search_many(queries, 8, wheres)
        assert together == alone
        assert any(len(hits) == 8 for hits in alone)
