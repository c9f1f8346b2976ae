"""Days people pin down in a few words, for the due days of reminders (engram.lang.due): a weekday beside the date
it falls on ("Wed 16/12", "Fri 4/12", "Sat 12th", "Thu 10.12."), a weekday with a part of the day ("Sat morning",
"tue night"), a span counted from today ("in a fortnight", "in 3 days", "the day after tomorrow", "Wednesday
week", "the week after next") and a weekday counted in a month ("first Monday of January", "last Friday of the month"), the last day of a span ("end of next
week", "end of Q1"), and the forms the date readers are given spelled out ("by Fri", "the 8th of December",
"from 14 to 16 January").

A weekday that agrees with one reading of its date confirms that reading, even the later one of a numeric date
whose order is not said ("Mon 12/4" said in November is 12 April, a Monday, not Friday 4 December). A weekday that
agrees with no reading leaves the day in doubt: the reminder comes up on the earlier of the weekday's next day and
the date's nearer reading, so that it is seen before either day it may mean, never after.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

from engram.lang.foreign_dates import GERMAN_WEEKDAYS, POLISH_MONTHS_AND_DAYS, ROMANCE_DAY_WORDS, forward
from engram.lang.timewords import DAYS, MONTHS, SHORT_DAYS, SHORT_MONTHS, month_after

PARTS = r"morning|afternoon|evening|night|lunchtime|midday|noon"
# What every day the due-day readers find holds (engram.lang.due: its own patterns, the month days', the holidays',
# the German, Polish, Italian, Spanish, French and Chinese ones, and `spelled`, which writes out only short weekdays and moves only digits): a
# digit, a weekday or its short form, a month, a word of a day or a span, a holiday, a German, Polish or Chinese
# day word.
# Most statements hold none, and for them the readers' dozens of patterns need not run. A new form of day read
# there needs its word here (tests/test_write_marks.py reads every test's and data set's text both ways).
_DAY_WORD = re.compile(
    rf"\d|\b(?:mon|tue|wed|thu|fri|sat|sun|today|tomorrow|tmr|tomoz|tmoz|tonight|{MONTHS}|end of|week|month|days?\b|fortnight"
    r"|(?:quarter|year)[- ]end"
    rf"|christmas|xmas|boxing|new year|halloween|valentine|easter|heute|übermorgen|morgen|ende\b|{GERMAN_WEEKDAYS}"
    rf"|{POLISH_MONTHS_AND_DAYS}|{ROMANCE_DAY_WORDS})"
    r"|月|周|星期|礼拜|今天|明天|后天|号",
    re.IGNORECASE,
)


# ASCII text lowered matches as the case-blind pattern does (lowering is all case folding does there), faster.
_DAY_WORD_LOWERED = re.compile(_DAY_WORD.pattern)


def may_name_day(text: str) -> bool:
    """Whether `text` holds a word any due day is read from; False: it names none (engram.lang.due)."""
    if text.isascii():
        return _DAY_WORD_LOWERED.search(text.lower()) is not None
    return _DAY_WORD.search(text) is not None


# After a word this could be a verb ("we sat ...", "I wed ..."): no weekday.
_NO_SUBJECT = r"(?<!\bi )(?<!\bwe )(?<!\bhe )(?<!\bshe )(?<!\bthey )(?<!\byou )(?<!\bit )"
# A weekday cut short with nothing before that makes it a day, made one by what follows: a part of the day or a
# date ("Sat morning", "tue night", "Fri 4/12", "Sat 12th", "fri 11 dec"). "Sat down", "on sun cream" stay words, and "9.15"
# after one is a time.
BARE_SHORT_DAY = re.compile(
    rf"{_NO_SUBJECT}\b({SHORT_DAYS})\b\.?(?=,?\s+(?:(?:{PARTS})\b|\d{{1,2}}(?:/\d{{1,2}}|\.\d{{1,2}}\.(?!\d)|st\b|nd\b|rd\b|th\b"
    rf"|(?:st|nd|rd|th)?\s+(?:{MONTHS}|{SHORT_MONTHS})\b)))",  # "fri 11 dec"
    re.IGNORECASE,
)
# A weekday and the date it falls on: a numeric one (either order, a year perhaps), day.month. with dots, or a day
# of the month ("Sat 12th", "Thursday the 17th").
WEEKDAY_DATE = re.compile(
    rf"\b({DAYS})\.?,?\s+(?:(\d{{1,2}})/(\d{{1,2}})(?:/(\d{{4}}|\d{{2}}))?(?![\d/])"
    rf"|(\d{{1,2}})\.(\d{{1,2}})\.(?![\d.]?\d)|(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)\b"
    rf"(?!\s+(?:of\s+)?(?:{MONTHS})))",
    re.IGNORECASE,
)
NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "ten": 10}
_ORDER = {
    "first": 0,
    "1st": 0,
    "second": 1,
    "2nd": 1,
    "third": 2,
    "3rd": 2,
    "fourth": 3,
    "4th": 3,
    "last": -1,
}
# A span counted from the day it was said, or a weekday counted in a month.
COUNTED = re.compile(
    rf"\b(?:(?:in\s+(\d{{1,3}}|{'|'.join(NUMBERS)})\s+(days?|weeks?|fortnights?)\b|(?:in\s+)?a\s+(fortnight)\b)"
    r"(?:\s+(?:from|after)\s+(?:today|now)\b)?"  # "a fortnight from today": today is where it counts from
    rf"|(?:the\s+)?(day after tomorrow)\b|({'|'.join(_ORDER)})\s+({DAYS})\s+(?:of|in)\s+"
    rf"(?:(the month|this month)|(next month)|({MONTHS})))"
    # "the 3rd Thursday" alone: that weekday of this month, or of the next once it has passed
    rf"|\bthe\s+({'|'.join(k for k in _ORDER if k != 'last')})\s+({DAYS})\b(?!\s+(?:of|in|after|before|since)\b)"
    # "Wednesday week", "a week on Wednesday", "3 weeks today": that day weeks after its coming one
    rf"|\b(?:(\d{{1,2}}|{'|'.join(NUMBERS)})\s+weeks?\s+(?:on\s+)?({DAYS}|tomorrow|today)|({DAYS}|tomorrow)\s+week)\b"
    r"(?![-'\u2019]|\s*(?:end|day|night)s?\b)|\b(week\s+after\s+next)\b"
    # "Wednesday next week", "Friday of next week", "next week Wednesday": that weekday of the coming week
    rf"|\b({DAYS})\s+(?:of\s+)?next\s+week\b|\bnext\s+week(?:['\u2019]s)?,?\s+(?:on\s+)?({DAYS})\b",
    re.IGNORECASE,
)
# A weekday beside its date or a part of the day (after the short forms are written out): a slot in a calendar.
SLOT = re.compile(
    rf"\b(?:{DAYS})\b\.?,?\s+(?:(?:{PARTS})\b|\d{{1,2}}(?:/\d{{1,2}}|\.\d{{1,2}}\.(?!\d)|st\b|nd\b|rd\b|th\b|\s+(?:{MONTHS}|{SHORT_MONTHS})\b))",
    re.IGNORECASE,
)
_PAST = re.compile(r"\b(?:was|were|had|did)\b", re.IGNORECASE)


def slot(text: str) -> bool:
    """Whether `text` (short weekdays written out) pins a weekday to a date or a part of the day and tells of
    nothing past ("Boiler service Wednesday 16/12", "Tuesday evening: book club"): an appointment."""
    return SLOT.search(text[:2000]) is not None and _PAST.search(text[:2000]) is None


def _next_weekday(said: datetime, weekday: int) -> datetime:
    return said + timedelta(days=(weekday - said.weekday()) % 7)


def _agreeing(weekday: int, readings: list[datetime], said: datetime) -> datetime | None:
    """The nearest reading on `weekday`; with none, the earlier of the nearest reading and the weekday's next day."""
    if not readings:
        return None
    agree = [d for d in readings if d.weekday() == weekday]
    return min(agree) if agree else min(min(readings), _next_weekday(said, weekday))


