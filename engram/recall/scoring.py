"""Hybrid recall scoring: weighted components, validity and negation (MMR and the modes: engram.recall.modes).

score = w_v * vector + w_l * lexical + w_i * importance + w_r * recency (+ w_u * usage), then x validity_score,
minus the negative penalty for negated memories, floored at 0. Components, each in 0..1:
- vector: cosine, negative values clipped to 0;
- lexical: half bm25 divided by the best bm25 among this query's candidates, half the IDF-weighted share of
  the query's word stems that the memory contains;
- importance: importance x daily_decay ^ days since the memory was last updated or recalled;
- recency: 0.5 ^ (days since last access or update / half-life);
- usage: 1 - exp(-access_count / 5), saturating;
- context: for a memory in an episode (a conversation, a document read in order) or a chunk of a longer one,
  the best relevance (w_v * vector + w_l * lexical, over w_v + w_l) of the memories or chunks just before and
  after it. A reply such as
  "yes, last Friday" carries the question it answers only in its neighbour, so neighbours lend relevance;
- episode: for a memory in an episode (or a chunk), the geometric mean of its own relevance and the best
  relevance among the candidates of that episode (its own included): of two turns that match the query equally,
  the one from the conversation that matches it best is the likelier answer (passage retrieval's document-level
  evidence). A memory in no episode is its own episode: this is its own relevance;
- time: when the query names a time ("in June 2023", "last week", "on 7 July"), 1 for a memory created within
  that period, and outside it 0.5 ^ (days away / the period's length, at least a day; a day for an open period
  such as "since May"): "in June" still favours what was told on the 2nd of July; times the memory's relevance
  over TIME_SLACK x the best candidate's, at most 1, so the period lifts what matches the question. 0 for every
  memory when the query names no time, so standalone scores are unchanged.
With pseudo-relevance feedback (Settings.feedback_docs / feedback_weight) the vector component is the cosine to
the query moved toward the memories that matched it best (`feedback_query`); `cosine` stays the cosine to the
query as asked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, Protocol, TypeVar

import numpy as np

from engram.config import RankingProfile
from engram.lang.clock import PART_STEMS
from engram.model.results import Scored
from engram.model.vectors import Vector
from engram.recall.confidence import leads, strengths
from engram.recall.contained import Contained, overlaps


class Scorable(Protocol):
    """What scoring reads of a memory: a full MemoryRecord, or the store's lighter Facts."""

    @property
    def id(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def importance(self) -> float: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def updated_at(self) -> datetime: ...
    @property
    def last_accessed_at(self) -> datetime | None: ...
    @property
    def access_count(self) -> int: ...
    @property
    def validity_score(self) -> float: ...
    @property
    def is_negative(self) -> bool: ...


R = TypeVar("R", bound=Scorable)
S = TypeVar("S", bound=Scorable)


@dataclass(frozen=True, slots=True)
class Candidate(Generic[R]):
    record: R
    cosine: float
    bm25: float = 0.0


@dataclass(frozen=True, slots=True)
class Pool(Generic[R]):
    """Candidates as columns: each record's cosine and bm25 at its place (a Candidate for each cost more to
    build than scoring it)."""

    records: Sequence[R]
    cosine: np.ndarray
    bm25: np.ndarray


@dataclass(frozen=True, slots=True)
class Period:
    """A time the query names: from `after` (inclusive) to `before` (exclusive); either end may be open."""

    after: datetime | None
    before: datetime | None

    def closeness(self, times: Sequence[datetime]) -> np.ndarray:
        """The time component: 1 inside the period, halving with every period's length (at least a day; a day
        when an end is open) outside it."""
        half = 1.0
        if self.after is not None and self.before is not None:
            half = max(1.0, _days(self.before, self.after))
        away = [
            _days(self.after, t)
            if self.after is not None and t < self.after
            else _days(t, self.before)
            if self.before is not None and t >= self.before
            else 0.0
            for t in times
        ]
        return np.asarray(0.5 ** (np.array(away, dtype=np.float64) / half))


@dataclass(frozen=True, slots=True)
class Decay:
    half_life_days: float = 30.0
    importance_daily: float = 0.99
    negative_penalty: float = 0.25


def _days(later: datetime, earlier: datetime) -> float:
    return max(0.0, (later - earlier).total_seconds() / 86400)


def last_used(record: Scorable) -> datetime:
    if record.last_accessed_at is not None and record.last_accessed_at > record.updated_at:
        return record.last_accessed_at
    return record.updated_at


def _ages(now: datetime, records: Sequence[Scorable]) -> np.ndarray:
    """`_days` from each record's `last_used` to `now`, in one pass (a call of each per candidate cost more)."""
    seconds = [(now - max(r.updated_at, r.last_accessed_at or r.updated_at)).total_seconds() for r in records]
    return np.maximum(0.0, np.array(seconds, dtype=np.float64) / 86400)


def feedback_query(query: Vector, top: Sequence[Vector], weight: float) -> Vector:
    """Rocchio's pseudo-relevance feedback: the query moved toward the mean of the best-matching hits (which
    are assumed relevant), back to unit length."""
    if not top or weight <= 0:
        return query
    moved = query + weight * np.mean(np.stack(top), axis=0)
    norm = float(np.linalg.norm(moved))
    return (moved / norm).astype(np.float32) if norm > 0 else query


# The share of the best candidate's relevance from which a memory of a named time takes the time score in full.
TIME_SLACK = 0.5

_SIGNALS = ("vector", "lexical", "importance", "recency", "usage", "context", "episode", "time")
# Each candidate's row of components: the weighted signals, then what they came from.
# "coverage": the IDF-weighted share of all the query's word stems a memory contains, those no memory contains
# counted too (the lexical signal leaves them out, as they cannot tell memories apart). An absolute measure of
# how much of what was asked a memory says, for `shortfall`'s floor.
# "neighbour": the best match strength (engram.recall.confidence) among the memories just before and after it in
# its episode: a reply ("yes, last Friday") is as sure an answer as the question before it is a match.
# "lead": its cosine to the query as asked over the best of every other memory's (a document's passages are one
# memory): how clearly the question is about this memory rather than any other (engram.recall.confidence).
_COLUMNS = (*_SIGNALS, "cosine", "bm25", "coverage", "neighbour", "lead")
_SHOWN = (*_COLUMNS, "base", "validity", "negative_penalty", "score")
_COL = {name: i for i, name in enumerate(_COLUMNS)}
_SHOWN_AT = {name: i for i, name in enumerate(_SHOWN)}
_VECTOR, _LEXICAL, _CONTEXT, _EPISODE = _COL["vector"], _COL["lexical"], _COL["context"], _COL["episode"]
_COSINE = _COL["cosine"]


class Components(Mapping[str, float]):
    """One candidate's row of the score table, read by name (`_SHOWN`). Recall scores every candidate and reads
    the components of few: a dict for each was most of the time of building the results."""

    __slots__ = ("row",)

    def __init__(self, row: list[float]) -> None:
        self.row = row

    def __getitem__(self, name: str) -> float:
        return self.row[_SHOWN_AT[name]]

    def __iter__(self) -> Iterator[str]:
        return iter(_SHOWN)

    def __len__(self) -> int:
        return len(_SHOWN)


# Given the candidates' records and their relevance (`_match`: vector and lexical alone), each one's cosine to
# the query moved by pseudo-relevance feedback: by id, or an array in the records' order.
Feedback = Callable[[Sequence[R], np.ndarray], Mapping[str, float] | np.ndarray]


def score(
    candidates: Sequence[Candidate[R]] | Pool[R],
    query_weights: dict[str, float],
    profile: RankingProfile,
    decay: Decay,
    now: datetime,
    neighbours: Mapping[str, Sequence[str]] | None = None,
    episodes: Mapping[str, str] | None = None,
    feedback: Feedback[R] | None = None,
    period: Period | None = None,
    unseen: float = 0.0,
    alternates: Mapping[str, float] | None = None,
    topic: tuple[dict[str, float], float] | None = None,
    standins: Mapping[str, Sequence[frozenset[str]]] | None = None,
    contained: Contained | None = None,
    openings: Mapping[str, str] | None = None,
) -> list[Scored[R]]:
    """Score every candidate; best first. `neighbours` maps a candidate to the candidates beside it in its
    episode, `episodes` a candidate to its episode (the parent, for a chunk). With `feedback`, the vector
    component is the cosine it returns (pseudo-relevance feedback); the others stay as they were. `period` is
    the time the query names, if any; `unseen` the IDF weight of the query's word stems no memory contains, and
    `alternates` the IDF of the stems of its expansions (related tags) that are not its own; `topic`, the first
    and second of those for the query without the words of a time it names, which `coverage` reads if given;
    `contained`, the candidates' stems as far as read ahead; `openings`, for a passage, the question's names its
    document's opening says, which `coverage` counts as the passage's."""
    if isinstance(candidates, Pool):
        records = list(candidates.records)
        cosine = np.asarray(candidates.cosine, dtype=np.float64)
        bm25 = np.asarray(candidates.bm25, dtype=np.float64)
    else:
        records = [c.record for c in candidates]
        cosine = np.array([c.cosine for c in candidates], dtype=np.float64)
        bm25 = np.array([c.bm25 for c in candidates], dtype=np.float64)
    top_bm25 = float(bm25.max()) if len(bm25) else 0.0
    days = _ages(now, records)
    table = np.zeros((len(records), len(_COLUMNS)))
    table[:, _VECTOR] = np.maximum(cosine, 0.0)
    contents = [r.content for r in records]
    contains = contained if contained is not None else Contained()
    share, extra = overlaps(query_weights, contents, alternates, standins, contains)
    table[:, _LEXICAL] = 0.5 * (bm25 / top_bm25 if top_bm25 > 0 else 0.0) + 0.5 * share
    # An expansion's words stand in for the words they expand (k8s for kubernetes), up to the whole question.
    said, missing = topic if topic is not None else (query_weights, unseen)
    clocked = not PART_STEMS.isdisjoint(query_weights)
    part = (
        overlaps(said, contents, None, standins, contains, clock=False)[0]
        if topic is not None or clocked
        else share
    )
    asked = sum(said.values()) + missing
    table[:, _COL["coverage"]] = (
        np.minimum(1.0, (part * (asked - missing) + extra) / asked) if asked > 0 else 0.0
    )
    if openings and asked > 0:
        # A passage names whom its document's opening names: "the Hennessys' dog" is answered by a passage of
        # their job's spec that names only the dog, and the spec names them at its start.
        at = [i for i, r in enumerate(records) if r.id in openings]
        texts = [f"{contents[i]}\n{openings[records[i].id]}" for i in at]
        whole = overlaps(said, texts, None, standins, clock=False)[0]
        told = np.minimum(1.0, (whole * (asked - missing) + extra[at]) / asked)
        table[at, _COL["coverage"]] = np.maximum(table[at, _COL["coverage"]], told)
    importance = np.array([r.importance for r in records], dtype=np.float64)
    table[:, _COL["importance"]] = importance * decay.importance_daily**days
    table[:, _COL["recency"]] = 0.5 ** (days / decay.half_life_days)
    table[:, _COL["usage"]] = 1 - np.exp(-np.array([r.access_count for r in records], dtype=np.float64) / 5)
    if period is not None and profile.time:
        table[:, _COL["time"]] = period.closeness([r.created_at for r in records])
    # The cosine to the query itself, kept when feedback moves the vector component: `shortfall` judges by it
    # whether a memory matches what was asked (moved toward the best few, the query matched whatever they were).
    table[:, _COSINE] = cosine
    table[:, _COL["lead"]] = leads(cosine, [getattr(r, "parent", None) or r.id for r in records])
    if feedback is not None and records:
        # Only the relevance picks what feedback starts from: nothing else of a first pass is needed.
        moved = feedback(records, _match(table, profile))
        if isinstance(moved, np.ndarray):
            cosine = np.asarray(moved, dtype=np.float64)
        else:
            cosine = np.array([moved.get(r.id, 0.0) for r in records], dtype=np.float64)
        table[:, _VECTOR] = np.maximum(cosine, 0.0)
    table[:, _COL["bm25"]] = bm25
    return _combined(records, table, profile, decay, neighbours, episodes)


def _match(table: np.ndarray, profile: RankingProfile) -> np.ndarray:
    """How well each row's own content matches the query, 0..1: its vector and lexical components weighed as
    the profile weighs them."""
    weight = profile.vector + profile.lexical
    if not weight:
        return np.zeros(len(table))
    return (profile.vector * table[:, _VECTOR] + profile.lexical * table[:, _LEXICAL]) / weight


def _combined(
    records: Sequence[R],
    table: np.ndarray,
    profile: RankingProfile,
    decay: Decay,
    neighbours: Mapping[str, Sequence[str]] | None,
    episodes: Mapping[str, str] | None,
) -> list[Scored[R]]:
    """The final scores of a table of components (one row per record, `_COLUMNS`), as arrays: per-candidate
    Python arithmetic was most of a recall's scoring time."""
    match = _match(table, profile)
    strongest = float(match.max()) if len(match) else 0.0
    if profile.time and strongest > 0:
        # A named time lifts what matches the question: in full for a memory with at least half the best match's
        # relevance, less for one that matches less. Lifted alike, whatever fell in the period (small talk of that
        # day) crowded out what was said just before it.
        table[:, _COL["time"]] *= np.minimum(1.0, match / (TIME_SLACK * strongest))
    table[:, _CONTEXT] = 0.0
    if neighbours:
        row = {r.id: i for i, r in enumerate(records)}
        pairs = [(i, row[n]) for i, r in enumerate(records) for n in neighbours.get(r.id, ()) if n in row]
        if pairs:
            at, beside = np.array(pairs).T
            np.maximum.at(table[:, _CONTEXT], at, match[beside])
            sure = strengths(
                table[:, _COSINE], table[:, _COL["coverage"]], table[:, _COL["lead"]], table[:, _LEXICAL]
            )
            np.maximum.at(table[:, _COL["neighbour"]], at, sure[beside])
    # A memory in no episode is its own episode: scoring it 0 there ranked the passages of a long document over a
    # short memory that answered better. It has no neighbours to lend it context.
    if episodes is None:
        table[:, _EPISODE] = 0.0
    elif not episodes:  # every candidate alone (a store of loose memories): no test of each
        table[:, _EPISODE] = match
    else:
        alone = np.array([r.id not in episodes for r in records], dtype=bool)
        table[:, _EPISODE] = 0.0
        table[alone, _EPISODE] = match[alone]
        placed = [(i, episodes[r.id]) for i, r in enumerate(records) if r.id in episodes]
        if placed:
            at = np.array([i for i, _ in placed])
            _, group = np.unique([key for _, key in placed], return_inverse=True)
            best = np.zeros(int(group.max()) + 1)
            np.maximum.at(best, group, match[at])
            # The geometric mean with its own match: an off-topic turn of the right conversation gains little
            # (the best's full relevance for every turn crowded the top with one conversation's small talk).
            table[at, _EPISODE] = np.sqrt(best[group] * match[at])
    base = table[:, : len(_SIGNALS)] @ np.array([getattr(profile, name) for name in _SIGNALS])
    validity = np.array([r.validity_score for r in records], dtype=np.float64)
    penalty = np.array([decay.negative_penalty if r.is_negative else 0.0 for r in records])
    final = np.maximum(0.0, base * validity - penalty)
    # Stable, so equal scores keep the candidates' order; the rows taken in that order, as one list each.
    order = np.argsort(-final, kind="stable")
    rows = np.column_stack([table, base, validity, penalty, final])[order].tolist()
    return [Scored(records[i], row[-1], Components(row)) for i, row in zip(order.tolist(), rows, strict=True)]


def matched_exactly(scored: Sequence[Scored[R]], profile: RankingProfile) -> list[Scored[R]]:
    """The scores with the lexical (exact-match) component full, best first: for a search whose filter already
    makes every candidate what was asked for (each reminder answers "what do I need to do?"), whatever words
    it shares with the question."""
    out: list[Scored[R]] = []
    for s in scored:
        row = list(s.components.row) if isinstance(s.components, Components) else []
        if not row:
            out.append(s)
            continue
        row[_SHOWN_AT["base"]] += profile.lexical * (1.0 - row[_LEXICAL])
        row[_LEXICAL] = row[_COL["coverage"]] = 1.0
        final = max(
            0.0, row[_SHOWN_AT["base"]] * row[_SHOWN_AT["validity"]] - row[_SHOWN_AT["negative_penalty"]]
        )
        row[_SHOWN_AT["score"]] = final
        out.append(Scored(s.record, final, Components(row), s.why))
    return sorted(out, key=lambda s: -s.score)


_MATCHING = ("vector", "lexical", "context", "episode")  # `matching` reads the first two apart


def matching(s: Scored[R], profile: RankingProfile) -> float:
    """How much of a memory's score comes from matching the query: its cosine to the query as asked
    (pseudo-relevance feedback moves the query toward the best few candidates, and when nothing matches those
    are unrelated memories the moved query then matched), the share of the whole question it says, and its
    context and episode scores."""
    c = s.components
    if "cosine" not in c:
        return s.score  # scored by hand, components unknown
    found = sum(getattr(profile, name) * c[name] for name in _MATCHING[2:]) + profile.vector * max(
        c["cosine"], 0
    )
    # The exact-match part by the share of the whole question a memory says: half the lexical signal is the
    # memory's bm25 over the best candidate's, so whatever matched best had it, one common word of the question
    # ("use" of "which bank do I use") in a memory of nothing else asked included.
    found += profile.lexical * c.get("coverage", c["lexical"])
    return float(found * c["validity"])


def shortfall(s: Scored[R], floor: float, profile: RankingProfile) -> str | None:
    """Why a scored memory falls under the `floor` of `relevant`, or None if it does not."""
    found = matching(s, profile)
    if found < floor / 2:
        return f"matches the query too little: {found:.3f} of its score, under half of min_relevance {floor}"
    if s.score - profile.time * s.components["time"] * s.components["validity"] < floor:
        return f"score without the time boost under min_relevance {floor}"
    return None


def as_asked(s: Scored[R], profile: RankingProfile) -> float:
    """The score without the lift pseudo-relevance feedback gave its vector component."""
    c = s.components
    if not isinstance(c, Components):
        return s.score
    lift = max(0.0, c["vector"] - max(c["cosine"], 0.0))
    return max(0.0, s.score - profile.vector * lift * c["validity"])
