"""The analysis tools: memory_timeline, concept_network and usage_patterns. A tool that shows memories takes the
session asking: another session's session-scoped memories are neither counted nor shown."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import datetime, timedelta
from typing import Protocol, cast

import numpy as np

from engram.errors import InvalidInput
from engram.model.answers import ConceptNetworkAnswer, TimelineAnswer, UsagePatternsAnswer, UsedMemory
from engram.model.record import MemoryRecord, Scope, Status
from engram.store.roles import Rows, TagRegistry
from engram.store.values import Filter

_WIDTH = {"year": 4, "month": 7, "day": 10}


class InsightStore(Rows, TagRegistry, Protocol):
    """What the analysis tools read."""


class Insight:
    def __init__(self, store: InsightStore) -> None:
        self._store = store

    def memory_timeline(
        self, *, granularity: str = "month", examples: int = 3, session: str | None = None
    ) -> TimelineAnswer:
        """`session`: the MCP session asking (as in every tool that shows memories): other sessions' session-scoped
        memories are neither counted nor shown."""
        if granularity not in _WIDTH:
            raise InvalidInput("granularity", f"unknown; choose one of {sorted(_WIDTH)}")
        counts = self._store.histogram(
            "created_at", _WIDTH[granularity], Filter(statuses=tuple(Status), session=session)
        )
        periods = []
        for period, n in counts.items():
            start = datetime.fromisoformat(
                period + {"year": "-01-01", "month": "-01", "day": ""}[granularity]
            )
            start = start.replace(tzinfo=None)
            end = _next(start, granularity)
            shown = self._store.select(
                Filter(created_after=start, created_before=end, session=session), limit=examples
            )
            periods.append(
                {
                    "period": period,
                    "count": n,
                    "memories": [{"id": r.id, "content": r.content[:200]} for r in shown],
                }
            )
        return cast(
            TimelineAnswer, {"granularity": granularity, "periods": periods, "total": sum(counts.values())}
        )

    def concept_network(
        self,
        *,
        min_cooccurrence: int = 1,
        similarity: float = 0.6,
        limit: int = 100,
        session: str | None = None,
    ) -> ConceptNetworkAnswer:
        """Tags as nodes; edges where tags share memories (weight: how many) or their embeddings are close. A tag
        only other sessions' session memories carry is not shown to `session`."""
        seen = None
        if session is not None:  # a pass of its own: the store is read in batches, never held whole
            seen = {
                t
                for batch in self._store.iter_all()
                for r in batch
                if r.parent_id is None and _seen_by(r, session)
                for t in r.tags
            }
        ranked = sorted(self._store.tags(), key=lambda r: r.usage_count, reverse=True)
        rows = [r for r in ranked if seen is None or r.tag in seen][:limit]
        names = {r.tag for r in rows}
        pairs: Counter[tuple[str, str]] = Counter()
        for batch in self._store.iter_all():
            for record in batch:
                if record.parent_id is None and _seen_by(record, session):
                    present = sorted(t for t in record.tags if t in names)
                    pairs.update(itertools.combinations(present, 2))
        edges = [
            {"source": a, "target": b, "weight": n, "kind": "co-occurrence"}
            for (a, b), n in pairs.most_common()
            if n >= min_cooccurrence
        ]
        with_vectors = [r for r in rows if r.vector is not None]
        if len(with_vectors) > 1:
            matrix = np.stack([r.vector for r in with_vectors if r.vector is not None])
            sims = matrix @ matrix.T
            for i, j in zip(*np.triu_indices(len(with_vectors), k=1), strict=True):
                if sims[i, j] >= similarity:
                    edges.append(
                        {
                            "source": with_vectors[i].tag,
                            "target": with_vectors[j].tag,
                            "weight": round(float(sims[i, j]), 4),
                            "kind": "similarity",
                        }
                    )
        nodes = [{"id": r.tag, "usage_count": r.usage_count} for r in rows]
        return cast(ConceptNetworkAnswer, {"nodes": nodes, "edges": edges})

    def usage_patterns(self, *, top: int = 10, session: str | None = None) -> UsagePatternsAnswer:
        """Recalls over time (by day of last access), the most and least used memories, and those never recalled;
        of another `session`'s session-scoped memories, none."""
        used: list[MemoryRecord] = []
        never: list[MemoryRecord] = []
        by_category: Counter[str] = Counter()
        for batch in self._store.iter_all():
            for r in batch:
                if r.parent_id is not None or r.status is not Status.APPROVED or not _seen_by(r, session):
                    continue
                (used if r.access_count else never).append(r)
                by_category[r.category.value if r.category else "uncategorised"] += r.access_count
        used.sort(key=lambda r: (r.access_count, r.last_accessed_at or r.created_at), reverse=True)

        def brief(r: MemoryRecord) -> UsedMemory:
            last = None if r.last_accessed_at is None else r.last_accessed_at.isoformat()
            return {
                "id": r.id,
                "content": r.content[:200],
                "access_count": r.access_count,
                "last_accessed": last,
            }

        return {
            "accesses_by_day": self._store.histogram("last_accessed_at", 10, Filter(session=session)),
            "most_used": [brief(r) for r in used[:top]],
            "least_used": [brief(r) for r in used[::-1][:top]],
            "never_recalled": {
                "count": len(never),
                "oldest": [brief(r) for r in sorted(never, key=lambda r: r.created_at)[:top]],
            },
            "accesses_by_category": dict(by_category),
        }


def _next(start: datetime, granularity: str) -> datetime | None:
    """The next period's start; None past the calendar's last (an import may date a memory 9999-12-31)."""
    try:
        if granularity == "day":
            return start + timedelta(days=1)
        if granularity == "month":
            return start.replace(year=start.year + start.month // 12, month=start.month % 12 + 1)
        return start.replace(year=start.year + 1)
    except (OverflowError, ValueError):
        return None


def _seen_by(record: MemoryRecord, session: str | None) -> bool:
    return session is None or record.scope is not Scope.SESSION or record.scope_id == session
