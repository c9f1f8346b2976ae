"""The store's health, as discover_memory_tools reports it: health_score, in 0..1, is the mean of four parts,
each 1 when all is well:
- storage: 1 with no inconsistency from validate_storage, else 1 / (1 + number of problem kinds);
- tags: 1 - (tags that consolidation would fold + orphan tags) / active tags;
- classification: 1 - share of memories without a category;
- index freshness: vectors indexed / embeddings stored.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from engram.agent.registry import advanced
from engram.model.answers import DiscoverResult
from engram.model.record import Status
from engram.store.roles import Rows, TagRegistry, Upkeep
from engram.store.values import Filter
from engram.tags.service import TagService

_ALL = Filter(statuses=tuple(Status), include_expired=True)


class HealthStore(Rows, TagRegistry, Upkeep, Protocol):
    """What the health report reads."""


class Health:
    def __init__(self, store: HealthStore, tags: TagService) -> None:
        self._store = store
        self._tags = tags

    def discover(self) -> DiscoverResult:
        """The advanced tools by group, and the store's health."""
        health = self.report()
        return {
            "advanced_tools": advanced(),
            "current_system_state": {
                "total_memories": self._store.count(_ALL),
                "health_score": health["health_score"],
                "optimization_opportunities": health["optimization_opportunities"],
            },
        }

    def report(self) -> dict[str, Any]:
        store = self._store
        issues = store.integrity()
        tags = store.tags()
        merges = self._tags.merges(tags)
        orphan = sum(i["count"] for i in issues if i["problem"].startswith("active tags no memory"))
        total = store.count(_ALL)
        uncategorised = store.count(replace(_ALL, uncategorised=True))
        index = store.check_index()
        problems = {i["check"] for i in issues if i["check"] != "tags"}
        embedded = index["embedded"]
        parts = {
            "storage": 1 / (1 + len(problems)),
            "tags": 1 - min(1.0, (len(merges) + orphan) / len(tags)) if tags else 1.0,
            "classification": 1 - uncategorised / total if total else 1.0,
            "index_freshness": min(index["indexed"], embedded) / embedded if embedded else 1.0,
        }
        opportunities = []
        if merges:
            opportunities.append(f"consolidate {_count(len(merges), 'duplicate tag')}")
        if orphan:
            opportunities.append(f"archive {_count(orphan, 'orphan tag')}")
        if uncategorised:
            opportunities.append(
                f"categorise {_count(uncategorised, 'memory', 'memories')} the classifier was unsure of"
            )
        opportunities += [f"repair: {i['problem']}" for i in issues if i["check"] != "tags"]
        return {
            "health_score": round(sum(parts.values()) / len(parts), 4),
            "parts": {k: round(v, 4) for k, v in parts.items()},
            "optimization_opportunities": opportunities,
        }


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"
