"""search_memory: natural-language search. The question is understood once (engram.recall.query): a time range
option filters, a time it names favours that period, an event it is relative to ("before the launch") filters
around the memory that mentions it; its concepts that are tags in use expand the text search through related
tags. It ranks with the "default" profile, as recall does. A question that only asks for things to do lists the reminders
(those due on the days it names first); one that only asks for memories lists them, newest first."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np

from engram.agent.agenda import LISTED, by_due, things_to_do
from engram.agent.answers import passage_answer
from engram.agent.arguments import SearchOptions, validated
from engram.agent.store import importance_1_5
from engram.agent.subject import asks_about_user, someone_else
from engram.config import Settings
from engram.errors import InvalidInput
from engram.lang import analysis, events, pii
from engram.model.answers import SearchHit, SearchMemoryResult
from engram.model.record import Category, Kind, as_utc, utcnow
from engram.model.vectors import Vector
from engram.recall.confidence import at_least
from engram.recall.intent import names_no_topic
from engram.recall.modes import RecallMode
from engram.recall.query import (
    Query,
    TimeClause,
    matched_concepts,
    query_concepts,
    read_query,
)
from engram.recall.query import read_search as read
from engram.recall.retriever import Hit, Retriever
from engram.store.values import Filter
from engram.tags.naming import key
from engram.tags.service import TagService

EXPANSION_AT = 0.6  # cosine at which a tag expands a query concept
# recall's profile: it found more than the "redesign" weights (semantic 0.4, exact 0.3 and the three priors) on
# every development set (docs/design/recall.md).
PROFILE = "default"
GUESSES = 3  # the fewest results "auto" shows: the sure ones, then the best guesses (low confidence)

# Words an agent uses for a content type, beside the category and kind names themselves.
_CONTENT_TYPES: dict[str, Category | Kind] = {
    "reminder": Category.REMINDERS,
    "task": Category.REMINDERS,
    "todo": Category.REMINDERS,
    "preference": Category.CONTEXTS,
    "personal": Category.CONTEXTS,
    "project": Category.PROJECTS,
    "learning": Category.LEARNINGS,
    "factual": Category.REFERENCES,
    "fact": Category.REFERENCES,
    "reference": Category.REFERENCES,
    "procedure": Category.REFERENCES,
    "interaction": Category.INTERACTIONS,
    "meeting": Category.INTERACTIONS,
    "conversation": Category.INTERACTIONS,
}
# Words that ask for the latest memories when the query names no time: "recent memories", "everything new".
_LATEST = frozenset(
    {"recent", "recently", "latest", "new", "memory", "memories", "everything", "all", "notes"}
)


class SearchMemory:
    def __init__(self, settings: Settings, retriever: Retriever, tags: TagService) -> None:
        self._settings = settings
        self._retriever = retriever
        self._tags = tags

    def understand(self, text: Any, opts: SearchOptions, now: datetime, session: str | None) -> Query:
        """The question as search_memory reads it; an event it is relative to is looked for among the memories
        `session` sees."""
        span = opts.time_range
        after, before = (None, None) if span is None else (_utc(span.after), _utc(span.before))
        query = read(text, now, longest=self._settings.max_content_chars, after=after, before=before)
        if query.anchor is not None:
            probe = read_query(query.event, now, longest=self._settings.max_content_chars)
            where = Filter(now=now, session=session)
            event = self._retriever.recall(
                probe, where, limit=1, mode=RecallMode.RANKED, profile="default", touch=False
            )
            # A weak match (a document sharing no word with the event) is no event: filtering around it hid
            # the answer.
            if event and at_least(event[0].confidence, "medium"):
                query = query.anchored(event[0].record.id, event[0].record.created_at)
        query = self._retriever.corrected(query)
        concepts = query_concepts(query.topic)
        return replace(query, concepts=concepts, expansions=self._expansions(concepts))

    def __call__(
        self,
        text: str,
        options: dict[str, Any] | None = None,
        *,
        now: datetime | None = None,
        touch: bool = True,
        session: str | None = None,
    ) -> SearchMemoryResult:
        opts: SearchOptions = validated(SearchOptions, options, "options")
        now = utcnow() if now is None else as_utc(now)
        query = self.understand(text, opts, now, session)
        content_type = None if opts.content_type is None else _content_type(opts.content_type)
        clause = query.time
        filtered = clause is not None and clause.applied == "filter"
        where = Filter(
            kinds=(content_type,) if isinstance(content_type, Kind) else (),
            categories=(content_type,) if isinstance(content_type, Category) else (),
            importance_min=None if opts.importance_min is None else (opts.importance_min - 1) / 4,
            include_expired=opts.include_expired,
            created_after=clause.after if clause is not None and filtered else None,
            created_before=clause.before if clause is not None and filtered else None,
            now=now,
            session=session,
        )

        def ranked(where: Filter, exact: bool, limit: int) -> tuple[list[Hit], int]:
            return self._retriever.ranked(
                query, where, limit=limit, profile=PROFILE, floor=opts.min_relevance, exact=exact
            )

        # "What do I need to do this week?" names no topic: it asks for the things to do. The reminders are
        # searched, each an exact match of what was asked (whatever words it shares with the question), those
        # due soonest first, and only those due on the days the question names, if it names some (undated ones
        # follow); with no reminder, all memories are.
        # Asked for reminders or tasks by type, the question lists them the same way.
        listing = content_type in (None, Category.REMINDERS, Kind.TASK) and query.asks_for_tasks()
        shown: list[Hit] = []
        total, days = 0, dict[str, datetime | None]()
        if listing:
            shown = things_to_do(replace(where, kinds=(), categories=()), ranked)
            if query.asks_for_occasions():  # "birthdays coming up": not the dentist
                shown = [h for h in shown if events.occasion(h.record.content)]
            listing = bool(shown)  # none due on the days asked is an answer; no reminder at all is not
            if listing:
                shown, days = by_due(shown, query)
                shown, total = shown[: opts.limit], len(shown)
                if query.due is not None:  # the days the reminders are due, not when memories were made
                    span = query.due
                    clause = TimeClause(span.phrase, span.after, span.before, "due")
        by_rank = not listing and not query.asks_for_memories()  # a list of memories keeps its time order
        if not listing and not by_rank:
            shown, total, clause = _memories_of(query, where, clause, opts, ranked)
        elif by_rank:
            found, _ = ranked(where, False, opts.limit)
            shown = with_updates(confident(found, opts.min_confidence, pii.asked_for(query.text)), found)
            total = len(shown)
        if shown and touch:
            self._retriever.touch(shown, now)
        if not listing:  # a list of things to do keeps its calendar order
            shown = newer_first(shown)
        if by_rank and asks_about_user(query.text):
            shown = users_own_first(shown)
        return {
            "results": _results(shown, query, days if listing else None),
            "total_found": total,
            "query_analysis": {
                "extracted_concepts": list(query.concepts),
                "search_scope": _scope(Category.REMINDERS if listing else content_type),
                "semantic_expansions": {k: list(v) for k, v in query.expansions.items()}
                | {said: [word] for said, word in query.corrections or ()},
                "intent": query.intent,
                "time_range": None if clause is None else clause.shown(),
            },
        }

    def _expansions(self, concepts: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
        """Each query concept that is a tag in use, with the tags closest to it (expansion through the tag
        graph). Concepts outside the vocabulary are not embedded: the query's own embedding already searches by
        meaning, and a model call per concept would cost more than the rest of the search."""
        vocabulary = self._tags.vocabulary()
        known: list[tuple[str, str, Vector]] = []
        for concept in concepts:
            tag = analysis.normalize_tag(concept)
            name = tag if vocabulary.vector(tag) is not None else vocabulary.spelled(tag)
            vector = None if name is None else vocabulary.vector(name)
            if name is not None and vector is not None:
                known.append((concept, name, vector))
        if not known:
            return {}
        out: dict[str, tuple[str, ...]] = {}
        nearest = vocabulary.nearest(np.stack([v for _, _, v in known]), 4)
        for (concept, name, _), near in zip(known, nearest, strict=True):
            kept = [tag for tag, cosine in near if cosine >= EXPANSION_AT and key(tag) != key(name)][:3]
            if kept:
                out[concept] = tuple(kept)
        return out


def confident(hits: list[Hit], least: str, asked: frozenset[str] = frozenset()) -> list[Hit]:
    """The hits at least as sure as `least`. "auto" keeps the medium and high ones and tops them up to a few with
    the best guesses that hold no personal data but what the question asks for (`asked`, pii.asked_for), marked
    low: a question nothing stored answers gets guesses marked as such rather than an empty answer, and a sure
    but wrong answer no longer hides the right one ranked just below it."""
    if least == "low":
        return hits
    sure = [h for h in hits if at_least(h.confidence, "high" if least == "high" else "medium")]
    if least != "auto" or len(sure) >= GUESSES:
        return sure
    # A guess is no answer: one holding personal data (an e-mail address, a phone number) would put it into an
    # agent's context for a question about something else. Asked for it ("how can I reach the landlord"), the
    # memory holding it is the likeliest answer: withheld, unrelated guesses took its place.
    kept = {h.record.id for h in sure}
    guesses: list[Hit] = []
    for h in hits:
        if len(sure) + len(guesses) >= GUESSES:
            break
        if h.record.id not in kept and not _personal_shown(h) - asked:
            guesses.append(h)
    return [*sure, *guesses]


def with_updates(shown: list[Hit], found: list[Hit]) -> list[Hit]:
    """The shown hits, and the hits found that say a shown one changed ("Clara moved to Porto" for "My sister
    Clara lives in Lisbon"), as sure as the one they update: the newer wording often shares fewer words with the
    question, and left out as unsure, the answer was the old fact."""
    kept = {h.record.id for h in shown}
    sure = {
        str(h.record.metadata["updated_by"]): h.confidence for h in shown if "updated_by" in h.record.metadata
    }
    extra = [
        replace(h, confidence=sure[h.record.id])
        for h in found
        if h.record.id in sure and h.record.id not in kept
    ]
    return [*shown, *extra]


def newer_first(hits: list[Hit]) -> list[Hit]:
    """The hits with each memory that says an older one changed ("we moved the standup to 10am") just above that
    older one when both were found: the first statement of a fact is often the longer and the closer to the
    question, and ranked above the change."""
    place = {h.record.id: i for i, h in enumerate(hits)}
    moved: dict[str, int] = {}
    for i, hit in enumerate(hits):
        newer = hit.record.metadata.get("updated_by")
        if hit.record.parent_id is None and isinstance(newer, str) and place.get(newer, -1) > i:
            moved[newer] = min(moved.get(newer, i), i)
    if not moved:
        return hits
    # Sorted by (the place it moves to, after the older one's place by a half), so ties keep their order.
    return sorted(
        hits, key=lambda h: moved[h.record.id] - 0.5 if h.record.id in moved else place[h.record.id]
    )


def users_own_first(hits: list[Hit]) -> list[Hit]:
    """For a question about the user, the hits that state another person's liking or fact ("Tom likes his
    coffee black") after the user's own, in their order: ranked first, the answer to "how does the user take
    coffee" was Tom's. A guess stays below the surer hits whoever it is about."""
    theirs = {h.record.id for h in hits if someone_else(h.record.content)}
    return sorted(hits, key=lambda h: (h.confidence in (None, "low"), h.record.id in theirs))


def _personal_shown(hit: Hit) -> set[str]:
    """The kinds of personal data a hit shows: a document's passage by its own text (it carries the whole
    document's marks, so a care plan's one phone number withheld every passage of it as a guess), any other
    memory by its marks."""
    if hit.record.parent_id is None:
        return _personal(hit.record.metadata)
    return set(pii.scan(hit.record.content).names)


def _personal(metadata: dict[str, Any]) -> set[str]:
    """The kinds of personal data a memory holds, as the write path (`pii_found`) or ingest (`pii.kinds`) found
    them; a mark that names no kind counts as a kind no question asks for."""
    ingested = metadata.get("pii")
    kinds: set[str] = set()
    for found in (metadata.get("pii_found"), ingested.get("kinds") if isinstance(ingested, dict) else None):
        if isinstance(found, list | tuple):
            kinds |= {str(k) for k in found}
        elif found:
            kinds.add("personal")
    return kinds


def _utc(moment: datetime | None) -> datetime | None:
    return None if moment is None else as_utc(moment)


def _content_type(value: str) -> Category | Kind:
    name = value.strip().lower()
    for enum in (Category, Kind):
        try:
            return enum(name)
        except ValueError:
            pass
    if name in _CONTENT_TYPES:
        return _CONTENT_TYPES[name]
    valid = sorted({*(c.value for c in Category), *(k.value for k in Kind), *_CONTENT_TYPES})
    raise InvalidInput("options.content_type", f"unknown; choose one of {valid}")


def _scope(content_type: Category | Kind | None) -> str:
    return "content+tags" if content_type is None else f"content+tags in {content_type.value}"


def _memories_of(
    query: Query,
    where: Filter,
    clause: TimeClause | None,
    opts: SearchOptions,
    ranked: Callable[[Filter, bool, int], tuple[list[Hit], int]],
) -> tuple[list[Hit], int, TimeClause | None]:
    """A query that names no topic, only memories ("what did I tell you today?", "recent memories"): each
    memory of the time it names (or of the time range option) is what was asked, newest first. A named time
    filters here: with no topic to rank by, a boost would return every memory. With neither a time nor a word
    such as "recent", nothing is listed (the plain search runs)."""
    if clause is not None and clause.applied == "boost":
        where = replace(where, created_after=clause.after, created_before=clause.before)
        clause = replace(clause, applied="filter")
    elif opts.time_range is None and not any(w in _LATEST for c in query.concepts for w in c.lower().split()):
        found, _ = ranked(where, False, opts.limit)
        shown = confident(found, opts.min_confidence, pii.asked_for(query.text))
        return shown, len(shown), clause
    shown, total = ranked(where, True, LISTED)
    return sorted(shown, key=lambda h: h.record.created_at, reverse=True)[: opts.limit], total, clause


def _results(shown: list[Hit], query: Query, days: dict[str, datetime | None] | None) -> list[SearchHit]:
    """Each hit as search_memory answers it. A long memory answers with the passage (chunk) that matched, under
    the memory's own id, once."""
    # "need", "due": the words of a question for things to do are no concepts a memory matches.
    topical = [c for c in query.concepts if not names_no_topic([c])]
    wanted = {*(c.lower() for c in topical), *(t for near in query.expansions.values() for t in near)}
    results: list[SearchHit] = []
    seen: set[str] = set()
    for hit in shown:
        r = hit.record
        owner = r.parent_id or r.id
        if owner in seen:
            continue
        seen.add(owner)
        found: SearchHit = {
            "id": owner,
            "content": r.content,
            "relevance_score": round(hit.score, 4),
            "confidence": hit.confidence or "low",
            "matched_concepts": matched_concepts(wanted, r.content, r.tags),
            "category": None if r.category is None else r.category.value,
            "importance": importance_1_5(r.importance),
            "created_at": r.created_at.isoformat(),
            "last_accessed": None if r.last_accessed_at is None else r.last_accessed_at.isoformat(),
        }
        if hit.passage is not None:
            found["passage"] = passage_answer(hit.passage)
        elif isinstance(newer := r.metadata.get("updated_by"), str):
            found["updated_by"] = newer
        if days is not None:
            found["due"] = None if (day := days.get(r.id)) is None else day.date().isoformat()
        results.append(found)
    return results
