"""The day a reminder is due when it names no date (engram.lang.due): the week a thing to do is for ("call the
plumber this week"), a month of a year ("starts school in September 2027"), a weekend ("clean the garage this
weekend"), a holiday ("book the train for Christmas"), a German or Chinese day word."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from engram.lang.foreign_dates import foreign_day
from engram.lang.holidays import holiday
from engram.lang.instruction import OBLIGED, instruction
from engram.lang.timewords import MONTHS, weekend
from engram.lang.weekday_dates import end_of

_MONTH_YEAR = re.compile(rf"\b({MONTHS})\s+(\d{{4}})\b", re.IGNORECASE)
_THIS_WEEK = re.compile(r"(?<!earlier )(?<!end of )\bthis\s+week\b(?!['\u2019]s|end)", re.IGNORECASE)


def undated(text: str, said: datetime) -> tuple[datetime, str] | None:
    """With no date: the week a thing to do is for ("call the plumber this week": by its Sunday), a month of a
    year, a weekend ("clean the garage this weekend" is due that Saturday, "by the weekend" the Friday), then a
    holiday ("book the train for Christmas")."""
    if (week := _THIS_WEEK.search(text)) is not None and (instruction(text) or OBLIGED.search(text)):
        return end_of("week", said), week.group(0)
    if (month := _MONTH_YEAR.search(text)) is not None:  # "starts school in September 2027": its first day
        first = datetime(
            int(month.group(2)), MONTHS.split("|").index(month.group(1).lower()) + 1, 1, tzinfo=UTC
        )
        if first >= said.replace(day=1):
            return max(first, said), month.group(0)
    # A weekend named is when to do it, a holiday beside it what it is for ("write the Christmas cards this weekend").
    if (span := weekend(text, said)) is not None:
        if span.after is None:
            assert span.before is not None
            return span.before - timedelta(days=1), span.phrase
        return span.after, span.phrase
    if (named := holiday(text, said)) is not None:
        return named
    return foreign_day(text, said)
