"""Rows PostgreSQL rewrites as Engram learns (learned prototypes replaced past their label's `keep`, the
lexicon's counts): their dead versions are vacuumed after the write that left them, so the tables reuse their
room rather than grow with every write."""

from __future__ import annotations

import numpy as np
import pytest

from engram.store.postgres.connection import Conn
from engram.store.postgres.store import PostgresStore
from engram.store.values import Prototype

DIM = 384


def _learned(rng: np.random.Generator, n: int, start: int) -> list[Prototype]:
    vectors = rng.normal(size=(n, 2, DIM)).astype(np.float32)
    return [
        Prototype(f"label{i % 4}", "learned", v[0], f"text {start + i}", f"m{start + i}", v[1])
        for i, v in enumerate(vectors)
    ]


def test_replaced_prototypes_leave_room_that_is_reused(pg_url: str) -> None:
    store = PostgresStore(pg_url)
    rng = np.random.default_rng(5)
    try:
        written = 0
        for _ in range(120):  # as the write path saves them: a few per committed slice
            with store.atomic():
                store.add_learned_prototypes("kinds", _learned(rng, 16, written), keep=8)
            written += 16
        kept = store.prototypes("kinds")
        row = store._one("SELECT pg_total_relation_size('prototypes')")
        assert row is not None
        size = int(row[0])
    finally:
        store.close()
    assert len(kept) == 32 and {p.memory_id for p in kept} == {f"m{i}" for i in range(written - 32, written)}
    # Each row holds two float32 vectors: 1,920 rows written, 32 live; every dead one kept would be 6 MB.
    vectors_written = written * 2 * DIM * 4
    assert size < vectors_written / 3


def test_a_task_after_commit_sees_the_commit_and_a_rollback_drops_it(pg_url: str) -> None:
    store = PostgresStore(pg_url)
    seen: list[object] = []

    def count(db: Conn) -> None:
        row = db.execute("SELECT count(*) FROM meta WHERE key LIKE 'churn:%%'").fetchone()
        seen.append(None if row is None else row[0])

    try:
        with store.atomic() as db:
            db.execute("INSERT INTO meta VALUES ('churn:a', '1')")
            store._db.after_commit(count)
            assert seen == []  # not inside the transaction
        assert seen == [1]
        with pytest.raises(RuntimeError), store.atomic() as db:
            db.execute("INSERT INTO meta VALUES ('churn:b', '1')")
            store._db.after_commit(count)
            raise RuntimeError("rolled back")
        with store.atomic():
            pass
        assert seen == [1]
        store._db.after_commit(count)  # no transaction open: now
        assert seen == [1, 1]
    finally:
        store.close()


def test_a_task_failing_after_the_commit_leaves_the_write_done(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = PostgresStore(pg_url)

    def broken(db: Conn) -> None:
        db.execute("SELECT * FROM no_such_table")

    try:
        with store.atomic() as db:
            db.execute("INSERT INTO meta VALUES ('churn:c', '1')")
            store._db.after_commit(broken)
        assert store.get_meta("churn:c") == "1"
        assert "no_such_table" in caplog.text
    finally:
        store.close()
