"""From a query's scored candidates (engram.candidates) to the memories returned: `recall` orders them by MMR,
adds a hit chunk's neighbours and applies the mode's thresholds; `ranked` keeps them by score alone, each long
memory once. Only what is returned is read in full."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from engram.lang import analysis
from engram.model.record import MemoryRecord
from engram.recall import candidates
from engram.recall.scoring import (
    RecallMode,
    Scored,
    apply_mode,
    matched_exactly,
    mmr,
    relevant,
    sibling,
    with_record,
)
from engram.store.values import Facts, Filter

if TYPE_CHECKING:
    from engram.memory import Memory

Hit = Scored[MemoryRecord]


def recall(
    mem: Memory, query: str, where: Filter, *, limit: int, mode: RecallMode, profile: str, when: datetime, touch: bool
) -> list[Hit]:
    """The hits of `Memory.recall`: in MMR order, a chunk's neighbours just under it, cut by the mode; each
    returned memory's use is counted unless `touch` is false."""
    settings = mem.settings
    scored, vectors = candidates.scored(mem, query, where, limit, profile, when)
    thresholds = {RecallMode.ACCURATE: settings.accurate, RecallMode.RELATED: settings.related}
    size = limit if mode is RecallMode.RANKED else min(limit, thresholds[mode].cap)
    parents = {s.record.id: s.record.parent for s in scored if s.record.parent is not None}
    picked = mmr(scored, vectors, settings.mmr_lambda, size, parents, instances=analysis.counts(query))
    # Full records only for what is returned: building them for every candidate would dominate recall.
    full = {r.id: r for r in mem.store.get_many([s.record.id for s in picked])}
    hits = apply_mode(
        _with_siblings(mem, [with_record(s, full[s.record.id]) for s in picked if s.record.id in full]),
        mode,
        limit,
        thresholds.get(mode),
        settings.profiles[profile],
    )
    if touch and hits:
        mem.store.touch([h.record.id for h in hits], when)
    return hits


def ranked(
    mem: Memory,
    query: str,
    where: Filter,
    *,
    limit: int,
    profile: str,
    when: datetime,
    expansions: Sequence[str] | Callable[[], Sequence[str]] = (),
    floor: float = 0.0,
    exact: bool = False,
) -> tuple[list[Hit], int]:
    """The `limit` best memories scoring at least `floor`, by score alone (no diversity re-ranking), and how
    many scored that much. A long memory counts once, by its best passage (chunk). With `exact`, `where` itself
    makes each one what the query asks for."""
    scored, _ = candidates.scored(mem, query, where, limit, profile, when, expansions)
    ranking = mem.settings.profiles[profile]
    kept = relevant(matched_exactly(scored, ranking) if exact else scored, floor, ranking)
    best: list[Scored[Facts]] = []
    owners: set[str] = set()
    for s in kept:  # best first: a memory's first passage is its best
        if (owner := s.record.parent or s.record.id) not in owners:
            owners.add(owner)
            best.append(s)
    full = {r.id: r for r in mem.store.get_many([s.record.id for s in best[:limit]])}
    return [with_record(s, full[s.record.id]) for s in best[:limit] if s.record.id in full], len(best)


def _with_siblings(mem: Memory, hits: Sequence[Hit]) -> list[Hit]:
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
            near = mem.store.chunk_at(r.parent_id, index)
            if near is None:
                continue
            joined = sibling(hit, near, mem.settings.sibling_factor)
            if near.id not in out or out[near.id].score < joined.score:
                out[near.id] = joined
    return list(out.values())


__all__ = ["Hit", "ranked", "recall"]
