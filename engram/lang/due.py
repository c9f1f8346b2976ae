"""When things to do are due: the day a reminder names, read forward from when it was said, and the days a
question about things to do asks for ("this week", "tomorrow", "in December").

A rule or a habit ("never deploy on Fridays", "I run 5k every Tuesday") is never due: it holds each time. A
deadline ("by", "before", "due", "until" and a date) makes a statement a reminder whatever else it is.

A reminder's due day is the first date it names ("by Friday", "next Tuesday at 3pm", "before the trip in
March", "end of the month"), resolved by dateparser toward the future from the memory's creation: "Friday" said on
a Tuesday is that week's Friday, "March" said in November is next March (its first day). A reminder naming no
date has no due day. Days are UTC calendar days.
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

import dateparser  # type: ignore[import-untyped]

from engram.lang.timewords import DATE, DAYS, MONTHS, TimeRange, day_start, month_after, weekend

_LEADING = re.compile(r"^(?:before|by|until|in|on|during)\s+", re.IGNORECASE)
_BEFORE_MAY = re.compile(r"\b(?:in|during|for|by|until|before|on)\s+$", re.IGNORECASE)
_END_OF = re.compile(rf"end of (?:the )?(day|week|month|{MONTHS})", re.IGNORECASE)
_WINDOW = re.compile(
    rf"\b(today|tonight|tomorrow|this week|next week|this month|next month|{DAYS}|{MONTHS})\b", re.IGNORECASE
)


def _end_of(unit: str, day: datetime) -> datetime:
    if unit == "day":
        return day
    if unit == "week":
        return day + timedelta(days=6 - day.weekday())  # Sunday
    if unit != "month":  # a month's name: its last day, this year's unless it is over
        month = MONTHS.split("|").index(unit) + 1
        day = datetime(day.year + (month < day.month), month, 1, tzinfo=UTC)
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def due_day(text: str, said_at: datetime) -> datetime | None:
    """The UTC day `text` names as its due date, read forward from `said_at`: the first date it names that is
    not before the day it was said. None if it names none."""
    found = _first_due(text, said_at)
    return None if found is None else found[0]


# A month alone ("by October", "due in May", "next month") is a horizon, not a day something is due on.
_MONTH_ONLY = re.compile(rf"(?:{MONTHS}|next month)", re.IGNORECASE)


def deadline_day(text: str, said_at: datetime) -> datetime | None:
    """The day a statement is due when it names one (a date, a weekday, tomorrow, the end of a week or month),
    not a month alone: "run a marathon by October" is a plan, "send the slides by 4 December" a reminder. None
    for a rule or a habit."""
    if standing(text):
        return None
    found = _first_due(text, said_at)
    if found is None or _MONTH_ONLY.fullmatch(found[1]):
        return None
    return found[0]


@lru_cache(maxsize=4096)
def _first_due(text: str, said_at: datetime) -> tuple[datetime, str] | None:
    """The first date `text` names that is not before the day it was said, and the phrase that names it."""
    said = day_start(said_at.astimezone(UTC))
    settings: Any = {
        "PREFER_DATES_FROM": "future",
        "RELATIVE_BASE": said.replace(tzinfo=None),
        "PREFER_DAY_OF_MONTH": "first",
        "RETURN_AS_TIMEZONE_AWARE": False,
    }
    dates = list(DATE.finditer(text))
    for found, following in zip(dates, [*dates[1:], None], strict=False):
        phrase = _LEADING.sub("", found.group(0).strip())
        # A weekday next to the calendar date it names ("Friday 20 November", "Tuesday, Nov 24"): the date says
        # which (read forward from when it was said, the weekday alone was the next one).
        if (
            phrase.lower() in DAYS.split("|")
            and following is not None
            and following.start() - found.end() <= 3
        ):
            continue
        end = _END_OF.fullmatch(phrase)
        if end is not None:
            return _end_of(end.group(1).lower(), said), phrase
        parsed = dateparser.parse(phrase, languages=["en"], settings=settings)
        if parsed is not None and (day := day_start(parsed.replace(tzinfo=UTC))) >= said:
            # Read forward, today's own date ("by 26 November" said on 26 November) went to next year.
            if any(c.isdigit() for c in phrase) and (day.month, day.day, day.year) == (
                said.month,
                said.day,
                said.year + 1,
            ):
                return said, phrase
            return day, phrase
    # No date: a weekend ("clean the garage this weekend" is due that Saturday, "by the weekend" the Friday).
    if (end := weekend(text, said)) is not None:
        return (end.before - timedelta(days=1), end.phrase) if end.after is None else (end.after, end.phrase)
    return None


# What makes a statement hold each time instead of once: a recurrence ("every Tuesday", "on Fridays", "daily"),
# a habit ("usually", "always"), a prohibition kept as a rule ("never", "a team rule", "policy").
_STANDING = re.compile(
    rf"\b(?:every|each)\s+(?:other\s+|single\s+)?(?:day|night|morning|afternoon|evening|week|weekend|weekday"
    rf"|month|year|time|{DAYS})\b|\b(?:{DAYS})s\b|\b(?:weekends|weekdays|mornings|evenings|nights)\b"
    r"|\b(?:daily|nightly|weekly|fortnightly|monthly|yearly|annually|always|never|usually|normally|typically"
    r"|generally|whenever|rule|rules|policy|as a rule)\b",
    re.IGNORECASE,
)
# Words that state a deadline: with a date they make a reminder of any statement.
_DEADLINE = re.compile(r"\b(?:by|before|due|until|till|deadline|no later than)\b", re.IGNORECASE)


def standing(text: str) -> bool:
    """Whether `text` is a rule or a habit (it holds every time it applies), so never due."""
    return _STANDING.search(text) is not None


def states_deadline(text: str) -> bool:
    """Whether `text` says by when ("by", "before", "due", "until", "deadline"): with a date, a reminder."""
    return _DEADLINE.search(text) is not None


def reminder_day(text: str, said_at: datetime) -> datetime | None:
    """The day a reminder is due: the first date it names (`due_day`), none for a rule or a habit."""
    return None if standing(text) else due_day(text, said_at)


def window(query: str, now: datetime) -> TimeRange | None:
    """The days a question about things to do asks for: today, tomorrow, this or next week (Monday to
    Sunday) or month, a weekend, a weekday (the next one, today included) or a month (the next one, this one
    included). "before" / "by" / "until" one of them asks for everything due from today up to it ("what is due
    before Friday" lists Thursday's too)."""
    span = _window(query, now)
    if span is None or span.after is None:
        return span
    lead = query[: query.lower().rfind(span.phrase.lower())] if span.phrase else ""
    found = _UP_TO.search(lead)
    if found is None:
        return span
    today = day_start(now.astimezone(UTC))
    end = span.after if found.group(1).lower() == "before" else span.before
    return TimeRange(today, end, query[found.start() : len(lead) + len(span.phrase)])


# "before Friday", "by the weekend", "until next week": the word that makes a window run from today.
_UP_TO = re.compile(r"\b(before|by|until|till)\s+(?:the\s+|this\s+|next\s+)?$", re.IGNORECASE)


def _window(query: str, now: datetime) -> TimeRange | None:
    if (end := weekend(query, now)) is not None:
        if end.after is None:  # "before the weekend": the weekend itself is the window here
            assert end.before is not None
            return TimeRange(end.before, end.before + timedelta(days=2), "weekend")
        return TimeRange(end.after, end.before, "weekend")
    # "May" is a month only after a word that introduces a time ("in May"), not in "what may be due".
    found = next(
        (
            m
            for m in _WINDOW.finditer(query)
            if m.group(1).lower() != "may" or _BEFORE_MAY.search(query[: m.start()])
        ),
        None,
    )
    if found is None:
        return None
    phrase = found.group(1).lower()
    today = day_start(now.astimezone(UTC))
    monday = today - timedelta(days=today.weekday())
    first = today.replace(day=1)
    next_first = month_after(first)
    spans = {
        "today": (today, today + timedelta(days=1)),
        "tonight": (today, today + timedelta(days=1)),
        "tomorrow": (today + timedelta(days=1), today + timedelta(days=2)),
        "this week": (monday, monday + timedelta(days=7)),
        "next week": (monday + timedelta(days=7), monday + timedelta(days=14)),
        "this month": (first, next_first),
        "next month": (next_first, month_after(next_first)),
    }
    if phrase in spans:
        after, before = spans[phrase]
    elif phrase in DAYS.split("|"):
        day = today + timedelta(days=(DAYS.split("|").index(phrase) - today.weekday()) % 7)
        after, before = day, day + timedelta(days=1)
    else:
        month = MONTHS.split("|").index(phrase) + 1
        year = today.year + (month < today.month)
        after = datetime(year, month, 1, tzinfo=UTC)
        before = month_after(after)
    return TimeRange(after, before, found.group(1))
