"""Dates a statement names that nobody has to act by (engram.lang.due): a date inside a condition ("if the van fails
again before Christmas we sell it", "in case the ferry is cancelled on the 19th", "falls ... bis Freitag") and the
day a state ends ("our fix ends 28 February", "the warranty runs until 14 March"). Either is a due day only when
the statement also asks something of the speaker outside the condition ("if it is not fixed by 9 Dec, book the
hire car", "the fix ends on 28 February, book a call before it does").

A condition runs from its word to the end of its clause: a comma, a semicolon, a full stop, "then", or the subject
of the clause it is the condition of ("if the van fails before Christmas we sell it"). A date that runs out
("the MOT runs out on 19 January", "the passport expires in March") is left due: what runs out is renewed."""

from __future__ import annotations

import re
from collections.abc import Callable

from engram.lang.instruction import owed
from engram.lang.timewords import DAYS

_CONDITION = re.compile(
    r"\b(?:if|unless|in case|in the event that|provided that|falls|sofern|au cas o[uù]|s['\u2019]ils?)\b",
    re.IGNORECASE,
)
_FIRST_WORD = re.compile(r"\s*\S+")
_CLAUSE_END = re.compile(
    r"[,;.!?:](?:\s|$)|\n|\bthen\b|\s(?=(?:I|we|you|they|he|she)(?:['\u2019](?:ll|re|ve|d|m|s))?\s)",
    re.IGNORECASE,
)
# What a state's last day follows ("ends on", "finishes at the end of", "runs until", "endet am", "läuft am").
_ENDS = re.compile(
    r"\b(?:ends?|ending|finish(?:es)?|runs?\s+(?:until|till|to)|lasts?\s+(?:until|till)|until|till|endet|läuft)"
    # "ends Friday 26 March"; and "January 2027" of "ends 31 January 2027", which a month's reader finds alone
    rf"\s+(?:on\s+|at\s+|am\s+|zum\s+)?(?:the\s+)?(?:(?:{DAYS}),?\s+(?:the\s+)?)?"
    r"(?:\d{1,2}(?:st|nd|rd|th)?\.?\s+)?$",
    re.IGNORECASE,
)
_PARTS = re.compile(r"[,;:]\s+|(?<=[.!?])\s+")
_SCREEN = re.compile(
    r"\b(?:if|unless|in case|in the event|provided|falls|sofern|au cas|s['\u2019]il|end|ends|ending|finish|finishes"
    r"|until|till|endet|läuft)\b",
    re.IGNORECASE,
)


def _never(_: int) -> bool:
    return False


def conditions(text: str) -> list[tuple[int, int]]:
    """Where each condition of `text` runs (its word to the end of its clause)."""
    spans = []
    for found in _CONDITION.finditer(text):
        first = _FIRST_WORD.match(text, found.end())  # its own subject: "if we ...", "unless I ..."
        end = _CLAUSE_END.search(text, found.end() if first is None else first.end())
        spans.append((found.start(), len(text) if end is None else end.start()))
    return spans


def waived(text: str) -> Callable[[int], bool]:
    """Whether a date named at a place in `text` is one nobody has to act by: inside a condition or the day a state
    ends, in a statement that asks nothing of the speaker outside its conditions."""
    if _SCREEN.search(text) is None:
        return _never
    spans = conditions(text)
    outside, last = [], 0
    for start, end in spans:
        outside.append(text[last:start])
        last = end + (text[end : end + 1] in ",;")
    # Asked in a clause of its own, too: "Skip hire ends on Friday, ring Sheffield Skips to extend it".
    rest = " ".join([*outside, text[last:]]).strip()
    if owed(rest) or any(owed(part) for part in _PARTS.split(rest[:2000])[1:] if part.strip()):
        return _never
    return lambda at: (
        any(start <= at < end for start, end in spans) or bool(_ENDS.search(text, max(0, at - 48), at))
    )
