"""The part of the day a clock time falls in: "physio every Monday at 2pm" is an afternoon's, so a question about
"Monday afternoons" finds it though it never says the word."""

from __future__ import annotations

import re
from functools import lru_cache

from engram.lang.text import stem

# A time said with am or pm ("2pm", "10.30 am", "7:15pm"), or on the 24-hour clock where it cannot be a 12-hour one:
# an hour past 12 ("14:00", "19.30") or written with a leading nought ("07:40"). "at 6.30" could be either: none.
_TIME = re.compile(
    r"(?<![\w.:£$€])(\d{1,2})(?:[:.](\d{2}))?\s?([ap])\.?m\b\.?"
    r"|(?<![\w.:£$€])(0\d|1[3-9]|2[0-3])[:.h]([0-5]\d)(?![\d.:])",
    re.IGNORECASE,
)
# The hours each part of the day spans, from (inclusive) to (exclusive); an evening's first hour is also the
# afternoon's, a night's first hours the evening's.
_PARTS = {
    "morning": ((5, 12),),
    "afternoon": ((12, 18),),
    "evening": ((17, 23),),
    "night": ((21, 24), (0, 5)),
}
PART_STEMS = frozenset(stem(p) for p in _PARTS)


def hours(text: str) -> list[int]:
    """The hours of the day, 0-23, of the clock times `text` says."""
    found: list[int] = []
    for m in _TIME.finditer(text):
        if m.group(3):
            hour = int(m.group(1))
            if not 1 <= hour <= 12:
                continue
            found.append(hour % 12 + (12 if m.group(3).lower() == "p" else 0))
        else:
            found.append(int(m.group(4)))
    return found


@lru_cache(maxsize=4096)
def parts_told(text: str) -> frozenset[str]:
    """The stems of the parts of the day ("morn", "afternoon", "even", "night") in which `text`'s clock times fall."""
    return frozenset(
        stem(part)
        for hour in hours(text)
        for part, spans in _PARTS.items()
        if any(start <= hour < end for start, end in spans)
    )
