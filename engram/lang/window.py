"""The days a question about things to do asks for ("this week", "tomorrow", "in December", "what's overdue"),
read from when it is asked (engram.lang.due reads the day a reminder is due)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from engram.lang.holidays import holiday
from engram.lang.month_days import ordinal
from engram.lang.timewords import DAYS, MONTHS, SHORT_MONTHS, TimeRange, day_start, month_after, weekend
from engram.lang.weekday_dates import COUNTED, NUMBERS, days_in, resolve

# "the end of the month", "end of next week", "the end of November": the span it ends, up to its last day.
_END_OF = r"(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?"
_BEFORE_MAY = re.compile(r"\b(?:in|during|for|by|until|before|on)\s+$", re.IGNORECASE)
_WINDOW = re.compile(
    rf"\b({_END_OF}(?:week|month|next\s+week|next\s+month|{MONTHS})|today|tonight|tomorrow|this week|next week"
    r"|week\s+after\s+next"
    rf"|this month|next month|{DAYS}|{MONTHS})\b",
    re.IGNORECASE,
)
# A deadline missed or gone by, asked of whatever it was: "what have I missed the deadline on?", "let slip past its
# deadline".
_PAST_DEADLINE = r"(?:missed|miss|past|passed|blown|blew)\s+(?:(?:the|a|its|their|my|our|any)\s+)?deadlines?"
# "What's overdue", "anything I've forgotten to do?", a deadline gone by: the days before today.
_OVERDUE = re.compile(
    r"\b(?:overdue|past due|(?:forgotten|forgot|forget|missed)\s+(?:to\s+do|anything)|"
    + _PAST_DEADLINE
    + r"|(?:anything|something)\s+(?:i|we)(?:['\u2019]ve|\s+have)?\s+(?:forgotten|forgot|missed))\b",
    re.IGNORECASE,
)


def window(query: str, now: datetime) -> TimeRange | None:
    """The days a question about things to do asks for: today, tomorrow, this or next week (Monday to
    Sunday; "this week" asked on a Saturday or Sunday runs to the next one's end) or month, a weekend, a weekday (the next one, today included) or a month (the next one, this one
    included); "overdue" the days before today. "before" / "by" / "until" one of them asks for everything due from today up to it, that
    named day included ("send the report before Friday" is due on Friday, and "what is due before Friday" lists
    it), a named week or weekend not ("before next week" ends on Sunday)."""
    try:
        span = _window(query, now)
        if span is None and (said := _foreign(query)) is not None:
            read = _window(said[0], now)
            span = None if read is None else TimeRange(read.after, read.before, said[1])
    except (ValueError, OverflowError):  # asked as of the calendar's last days: no day comes after them
        return None
    if span is None or span.after is None:
        return span
    lead = query[: query.lower().rfind(span.phrase.lower())] if span.phrase else ""
    found = _UP_TO.search(lead)
    if found is None:
        return span
    today = day_start(now.astimezone(UTC))
    one_day = span.before is not None and span.before - span.after <= timedelta(days=1)
    ends = (
        re.match(_END_OF, span.phrase, re.IGNORECASE) is not None
    )  # "before the end of the month": all of it
    end = (
        span.after if found.group(1).lower() == "before" and not one_day and not ends else span.before
    )  # "before next week"
    return TimeRange(today, end, query[found.start() : len(lead) + len(span.phrase)])


# The days a German or Chinese question for things to do names, as English says them: "was steht diese Woche an?",
# "这周有什么要做的". A weekday or a date in them is read by engram.lang.foreign_dates for memories, not here.
_FOREIGN_DAYS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\büberfällig|\bverpasst|逾期|过期|超期", re.IGNORECASE), "overdue"),
    (re.compile(r"\b(?:dieses|am)\s+wochenende\b|这个?周末|周末", re.IGNORECASE), "this weekend"),
    (
        re.compile(
            r"\b(?:diese[nr]?|in\s+dieser)\s+woche\b|(?:这|本)个?(?:周|星期|礼拜)(?![一二三四五六日天])",
            re.IGNORECASE,
        ),
        "this week",
    ),
    (
        re.compile(
            r"\b(?:nächste[nr]?|kommende[nr]?|in\s+der\s+nächsten)\s+woche\b|下个?(?:周|星期|礼拜)(?![一二三四五六日天])",
            re.IGNORECASE,
        ),
        "next week",
    ),
    (re.compile(r"\b(?:diese[nmr]?|in\s+diesem)\s+monat\b|这个月|本月", re.IGNORECASE), "this month"),
    (
        re.compile(r"\b(?:nächste[nmr]?|kommende[nmr]?|im\s+nächsten)\s+monat\b|下个?月", re.IGNORECASE),
        "next month",
    ),
    (re.compile(r"\bheute\b|今天|今日|今晚", re.IGNORECASE), "today"),
    (re.compile(r"(?<!heute )(?<!am )\bmorgen\b(?!s)|明天", re.IGNORECASE), "tomorrow"),
)


def _foreign(query: str) -> tuple[str, str] | None:
    """The English for the days a German or Chinese question names, and the words it names them with."""
    for pattern, english in _FOREIGN_DAYS:
        if (found := pattern.search(query)) is not None:
            return english, found.group(0)
    return None


# "in the next ten days", "within two weeks", "over the coming week": from today to that day.
_COUNTS = NUMBERS | {
    "eight": 8,
    "nine": 9,
    "eleven": 11,
    "twelve": 12,
    "fourteen": 14,
    "twenty": 20,
    "thirty": 30,
}
_WITHIN = re.compile(
    rf"\b(?:(?:in|over|during|for)\s+the\s+(?:next|coming)|within(?:\s+the\s+next)?)\s+(?:({'|'.join(_COUNTS)}|\d{{1,3}})\s+)?"
    r"(days?|weeks?|fortnights?)\b",
    re.IGNORECASE,
)


# "before Friday", "by the weekend", "until next week": the word that makes a window run from today.
_UP_TO = re.compile(r"\b(before|by|until|till)\s+(?:the\s+|this\s+|next\s+)?$", re.IGNORECASE)


# A day of a month in a question ("on 24 December", "before Dec 3rd"): that day, read forward.
_CALENDAR_DAY = re.compile(
    rf"\b(?:(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({MONTHS}|{SHORT_MONTHS})|({MONTHS}|{SHORT_MONTHS})\.?\s+"
    rf"(\d{{1,2}})(?:st|nd|rd|th)?)\b",
    re.IGNORECASE,
)


# A day of the month alone, ending the question or before its time ("what's due on the 30th?", "by the 3rd at 9"):
# "the 3rd floor" names none.
_DAY_ALONE = re.compile(
    r"\b(?:on|by|before|until|till|for|due)\s+the\s+((\d{1,2})(?:st|nd|rd|th))(?=\s*(?:[?.!,;]|$|(?:at|and|or)\b))",
    re.IGNORECASE,
)


def _calendar_day(query: str, now: datetime) -> tuple[datetime, str] | None:
    """The day a question names by its date, its day of the month alone (this month's, or the next month's once
    past) or a holiday, the next one (today included)."""
    today = day_start(now.astimezone(UTC))
    found = _CALENDAR_DAY.search(query)
    if found is None and (alone := _DAY_ALONE.search(query)) is not None:
        return ordinal(int(alone.group(2)), today), alone.group(1)
    if found is None:
        return holiday(query, now)
    name = (found.group(2) or found.group(3)).lower()
    number = int(found.group(1) or found.group(4))
    month = next(i for i, m in enumerate(MONTHS.split("|"), 1) if m.startswith(name[:3]))
    for year in (today.year, today.year + 1):
        try:
            day = datetime(year, month, number, tzinfo=UTC)
        except ValueError:  # the 31st of a shorter month
            return None
        if day >= today:
            return day, found.group(0)
    return None


def _window(query: str, now: datetime) -> TimeRange | None:
    if (late := _OVERDUE.search(query)) is not None:
        return TimeRange(None, day_start(now.astimezone(UTC)), late.group(0))
    if (end := weekend(query, now)) is not None:
        if end.after is None:  # "before the weekend": the weekend itself is the window here
            assert end.before is not None
            return TimeRange(end.before, end.before + timedelta(days=2), "weekend")
        return TimeRange(end.after, end.before, "weekend")
    today = day_start(now.astimezone(UTC))
    counted = COUNTED.search(query)
    if (
        counted is not None
        and any(counted.group(g) for g in (5, 10, 13, 14, 16, 17))
        and (day := resolve(counted, today)) is not None
    ):
        # "the second Tuesday of next month": that day, not the next Tuesday nor the whole month
        return TimeRange(day, day + timedelta(days=1), counted.group(0))
    if (within := _WITHIN.search(query)) is not None:
        days = days_in(within.group(1), within.group(2), _COUNTS)
        return TimeRange(today, today + timedelta(days=days + 1), within.group(0))
    if (named := _calendar_day(query, now)) is not None:
        return TimeRange(named[0], named[0] + timedelta(days=1), named[1])
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
    phrase = re.sub(rf"^{_END_OF}", "", found.group(1).lower())
    phrase = {"week": "this week", "month": "this month"}.get(phrase, re.sub(r"\s+", " ", phrase))
    monday = today - timedelta(days=today.weekday())
    first = today.replace(day=1)
    next_first = month_after(first)
    spans = {
        "today": (today, today + timedelta(days=1)),
        "tonight": (today, today + timedelta(days=1)),
        "tomorrow": (today + timedelta(days=1), today + timedelta(days=2)),
        # Asked at the weekend, the week ahead is the one meant too: its last two days are all that is left.
        "this week": (monday, monday + timedelta(days=14 if today.weekday() >= 5 else 7)),
        "next week": (monday + timedelta(days=7), monday + timedelta(days=14)),
        "week after next": (monday + timedelta(days=14), monday + timedelta(days=21)),
        "this month": (first, next_first),
        "next month": (next_first, month_after(next_first)),
    }
    if phrase in spans:
        after, before = spans[phrase]
    elif phrase in DAYS.split("|"):
        day = today + timedelta(days=(DAYS.split("|").index(phrase) - today.weekday()) % 7)
        if day == today and re.search(r"\bnext\s+$", query[: found.start()], re.IGNORECASE):
            day += timedelta(days=7)  # "next Tuesday" asked on a Tuesday: not today
        after, before = day, day + timedelta(days=1)
    else:
        month = MONTHS.split("|").index(phrase) + 1
        year = today.year + (month < today.month)
        after = datetime(year, month, 1, tzinfo=UTC)
        before = month_after(after)
    return TimeRange(after, before, found.group(1))
