"""How a PostgreSQL search sends its statements: the query vector as pgvector's binary, from which the server makes
the same half-precision copy the index orders by as it made from the decimal text, and each search's statement
prepared on its connection at its first use (the server parses it once per connection, not once per search)."""

from __future__ import annotations

import numpy as np
import psycopg
import pytest

from engram import FakeEmbedder, Memory
from engram.store.postgres.connection import Connections
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


def test_text_searches_run_one_plan_per_statement_and_leave_the_vector_search_its_own(pg_url: str) -> None:
    """The text search's rows do not depend on its plan (ordered by score, then rid): it runs the plan made once
    for its text. The vector search's hits do depend on its plan, and keeps one made for each call's values."""
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        for i in range(6):
            mem.remember(f"the tomato bed in the garden needs water on day {i}")
        store = mem.store
        assert isinstance(store, PostgresStore)
        query = FakeEmbedder().embed_batch(["tomato garden"])[0]
        with store.snapshot():  # one connection for the searches and the look at its prepared statements
            first = store.text_facts(["tomato", "water"], 3, Filter())
            again = store.text_facts(["tomato", "water"], 3, Filter())
            store.vector_facts(query, 3, Filter())
            plans = store._all("SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements")
            mode = store._all("SELECT current_setting('plan_cache_mode')")
    assert [(f.id, s) for f, s in first] == [(f.id, s) for f, s in again] and len(first) == 3
    text = [(g, c) for s, g, c in plans if "searched" in str(s)]
    vector = [(g, c) for s, g, c in plans if "<=>" in str(s)]
    assert text and all(g >= 1 and c == 0 for g, c in text)
    assert vector and all(g == 0 and c >= 1 for g, c in vector)
    assert mode == [("auto",)]


def test_a_failed_statement_leaves_no_generic_plans_behind(pg_url: str) -> None:
    """A pipeline that fails never reaches its closing RESET: the SET before it must not outlive it, or every
    later statement on the connection (the vector search's too) would run generic plans."""
    conns = Connections(pg_url, pool_size=1, timeout_s=5)
    try:
        assert conns.all_many([("SELECT current_setting('plan_cache_mode')", ())], generic=True) == [
            [("force_generic_plan",)]
        ]
        with pytest.raises(psycopg.errors.DivisionByZero):
            conns.all_many([("SELECT 1 / 0", ())], generic=True)
        assert conns.all("SELECT current_setting('plan_cache_mode')") == [("auto",)]
    finally:
        conns.close()
