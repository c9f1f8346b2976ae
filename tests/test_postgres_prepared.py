"""How a PostgreSQL search sends its statements: the query vector as pgvector's binary, from which the server makes
the same half-precision copy the index orders by as it made from the decimal text, and each search's statement
prepared on its connection at its first use (the server parses it once per connection, not once per search)."""

from __future__ import annotations

import numpy as np

from engram import FakeEmbedder, Memory
from engram.store.postgres.search import vector_text
from engram.store.postgres.store import PostgresStore
from engram.store.values import Filter


def test_binary_query_vector_orders_by_the_same_half_precision_copy(pg_url: str) -> None:
    store = PostgresStore(pg_url)
    rng = np.random.default_rng(7)
    try:
        for i in range(50):
            vector = rng.normal(size=384).astype(np.float32)
            vector /= np.linalg.norm(vector)
            if i % 2:  # values below half precision's normal range round as subnormals
                vector[:40] *= np.float32(1e-4)
            from_text = store._all(
                "SELECT %s::halfvec(384)::text, %s::vector::text", (vector_text(vector),) * 2
            )
            from_binary = store._all("SELECT %b::vector::halfvec(384)::text, %b::vector::text", (vector,) * 2)
            assert from_binary == from_text
    finally:
        store.close()


def test_search_statements_are_prepared_at_first_use(pg_url: str) -> None:
    notes = [
        f"the {w} bed in the garden needs water on day {i}" for i, w in enumerate(["tomato", "bean"] * 5)
    ]
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        for note in notes:
            mem.remember(note)
        store = mem.store
        assert isinstance(store, PostgresStore)
        query = FakeEmbedder().embed_batch(["tomato garden"])[0]
        with store.snapshot():  # one connection for the searches and the look at what it holds prepared
            before = {str(s) for (s,) in store._all("SELECT statement FROM pg_prepared_statements")}
            nearest = store.vector_facts(query, 5, Filter())
            texts = store.text_facts(["tomato", "water"], 5, Filter())
            after = {str(s) for (s,) in store._all("SELECT statement FROM pg_prepared_statements")}
        added = after - before
        assert len(nearest) == 5 and len(texts) == 5
        assert any("<=>" in s for s in added)  # the vector search, after one use
        assert any("searched" in s for s in added)  # the text search, after one use