def _readings(found: re.Match[str], said: datetime) -> list[datetime]:
    """The coming days the date after the weekday may mean: both orders of a numeric date, this month's or the
    next month's day of the month."""
    first, second, year, dot_day, dot_month, number = found.groups()[1:]
    if number is not None:
        this = said.replace(day=1)
        days = [this, month_after(this)]
        return [
            m.replace(day=int(number))
            for m in days
            if int(number) <= calendar.monthrange(m.year, m.month)[1] and m.replace(day=int(number)) >= said
        ]
    if dot_day is not None:
        pairs = [(int(dot_month), int(dot_day))]
    else:
        pairs = [(int(first), int(second)), (int(second), int(first))]
    out = []
    for month, day in pairs:
        if not 1 <= month <= 12:
            continue
        if year is None:
            out.append(forward(said, month, day))
            continue
        full = int(year) + (2000 if len(year) == 2 else 0)
        if 1 <= day <= calendar.monthrange(full, month)[1] and (at := said.replace(full, month, day)) >= said:
            out.append(at)
    return [d for d in out if d is not None]


def days_in(number: str | None, unit: str, words: Mapping[str, int] = NUMBERS) -> int:
    """The days in `number` (digits or one of `words`; none: one) of `unit` (days, weeks or fortnights)."""
    count = 1 if number is None else int(number) if number.isdigit() else words[number.lower()]
    return count * (14 if unit.lower().startswith("f") else 7 if unit.lower().startswith("w") else 1)


