"""How a PostgreSQL store's connections read rows: each search reads its rows itself, without handing every read
to the server's I/O workers (effective_io_concurrency 0), on pooled and transaction connections alike."""

from __future__ import annotations

import psycopg

from engram import FakeEmbedder, Memory
from engram.config import split_schema
from engram.store.postgres.store import PostgresStore
from engram.store.values import Filter


def test_every_connection_reads_without_prefetching(pg_url: str) -> None:
    store = PostgresStore(pg_url)
    try:
        assert store._one("SHOW effective_io_concurrency") == ("0",)
        with store.atomic():  # the write transaction's connection is configured by the same pool
            assert store._one("SHOW effective_io_concurrency") == ("0",)
        # the server's own default is left as it was for every other client
        with psycopg.connect(split_schema(pg_url)[0]) as other:
            row = other.execute("SHOW effective_io_concurrency").fetchone()
            assert row is not None and row[0] != "0"
    finally:
        store.close()


def test_text_search_answers_as_with_prefetching(pg_url: str) -> None:
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        for i in range(60):
            mem.remember(
                f"garden note {i}: the {'tomato' if i % 3 else 'pepper'} bed needs water on day {i % 7}"
            )
        store = mem.store
        assert isinstance(store, PostgresStore)
        ours = store.text_search(["tomato", "water"], 10, Filter())
        with store.atomic() as db:
            db.execute(b"SET LOCAL effective_io_concurrency = 16")
            prefetched = store.text_search(["tomato", "water"], 10, Filter())
        assert len(ours) == 10
        assert ours == prefetched
