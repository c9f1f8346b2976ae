"""From a query's scored candidates to the memories returned: `recall` orders them by MMR and applies the mode's
thresholds; `ranked` keeps them by score alone. Both return each document once, by its best passage, and say how
surely each hit answers. Only what is returned is read in full."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from engram.config import RankingProfile, Settings
from engram.embed.embedder import Embedder
from engram.lang.text import unspaced
from engram.model.record import MemoryRecord
from engram.model.results import Scored
from engram.model.vectors import Vector
from engram.recall.ages import aged
from engram.recall.aligned import meant_by_words
from engram.recall.candidates import Candidates, CandidateStore
from engram.recall.confidence import Confidence, confidence_of
from engram.recall.contacts import held_as_asked, without_contact
from engram.recall.exchanges import exchanged
from engram.recall.kin import (
    LOOKED_UP,
    by_name,
    called_by_name,
    kin_words,
    names_in,
    said_of,
    searched,
    spelled,
)
from engram.recall.likings import liked
from engram.recall.modes import RecallMode, apply_mode, mmr, relevant
from engram.recall.modifiers import contradicted, owned_by_someone
from engram.recall.named import names_asked, owned_by_another, unnamed
from engram.recall.passages import where_in
from engram.recall.query import Query
from engram.recall.replies import lend_replies
from engram.recall.scoring import Decay, matched_exactly
from engram.recall.speakers import said_by_asked
from engram.recall.spelling import corrected
from engram.recall.typed import untyped
from engram.store.values import Facts, Filter

Hit = Scored[MemoryRecord]


class RecallStore(CandidateStore, Protocol):
    """What recall reads, and the usage it counts."""

    def get_many(self, ids: Sequence[str]) -> list[MemoryRecord]: ...
    def children(self, parent_id: str) -> list[MemoryRecord]: ...
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
        self._embedder = embedder
        self._candidates = Candidates(settings, store, embedder, decay, self._readers)

    def close(self) -> None:
        self._readers.shutdown()

    def profile(self, name: str) -> RankingProfile:
        return self._settings.profiles[name]

    def scored(
        self, query: Query, where: Filter, limit: int, profile: str, *, lend: bool = False
    ) -> tuple[list[Scored[Facts]], dict[str, Vector]]:
        """Every candidate, scored, best first, and the candidates' vectors (trace_search shows them all). With
        `lend`, a question's reply is lent its score before the speaker asked about is weighed, so a reply that
        person says is weighed as their other turns are."""
        return self._scored(
            self._linked(corrected(query, self._store), where), where, limit, profile, lend=lend
        )

    def _scored(
        self, understood: Query, where: Filter, limit: int, profile: str, *, lend: bool = False
    ) -> tuple[list[Scored[Facts]], dict[str, Vector]]:
        """`scored` for a query already read (corrected, its kin named)."""
        scored, vectors, beside = self._candidates.scored(understood, where, limit, self.profile(profile))
        scored = aged(liked(scored, understood.text), understood.text)
        if lend:
            scored = lend_replies(scored, self._store, where)
        return exchanged(said_by_asked(scored, understood.text), beside), vectors

    def corrected(self, query: Query) -> Query:
        """`query` with its misspelled words read as the store spells them (engram.recall.spelling)."""
        return corrected(query, self._store)

    def _linked(self, query: Query, where: Filter) -> Query:
        """The query with the names the memories give the asker's kin it names ("my husband": Tomás) as other
        words for each kin word, and in its place in the text the model embeds. A second, small text search:
        only a question naming kin pays for it."""
        kin = kin_words(query.search)
        if not kin:
            return query
        # Who the asker's kin are holds whatever time the question asks about ("after his operation").
        anytime = replace(where, created_after=None, created_before=None)
        texts = [f.content for f, _ in self._store.text_facts(searched(kin), LOOKED_UP, anytime)]
        named = [
            (w, said_of(w, spelled(found))) for w, said in kin.items() if (found := names_in(said, texts))
        ]
        if not named:
            return query
        shown = called_by_name(named, kin, self._store.document_frequencies)
        return replace(query, others=(*named, *query.others), search=by_name(query.search, shown))

    def recall(
        self, query: Query, where: Filter, *, limit: int, mode: RecallMode, profile: str, touch: bool
    ) -> list[Hit]:
        """In MMR order, each document once (by its best passage), each hit with its confidence, cut by the mode;
        each returned memory's use is counted unless `touch` is false."""
        settings = self._settings
        query = self.corrected(query)  # read once: its corrections also name who is asked about (`_judged`)
        understood = self._linked(query, where)
        scored, vectors = self._scored(understood, where, limit, profile, lend=True)
        thresholds = {RecallMode.ACCURATE: settings.accurate, RecallMode.RELATED: settings.related}
        size = limit if mode is RecallMode.RANKED else min(limit, thresholds[mode].cap)
        pool = _once(scored)
        told = (
            {s.record.id: s.record.episode for s in pool if s.record.episode is not None}
            if query.counts
            else None
        )
        picked = mmr(pool, vectors, settings.mmr_lambda, size, instances=query.counts, episodes=told)
        doubtful = self._doubtful(picked, scored, query.text, kin_asked(understood)) | untyped(
            picked, query.text
        )
        # The mode cuts by scores and confidence alone: only the hits it keeps are read in full.
        sure = self._judged(picked, query, doubtful)
        kept = apply_mode(sure, mode, limit, thresholds.get(mode), self.profile(profile))
        hits = self._full(kept, query, doubtful=doubtful)
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
        query = self.corrected(query)
        understood = self._linked(query, where)
        scored, _ = self._scored(understood, where, limit, profile, lend=not exact)
        ranking = self.profile(profile)
        # A listing (`exact`) is no search: its order is the due days'.
        lent = matched_exactly(scored, ranking) if exact else scored
        best = _once(relevant(lent, floor, ranking))
        shown = best[:limit]
        lacking = set() if exact else untyped(shown, query.text)
        doubtful = (
            set() if exact else self._doubtful(shown, scored, query.text, kin_asked(understood)) | lacking
        )
        if not exact:
            shown = _answers_first(self._judged(shown, query, doubtful), lacking)
        return self._full(shown, query, exact, doubtful), len(best)

    def _doubtful(
        self,
        shown: Sequence[Scored[Facts]],
        scored: Sequence[Scored[Facts]],
        question: str,
        kin: Mapping[str, Sequence[str]],
    ) -> set[str]:
        """The memories of `shown` that answer another one than the question asks about: another person's (by
        name, by kin or as someone else's thing), another of the same thing, or no contact detail asked for."""
        names = names_asked(question)
        return (
            unnamed(shown, scored, names)
            | owned_by_another(shown, scored, question, kin)
            | contradicted(shown, question, kin, self._embedder)
            | owned_by_someone(shown, question, names, kin)
            | without_contact(shown, question)
        )

    def _judged(self, hits: Sequence[Scored[Facts]], query: Query, doubtful: set[str]) -> list[Scored[Facts]]:
        """`hits` each with its confidence, a first hit that answers in other words (engram.recall.aligned) or
        holds the detail asked for (engram.recall.contacts) at medium."""
        question = query.text
        plain = not unspaced(question)
        judged = [Scored(s.record, s.score, s.components, s.why, _sure(s, doubtful, plain)) for s in hits]
        lifted = meant_by_words(judged, question, self._embedder, doubtful) if plain else set()
        lifted |= held_as_asked(judged, question, doubtful, dict(query.corrections or ()))
        return [replace(s, confidence="medium") if s.record.id in lifted else s for s in judged]

    def _full(
        self,
        picked: Sequence[Scored[Facts]],
        query: Query,
        exact: bool = False,
        doubtful: set[str] | None = None,
    ) -> list[Hit]:
        """The full records of what is returned (building them for every candidate would dominate recall), each
        with its confidence (high for all when the filter made each one what was asked: `exact`), and a passage
        of a document with where it sits in it."""
        full = {r.id: r for r in self._store.get_many([s.record.id for s in picked])}
        documents = {r.parent_id for r in full.values() if r.parent_id is not None}
        located = {d: self._store.children(d) for d in documents}
        plain = not unspaced(query.text)
        out: list[Hit] = []
        for s in picked:
            record = full.get(s.record.id)
            if record is None:
                continue
            passage = None
            if record.parent_id is not None and record.chunk_index is not None:
                passage = where_in(record, located.get(record.parent_id, []), query.stems)
            # recall judged its picks already (the mode cut by it); ranked's are judged here
            sure = "high" if exact else s.confidence or _sure(s, doubtful or set(), plain)
            out.append(Scored(record, s.score, s.components, s.why, sure, passage))
        return out

    def touch(self, hits: Sequence[Hit], when: datetime) -> None:
        """Count a use of each memory returned."""
        self._store.touch([h.record.id for h in hits], when)


