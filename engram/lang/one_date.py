"""The day one date phrase a due-day reader found names (engram.lang.due), read forward from a day: a weekday
pinned to its date, a day of the month alone, a numeric date in either order, the end of a span, and what dateparser
reads, with the readings a person means where it reads otherwise ("Thursday" said on a Thursday is that day)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import dateparser  # type: ignore[import-untyped]

from engram.lang.events import yearly
from engram.lang.foreign_dates import either_order, forward
from engram.lang.month_days import DAY_MONTH, ORDINAL, SLASHED, ordinal
from engram.lang.timewords import DAYS, DOTTED, MONTHS, SHORT_MONTHS, day_start, month_after
from engram.lang.weekday_dates import COUNTED, WEEKDAY_DATE, end_of, end_parts, resolve

_LEADING = re.compile(r"^(?:before|by|until|in|on|during)\s+", re.IGNORECASE)

# What stands between a weekday and the date it falls on ("Friday 20 November", "Monday, the 21st December",
# "Monday (14 December)").
_BESIDE = re.compile(r"[\s,(]*(?:the\s+)?")

# A year after a day and its month ("12 November 2026"), not a time ("12 November 2030h") nor a longer number.
_YEAR_AFTER = re.compile(r",?\s+((?:19|20)\d\d)(?![\w:.]?\d|\w)")
_BEGAN = re.compile(r"\b(?:born|married)\b", re.IGNORECASE)  # a day that comes back each year
_ENDS_IN_MONTH = re.compile(rf"\b(?:{MONTHS}|{SHORT_MONTHS})\.?$", re.IGNORECASE)

_SETTINGS: Any = {
    "PREFER_DATES_FROM": "future",
    "PREFER_DAY_OF_MONTH": "first",
    "RETURN_AS_TIMEZONE_AWARE": False,
}


def read_one(
    text: str, found: re.Match[str], following: re.Match[str] | None, said: datetime
) -> tuple[datetime, str] | None:
    """The day one date found in `text` names, read forward from `said`, and its phrase; None for none."""
    if found.re in (WEEKDAY_DATE, COUNTED):
        pinned_day = resolve(found, said)
        return None if pinned_day is None else (pinned_day, found.group(0))
    if found.re is ORDINAL:  # "before the 3rd", "due on the 28th": that day of this month or the next
        try:
            return ordinal(int(found.group(1)), said), found.group(0)
        except (ValueError, OverflowError):  # the 0th or the 99th, or a month past the year 9999
            return None
    if found.re is DAY_MONTH:
        day_month = forward(said, int(found.group(2)), int(found.group(1)))
        return None if day_month is None else (day_month, found.group(0))
    phrase = _LEADING.sub("", found.group(0).strip())
    if (slashed := SLASHED.fullmatch(phrase)) is not None:
        first, second, year = slashed.groups()
        full = None if year is None else int(year) + (2000 if len(year) == 2 else 0)
        either = either_order(int(first), int(second), said, full)
        return None if either is None else (either, phrase)
    # A weekday next to the calendar date it names ("Friday 20 November", "Tuesday, Nov 24"): the date says
    # which (read forward from when it was said, the weekday alone was the next one).
    if (
        phrase.lower() in DAYS.split("|")
        and following is not None
        and _BESIDE.fullmatch(text, found.end(), following.start()) is not None
    ):
        return None
    if (end := end_parts(phrase)) is not None:  # "end of next month": the end of the one after this
        unit, following_one = end
        base = said
        if following_one:
            base = said + timedelta(days=7) if unit == "week" else month_after(said.replace(day=1))
            base = said.replace(year=said.year + 1) if unit == "year" else base
        return end_of(unit, base), phrase
    # "Approved 12 November 2026": the year written after a day and month is that year's (read forward alone,
    # a day gone was next year's); a birthday's or a wedding's year is when it began, its day comes back each year.
    if (year := _YEAR_AFTER.match(text, found.end())) is not None and _ENDS_IN_MONTH.search(phrase):
        phrase = phrase if yearly(text) or _BEGAN.search(text) else f"{phrase} {year.group(1)}"
    settings = _SETTINGS | {"RELATIVE_BASE": said.replace(tzinfo=None)}
    day_first = {"DATE_ORDER": "DMY"} if DOTTED.search(phrase) else {}
    parsed = dateparser.parse(phrase, languages=["en"], settings=settings | day_first)
    if parsed is None or (day := day_start(parsed.replace(tzinfo=UTC))) < said:
        return None
    # A weekday said on that weekday is today, as a question's weekday is (read forward, dateparser gave next week's):
    # "next Thursday" says otherwise, and "before Monday" or "until Monday" said on a Monday is next week's, as read.
    lead = text[: found.start()].rstrip().lower()
    after_next = lead.endswith(("next", "before", "until", "till")) or found.group(0).lower().startswith(
        ("before", "until")
    )
    if phrase.split()[0].lower() in DAYS.split("|") and (day - said).days == 7 and not after_next:
        return said, phrase
    # "next Thursday" said on a Monday is next week's, not the one three days off ("this Thursday").
    if lead.endswith("next") and day.isocalendar()[:2] == said.isocalendar()[:2]:
        return day + timedelta(days=7), phrase
    # Read forward, today's own date ("by 26 November" said on 26 November) went to next year.
    if any(c.isdigit() for c in phrase) and (day.month, day.day, day.year) == (
        said.month,
        said.day,
        said.year + 1,
    ):
        return said, phrase
    return day, phrase
