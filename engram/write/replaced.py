"""A change told by what replaced the older value, however far apart the two embed: a thing moved to another
provider ("Switched my current account to Monzo" after "I bank with Barclays, current account and savings"), or
the older memory's time said to be no more beside the new one ("Getting the 7:12 now, the 6:50 got cancelled for
good" after "I get the 6:50 train to Leeds"). The words of such a change are mostly the new value's, so it sits
further from the older memory (cosine 0.3 to 0.45) than a change of one value in the older memory's words."""

from __future__ import annotations

import re

from engram.lang.text import stem, words
from engram.write.told import CHANGE, named_in, topic_of

# Cosine from which such a change is read: below it, even a sentence about the same kind of thing is another one.
REPLACED_AT = 0.3

# A thing switched, moved or transferred to a named provider: "Switched my current account to Monzo".
_SWITCHED = re.compile(
    r"\b(?:switch(?:ed)?|mov(?:ed|e)|transferr?(?:ed)?)\s+(?:over\s+)?(?:(?:my|our|the)\s+)?"
    r"((?:[^\W\d_][\w'\u2019-]*\s+){1,3}?)(?:over\s+)?to\s+((?-i:[A-Z])[\w'\u2019-]*)",
    re.IGNORECASE,
)
_TIME = re.compile(r"\b\d{1,2}[:.]\d{2}\b")
# A value said to be no more ("the 6:50 got cancelled", "the 7:40 doesn't run any more"), and words that say the
# new one holds from now on, not one day's ("for good", "now"): a train cancelled today is no change.
_GONE = re.compile(
    r"\b(?:cancell?ed|canceled|scrapped|axed|withdrawn|discontinued|stopped|(?:doesn['\u2019]t|does\s+not|don['\u2019]t"
    r"|no\s+longer)\s+(?:run|go|exist)s?)\b",
    re.IGNORECASE,
)
_FOR_GOOD = re.compile(
    r"\b(?:now|any\s?more|no\s+longer|for\s+good|permanently|these\s+days|from\s+now\s+on)\b", re.IGNORECASE
)
_CLAUSE = re.compile(r"[,;!?\n]|\.(?!\d)|\s[-\u2013]\s")
# The days one works, named as the schedule that gives them ("Rota changed: I'm now on Tue Wed Fri"), and said of
# one's own work ("I work Mon Wed Fri as a receptionist"); a weekday written whole or short.
_ROTA = re.compile(
    r"\b(?:rota|shifts?|schedule|timetable|working\s+(?:days|pattern|hours)|work\s+pattern)\b", re.IGNORECASE
)
_WORK = re.compile(r"\b(?:work(?:s|ing)?|job|shifts?|rota)\b", re.IGNORECASE)
_MINE = re.compile(r"\b(?:I|I['\u2019]m|my)\b")
# A weekday written whole ("Tuesdays"), cut ("tues", "weds", "thurs") or short and capitalised ("Tue Wed Fri": a
# short form in lower case is another word, "sat", "sun", "wed"); read as its first three letters.
_DAY = re.compile(
    r"\b(?:(mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)s?|(tue|wed|thu)(?:s|rs)"
    r"|(?-i:(Mon|Tue|Wed|Thu|Fri|Sat|Sun))(?:r|rs|s)?)\b",
    re.IGNORECASE,
)


def replaced_said(text: str) -> bool:
    """Whether `text` tells a change by what replaced the older value, so that it is read against neighbours
    from REPLACED_AT."""
    return (
        _SWITCHED.search(text) is not None
        or (
            _FOR_GOOD.search(text) is not None
            and _GONE.search(text) is not None
            and len(_TIME.findall(text)) >= 2
        )
        or _rota_said(text)
    )


def replaced(new: str, old: str) -> bool:
    """Whether `new` says the thing `old` says of moved to another named provider, the thing in `old`'s words
    and the provider `old` names another ("Switched my current account to Monzo" after "I bank with Barclays,
    current account ..."), or says `old`'s time is no more and gives another for good, or gives one's own working
    days anew where `old` says which days one works."""
    return _switched(new, old) or _time_gone(new, old) or _days_changed(new, old)


def _switched(new: str, old: str) -> bool:
    old_stems = {stem(w) for w in words(old)}
    old_names = named_in(old)
    for found in _SWITCHED.finditer(new):
        thing = topic_of(found.group(1), set())
        provider = words(found.group(2))
        if not thing or thing - old_stems or not provider or provider[0] in old_names:
            continue
        if provider[0] in named_in(new) and old_names - named_in(new):
            return True  # the older memory names the provider it was with, the newer another
    return False


def _time_gone(new: str, old: str) -> bool:
    if _FOR_GOOD.search(new) is None:
        return False
    had = set(_TIME.findall(old))
    gone = {t for c in _CLAUSE.split(new) if _GONE.search(c) for t in _TIME.findall(c)}
    return bool(gone & had) and bool(set(_TIME.findall(new)) - had)


def _days(text: str) -> frozenset[str]:
    """The weekdays `text` names, by their first three letters."""
    return frozenset(next(g for g in m.groups() if g).lower() for m in _DAY.finditer(text))


def _rota_said(text: str) -> bool:
    """Whether `text` says one's own work schedule changed and gives its days."""
    return bool(_ROTA.search(text) and CHANGE.search(text) and _MINE.search(text) and _days(text))


def _days_changed(new: str, old: str) -> bool:
    """Whether `new` gives one's own working days anew ("Dentist rota changed: I'm now on Tue Wed Fri from
    January") where `old` says on which days one works ("I work Mon Wed Fri as a receptionist"), naming no one
    `old` does not: someone else's rota is theirs."""
    return (
        _rota_said(new)
        and _WORK.search(old) is not None
        and _MINE.search(old) is not None
        and bool(_days(old))
        and _days(new) != _days(old)
        and not {n for n in named_in(new) - named_in(old) if not _DAY.fullmatch(n.title())}
    )
