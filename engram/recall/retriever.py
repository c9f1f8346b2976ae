"""From a query's scored candidates to the memories returned: `recall` orders them by MMR, adds a hit chunk's
neighbours and applies the mode's thresholds; `ranked` keeps them by score alone, each long memory once. Only
what is returned is read in full."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Protocol

from engram.config import RankingProfile, Settings
from engram.embed.embedder import Embedder
from engram.model.record import MemoryRecord
from engram.model.results import Scored
from engram.model.vectors import Vector
from engram.recall.candidates import Candidates, CandidateStore
from engram.recall.modes import RecallMode, apply_mode, mmr, relevant, sibling, with_record
from engram.recall.query import Query
from engram.recall.scoring import Decay, matched_exactly
from engram.store.values import Facts, Filter

Hit = Scored[MemoryRecord]


class RecallStore(CandidateStore, Protocol):
    """What recall reads, and the usage it counts."""

    def get_many(self, ids: Sequence[str]) -> list[MemoryRecord]: ...
    def chunk_at(self, parent_id: str, index: int) -> MemoryRecord | None: ...
    def touch(self, ids: Sequence[str], at: datetime) -> None: ...


class Retriever:
    """Hybrid search over one store. It owns the reader threads that search by words while the model embeds
    the query; `close` stops them."""

    def __init__(self, settings: Settings, store: RecallStore, embedder: Embedder) -> None:
        self._settings = settings
        self._store = store
        self._readers = ThreadPoolExecutor(4, thread_name_prefix="engram-text-search")
        decay = Decay(
            settings.recency_half_life_days, settings.importance_daily_decay, settings.negative_penalty
        )
        self._candidates = Candidates(settings, store, embedder, decay, self._readers)

    def close(self) -> None:
        self._readers.shutdown()

    def profile(self, name: str) -> RankingProfile:
        return self._settings.profiles[name]

    def scored(
        self, query: Query, where: Filter, limit: int, profile: str
    ) -> tuple[list[Scored[Facts]], dict[str, Vector]]:
        """Every candidate, scored, best first, and the candidates' vectors (trace_search shows them all)."""
        return self._candidates.scored(query, where, limit, self.profile(profile))

    def recall(
        self, query: Query, where: Filter, *, limit: int, mode: RecallMode, profile: str, touch: bool
    ) -> list[Hit]:
        """In MMR order, a chunk's neighbours just under it, cut by the mode; each returned memory's use is
        counted unless `touch` is false."""
        settings = self._settings
        scored, vectors = self.scored(query, where, limit, profile)
        thresholds = {RecallMode.ACCURATE: settings.accurate, RecallMode.RELATED: settings.related}
        size = limit if mode is RecallMode.RANKED else min(limit, thresholds[mode].cap)
        parents = {s.record.id: s.record.parent for s in scored if s.record.parent is not None}
        picked = mmr(scored, vectors, settings.mmr_lambda, size, parents, instances=query.counts)
        # Full records only for what is returned: building them for every candidate would dominate recall.
        full = {r.id: r for r in self._store.get_many([s.record.id for s in picked])}
        hits = apply_mode(
            self._with_siblings([with_record(s, full[s.record.id]) for s in picked if s.record.id in full]),
            mode,
            limit,
            thresholds.get(mode),
            self.profile(profile),
        )
        if touch and hits:
            self.touch(hits, query.now)
        return hits

    def ranked(
        self,
        query: Query,
        where: Filter,
        *,
        limit: int,
        profile: str,
        floor: float = 0.0,
        exact: bool = False,
    ) -> tuple[list[Hit], int]:
        """The `limit` best memories scoring at least `floor`, by score alone (no diversity re-ranking), and how
        many scored that much. A long memory counts once, by its best passage (chunk). With `exact`, `where`
        itself makes each one what the query asks for."""
        scored, _ = self.scored(query, where, limit, profile)
        ranking = self.profile(profile)
        kept = relevant(matched_exactly(scored, ranking) if exact else scored, floor, ranking)
        best: list[Scored[Facts]] = []
        owners: set[str] = set()
        for s in kept:  # best first: a memory's first passage is its best
            if (owner := s.record.parent or s.record.id) not in owners:
                owners.add(owner)
                best.append(s)
        full = {r.id: r for r in self._store.get_many([s.record.id for s in best[:limit]])}
        return [with_record(s, full[s.record.id]) for s in best[:limit] if s.record.id in full], len(best)

    def touch(self, hits: Sequence[Hit], when: datetime) -> None:
        """Count a use of each memory returned."""
        self._store.touch([h.record.id for h in hits], when)

    def _with_siblings(self, hits: Sequence[Hit]) -> list[Hit]:
        """A chunk's neighbours join just under it at factor x its score, or keep their own score if that is
        higher. The hits keep their order: it is MMR's, which a sort by score would undo."""
        out: dict[str, Hit] = {}
        for hit in hits:
            known = out.get(hit.record.id)
            if known is None or known.score < hit.score:
                out[hit.record.id] = hit  # a chunk that joined earlier keeps its place
            r = hit.record
            if r.parent_id is None or r.chunk_index is None or hit.why != "match":
                continue
            for index in (r.chunk_index - 1, r.chunk_index + 1):
                near = self._store.chunk_at(r.parent_id, index)
                if near is None:
                    continue
                joined = sibling(hit, near, self._settings.sibling_factor)
                if near.id not in out or out[near.id].score < joined.score:
                    out[near.id] = joined
        return list(out.values())


__all__ = ["Hit", "RecallStore", "Retriever"]
