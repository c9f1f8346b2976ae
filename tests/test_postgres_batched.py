"""PostgreSQL's write path reads a slice at once: which texts the store holds in one statement
(`known_hashes`), every memory's neighbour search sent together (`labelled_search_many`), the audit entries in
one statement; a bulk write stores what one write at a time stores."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.config import with_schema
from engram.model.record import Scope
from engram.model.vectors import content_hash
from engram.store.postgres.batched import BatchedSearches
from engram.store.postgres.store import PostgresStore
from engram.store.values import Filter
from tests.test_write_batch import _stored
from tests.test_write_slice_search import _bulk, _filled, _text


@pytest.fixture
def two_urls(pg_server: str) -> Iterator[tuple[str, str]]:
    """Two fresh schemas of the test server, dropped afterwards."""
    import psycopg

    schemas = [f"t_{uuid.uuid4().hex[:16]}" for _ in range(2)]
    yield with_schema(pg_server, schemas[0]), with_schema(pg_server, schemas[1])
    with psycopg.connect(pg_server, autocommit=True) as db:
        for schema in schemas:
            db.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE".encode())


def test_a_bulk_write_into_a_filled_store_stores_what_one_write_at_a_time_stores(
    two_urls: tuple[str, str], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(64)
    filled, bulk = _filled(rng)[::2], _bulk(rng)[:60]  # fewer than the SQLite test's: a quicker test
    settings = Settings(home=tmp_path / "home", tag_on_topic=-1)
    batched: list[int] = []
    many = BatchedSearches.labelled_search_many

    def counted(store: BatchedSearches, queries: Any, k: int, wheres: Any) -> Any:
        batched.append(len(queries))
        return many(store, queries, k, wheres)

    monkeypatch.setattr(BatchedSearches, "labelled_search_many", counted)
    known: list[int] = []
    known_hashes = BatchedSearches.known_hashes
    monkeypatch.setattr(
        BatchedSearches,
        "known_hashes",
        lambda s, digests: known.append(len(digests)) or known_hashes(s, digests),
    )
    runs = []
    for name, url in zip(("batch", "single"), two_urls, strict=True):
        with Memory(url, embedder=FakeEmbedder(), settings=settings) as mem:
            mem.remember_many(filled)
            known.clear()
            results = (
                mem.remember_many(bulk)
                if name == "batch"
                else [mem.remember_many([item])[0] for item in bulk]
            )
            if name == "batch":  # the slice's texts were looked up together
                assert max(known) > 8
            audit = [(e["action"], e["detail"]) for e in mem.store.audit_log(limit=2000)]
            rows = _stored(mem, results)
            for row in rows:
                named = [(_text(mem, i), s) for i, s in row["neighbours"]]
                row["neighbours"] = sorted(named, key=lambda hit: (-hit[1], str(hit[0])))
            runs.append((rows, audit))
    (batch, batch_audit), (single, single_audit) = runs
    assert max(batched) > 8  # the slices' searches were sent together
    assert {row["outcome"] for row in batch} >= {"created", "merged"}
    for i, (got, expected) in enumerate(zip(batch, single, strict=True)):
        assert got == expected, f"write {i}: {bulk[i]['content']!r}"
    strip = {"similarity"}  # ids differ between the stores; the rest must match
    assert [
        (a, {k: v for k, v in d.items() if k not in strip and k != "neighbours"}) for a, d in batch_audit
    ] == [(a, {k: v for k, v in d.items() if k not in strip and k != "neighbours"}) for a, d in single_audit]


def test_labelled_search_many_answers_as_each_search_alone(pg_url: str, tmp_path: Any) -> None:
    """Inside a write transaction that has written rows of its own, with filters."""
    rng = random.Random(7)
    with Memory(pg_url, embedder=FakeEmbedder(), settings=Settings(home=tmp_path / "h")) as mem:
        mem.remember_many(_filled(rng))
        store = mem.store
        assert isinstance(store, PostgresStore)
        queries = [
            np.asarray(v, dtype=np.float32)
            for v in FakeEmbedder().embed_batch([b["content"] for b in _bulk(rng)][:40])
        ]
        wheres = [
            Filter(scope=Scope.PROJECT, scope_id="p1") if i % 3 == 0 else Filter()
            for i in range(len(queries))
        ]
        with store.atomic():
            mem.remember_many([{"content": f"Fresh memory {n} about lake {n}"} for n in range(8)])
            alone = [store.labelled_search(q, 8, w) for q, w in zip(queries, wheres, strict=True)]
            together = store.labelled_search_many(queries, 8, wheres)
        assert together == alone
        assert any(len(hits) == 8 for hits in alone)


def test_known_hashes_are_the_stored_rows_hashes(pg_url: str) -> None:
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        mem.remember("The cellar key hangs by the back door")
        mem.remember("Padded text kept as given  ")
        store = mem.store
        assert isinstance(store, PostgresStore)
        held = [
            content_hash("The cellar key hangs by the back door"),
            content_hash("Padded text kept as given"),
        ]
        absent = content_hash("Never written")
        assert store.known_hashes([*held, absent]) == set(held)
        assert store.known_hashes([]) == set()
