"""search_memory: natural-language search. The question is understood as recall understands it
(engram.agent.understanding); a time range option filters. It ranks with the "default" profile, as recall does. A
question that only asks for things to do lists the reminders (those due on the days it names first); one that only
asks for memories lists them, newest first (engram.agent.listing)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engram.agent.answers import passage_answer
from engram.agent.arguments import SearchOptions, validated
from engram.agent.listing import memories_of, things_due
from engram.agent.store import importance_1_5
from engram.agent.subject import asks_about_user, someone_else
from engram.agent.understanding import Understanding
from engram.agent.updated import newer_first, with_updates
from engram.errors import InvalidInput
from engram.lang import pii
from engram.model.answers import SearchHit, SearchMemoryResult
from engram.model.record import Category, Kind, as_utc, utcnow
from engram.recall.confidence import at_least
from engram.recall.intent import names_no_topic
from engram.recall.query import Query, matched_concepts
from engram.recall.retriever import Hit, Retriever
from engram.store.values import Filter

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


class SearchMemory:
    def __init__(self, understanding: Understanding, retriever: Retriever) -> None:
        self._understand = understanding
        self._retriever = retriever

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
        span = opts.time_range
        after, before = (None, None) if span is None else (_utc(span.after), _utc(span.before))
        query = self._understand(text, Filter(now=now, session=session), after=after, before=before)
        content_type = None if opts.content_type is None else _content_type(opts.content_type)
        clause = query.time
        where = Filter(
            kinds=(content_type,) if isinstance(content_type, Kind) else (),
            categories=(content_type,) if isinstance(content_type, Category) else (),
            importance_min=None if opts.importance_min is None else (opts.importance_min - 1) / 4,
            include_expired=opts.include_expired,
            now=now,
            session=session,
        )
        if clause is not None and clause.applied == "filter":
            where = where.created_within(clause.after, clause.before)

        def ranked(where: Filter, exact: bool, limit: int) -> tuple[list[Hit], int]:
            return self._retriever.ranked(
                query, where, limit=limit, profile=PROFILE, floor=opts.min_relevance, exact=exact
            )

        # "What do I need to do this week?" names no topic: it asks for the things to do (engram.agent.listing);
        # with no reminder, all memories are searched. Asked for reminders or tasks by type, the question lists
        # them the same way.
        listed = (
            things_due(query, where, ranked, opts.limit)
            if content_type in (None, Category.REMINDERS, Kind.TASK)
            else None
        )
        listing = listed is not None
        by_rank = not listing and not query.asks_for_memories()  # a list of memories keeps its time order
        if not listing and not by_rank:
            listed = memories_of(query, where, ranked, opts.limit, ranged=opts.time_range is not None)
        shown: list[Hit] = []
        if listed is not None:
            shown, total, clause = listed.hits, listed.total, listed.clause
        else:
            # Neither a time nor a word such as "recent" in a question for memories: the plain search, as sure
            # as asked.
            found, _ = ranked(where, False, opts.limit)
            shown = confident(found, opts.min_confidence, pii.asked_for(query.text))
            shown = with_updates(shown, found) if by_rank else shown
            total = len(shown)
        if shown and touch:
            self._retriever.touch(shown, now)
        if by_rank and asks_about_user(query.text):
            shown = users_own_first(shown)
        if (
            not listing
        ):  # a list of things to do keeps its calendar order; a change stays above what it changed
            shown = newer_first(shown, query)
        return {
            "results": _results(shown, query, listed.days if listed is not None else None),
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
