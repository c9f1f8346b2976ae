"""The forms a day of the month takes in a reminder, for its due day (engram.lang.due): a day alone after a word
that makes it one ("before the 3rd"), a day and month with dots and no year ("bis 3.4."), a numeric date with no
order said ("10/12"), and the day a thing moved away from ("moved from Tuesday to Thursday"), which is not due."""

from __future__ import annotations

import calendar
import re
from datetime import datetime, timedelta

from engram.lang.foreign_dates import GERMAN_WEEKDAYS
from engram.lang.postal import addresses
from engram.lang.tense import inflected
from engram.lang.timewords import DAYS, MONTHS, SHORT_DAYS, SHORT_MONTHS, month_after

# A day and month written with dots and no year ("expires 12.12.", "bis 3.4."), after a word that makes it a day,
# a weekday among them ("Sat 19.12.", "Freitag 11.12.", "Do 3.12."): alone, "3.12." is as often a version.
_WEEKDAY_LEAD = rf"(?:{DAYS}|{SHORT_DAYS}|{GERMAN_WEEKDAYS}|(?-i:Mo|Di|Mi|Do|Fr|Sa|So))\.?,?"
DAY_MONTH = re.compile(
    r"\b(?:by|before|until|till|due|on|am|bis|zum|vor dem|expires|ends|from|ab|"
    rf"{_WEEKDAY_LEAD})\s+(\d{{1,2}})\.(\d{{1,2}})\.(?![\d.]?\d)",
    re.IGNORECASE,
)
# A numeric date with no order said ("10/12", "3/4/2027"): read both ways (engram.lang.foreign_dates).
SLASHED = re.compile(r"(\d{1,2})/(\d{1,2})(?:/(\d{2}|\d{4}))?")

# A day of the month alone, after a word that says it is one ("before the 3rd", "on the 28th"); after "for" or
# no such word only where it ends the phrase ("book the dinner for the 18th", "plumber the 15th at 9", not "for
# the 3rd time").
_ENDS = r"\s+the\s+\d{1,2}(?:st|nd|rd|th)\s*(?:$|[.,;:!?)]|at\b|-\s)"
ORDINAL = re.compile(
    rf"(?:\b(?:by|on|before|until|till|due|for(?={_ENDS}))\s+(?:on\s+)?|(?<=[\w,:-])(?={_ENDS}))"
    rf"\s*the\s+(\d{{1,2}})(?:st|nd|rd|th)\b"
    rf"(?!\s+(?:of\s+)?(?:{MONTHS}|{SHORT_MONTHS})\b|\s+(?:{DAYS})\b)",  # "on the 3rd Thursday": a weekday counted
    re.IGNORECASE,
)

# A day moved to another ("moved from Tuesday to Thursday", "rescheduled from 3 Dec to 10 Dec"): the words between
# "from" and "to" name the day it left.
_MOVED = re.compile(
    r"\b(?:moved|rescheduled|postponed|pushed(?: back)?|shifted|changed|brought forward)\s+"
    r"(?:[\w'-]+\s+){0,3}?from\s+([\w:., ]{1,30}?)\s+to\s+\w",
    re.IGNORECASE,
)


def left_behind(text: str, dates: list[re.Match[str]]) -> list[re.Match[str]]:
    """`dates` without those naming a day something moved away from or a step was done ("sown today"), and without a flat's number read as a
    numeric date ("Our flat: 7/2 Marchmont Crescent": flat 2 of number 7, no 7 February)."""
    spans = [found.span(1) for found in _MOVED.finditer(text)]
    if any("/" in m.group(0) for m in dates):
        spans += addresses(text)
    kept = [m for m in dates if not any(start <= m.start() and m.end() <= end for start, end in spans)]
    return [m for m in kept if not _done_then(text, m) and not _any_such_day(text, m)]


_WEEKDAY = re.compile(rf"(?:{DAYS})s?", re.IGNORECASE)
_INDEFINITE = re.compile(
    r"\b(?:a|an|any|every|each)\s+(?:(?:other|second|third|fourth|alternate)\s+)?$", re.IGNORECASE
)