def _sure(s: Scored[Facts], doubtful: set[str], plain: bool) -> Confidence:
    """How surely a hit answers: by its match, and low when it does not name whom the question asks about or
    holds no answer of the kind asked for. The cosine speaks for a memory alone only when it stands alone and
    the question is in a language the model reads (`plain`: no Chinese or Japanese, whose cosines say little)."""
    if s.record.id in doubtful:
        return "low"
    return confidence_of(
        s.components, by_meaning=plain and s.record.episode is None, in_document=s.record.parent is not None
    )


def _once(scored: Sequence[Scored[Facts]]) -> list[Scored[Facts]]:
    """Each memory once: a document (a long memory stored as passages) by its first, best passage; its other
    passages would only take the places of other memories."""
    owners: set[str] = set()
    out: list[Scored[Facts]] = []
    for s in scored:
        if (owner := s.record.parent or s.record.id) not in owners:
            owners.add(owner)
            out.append(s)
    return out


# How close a guess that could answer must score to one before it that cannot, to be shown before it.
_CLOSE = 0.9


def _answers_first(judged: list[Scored[Facts]], lacking: set[str]) -> list[Scored[Facts]]:
    """`judged` with a guess (low) holding an answer of the kind asked moved before the guesses just above it
    that hold none (`lacking`) and score less than 1 / _CLOSE times as much: "what does Dev do for work?" was
    answered first by his birthday, just above the memory saying he is a plumber, both guesses."""
    out = list(judged)
    for i in range(1, len(out)):
        s = out[i]
        if s.confidence != "low" or s.record.id in lacking:
            continue
        at = i
        while (
            at > 0
            and out[at - 1].confidence == "low"
            and out[at - 1].record.id in lacking
            and s.score >= _CLOSE * out[at - 1].score
        ):
            at -= 1
        out[i : i + 1] = []
        out.insert(at, s)
    return out


__all__ = ["Hit", "RecallStore", "Retriever"]


def kin_asked(understood: Query) -> dict[str, tuple[str, ...]]:
    """Each kin word of the question with every word it is said by: its relation's words, its other words and
    the names the memories give it."""
    others: dict[str, list[str]] = {}
    for word, alternatives in understood.others:
        others.setdefault(word, []).extend(alternatives)
    return {word: (*said, *others.get(word, ())) for word, said in kin_words(understood.text).items()}
