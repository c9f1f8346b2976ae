"""`engram serve` runs a maintenance pass every 10 minutes. Each pass rewrote nearly every memory (a priority that
drifts with the hours since use, a quality decayed by ten minutes' worth) and kept a before-image of each in the
operation log for rollback: a store of 61 memories grew by 14 % over three passes, and a store's log grew with its
size every 10 minutes, for ever. A pass writes what moved enough to matter."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine

from engram import FakeEmbedder, Memory, Settings

T0 = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
TEXTS = [
    f"Note {i}: the {w} report goes to {n}"
    for i, (w, n) in enumerate(
        [
            ("budget", "Martina"),
            ("travel", "Sven"),
            ("hiring", "Ana"),
            ("security", "Paul"),
            ("release", "Clara"),
        ]
    )
]


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        yield m


def _store(memory: Memory, at: datetime) -> list[str]:
    with time_machine.travel(at, tick=False):
        return [memory.remember(text).id for text in TEXTS]


def test_passes_ten_minutes_apart_rewrite_nothing_that_barely_moved(memory: Memory) -> None:
    ids = _store(memory, T0)
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        memory.recall("budget report")  # used: its priority moves with the hours since
    first = memory.maintain(T0 + timedelta(hours=2))
    assert first["changed"] == len(ids)  # the first pass sets every priority
    for minutes in (10, 20, 30):
        again = memory.maintain(T0 + timedelta(hours=2, minutes=minutes))
        assert again["changed"] == 0 and again["operation_id"] is None, again
    # Days later the priorities have moved for real, and are written.
    later = memory.maintain(T0 + timedelta(days=3))
    assert later["changed"] > 0


def test_idle_memories_decay_once_a_day_not_every_pass(memory: Memory) -> None:
    ids = _store(memory, T0 - timedelta(days=60))
    first = memory.maintain(T0)
    assert first["quality_decayed"] == len(ids)  # the whole idle time, counted once
    decayed = {i: memory.get(i).quality_score for i in ids}
    for minutes in (10, 20, 30):
        again = memory.maintain(T0 + timedelta(minutes=minutes))
        assert again["changed"] == 0, again
    assert {i: memory.get(i).quality_score for i in ids} == decayed
    # A day on, the day's decay (all of it, the passes between included) is applied once.
    day = memory.maintain(T0 + timedelta(days=1, minutes=5))
    assert day["quality_decayed"] == len(ids)
    for i in ids:
        now, before = memory.get(i).quality_score, decayed[i]
        assert now is not None and before is not None
        assert now == pytest.approx(before * 0.5 ** ((1 + 5 / 1440) / 90), rel=1e-6)


def test_a_store_whose_passes_predate_the_decay_stamp_still_decays(tmp_path: Path) -> None:
    with Memory(tmp_path / "old.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as memory:
        ids = _store(memory, T0 - timedelta(days=60))
        memory.maintain(T0)
    with sqlite3.connect(tmp_path / "old.db") as db:  # as a store an earlier version maintained
        db.execute("DELETE FROM meta WHERE key = 'lifecycle:decayed_at'")
    db.close()
    with Memory(tmp_path / "old.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as memory:
        for minutes in range(10, 60, 10):
            memory.maintain(T0 + timedelta(minutes=minutes))
        assert memory.maintain(T0 + timedelta(days=1, minutes=5))["quality_decayed"] == len(ids)
