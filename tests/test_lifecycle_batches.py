"""A maintenance pass reads the store a batch at a time and keeps, per memory, only the neighbours close enough
to count: it must plan what a pass over everything at once plans."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.lifecycle import service
from engram.lifecycle.policy import Rules
from engram.model.record import Status
from engram.store.values import Filter

T0 = datetime.now(UTC) + timedelta(days=400)
# Variants of one sentence lie within cosine 0.91-0.92 of each other under the fake embedder.
MEETING = "The weekly team meeting is on Tuesday morning in room"
GARDEN = "Water the tomato plants in the greenhouse before the heat of"
WORDS = [f"w{i}x{i * 7919}" for i in range(30)]


def _fill(mem: Memory) -> None:
    """A cluster larger than the neighbours a pass looks at, a small one in another scope, loners; the first
    ones of each cluster unused for 400 days at T0 (archived by quality decay), the rest used then."""
    big = [mem.remember(f"{MEETING} {w}").id for w in WORDS[:26]]
    small = [mem.remember(f"{GARDEN} {w}", scope="project", scope_id="p").id for w in WORDS[:5]]
    loners = [mem.remember(f"{w} quasar {i} lantern otter").id for i, w in enumerate(WORDS[:4])]
    mem.store.touch(big[4:] + small[1:] + loners[1:], T0)


def _fields(mem: Memory) -> dict[str, tuple[object, ...]]:
    return {
        r.id: (r.status, r.tier, r.cluster_size, r.priority, r.quality_score)
        for batch in mem.store.iter_all()
        for r in batch
    }


def test_clusters_counted_in_batches_are_those_of_a_full_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service, "BATCH", 3)
    with Memory(tmp_path / "b.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as mem:
        _fill(mem)
        report = mem.maintain(T0)
        assert report["processed"] == 35 and report["archived"] == 6
        live = mem.store.select(Filter(statuses=(Status.APPROVED,), include_expired=True), limit=1000)
        assert len(live) == 29
        vectors = mem.store.vectors([r.id for r in live])
        cut = Rules().cluster_cosine
        for r in live:
            others = [o for o in live if o.id != r.id and (o.scope, o.scope_id) == (r.scope, r.scope_id)]
            cosines = [float(np.dot(vectors[r.id], vectors[o.id])) for o in others]
            expected = min(service._NEAR - 1, sum(1 for c in cosines if c >= cut))
            assert r.cluster_size == expected, r.content
        assert {r.cluster_size for r in live} >= {20, 3, 0}  # the big cluster is counted past what is kept
        assert mem.maintain(T0)["changed"] == 0


@pytest.mark.parametrize("mode", ["store", "persona"])
def test_a_pass_in_small_batches_plans_what_one_batch_plans(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    settings = Settings(home=tmp_path, lifecycle_mode=mode)
    with Memory(tmp_path / "one.db", embedder=FakeEmbedder(), settings=settings) as mem:
        _fill(mem)
    shutil.copy(tmp_path / "one.db", tmp_path / "many.db")
    results: list[tuple[dict[str, object], dict[str, tuple[object, ...]]]] = []
    archived = []
    for name, batch in (("one.db", 10_000), ("many.db", 2)):
        monkeypatch.setattr(service, "BATCH", batch)
        with Memory(tmp_path / name, embedder=FakeEmbedder(), settings=settings) as mem:
            report = mem.maintain(T0)
            archived.append(report["archived"])
            results.append(({k: v for k, v in report.items() if k != "operation_id"}, _fields(mem)))
    assert results[0] == results[1]
    assert archived[0] > 0 and results[0][0]["processed"] == 35
