"""The PostgreSQL store at scale: bulk inserts in one COPY with the vector index built after them, term statistics
kept per statement, half-precision graph order with exact cosines, and the text search's row budget (tests/test_store_text_budget.py, on both backends)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from bench.backends import bulk_records
from engram import FakeEmbedder, Memory
from engram.store.postgres.search import LABELS, nearest_sql
from engram.store.postgres.store import PostgresStore
from engram.store.values import Filter


def _word(n: int) -> str:
    return "".join("abcdefghij"[int(d)] for d in str(n))


def _insert(mem: Memory, texts: list[str], start: int = 0) -> list[str]:
    records = bulk_records(texts, start)
    store: Any = mem.store
    store.insert(records, list(FakeEmbedder().embed_batch(texts)))
    return [r.id for r in records]


def _lexicon(store: PostgresStore) -> tuple[dict[str, int], tuple[int, int]]:
    kept = {str(t): int(n) for t, n in store._all("SELECT term, df FROM lexicon WHERE df <> 0")}
    corpus = store._one("SELECT docs, total_len FROM corpus")
    assert corpus is not None
    return kept, (int(corpus[0]), int(corpus[1]))


def _recounted(store: PostgresStore) -> tuple[dict[str, int], tuple[int, int]]:
    real = store._all(
        "SELECT t, count(*) FROM memories, unnest(tsvector_to_array(tsv)) t WHERE searchable GROUP BY t"
    )
    row = store._one(
        "SELECT count(*), coalesce(sum(length(tsv)), 0) FROM memories WHERE searchable AND tsv IS NOT NULL"
    )
    assert row is not None
    return {str(t): int(n) for t, n in real}, (int(row[0]), int(row[1]))


def test_a_bulk_load_is_indexed_and_counted_as_rows_one_by_one_would_be(pg_url: str) -> None:
    texts = [
        f"note {_word(i * 7919)} about topic {_word(i % 37)} and garden {_word(i % 11)}" for i in range(1500)
    ]
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        store = mem.store
        assert isinstance(store, PostgresStore)
        ids = _insert(mem, texts)  # into an empty store: the graph is built after the rows
        _insert(mem, [*texts[:5], "one more about the garden"], 1500)  # a small insert: the graph takes it
        assert _lexicon(store) == _recounted(store)
        assert mem.stats()["index"] == {"indexed": 1506, "embedded": 1506}
        assert mem.validate_storage()["issues"] == []
        # updates and deletes are counted too, each statement once
        mem.update(ids[0], tags=["orchard"])
        mem.forget(ids[1])
        with store.atomic() as db:
            db.execute(b"UPDATE memories SET searchable = FALSE WHERE id = ANY(%s)", (ids[2:40],))
            db.execute(
                b"UPDATE memories SET access_count = access_count + 1 WHERE id = ANY(%s)", (ids[40:80],)
            )
        assert _lexicon(store) == _recounted(store)
        query = FakeEmbedder().embed_batch([texts[100]])[0]
        assert mem.store.vector_search(query, 1, Filter())[0][0] == ids[100]


def test_vector_hits_carry_exact_cosines_in_their_order(pg_url: str) -> None:
    texts = [f"memo {_word(i * 104729)} on {_word(i % 13)} matters" for i in range(60)]
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        ids = _insert(mem, texts)
        vectors = FakeEmbedder().embed_batch(texts)
        query = FakeEmbedder().embed_batch([f"memo on {_word(5)} matters"])[0]
        hits = mem.store.vector_search(query, 10, Filter())
        unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        exact = unit @ (query / np.linalg.norm(query))
        # the ten best cosines, best first (ties in any order), each the hit's own
        assert [s for _, s in hits] == pytest.approx(sorted(exact.tolist(), reverse=True)[:10], abs=1e-6)
        assert [s for _, s in hits] == pytest.approx([float(exact[ids.index(i)]) for i, _ in hits], abs=1e-6)


def test_classifier_scores_are_kept_as_the_blob_and_read_back_as_written(pg_url: str) -> None:
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        store = mem.store
        assert isinstance(store, PostgresStore)
        fine = {"whole.note": 0.2311, "opening.task": 0.3289, "readout.knowledge": 0.1}
        odd = {"whole.note": 0.23111, "count": 3}  # more decimals and an integer: the blob cannot hold them
        records = bulk_records(["scored as a blob", "scored as JSON", "written before the blob"])
        records = [
            records[0].model_copy(update={"kind_scores": fine}),
            records[1].model_copy(update={"kind_scores": odd}),
            records[2].model_copy(update={"kind_scores": fine}),
        ]
        store.insert(records, list(FakeEmbedder().embed_batch([r.content for r in records])))
        with store.atomic() as db:  # a row as the JSONB column became when the column turned to bytes
            db.execute(
                b"UPDATE memories SET kind_scores = convert_to(%s, 'UTF8') WHERE id = %s",
                ('{"opening.task": 0.3289, "readout.knowledge": 0.1, "whole.note": 0.2311}', records[2].id),
            )
        assert [r.kind_scores for r in store.get_many([r.id for r in records])] == [fine, odd, fine]
        sizes = dict(store._all("SELECT id, octet_length(kind_scores) FROM memories"))
        assert sizes[records[0].id] < len(json.dumps(fine)) / 2
        mem.update(records[1].id, importance=0.9)  # an update writes them again, unchanged
        updated = store.get(records[1].id)
        assert updated is not None and updated.kind_scores == odd


def test_a_bulk_insert_leaves_the_row_counts_so_a_vector_search_walks_the_graph(pg_url: str) -> None:
    texts = [f"entry {_word(i * 7919)} filed under {_word(i % 29)}" for i in range(3000)]
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        store = mem.store
        assert isinstance(store, PostgresStore)
        _insert(mem, texts[:1500])
        _insert(mem, texts[1500:], 1500)
        query = FakeEmbedder().embed_batch(["entry filed"])[0]
        statement, params = nearest_sql(query, 10, Filter(), LABELS)
        plan = "\n".join(str(r[0]) for r in store._all(f"EXPLAIN {statement}", params))
        assert "memories_hnsw_half_" in plan, plan
