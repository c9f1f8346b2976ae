"""From scored candidates to what is returned: maximal marginal relevance, the recall modes' thresholds and the
relevance floor."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum

import numpy as np

from engram.config import ModeThresholds, RankingProfile
from engram.model.results import Scored
from engram.model.vectors import Vector
from engram.recall.confidence import at_least
from engram.recall.scoring import R, as_asked, matching, shortfall

# How much of a repeat a counting question's turn alike to an earlier pick of its own conversation is.
RETOLD = 0.5


class RecallMode(StrEnum):
    ACCURATE = "accurate"  # strict threshold, few results
    RELATED = "related"  # loose threshold, more results
    RANKED = "ranked"  # no threshold: the first `limit` in MMR order, for evaluation and paging


def mmr(
    scored: Sequence[Scored[R]],
    vectors: dict[str, Vector],
    lam: float,
    k: int,
    parents: Mapping[str, str] | None = None,
    *,
    instances: bool = False,
    episodes: Mapping[str, str] | None = None,
) -> list[Scored[R]]:
    """Maximal marginal relevance: trade each pick's score against its similarity to the picks before it.

    The scores are scaled to 0..1 within the pool first. Their level and spread differ by query and profile
    (importance and recency lift every candidate alike), while cosine similarity keeps its own range; scaled,
    lambda makes the same trade for every query.
    `parents` maps a chunk to the memory it is part of. Two chunks of one memory are that memory twice, however
    different their words: their similarity counts as 1. By their embeddings alone, the second chunk of a long
    memory looked newer than another memory on the same topic, and took its place.
    With `instances`, only that counts: a question that counts ("how many trips", "the total weight of the feed I
    bought") wants every memory on its topic, and those MMR took for repeats were the instances to count. With
    `episodes` too (a memory's conversation), a turn alike to an earlier pick of its own episode still counts as
    half a repeat: one conversation tells an instance over several turns, while each other conversation may hold
    another."""
    pool = list(scored)
    if lam >= 1 or len(pool) <= 1:
        return pool[:k]
    dim = next(iter(vectors.values())).shape[0] if vectors else 1
    none = np.zeros(dim, dtype=np.float32)
    # np.array, not np.stack, of the rows: the same matrix, in a fraction of the time for a hundred rows
    mats = np.array([vectors.get(s.record.id, none) for s in pool])
    relevance = np.array([s.score for s in pool])
    spread = float(relevance.max() - relevance.min())
    relevance = (relevance - relevance.min()) / spread if spread > 0 else np.zeros(len(pool))
    whole = [parents.get(s.record.id) for s in pool] if parents else [None] * len(pool)
    group = (
        np.unique([w or f"\0{i}" for i, w in enumerate(whole)], return_inverse=True)[1] if parents else None
    )
    told = None  # each candidate's episode, when some are in one and the question counts
    if instances and episodes:
        keys = [episodes.get(s.record.id) for s in pool]
        if any(keys):
            told = np.unique([k or f"\0{i}" for i, k in enumerate(keys)], return_inverse=True)[1]
    chosen: list[int] = []
    # Before the first pick nothing is similar (no penalty); after it, each one's greatest similarity to a pick.
    # A pick's gain becomes -inf, so that it stays out of every later value (less any finite penalty).
    gain, trade = lam * relevance, 1 - lam
    value = gain.copy()
    max_sim = np.full(len(pool), -np.inf)
    penalty = np.empty(len(pool))
    for _ in range(min(k, len(pool))):
        pick = int(np.argmax(value))
        chosen.append(pick)
        gain[pick] = -np.inf
        if told is not None:
            similar = np.where(told == told[pick], RETOLD * (mats @ mats[pick]), 0.0)
        else:
            similar = np.zeros(len(pool)) if instances else mats @ mats[pick]
        if group is not None and whole[pick] is not None:
            similar = np.where(group == group[pick], 1.0, similar)
        np.maximum(max_sim, similar, out=max_sim)
        np.multiply(max_sim, trade, out=penalty)
        np.subtract(gain, penalty, out=value)
    return [pool[i] for i in chosen]


def relevant(scored: Sequence[Scored[R]], floor: float, profile: RankingProfile) -> list[Scored[R]]:
    """Those scoring at least `floor` without the time score, at least half of it from matching the query.
    The search_memory profile's priors (importance, recency, usage) add up to its 0.3 floor, and each search
    that returns a memory raises two of them: alone they carried an important, often-found memory into the
    answer to any question. They rank what matches, and half the floor must come from the match. A time the
    query names puts that time's memories first, but does not lift an unrelated one over the floor either."""
    if floor <= 0:
        return [s for s in scored if s.score > 0]  # an invalidated memory scores 0: no answer to anything
    return [s for s in scored if shortfall(s, floor, profile) is None]


def apply_mode(
    scored: Sequence[Scored[R]],
    mode: RecallMode,
    limit: int,
    thresholds: ModeThresholds | None,
    profile: RankingProfile | None = None,
) -> list[Scored[R]]:
    """Accurate keeps the hits at least of medium confidence, related all; of those, both keep the first (MMR's
    first pick, the best) and those scoring at least max(floor, ratio x best), up to their cap (and the caller's
    limit); ranked keeps the first `limit`. The order is the one given: MMR's. With the `profile`, the thresholds
    read each score without what pseudo-relevance feedback added to its vector component (`as_asked`): moved
    toward the best few hits, the query lifted unrelated memories over the floor when nothing matched it."""
    if mode is RecallMode.RANKED or thresholds is None:
        return list(scored[:limit])
    if mode is RecallMode.ACCURATE:
        # A best guess is no accurate answer: one that merely resembles the query put unrelated (even personal)
        # memories into an agent's context when nothing stored answered it.
        scored = [s for s in scored if at_least(s.confidence, "medium")]
    if not scored:
        return []
    judged = [s.score if profile is None else as_asked(s, profile) for s in scored]
    cut = max(thresholds.floor, thresholds.ratio * max(judged))
    # Half the floor must come from matching the query, as in search_memory: importance and recency alone
    # carried every fresh memory over 0.2, and a query nothing matched listed eight.
    kept = [scored[0]] + [
        s
        for s, j in zip(scored[1:], judged[1:], strict=True)
        if j >= cut and (profile is None or matching(s, profile) >= thresholds.floor / 2)
    ]
    return kept[: min(limit, thresholds.cap)]
