"""Natural-language time in queries: "last week", "in March", "2 days ago", "before the launch", 上周, 三天前.

dateparser reads the date expressions ("3 May", "2024-01-05", "2 days ago") relative to now; a small grammar
handles the range words (since, after, before, in, during, last, past, this). "last week" is the previous calendar
week, Monday to Monday; "last Saturday" the latest Saturday before today; "a week ago" the week around the day seven
days back (an "ago" is as precise as its unit); a named date wins over "recently". Chinese time words are read as
the English phrase for them. dateparser is consulted only when a cheap pre-screen finds a time-like word.
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

import dateparser  # type: ignore[import-untyped]

from engram.lang.text import HAN


@dataclass(frozen=True, slots=True)
class TimeRange:
    after: datetime | None  # inclusive
    before: datetime | None  # exclusive
    phrase: str

    def contains(self, moment: datetime) -> bool:
        return (self.after is None or moment >= self.after) and (self.before is None or moment < self.before)


MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
SHORT_MONTHS = "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
# The working days written short ("Tues 5pm", "Mon Wed Fri"); "sat" and "sun" are also words of their own.
SHORT_WORKDAYS = "mon|tues?|weds?|thu|thurs?|fri"
SHORT_DAYS = f"{SHORT_WORKDAYS}|sat|sun"
SEASONS = "spring|summer|autumn|fall|winter"
DATE = re.compile(
    rf"\b(\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{MONTHS}|{SHORT_MONTHS})\b"
    rf"|(?:{MONTHS}|{SHORT_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+\d{{4}})?|(?:{DAYS})|tomorrow|today|tonight"
    rf"|(?:before|by|until|in|on|during)\s+(?:{MONTHS})(?!\.?\s+\d)"  # not "before April 10": that is April 10
    rf"|end of (?:the |this |next )?(?:day|week\b|month|year\b|quarter|q[1-4]\b|{MONTHS})|next week\b|next month"
    r"|(?:the |this |next )?(?:month|quarter|year)[- ]end\b"  # "by month end"
    r"|(?<![\d.])(?:\d{1,2}\.\d{1,2}\.\d{4}|\d\d\.\d\d\.\d\d)(?![\d.]))",  # day.month.year (not a version)
    re.IGNORECASE,
)
DOTTED = re.compile(r"\d\.\d{1,2}\.\d")  # a day.month.year date: read day first
_HAN = re.compile(f"[{HAN}]")
_SCREEN = re.compile(
    rf"\b(yesterday|today|tonight|week|weekend|month|year|recently|ago|since|before|after|during|in|on|past|last|this"
    rf"|{MONTHS}|{SHORT_MONTHS}|{DAYS}|{SEASONS}|\d{{4}}|\d{{1,2}}/\d{{1,2}})\b",
    re.IGNORECASE,
)
_UNIT = {"day": 1, "days": 1, "week": 7, "weeks": 7, "month": 30, "months": 30, "year": 365, "years": 365}
_NUM_WORDS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "ten": 10}
_POINT = (
    rf"(?:\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTHS}|{SHORT_MONTHS})(?:\s+\d{{4}})?"
    rf"|(?:{MONTHS}|{SHORT_MONTHS})(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?(?:,?\s+\d{{4}})?|\d{{4}}|{DAYS}|yesterday|today"
    r"|\d{1,2}(?:st|nd|rd|th)(?!\s+[a-z]))"  # "on the 24th", not "on the 3rd floor"
)
_RANGE = re.compile(rf"\b(since|after|before|in|during|on)\s+(?:the\s+)?({_POINT})\b", re.IGNORECASE)
_AGO = re.compile(
    r"\b(\d+|a|one|two|three|four|five|six|seven|ten)\s+(days?|weeks?|months?|years?)\s+ago\b", re.I
)
_PAST = re.compile(
    r"\b(?:over\s+|in\s+|during\s+)?the\s+(?:past|last)\s+(\d+|two|three|four|five|six|seven|ten)?\s*"
    r"(days?|weeks?|months?|years?)\b",
    re.IGNORECASE,
)
_RELATIVE = re.compile(r"\b(yesterday|today|recently|(?:last|this|previous)\s+(?:week|month|year))\b", re.I)
_LAST_DAY = re.compile(rf"\b(?:last|previous)\s+({DAYS})\b", re.IGNORECASE)
_WEEKEND = re.compile(
    r"\b(?:(before|by|until|till|after|since)\s+)?(?:over\s+|on\s+|at\s+)?(the|this|last|previous|next)"
    r"\s+weekend\b(?!\s+of\b)",  # "the weekend of 5 December" is that date's
    re.IGNORECASE,
)

# "last summer", "this winter", "in the spring", "during the autumn of 2023", "summer 2021": the seasons of the
# northern hemisphere by month (spring March to May, summer June to August, autumn September to November, winter
# December to February). "fall" only after a word that makes it a season ("in the fall", "last fall").
_SEASON = re.compile(
    r"\b(?:(this|last|previous)\s+|(?:in|during|over|through)\s+(?:the\s+)?)(spring|summer|autumn|fall|winter)"
    r"(?:\s+(?:of\s+)?(\d{4}))?\b|\b(spring|summer|autumn|winter)(?:\s+of)?\s+(\d{4})\b",
    re.IGNORECASE,
)
_NAME = re.compile(r"[A-Z]\w*\s+[A-Z]")
_SEASON_START = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}


def season(query: str, now: datetime) -> TimeRange | None:
    """The season a phrase names, three months. With a year, that year's (winter: the one its January is in);
    "last" the latest one that has ended; otherwise the latest one begun by now (memories are of the past)."""
    # A capitalised season before another capitalised word is a name ("the Spring Fling Market").
    m = next((m for m in _SEASON.finditer(query) if not _NAME.match(query, m.start(2 if m[2] else 4))), None)
    if m is None:
        return None
    which = (m.group(1) or "").lower()
    name = (m.group(2) or m.group(4)).lower()
    year = m.group(3) or m.group(5)
    month = _SEASON_START[name]

    def starting(in_year: int) -> datetime:
        return datetime(in_year, month, 1, tzinfo=UTC)

    def ending(start: datetime) -> datetime:
        return month_after(month_after(month_after(start)))

    if year is not None:
        start = starting(int(year) - 1 if month == 12 else int(year))
    else:
        start = starting(now.year)
        if start > now:
            start = starting(now.year - 1)
        if which in ("last", "previous") and ending(start) > now:
            start = starting(start.year - 1)
    return TimeRange(start, ending(start), m.group(0))


def weekend(query: str, now: datetime) -> TimeRange | None:
    """The weekend a phrase names, Saturday to Monday. "The weekend" on a Monday or Tuesday is the one just
    past ("what did I do over the weekend?"), later in the week the coming one; "this weekend" is the current or
    coming one; "last" and "next" the ones either side of it. "before" / "by" / "until" end at its Saturday,
    "after" / "since" start at its Monday."""
    m = _WEEKEND.search(query)
    if m is None:
        return None
    today = day_start(now.astimezone(UTC))
    which, relation = m.group(2).lower(), (m.group(1) or "").lower()
    coming = today + timedelta(days=(5 - today.weekday()) % 7 if today.weekday() <= 5 else -1)
    if which == "the" and not relation and today.weekday() in (0, 1):
        coming -= timedelta(days=7)
    shift = {"last": -7, "previous": -7, "next": 7}.get(which, 0)
    saturday = coming + timedelta(days=shift)
    monday = saturday + timedelta(days=2)
    if relation in ("before", "by", "until", "till"):
        return TimeRange(None, saturday, m.group(0))
    if relation in ("after", "since"):
        return TimeRange(monday, None, m.group(0))
    return TimeRange(saturday, monday, m.group(0))


def day_start(value: datetime) -> datetime:
    return value.replace(hour=0, minute=0, second=0, microsecond=0)


def month_after(first: datetime) -> datetime:
    """The first day of the month after the one `first` (a month's first day) begins."""
    return first.replace(year=first.year + first.month // 12, month=first.month % 12 + 1)


def _parse(text: str, now: datetime) -> datetime | None:
    settings: Any = {
        "PREFER_DATES_FROM": "past",
        "RETURN_AS_TIMEZONE_AWARE": True,
        "RELATIVE_BASE": now.replace(tzinfo=None),
        "TIMEZONE": "UTC",
        "TO_TIMEZONE": "UTC",
        "PREFER_DAY_OF_MONTH": "first",
    }
    settings |= {"DATE_ORDER": "DMY"} if DOTTED.search(text) else {}
    parsed = dateparser.parse(text, languages=["en"], settings=settings)
    return None if parsed is None else parsed.astimezone(UTC)


def _span(point: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The period a date expression names: a year, a month, or a day."""
    p = point.strip().lower()
    if re.fullmatch(r"\d{4}", p):
        return datetime(int(p), 1, 1, tzinfo=UTC), datetime(int(p) + 1, 1, 1, tzinfo=UTC)
    month_only = re.fullmatch(rf"({MONTHS}|{SHORT_MONTHS})(?:,?\s+(\d{{4}}))?", p)
    if month_only:
        parsed = _parse(f"1 {month_only.group(1)} {month_only.group(2) or ''}".strip(), now)
        if parsed is None:
            return None
        start = day_start(parsed).replace(day=1)
        start = start.replace(year=start.year - 1) if start > now else start
        return start, month_after(start)
    if (alone := re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)", p)) is not None:  # the latest 24th; the 45th none
        number = int(alone[1])
        month = (day_start(now).replace(day=1) - timedelta(days=int(number > now.day))).replace(day=1)
        while 0 < number < 32 and number > monthrange(month.year, month.month)[1]:  # 31st on 15 Dec: 31 Oct
            month = (month - timedelta(days=1)).replace(day=1)
        return ((start := month.replace(day=number)), start + timedelta(days=1)) if 0 < number < 32 else None
    parsed = _parse(p, now)
    if parsed is None:
        return None
    start = day_start(parsed)
    return start, start + timedelta(days=1)


# Chinese time words, as the English phrase the grammar below reads.
_CN_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}
_CN_NUMBER = r"(?<!\d)\d{1,3}|[零一二两三四五六七八九十]{1,3}"  # (not the end of a year: 2024年以前)
_CN_UNIT = {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "年": "year",
}
_CN_WEEKDAY = dict(zip("一二三四五六日", DAYS.split("|"), strict=True)) | {"天": "sunday"}
_CN_SPANS = {
    "昨天": "yesterday",
    "前天": "2 days ago",
    "今天": "today",
    "最近": "recently",
    "近来": "recently",
    "去年": "last year",
    "今年": "this year",
    "上个月": "last month",
    "上月": "last month",
    "这个月": "this month",
    "本月": "this month",
}
_CN_UNITS = "天|日|周|星期|礼拜|月|年"
_CN_RULES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (
        re.compile(rf"({_CN_NUMBER})\s*个?\s*({_CN_UNITS})(?:以)?前"),
        lambda m: f"{_cn_number(m[1])} {_CN_UNIT[m[2]]}s ago",
    ),
    (
        re.compile(rf"(?:过去|最近)的?({_CN_NUMBER})?\s*个?\s*({_CN_UNITS})"),
        lambda m: f"the past {_cn_number(m[1]) if m[1] else 1} {_CN_UNIT[m[2]]}s",
    ),
    (re.compile(r"上个?(?:周|星期|礼拜)([一二三四五六日天])"), lambda m: f"last {_CN_WEEKDAY[m[1]]}"),
    (re.compile(r"上个?(?:周|星期|礼拜)"), lambda m: "last week"),
    (re.compile(r"(?:这|本)个?(?:周|星期|礼拜)"), lambda m: "this week"),
    (re.compile("|".join(_CN_SPANS)), lambda m: _CN_SPANS[m[0]]),
    (
        re.compile(rf"(\d{{4}})年(?:({_CN_NUMBER})月(?:({_CN_NUMBER})[日号])?)?(以来|之后|以后|之前|以前)?"),
        lambda m: _cn_point(m[4], _cn_maybe(m[3]), _cn_maybe(m[2]), int(m[1])),
    ),
    (
        re.compile(
            rf"(?<![个这本上下])({_CN_NUMBER})月份?(?:({_CN_NUMBER})[日号])?(以来|之后|以后|之前|以前)?"
        ),
        lambda m: _cn_point(m[3], _cn_maybe(m[2]), _cn_number(m[1]), None),
    ),
)


def _cn_number(text: str) -> int:
    """12, 十二, 二十一, 两."""
    if text.isdigit():
        return int(text)
    tens, _, ones = text.partition("十")
    if "十" not in text:
        return _CN_DIGITS[text[-1]]
    return (_CN_DIGITS[tens] if tens else 1) * 10 + (_CN_DIGITS[ones] if ones else 0)


def _cn_maybe(text: str | None) -> int | None:
    return None if text is None else _cn_number(text)


def _cn_point(relation: str | None, day: int | None, month: int | None, year: int | None) -> str:
    """A date named in Chinese, as "in March 2024", "on 5 March", "since 2023" ..."""
    if not (month is None or 1 <= month <= 12) or not (day is None or 1 <= day <= 31):
        raise KeyError(month, day)  # 十三月: no date
    named = " ".join(str(p) for p in (day, MONTHS.split("|")[month - 1] if month else None, year) if p)
    word = {"以来": "since", "之后": "after", "以后": "after", "之前": "before", "以前": "before"}.get(
        relation or ""
    )
    return f"{word or ('on' if day else 'in')} {named}"


def _chinese_time(query: str) -> tuple[str, str] | None:
    """The first Chinese time expression of `query`, and the English phrase for it."""
    for pattern, english in _CN_RULES:
        m = pattern.search(query)
        if m is not None:
            try:
                return english(m), m[0]
            except KeyError:
                continue  # 十五十, 十三月 and the like: no number, no date
    return None


@lru_cache(maxsize=64)  # an agent asks the same question again; dateparser costs milliseconds
def time_range(query: str, now: datetime) -> TimeRange | None:
    """The period `query` names, if any. One past the dates Python holds (years 1 to 9999: "5000 years ago",
    "in 9999", "the last 99999999999 days") names no time a memory can have been stored in: none."""
    try:
        return _time_range(query, now)
    except (OverflowError, ValueError):
        return None


def _time_range(query: str, now: datetime) -> TimeRange | None:
    if _HAN.search(query) is not None and (chinese := _chinese_time(query)) is not None:
        read = time_range(chinese[0], now)
        return None if read is None else TimeRange(read.after, read.before, chinese[1])
    if not _SCREEN.search(query):
        return None
    now = now.astimezone(UTC)
    today = day_start(now)
    m = _AGO.search(query)
    if m:
        n = int(m.group(1)) if m.group(1).isdigit() else _NUM_WORDS[m.group(1).lower()]
        unit = _UNIT[m.group(2).lower()]
        point = today - timedelta(days=n * unit)
        # As precise as its unit: "2 days ago" is that day, "a week ago" the week around that day.
        return TimeRange(
            point - timedelta(days=unit // 2), point + timedelta(days=unit - unit // 2), m.group(0)
        )
    m = _PAST.search(query)
    if m:
        n = (
            1
            if not m.group(1)
            else (int(m.group(1)) if m.group(1).isdigit() else _NUM_WORDS[m.group(1).lower()])
        )
        return TimeRange(now - timedelta(days=n * _UNIT[m.group(2).lower()]), None, m.group(0))
    if (span := weekend(query, now)) is not None:
        return span
    if (span := season(query, now)) is not None:
        return span
    m = _LAST_DAY.search(query)
    if m:
        # The latest such weekday before today: "last Saturday" said on a Sunday is yesterday.
        back = (today.weekday() - DAYS.split("|").index(m.group(1).lower())) % 7 or 7
        day = today - timedelta(days=back)
        return TimeRange(day, day + timedelta(days=1), m.group(0))
    m = _RELATIVE.search(query)
    if m and m.group(1).lower() == "recently":
        # A named date is the more specific ("what did she bake recently, in May 2022?"): it wins.
        named = _named(query, now)
        if named is not None:
            return named
    if m:
        word = " ".join(m.group(1).lower().replace("previous", "last").split())
        monday = today - timedelta(days=today.weekday())
        first = today.replace(day=1)
        spans = {
            "yesterday": (today - timedelta(days=1), today),
            "today": (today, today + timedelta(days=1)),
            "recently": (now - timedelta(days=14), None),
            "this week": (monday, None),
            "last week": (monday - timedelta(days=7), monday),
            "this month": (first, None),
            "last month": ((first - timedelta(days=1)).replace(day=1), first),
            "this year": (today.replace(month=1, day=1), None),
            "last year": (today.replace(year=today.year - 1, month=1, day=1), today.replace(month=1, day=1)),
        }
        return TimeRange(*spans[word], m.group(0))
    return _named(query, now)


# A part of the day in the plural after a weekday: that day of every week ("on Friday nights", "Sunday mornings").
_EVERY_PART = re.compile(r"\s+(?:mornings|afternoons|evenings|nights|lunchtimes)\b", re.IGNORECASE)


def _named(query: str, now: datetime) -> TimeRange | None:
    """A period named by a date after since, after, before, in, during or on ("in March", "on 7 July")."""
    for m in _RANGE.finditer(query):
        word, point = m.group(1).lower(), m.group(2)
        if _EVERY_PART.match(query, m.end()) is not None:
            continue  # "on Friday nights" is every Friday night, as "on Fridays" is
        if (
            word in ("in", "during", "on")
            and re.fullmatch(rf"{DAYS}", point.lower()) is None
            and not re.search(r"\d", point)
            and point.lower() not in MONTHS.split("|")
        ):
            continue  # "in may" is a month; "on march" is rare; a lone word after "in" must be a month
        if point.lower() == "may" and word not in ("in", "during", "since", "before", "after"):
            continue
        span = _span(point, now)
        if span is None:
            continue
        start, end = span
        bounds: dict[str, tuple[datetime | None, datetime | None]] = {
            "since": (start, None),
            "after": (end, None),
            "before": (None, start),
        }
        return TimeRange(*bounds.get(word, (start, end)), m.group(0))
    return None
