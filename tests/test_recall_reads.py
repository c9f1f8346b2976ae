"""What a recall reads beyond scoring: the full records of the hits it returns, no others."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engram import Memory, RecallMode
from engram.model.record import MemoryRecord


def test_an_accurate_recall_reads_in_full_only_the_hits_it_returns(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem.remember("The staging database runs PostgreSQL 16 on the shared cluster.")
    for i in range(12):
        mem.remember(f"Lunch note {i}: the canteen serves soup number {i} on weekdays.")
    store = mem.store
    read: list[str] = []
    get_many = store.get_many

    def counted(ids: Sequence[str]) -> list[MemoryRecord]:
        read.extend(ids)
        return get_many(ids)

    monkeypatch.setattr(store, "get_many", counted)
    hits = mem.recall("Which PostgreSQL version does the staging database run?", touch=False)
    assert hits and "PostgreSQL 16" in hits[0].record.content
    assert sorted(read) == sorted(h.record.id for h in hits)
    ranked = mem.recall("Which PostgreSQL version does the staging database run?", mode=RecallMode.RANKED)
    assert len(ranked) == 10  # ranked keeps the first `limit` whatever their confidence, each read in full
