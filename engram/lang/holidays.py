"""Holidays as days: the next Christmas, New Year or Easter a text names, for due days and due questions."""

from __future__ import annotations

import re
from datetime import UTC, datetime

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
