"""The debugging tools: trace_search (search_memory with its working shown), validate_storage and
repair_index."""

from __future__ import annotations

from typing import Any, Protocol, cast

from engram.agent.arguments import SearchOptions, validated
from engram.agent.search import PROFILE, SearchMemory
from engram.config import Settings
from engram.embed.embedder import Embedder
from engram.model.answers import RepairAnswer, StorageIssue, TraceAnswer, TracedCandidate, ValidateAnswer
from engram.model.record import utcnow
from engram.recall.confidence import confidence_of, strength
from engram.recall.query import read_query
from engram.recall.retriever import Retriever
from engram.recall.scoring import shortfall
from engram.store.roles import AuditLog, Meta, TagRegistry, Upkeep
from engram.store.values import Filter
from engram.tags.service import TagService
from engram.write.edit import Editor


class DebugStore(Meta, TagRegistry, AuditLog, Upkeep, Protocol):
    """What the debugging tools read and repair."""


class Debugging:
    def __init__(
        self,
        settings: Settings,
        store: DebugStore,
        embedder: Embedder,
        search: SearchMemory,
        retriever: Retriever,
        tags: TagService,
        editor: Editor,
    ) -> None:
        self._settings = settings
        self._store = store
        self._embedder = embedder
        self._search = search
        self._retriever = retriever
        self._tags = tags
        self._editor = editor

    def trace_search(
        self, query: str, options: dict[str, Any] | None = None, *, session: str | None = None
    ) -> TraceAnswer:
        """search_memory with its working shown: every candidate, each score component, and why it was cut; the
        candidates `session` can see (as search_memory's)."""
        opts: SearchOptions = validated(SearchOptions, options, "options")
        now = utcnow()
        # A trace looks on: the search it shows leaves usage (access counts, last access) as it was.
        found = self._search(
            query, (options or {}) | {"limit": opts.limit}, now=now, touch=False, session=session
        )
        where = Filter(include_expired=opts.include_expired, now=now, session=session)
        asked = read_query(query, now, longest=self._settings.max_content_chars)
        scored, _ = self._retriever.scored(asked, where, opts.limit, PROFILE)
        profile = self._retriever.profile(PROFILE)
        returned = {r["id"] for r in found["results"]}
        candidates: list[TracedCandidate] = []
        for rank, s in enumerate(scored, 1):
            short = shortfall(s, opts.min_relevance, profile) if opts.min_relevance > 0 else None
            sure = confidence_of(s.components, in_document=s.record.parent is not None)
            if s.record.id in returned:
                why = "returned"
            elif short is not None:
                why = short
            elif rank <= opts.limit and sure == "low":
                why = (
                    f"low confidence (match strength {strength(s.components):.3f}): surer results came first"
                )
            elif rank > opts.limit:
                why = f"ranked {rank}, beyond limit {opts.limit}"
            else:
                why = "excluded by the query's filters (time, importance, content type)"
            candidates.append(
                {
                    "id": s.record.id,
                    "content": s.record.content[:200],
                    "rank": rank,
                    "score": round(s.score, 4),
                    "components": {k: round(v, 4) for k, v in s.components.items()},
                    "outcome": why,
                }
            )
        return {
            "query_analysis": found["query_analysis"],
            "profile": profile.model_dump(),
            "candidates": candidates,
            "results": found["results"],
        }

    def validate_storage(self) -> ValidateAnswer:
        """Rows against the full-text index, the vector index, the embedding model and the tag registry: every
        inconsistency found."""
        issues = self._store.integrity()
        stored = self._store.model()
        if stored is not None and stored != (self._embedder.name, self._embedder.dim):
            issues.append(
                {
                    "check": "model",
                    "problem": f"embedded with {stored[0]}, opened with {self._embedder.name}",
                    "count": 1,
                    "repair": "reembed",
                }
            )
        return {"ok": not issues, "issues": cast(list[StorageIssue], issues)}

    def repair_index(self) -> RepairAnswer:
        """Repair what validate_storage found: rebuild the full-text and vector indexes, recount the tags."""
        before = self.validate_storage()["issues"]
        done: list[str] = []
        repairs = {i["repair"] for i in before}
        if "rebuild_fts" in repairs:
            self._store.rebuild_fts()
            done.append("rebuilt the full-text index")
        if "rebuild_vectors" in repairs:
            done.append(f"rebuilt the vector index ({self._store.rebuild_index()} vectors)")
        if "recount_tags" in repairs:
            done.append(f"recounted {self._store.recount_tags()} tags")
            self._tags.reload()
        if "reembed" in repairs:
            done.append(f"re-embedded {self._editor.reembed(None, 256)} memories")
        self._store.audit("repair_index", None, {"before": before, "done": done})
        after = self.validate_storage()["issues"]
        return {"repaired": done, "issues_before": before, "issues_after": after}