def _any_such_day(text: str, found: re.Match[str]) -> bool:
    """Whether a weekday is any such day, not a date: "love a Sunday roast", "any Friday suits me", "every
    other Friday"."""
    return _WEEKDAY.fullmatch(found.group(0).strip()) is not None and bool(
        _INDEFINITE.search(text, max(0, found.start() - 40), found.start())
    )


_DONE_WORDS = re.compile(r"(\w+)\s+(\w+)\s+$|^(\w+)\s+$")


def _done_then(text: str, found: re.Match[str]) -> bool:
    """Whether "today" says when a step was done ("Batch 4 sown today, harvest in three weeks"): after a past
    participle with no "be" or "get" before it ("must be sent today" is to do)."""
    if (
        found.group(0).strip().lower() != "today"
        or (words := _DONE_WORDS.search(text[: found.start()])) is None
    ):
        return False
    before, done = (words.group(1) or "", words.group(2)) if words.group(2) else ("", words.group(3))
    helper = before.lower() in {
        "be",
        "been",
        "being",
        "is",
        "are",
        "was",
        "were",
        "get",
        "got",
        "gets",
        "have",
        "has",
    }
    return not helper and inflected(done.lower(), "VBN") and not inflected(done.lower(), "VB")


def ordinal(number: int, said: datetime) -> datetime:
    """The day of the month `number` names, this month's or, once past, the next month that has it."""
    month = said.replace(day=1) if number >= said.day else month_after(said.replace(day=1))
    while number > calendar.monthrange(month.year, month.month)[1] and number <= 31:
        month = month_after(month)  # "on the 31st" said in November: 31 December
    return month.replace(day=number)


# A deadline said to have passed ("the council tax was due on 20 November and I still haven't paid it", "the
# invoice was due by the 3rd"): its date lies behind the day it was said; read forward, it is next year's.
# A weekday may stand before the day ("was due wed 18th"): the day of the month names it.
_WAS_DUE = re.compile(
    r"\b(?:was|were)\s+(?:already\s+)?due\s+(?:back\s+|in\s+)?(?:on\s+|by\s+)?"
    rf"(?:(?:{DAYS})\.?,?\s+)?(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?(?![:.]\d|\s*[ap]\.?m\b)"
    rf"(?:\s+(?:of\s+)?({MONTHS}|{SHORT_MONTHS})\b\.?)?(?!\s*,?\s*\d{{4}})",
    re.IGNORECASE,
)


# ... or a weekday ("the library books were due back last Friday", "marks were due in last Friday", "meant to
# post it by last Friday"): read forward, it was the coming one.
_WAS_DUE_WEEKDAY = re.compile(
    rf"\b(?:(?:was|were)\s+(?:already\s+)?due\s+(?:back\s+|in\s+)?(?:on\s+|by\s+)?(?:last\s+)?"
    rf"|(?:by|before|due|until)\s+last\s+"
    # "was meant to pay the fee last monday", "should have sent it last Friday": a thing to do whose day passed
    rf"|(?:(?:was|were)\s+(?:meant|supposed)\s+to|should(?:['\u2019]ve|\s+have))\b[^.;!?\n]{{0,120}}?\blast\s+)"
    rf"({DAYS})\b",
    re.IGNORECASE,
)

_MISSED_DAYS = 183


def missed(text: str, said: datetime) -> tuple[datetime, str] | None:
    """The day `text` says something was due, when it names one with no year, and the phrase naming it: the latest
    such day before `said` (a UTC midnight). None if it says no such thing."""
    found = _WAS_DUE.search(text)
    if found is None:
        if (weekday := _WAS_DUE_WEEKDAY.search(text)) is None:
            return None
        back = (said.weekday() - DAYS.split("|").index(weekday.group(1).lower())) % 7 or 7
        return said - timedelta(days=back), weekday.group(0)
    number, name = int(found.group(1)), found.group(2)
    if name is None:  # "the 3rd" alone: this month's or the last one's
        last = said.replace(day=1) - timedelta(days=1)
        candidates = [(said.year, said.month), (last.year, last.month)]
    else:
        month = _month_number(name)
        candidates = [(said.year, month), (said.year - 1, month)]
    for year, month in candidates:
        try:
            day = said.replace(year=year, month=month, day=number)
        except ValueError:  # the 31st of a shorter month
            continue
        if day < said:  # a year back is no deadline just missed: read forward as any date
            return (day, found.group(0)) if (said - day).days <= _MISSED_DAYS else None
    return None