def _counted(found: re.Match[str], said: datetime) -> datetime | None:
    number, unit, fortnight, after_next, order, weekday, _this, following, named, alone, alone_day, *week = (
        found.groups()
    )
    weeks, week_on, day_week, week_after_next, *of_next_week = week
    if (in_next := next((d for d in of_next_week if d), None)) is not None:
        monday = said - timedelta(days=said.weekday())
        return monday + timedelta(days=7 + DAYS.split("|").index(in_next.lower()))
    if week_after_next is not None:  # "the week after next": two weeks on, as "next week" is one
        return said + timedelta(days=14)
    if (on := (week_on or day_week or "").lower()) in ("today", "tomorrow"):
        return said + timedelta(days=days_in(weeks, "weeks") + (on == "tomorrow"))
    if on:
        return _next_weekday(said, DAYS.split("|").index(on)) + timedelta(days=days_in(weeks, "weeks"))
    if after_next is not None:
        return said + timedelta(days=2)
    if fortnight is not None or unit is not None:
        return said + timedelta(days=days_in(number, unit or fortnight))
    if alone is not None:
        index = DAYS.split("|").index(alone_day.lower())
        this = said.replace(day=1)
        return next(d for d in (_nth(this, index, alone), _nth(month_after(this), index, alone)) if d >= said)
    day = DAYS.split("|").index(weekday.lower())
    first = said.replace(day=1)
    if following is not None:
        first = month_after(first)
    elif named is not None:
        number_of = MONTHS.split("|").index(named.lower()) + 1
        first = first.replace(year=said.year + (number_of < said.month), month=number_of)
    return _nth(first, day, order)


def _nth(first: datetime, day: int, order: str) -> datetime:
    """The `order`-th (first, 2nd, last) weekday `day` of the month that starts on `first`."""
    nth = _ORDER[order.lower()]
    if nth < 0:
        last = first.replace(day=calendar.monthrange(first.year, first.month)[1])
        return last - timedelta(days=(last.weekday() - day) % 7)
    return _next_weekday(first, day) + timedelta(days=7 * nth)


def resolve(found: re.Match[str], said: datetime) -> datetime | None:
    """The day a match of WEEKDAY_DATE or COUNTED names, read forward from `said` (a UTC midnight); None for
    one already past ("the last Friday of the month" said after it)."""
    if found.re is COUNTED:
        day = _counted(found, said)
        return day if day is not None and day >= said else None
    return _agreeing(DAYS.split("|").index(found.group(1).lower()), _readings(found, said), said)


