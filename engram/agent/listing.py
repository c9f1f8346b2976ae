"""A question that names no topic is answered with a list, not a search: one asking for things to do ("what do I
need to do this week?") with the reminders due on the days it names, in calendar order; one asking for memories
("what did I tell you today?", "recent memories") with the memories of the time it names, newest first. Each
listed memory is what was asked (an exact match), whatever words it shares with the question."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from engram.agent.agenda import LISTED, by_due, things_to_do
from engram.lang import events
from engram.lang.tense import asks_ahead
from engram.recall.intent import asks_for_plans, asks_what_usually
from engram.recall.query import Query, TimeClause
from engram.recall.retriever import Hit
from engram.store.values import Filter

Ranked = Callable[[Filter, bool, int], tuple[list[Hit], int]]

# Words that ask for the latest memories when the query names no time: "recent memories", "everything new".
_LATEST = frozenset(
    {"recent", "recently", "latest", "new", "memory", "memories", "everything", "all", "notes"}
)


@dataclass(frozen=True, slots=True)
class Listing:
    """What a listing question is answered with: the first `limit` memories listed, how many there are, each
    thing to do's due day (`days`, None for a list of memories) and the time the list is of."""

    hits: list[Hit]
    total: int
    days: dict[str, datetime | None] | None
    clause: TimeClause | None


def things_due(query: Query, where: Filter, ranked: Ranked, limit: int) -> Listing | None:
    """The things to do a question only asking for them is answered with, those due on the days it names first;
    None when it asks for something else or no reminder is stored (none due on the days asked is an answer)."""
    if not (query.asks_for_tasks() or _plans(query)):
        return None
    shown = things_to_do(replace(where, kinds=(), categories=()), ranked)
    if query.asks_for_occasions():  # "birthdays coming up": not the dentist
        shown = [h for h in shown if events.occasion(h.record.content)]
    if not shown:
        return None
    shown, days = by_due(shown, query)
    if not shown and not query.asks_for_tasks():
        return None  # nothing to do then: what else happens on those days is searched for
    clause = query.time
    if query.due is not None:  # the days the reminders are due, not when memories were made
        span = query.due
        clause = TimeClause(span.phrase, span.after, span.before, "due")
    return Listing(shown[:limit], len(shown), days, clause)


def _plans(query: Query) -> bool:
    """Whether a question naming only a time asks what is planned then ("what am I doing on 3 December?", "where
    am I going this weekend?"): a time to come, or one under way asked ahead. Nothing was told on days to come;
    what is due on them answers."""
    span, told = query.due, query.time
    if not asks_for_plans(query.concepts) or span is None or span.before is None or span.before <= query.now:
        return False
    if told is not None and told.before is not None and told.before <= query.now:
        return False  # "what did I write on 17 November?": the time it names has passed
    return (span.after is not None and span.after > query.now) or asks_ahead(query.text)


def memories_of(
    query: Query, where: Filter, ranked: Ranked, limit: int, *, ranged: bool = False
) -> Listing | None:
    """The memories a question asking for memories only names, newest first: those of the time it names (or of
    the time range given with it: `ranged`), or the latest for a word such as "recent". A named time filters
    here: with no topic to rank by, a boost would return every memory. None when it asks for something else, or
    names neither a time nor such a word (a search answers it)."""
    if not query.asks_for_memories() or asks_what_usually(query.text):
        return None
    clause = query.time
    if clause is not None and clause.after is not None and clause.after > query.now:
        return None  # nothing was told on days to come ("what am I doing this weekend?"): a search answers
    if clause is not None and clause.applied == "boost":
        where = where.created_within(clause.after, clause.before)
        clause = replace(clause, applied="filter")
    elif not ranged and not any(w in _LATEST for c in query.concepts for w in c.lower().split()):
        return None
    shown, total = ranked(where, True, LISTED)
    newest = sorted(shown, key=lambda h: h.record.created_at, reverse=True)
    return Listing(newest[:limit], total, None, clause)
