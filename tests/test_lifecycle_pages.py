"""Store mode plans a pass page by page (`Pages`), holding no record per memory: it must plan what `plan` plans
over each whole scope, for memories of every age, use, kind and pin, in stores larger than a page."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from engram.lifecycle.policy import Pages, Plan, Rules, Standing, plan
from engram.model.record import Category, Kind, Scope, Status, Tier

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
SCOPES = [(Scope.SESSION, "s1"), (Scope.SESSION, "s2"), (Scope.PROJECT, "p"), (Scope.GLOBAL, None)]


def _store(seed: int, size: int) -> tuple[list[Standing], dict[str, int], dict[str, datetime]]:
    """`size` memories, newest first as a pass reads them (some created at the same moment), their clusters
    and when Engram stored them (some not known)."""
    rng = random.Random(seed)
    records, clusters, stored_at = [], {}, {}
    for i in range(size):
        scope, scope_id = rng.choice(SCOPES[:2] * 3 + SCOPES[2:])  # sessions hold more than a window
        created = NOW - timedelta(days=rng.choice([0, 1, 20, 45, 200, 400, 900]), hours=rng.randrange(3))
        used = rng.random()
        records.append(
            Standing(
                id=f"m{i:04d}",
                scope=scope,
                scope_id=scope_id,
                status=Status.APPROVED if rng.random() > 0.05 else Status.PENDING,
                tier=rng.choice(list(Tier)),
                kind=rng.choice(list(Kind)),
                category=rng.choice([None, None, *Category]),
                created_at=created,
                last_accessed_at=None if used < 0.4 else created + timedelta(days=rng.randrange(0, 400)),
                access_count=0 if used < 0.4 else rng.choice([1, 2, 5, 9]),
                base_relevance=rng.choice([0.3, 0.5, 1.0]),
                user_marked_important=rng.random() < 0.1,
                cluster_size=rng.choice([0, 1, 4]),
                priority=rng.choice([None, 0.4, 1.2, 3.0]),
                quality_score=rng.choice([None, 1.0, 0.5, 0.12, 0.09]),
            )
        )
        if rng.random() < 0.8:
            clusters[f"m{i:04d}"] = rng.choice([0, 0, 1, 2, 3, 7])
        if rng.random() < 0.9:  # imported memories: Engram stored them after they were created
            stored_at[f"m{i:04d}"] = max(created, NOW - timedelta(days=rng.choice([0, 2, 60, 300])))
    records.sort(key=lambda r: (r.created_at, r.id), reverse=True)
    return records, clusters, stored_at


def _whole(
    records: list[Standing], clusters: dict[str, int], stored_at: dict[str, datetime], last: datetime | None
) -> Plan:
    scopes: dict[tuple[Scope, str | None], list[Standing]] = {}
    for r in records:
        scopes.setdefault((r.scope, r.scope_id), []).append(r)
    out = Plan()
    for group in scopes.values():
        part = plan(group, clusters, NOW, Rules(), last, stored_at)
        out.changes.update(part.changes)
        out.reasons.update(part.reasons)
    return out


def _paged(
    records: list[Standing],
    clusters: dict[str, int],
    stored_at: dict[str, datetime],
    last: datetime | None,
    page: int,
) -> Plan:
    planner, out = Pages(NOW, Rules(), last), Plan()
    for start in range(0, len(records), page):
        batch = records[start : start + page]
        part = planner.plan(
            batch,
            {r.id: clusters[r.id] for r in batch if r.id in clusters},
            {r.id: stored_at[r.id] for r in batch if r.id in stored_at},
        )
        out.changes.update(part.changes)
        out.reasons.update(part.reasons)
    return out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("last", [None, NOW - timedelta(days=3), NOW + timedelta(days=1)])
def test_a_plan_page_by_page_is_the_plan_of_whole_scopes(seed: int, last: datetime | None) -> None:
    records, clusters, stored_at = _store(seed, 300)
    expected = _whole(records, clusters, stored_at, last)
    for page in (7, 64, 1000):
        got = _paged(records, clusters, stored_at, last, page)
        assert got.changes == expected.changes
        assert got.reasons == expected.reasons
    decided = [f for f in expected.changes.values()]
    # The store exercises every decision: short-term windows, promotion, decay and archiving.
    assert any(f.get("tier") == Tier.SHORT for f in decided)
    assert any(f.get("tier") == Tier.LONG for f in decided)
    assert any(f.get("tier") == Tier.MID for f in decided)
    assert any(f.get("status") == Status.ARCHIVED for f in decided)
    assert any("quality_score" in f and "status" not in f for f in decided)
