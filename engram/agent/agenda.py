"""Things to do, listed by the day they are due: the reminders and dated tasks a question for things to do is
answered with (never a rule or a habit), and their order by due day from the days the question names."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from engram.lang import due
from engram.lang.instruction import ticked_off
from engram.lang.timewords import DATE, day_start
from engram.model.record import Category, Kind
from engram.recall.query import Query
from engram.recall.retriever import Hit
from engram.store.values import Filter

LISTED = 500  # reminders read for a question about things to do
RECENTLY_MISSED = 7  # days a reminder past its due day is listed right after the upcoming ones


def things_to_do(where: Filter, ranked: Callable[[Filter, bool, int], tuple[list[Hit], int]]) -> list[Hit]:
    """The reminders, and the tasks that name a day they are due (a task said in a chat keeps the category the
    classifier gave it); never a rule or a habit ("no deploys on Fridays", "I run every Tuesday"), which holds each
    time and is never due, nor one a newer memory says changed (`updated_by`: "Completion has slipped to Friday 18
    December" after "Completion set for Friday 11 December"), whose day was replaced, nor one told as done ("Book the
    plumber - done"). Reminders are few: all of
    them are read, so the days asked for can be picked from every one."""
    reminders, _ = ranked(replace(where, categories=(Category.REMINDERS,)), True, LISTED)
    tasks, _ = ranked(replace(where, kinds=(Kind.TASK,)), True, LISTED)
    seen = {h.record.id for h in reminders}
    # A task joins when it names a day or is worded as one ("Call the plumber about the boiler"): the kind alone
    # also fell on statements ("Ollie in finance handles expense claims").
    dated = [
        h
        for h in tasks
        if h.record.id not in seen
        and (
            due.reminder_day(h.record.content, h.record.created_at) is not None
            or due.instruction(h.record.content)
        )
    ]
    return [
        h
        for h in [*reminders, *dated]
        if not due.standing(h.record.content)
        and not ticked_off(h.record.content)
        and "updated_by" not in h.record.metadata
    ]


def by_due(hits: list[Hit], query: Query) -> tuple[list[Hit], dict[str, datetime | None]]:
    """Reminders due on the days the query names, in calendar order, then those naming no day in their order;
    and each one's due day. Naming no days ("what's due soon"), the upcoming come first, soonest first, then
    those missed in the last week (latest first), those naming no day, and last those missed longer ago: a
    reminder months overdue is most likely done."""
    span, today = query.due, day_start(query.now)
    # A reminder naming several days ("ring the garage tomorrow; if it is not fixed by 9 Dec, book the other one") is listed on
    # each: shown with the one the days asked hold, else its next one.
    named = {h.record.id: due.reminder_days(h.record.content, h.record.created_at, query.now) for h in hits}
    # "What's overdue" (no start) asks for what was missed: a reminder with a day still to come is not.
    asked = span if span is not None and span.after is not None else None
    days = {
        key: next((d for d in found if asked is not None and asked.contains(d)), due.next_of(found, today))
        for key, found in named.items()
    }

    def order(hit: Hit) -> tuple[int, float]:
        day = days[hit.record.id]
        if day is None:
            return (2, 0.0)
        late = (today - day).days
        if span is not None and late > 0 and span.after == today:
            # Asked from today ("what have I got on today?"): today's first, then what was missed this last week.
            return (1, day.timestamp())
        if span is not None or late <= 0:
            return (0, -late if span is None else day.timestamp())
        return (1 if late <= RECENTLY_MISSED else 3, late)

    if span is not None:
        # A reminder naming no day is pending now: listed for days that include today, when worded as a thing to
        # do. A need stated ("Dentist said I need a crown") was listed for every week and month asked about.
        pending = span.after is not None and span.contains(today)
        undated = (
            [
                h
                for h in hits
                if days[h.record.id] is None and due.to_do(h.record.content) and not _dated(h.record.content)
            ]
            if pending
            else []
        )
        # Asked from today ("what do I have to do today?"), what was missed this last week is still to do.
        since = today - timedelta(days=RECENTLY_MISSED) if pending and span.after == today else today
        hits = [
            h
            for h in hits
            if (d := days[h.record.id]) is not None
            and (span.contains(d) or (since <= d < today and due.owed(h.record.content)))
        ] + undated
        if span.after is None:  # "what's overdue": a match that has passed was played, it is not late
            hits = [h for h in hits if due.owed(h.record.content)]
    return sorted(hits, key=order), days


def _dated(text: str) -> bool:
    """Whether `text` names a calendar date ("Sunday 21 March 2027", "on 3/12"): with no due day read from it, it
    tells of the past or of a day no list asks for yet (a race entered), not of a thing pending now."""
    return any(any(c.isdigit() for c in m.group()) for m in DATE.finditer(text[:2000]))