# A note headed by the day it was taken ("Call with Katrin 24 Nov: ...", "Meter readings on 25 Nov: ...", "Notes
# 12/11: ..."): a few opening words, the date, a colon.
_MONTH_WORD = rf"(?:{MONTHS}|{SHORT_MONTHS})\.?"
_HEADED = re.compile(
    rf"^\W*(?:[\w'&-]+\s+){{1,6}}?(?:on\s+)?(?:(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_WORD})"
    rf"|({_MONTH_WORD})\s+(\d{{1,2}})(?:st|nd|rd|th)?|(\d{{1,2}})[/.](\d{{1,2}})\.?)\s*:\s*",
    re.IGNORECASE,
)
# A note of a talk headed by its weekday ("Call with Fiona on Monday: ...", "Meeting with Rui Tuesday: ...") that
# reports what was said or agreed: the talk took place; read as an appointment, it was due the week after.
_TALK_HEADED = re.compile(
    rf"^\W*(?:(?:phone|video|zoom|teams)\s+)?(?:call|meeting|chat|catch[- ]?up|talk|conversation|1:1|one-to-one)"
    rf"\s+with\s+(?:[\w'&-]+\s+){{1,3}}?(?:on\s+|last\s+)?(?:{DAYS})\s*:\s*",
    re.IGNORECASE,
)
_REPORTED = re.compile(
    r"\b(?:said|says|told (?:me|us)|asked (?:me|us)|agreed|decided|thinks|reckons|promised|mentioned|confirmed"
    r"|explained|suggested)\b|\b(?:he|she|they)\s*(?:['\u2019]ll|will|would|['\u2019]d)\b",
    re.IGNORECASE,
)
_DEADLINE_WORD = re.compile(r"\b(?:due|by|before|until|till|deadline|expires?|ends?)\b", re.IGNORECASE)
_TAKEN_WITHIN = 62  # days: a heading's date further back is no note of these weeks, but read as a date


def after_dated_heading(text: str, said: datetime) -> str | None:
    """The text after a heading that dates the note (the day it was said or shortly before: when the call or the
    reading took place, not a day anything is due); None when it opens with no such heading. "Dentist 3 Dec:
    bring the forms", said before the 3rd, is an appointment: its heading is kept."""
    if (talk := _TALK_HEADED.match(text)) is not None and _REPORTED.search(text, talk.end()) is not None:
        return text[talk.end() :]  # "Call with Fiona on Monday: she thinks ...", written after the call
    found = _HEADED.match(text)
    if found is None or _DEADLINE_WORD.search(text, 0, found.end()):
        return None  # "Invoice due 24 Nov: chase it": the day it is due
    day, month, month_first, day_after, first, second = found.groups()
    if first is not None:
        pairs = [(int(first), int(second)), (int(second), int(first))]  # day and month in either order
    else:
        pairs = [(int(day or day_after), _month_number(month or month_first))]
    for number, month_number in pairs:
        for year in (said.year, said.year - 1):
            try:
                taken = said.replace(year=year, month=month_number, day=number)
            except ValueError:
                continue
            if timedelta(0) <= said - taken <= timedelta(days=_TAKEN_WITHIN):
                return text[found.end() :]
    return None


def _month_number(name: str) -> int:
    """1 to 12 for a month's name, short or not ("Nov.", "november")."""
    return [m[:3] for m in MONTHS.split("|")].index(name.lower().rstrip(".")[:3]) + 1
