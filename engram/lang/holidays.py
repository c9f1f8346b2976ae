"""Holidays as days: the next Christmas, New Year or Easter a text names, for due days and due questions."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from engram.lang.timewords import day_start

# Holidays with a fixed day (month, day); Easter is computed. A date of the Western calendar, as dateparser's are.
_FIXED_HOLIDAYS = {
    "christmas eve": (12, 24),
    "christmas day": (12, 25),
    "christmas": (12, 25),
    "xmas": (12, 25),
    "boxing day": (12, 26),
    "new year's eve": (12, 31),
    "new years eve": (12, 31),
    "new year's day": (1, 1),
    "new years day": (1, 1),
    "new year": (1, 1),
    "halloween": (10, 31),
    "valentine's day": (2, 14),
    "valentines day": (2, 14),
}
_HOLIDAY = re.compile(
    r"\b(" + "|".join(re.escape(h).replace("'", "['\u2019]?") for h in _FIXED_HOLIDAYS) + r"|easter)\b",
    re.IGNORECASE,
)


def without_holidays(text: str) -> str:
    """`text` with each holiday it names ("New Year", "Boxing Day", "Valentine's Day") as a lower-case "holiday":
    a holiday names when, not whom, though its words are capitalised as names are."""
    return _HOLIDAY.sub("holiday", text)


def holiday(text: str, now: datetime) -> tuple[datetime, str] | None:
    """The next day (today included) of the first holiday `text` names ("for Christmas", "before Easter"),
    and the phrase naming it."""
    m = _HOLIDAY.search(text)
    if m is None:
        return None
    from dateutil.easter import easter  # type: ignore[import-untyped]  # dateparser's own dependency

    name = m.group(1).lower().replace("\u2019", "'")
    today = day_start(now.astimezone(UTC))
    for year in (today.year, today.year + 1):
        if name == "easter":
            day = easter(year)
            when = datetime(day.year, day.month, day.day, tzinfo=UTC)
        else:
            month, dom = _FIXED_HOLIDAYS.get(name) or _FIXED_HOLIDAYS[name.replace("'", "")]
            when = datetime(year, month, dom, tzinfo=UTC)
        if when >= today:
            return when, m.group(1)
    return None


# "the Thursday before Easter": a weekday said as the last one before a holiday named right after it.
_BEFORE_HOLIDAY = re.compile(rf"\s+before\s+(?:the\s+)?(?={_HOLIDAY.pattern})", re.IGNORECASE)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def weekday_before(text: str, span: tuple[int, int], now: datetime) -> datetime | None:
    """The day the weekday at `span` in `text` names when it is "the <weekday> before <holiday>": the last such
    weekday before the holiday's next day from `now`. None when it is said otherwise."""
    weekday = text[span[0] : span[1]].lower()
    after = _BEFORE_HOLIDAY.match(text, span[1])
    if weekday not in _WEEKDAYS or after is None or not re.search(r"\bthe\s+$", text[: span[0]], re.I):
        return None
    back = 0
    for _ in range(2):  # the next holiday, or the one after when this one's weekday before has passed
        if (found := holiday(text[after.end() :], now + timedelta(days=back))) is None:
            return None
        day = found[0] - timedelta(days=(found[0].weekday() - _WEEKDAYS.index(weekday) - 1) % 7 + 1)
        if day >= day_start(now.astimezone(UTC)):
            return day
        back = (found[0] - now).days + 1
    return None