# A weekday cut short after a word that makes it a day ("by Fri", "on tues", "every other fri"), before the end of
# a phrase, a time or a part of the day: "on sun cream" or "Sat down with" are no days.
_SHORT_DAY = re.compile(
    r"\b(by|before|until|till|on|next|this|due|from|every|other)\s+(mon|tues?|weds?|thu|thur|thurs|fri|sat|sun)\b\.?"
    r"(?=\s*(?:$|[.,;:!?)\-]|\d|at\b|am\b|pm\b|morning|afternoon|evening|night))",
    re.IGNORECASE,
)
_FULL_DAY = {d[:3]: d for d in DAYS.split("|")}
_SHORT_WORD = re.compile(r"\b(?:mon|tue|wed|thu|fri|sat|sun)", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_MONTH = rf"(?:{MONTHS}|{SHORT_MONTHS})\b\.?"
# "the 8th of December": the date readers know "8th December".
_DAY_OF_MONTH = re.compile(rf"\b(\d{{1,2}}(?:st|nd|rd|th))\s+of\s+({_MONTH})", re.IGNORECASE)
# A span of days in one month ("from 14 to 16 January", "19-22 December"): it starts on its first day, which
# would otherwise be read as a bare number and the span as its last day.
_DAY_SPAN = re.compile(
    rf"\b(\d{{1,2}})(st|nd|rd|th)?\s*(?:-|\u2013|to|until|till|through)\s*(\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH})",
    re.IGNORECASE,
)


# Tomorrow as a text message shortens it.
_TOMORROW = re.compile(r"\b(?:tmrw|tmrow|tmr|tmoz|tomoz|2moro|2morow|2morrow|2mrw)\b", re.IGNORECASE)


def spelled(text: str) -> str:
    """`text` with its shortened weekdays written out, "the 8th of December" as "the 8th December" and a span of
    days in a month with its month after the first day too, for the date readers that know only those forms."""
    text = _TOMORROW.sub("tomorrow", text)
    # Each form needs a short weekday or a digit, which most texts lack (writing out a weekday adds no digit).
    digits = _DIGIT.search(text) is not None
    if _SHORT_WORD.search(text) is not None:
        text = _SHORT_DAY.sub(lambda m: f"{m.group(1)} {_FULL_DAY[m.group(2)[:3].lower()]}", text)
        text = BARE_SHORT_DAY.sub(lambda m: _FULL_DAY[m.group(1)[:3].lower()], text)
    if not digits:
        return text
    text = _DAY_OF_MONTH.sub(r"\1 \2", text)
    return _DAY_SPAN.sub(lambda m: f"{m[1]}{m[2] or ''} {m[3].split()[-1]} to {m[3]}", text)


# "end of the week", "end of next month", "end of Q1", "month end": the last day of that span.
END_OF = re.compile(
    rf"end of (?:the |this |(next) )?(day|week|month|year|quarter|q[1-4]|{MONTHS})"
    r"|(?:the |this |(next) )?(month|quarter|year)[- ]end",
    re.IGNORECASE,
)


def end_parts(phrase: str) -> tuple[str, bool] | None:
    """The span whose last day `phrase` names ("month", "week", "q1", a month's name) and whether it is the next
    one ("end of next month"); None when it names no end of a span."""
    found = END_OF.fullmatch(phrase)
    if found is None:
        return None
    return (found.group(2) or found.group(4)).lower(), bool(found.group(1) or found.group(3))


def end_of(unit: str, day: datetime) -> datetime:
    """The last day of the `unit` ("week": its Sunday, "q1", a month's name, ...) that `day` falls in or, for a
    month or quarter named, the next one that is not over."""
    if unit == "day":
        return day
    if unit == "week":
        return day + timedelta(days=6 - day.weekday())  # Sunday
    if unit[0] in "qy":  # the year's or a quarter's last day (a named quarter over this year: next year's)
        this = (day.month - 1) // 3 + 1
        q = 4 if unit == "year" else this if unit == "quarter" else int(unit[1])
        return end_of("month", datetime(day.year + (q < this), 3 * q, 1, tzinfo=UTC))
    if unit != "month":  # a month's name: its last day, this year's unless it is over
        month = MONTHS.split("|").index(unit) + 1
        day = datetime(day.year + (month < day.month), month, 1, tzinfo=UTC)
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


# A span of weekdays with no week named ("Swimming is Tuesday to Thursday", "she works Mon-Wed"): the days of each
# week it happens on. "I'm away Monday to Wednesday", "from next Monday to Wednesday" name one week.
_WEEKDAY_SPAN = re.compile(
    rf"(?<!\bthis )(?<!\bnext )(?<!\bcoming )(?<!\bfrom )\b({DAYS}|{SHORT_DAYS})\s*(?:-|\u2013|to|through|thru|till"
    rf"|until)\s*({DAYS}|{SHORT_DAYS})\b(?!\s+(?:next|this)\b)",
    re.IGNORECASE,
)
_ONE_WEEK = re.compile(
    r"\b(?:this|next|coming|last)\s+week\b|\b(?:i['\u2019]m|i am|we['\u2019]re|we are|i['\u2019]ll|we['\u2019]ll"
    rf"|will|today|tomorrow)\b|\b{_MONTH}|\d{{1,2}}[./]\d{{1,2}}",
    re.IGNORECASE,
)


def weekday_span(text: str) -> bool:
    """Whether `text` says something happens on a span of weekdays each week: the span with no week named and no
    one's stay or plan ("I'm off Monday to Wednesday") or date ("Tuesday to Thursday, 8-10 December") in it."""
    return _WEEKDAY_SPAN.search(text) is not None and _ONE_WEEK.search(text) is None


def before_date(
    text: str, span: tuple[int, int], read: tuple[datetime, str], dates: list[datetime]
) -> tuple[datetime, str]:
    """A weekday alone named after a date: the one in the six days up to that date when the date was given with
    its own weekday ("She lands Sat 5 Dec. I'm driving up Friday night": the writer counts in that week) or when
    it is "the Friday before"; otherwise the coming one, as "Exam 15 Dec. Revise Saturday" means. `span` is where
    the weekday is in `text`, `read` its day read forward, `dates` those read before it; `read` otherwise."""
    day, phrase = read
    lead = text[: span[0]]
    if (
        not dates
        or phrase.lower() not in DAYS.split("|")
        or re.search(r"\b(?:this|next|coming)\s*$", lead, re.I)
    ):
        return read
    date, weekday = dates[-1], DAYS.split("|").index(phrase.lower())
    week = list(_WEEK_OF.finditer(lead))
    if week and int(week[-1].group(1)) == date.day and not _DIGIT.search(lead, week[-1].end()):
        # "the week of 7 December, handover Monday": the weekday of the week named by its own day
        return date + timedelta(days=weekday - date.weekday()), phrase
    if the_one_before(text, span):
        return date - timedelta(days=(date.weekday() - weekday - 1) % 7 + 1), phrase
    own = DAYS.split("|")[date.weekday()]
    if not re.search(rf"\b(?:{own}|{own[:3]}|{own[:4]})\b", lead, re.I):
        return read
    near = date - timedelta(days=(date.weekday() - weekday) % 7)
    return (near, phrase) if near > day else read


# A week named by a day in it ("the week of 7 December", "w/c 14th", "week commencing Monday 4 Jan"): a weekday
# named after it is that week's.
_WEEK_OF = re.compile(
    r"\b(?:week\s+(?:of|commencing|beginning|starting)|w/c)\s+(?:the\s+)?(?:[a-z]{3,9}\s+)?(\d{1,2})(?:st|nd|rd|th)?\b",
    re.IGNORECASE,
)
_DIGIT = re.compile(r"\d")  # another date after the week's own day


# "the Friday before" (the date named): not "the Friday before the 12th", which names its own date.
_THE_ONE_BEFORE = re.compile(r"\s+before\b(?!\s+(?:the\s+)?\d)", re.IGNORECASE)


def the_one_before(text: str, span: tuple[int, int]) -> bool:
    """Whether the weekday at `span` in `text` is said as the one before a date ("the Friday before")."""
    before = re.search(r"\bthe\s+$", text[max(0, span[0] - 8) : span[0]], re.IGNORECASE)
    return before is not None and _THE_ONE_BEFORE.match(text, span[1]) is not None
